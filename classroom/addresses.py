"""Where learners' devices open the app: the address that a join link and its QR code carry.

A teacher's browser often shows ``http://localhost:8501/``, which opens nothing on a phone.
:func:`choose` picks, from what the server knows of the teacher's request, an address that a
learner's device can open, in this order:

1. the ``ATTENTION_PUBLIC_URL`` setting, when it is an http(s) address (a value that is not is
   kept in :attr:`JoinAddress.refused`, for the teacher to read, and the rules below decide);
2. the address the teacher's browser used (behind a proxy, on a hosted demo), unless it names
   this machine itself (``localhost``, ``127.0.0.1``, ``::1``);
3. this machine's network address, with the port and path the browser used: the address
   ``streamlit run`` prints as its "Network URL" (``streamlit.net_util.get_internal_ip``), or
   the one address the server listens on (behind deploy/serve.sh's nginx, the address nginx
   listens on, which it says in the ``X-Attention-Listen`` header);
4. else the browser's own address, marked as one that no other device can open.

Pure: no Streamlit and no sockets (``ui.session.joining`` reads them and passes them in).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

PUBLIC_URL = "ATTENTION_PUBLIC_URL"  # the environment variable of rule 1
SETTING, BROWSER, NETWORK, LOOPBACK = "setting", "browser", "network", "loopback"
URL_LIMIT = 300  # characters of an address; a QR code of more is hard to scan from a seat
WILDCARDS = frozenset({"", "0.0.0.0", "::"})  # listening on every address, as Streamlit does
# Headers that a proxy adds (deploy/nginx.conf.in sets X-Forwarded-For and -Proto): the
# server's own listening address then says nothing about what the room can reach.
FORWARDED = ("forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip")
LISTEN_HEADER = "x-attention-listen"  # the address a proxy in front listens on (nginx.conf.in)
_HOST_HEADER = re.compile(r"^[A-Za-z0-9._:\[\]-]{1,300}$")  # a name or [address], and a port
_HOST_NAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]*)(\.[A-Za-z0-9_-]+)*\.?$")
_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class Request:
    """What the server knows of how the teacher's browser reached it."""

    url: str | None = None  # the browser's address bar (st.context.url), with the page's path
    headers: Mapping[str, str] = field(default_factory=dict)  # the request's, names in any case
    page_paths: frozenset[str] = frozenset()  # the pages' paths, taken off the url's end
    base_path: str = ""  # server.baseUrlPath: the app's path when the url is unknown
    server_port: int = 8501  # server.port
    tls: bool = False  # the server itself speaks https (server.sslCertFile)
    listen: str = ""  # server.address when set; "" listens on every address


@dataclass(frozen=True)
class JoinAddress:
    """The address of the app for a join link: ``root`` ends with "/" (``?class=…`` follows)."""

    root: str
    source: str  # SETTING, BROWSER, NETWORK or LOOPBACK: which rule chose it
    refused: str = ""  # the ATTENTION_PUBLIC_URL value that is no http(s) address
    listens_locally: bool = False  # the server accepts connections from this machine only

    @property
    def reachable(self) -> bool:
        """Whether another device may open it (False: only this machine can)."""
        return self.source != LOOPBACK

    def link(self, query: str) -> str:
        """The app's address with ``query`` (e.g. "class=K7RM3Q")."""
        return f"{self.root}?{query}" if query else self.root


@dataclass(frozen=True)
class _Seen:
    scheme: str
    host: str  # a name or an address, without brackets
    port: int | None
    path: str  # starts and ends with "/"


def choose(request: Request, network: Sequence[str] = (), public_url: str = "") -> JoinAddress:
    """The address for join links (the module's docstring gives the rules, in order).

    Args:
        request: how the teacher's browser reached the server.
        network: this machine's network addresses, the preferred first (IPv4, then IPv6).
        public_url: the ``ATTENTION_PUBLIC_URL`` setting ("" when it is not set).

    Returns:
        The address, which rule chose it, and what the teacher should be told.
    """
    refused = ""
    if public_url.strip():
        root = read_public_url(public_url)
        if root is not None:
            return JoinAddress(root, SETTING)
        refused = public_url
    seen = _browser(request)
    if not is_loopback(seen.host):
        return JoinAddress(_root(seen), BROWSER, refused)
    listen = _listening(request, seen)
    if listen not in WILDCARDS:
        if is_loopback(listen):  # streamlit run --server.address 127.0.0.1, or its nginx
            return JoinAddress(_root(seen), LOOPBACK, refused, listens_locally=True)
        network = (listen,)
    for host in network:
        if _usable(host):
            found = _Seen(seen.scheme, host.strip("[]"), seen.port, seen.path)
            return JoinAddress(_root(found), NETWORK, refused)
    return JoinAddress(_root(seen), LOOPBACK, refused)


def read_public_url(text: str) -> str | None:
    """``text`` as the root of the app's address ("https://host/path/"), or None when it is not
    an http(s) address: a scheme other than http or https, no host or a malformed one, a bad
    port, a user name or password, a query or fragment, spaces, or over ``URL_LIMIT``."""
    text = text.strip()
    seen = _parse(text)
    if seen is None:
        return None
    parts = urlsplit(text)
    if parts.query or parts.fragment or text.endswith(("?", "#")) or "@" in parts.netloc:
        return None
    return _root(seen)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (no other device reaches it by that name)."""
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    address = _ip(name)
    if address is None:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    address = mapped or address
    return address.is_loopback or address.is_unspecified


def _browser(request: Request) -> _Seen:
    """Where the teacher's browser is: its address bar; else the request's Host headers;
    else this server's own port on localhost."""
    if request.url:
        seen = _parse(request.url)
        if seen is not None:
            return _without_page(seen, request.page_paths)
    headers = {name.lower(): value for name, value in request.headers.items()}
    host = _first(headers.get("x-forwarded-host", "")) or _first(headers.get("host", ""))
    if not _HOST_HEADER.match(host):
        host = ""
    scheme = _first(headers.get("x-forwarded-proto", "")).lower()
    if scheme not in _DEFAULT_PORTS:
        scheme = "https" if request.tls else "http"
    path = _slashed(request.base_path)
    seen = _parse(f"{scheme}://{host}{path}") if host else None
    return seen or _Seen(scheme, "localhost", request.server_port, path)


def _listening(request: Request, seen: _Seen) -> str:
    """The address that the server the browser reached listens on ("" or a wildcard: every
    address). Through a proxy or a forwarded port, this server's own says nothing: the proxy's
    header says it, if it does."""
    headers = {name.lower(): value for name, value in request.headers.items()}
    port = seen.port or _DEFAULT_PORTS[seen.scheme]
    proxied = any(name in headers for name in FORWARDED) or port != request.server_port
    listen = headers.get(LISTEN_HEADER, "") if proxied else request.listen
    return listen.strip().strip("[]")


def _parse(url: str) -> _Seen | None:
    """An http(s) URL's scheme, host, port and path; None when it is none (or has spaces or
    more than ``URL_LIMIT`` characters)."""
    if not url or len(url) > URL_LIMIT or any(not c.isprintable() or c.isspace() for c in url):
        return None
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:  # a port that is no number, or out of range; a bad IPv6 literal
        return None
    host = parts.hostname or ""
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not (_ip(host) or _HOST_NAME.match(host)):
        return None
    if port == _DEFAULT_PORTS[scheme]:
        port = None
    return _Seen(scheme, host, port, _slashed(parts.path))


def _without_page(seen: _Seen, page_paths: frozenset[str]) -> _Seen:
    """The app's root: the browser's path without the page's own last part ("/base/Flow")."""
    parts = seen.path.strip("/").split("/")
    if parts[-1] and parts[-1] in page_paths:
        return _Seen(seen.scheme, seen.host, seen.port, _slashed("/".join(parts[:-1])))
    return seen


def _usable(host: str) -> bool:
    """Whether another device could reach this machine at ``host``."""
    host = host.strip().strip("[]")
    address = _ip(host)
    if address is None:
        return bool(host) and bool(_HOST_NAME.match(host)) and not is_loopback(host)
    return not (is_loopback(host) or address.is_link_local or address.is_multicast)


def _root(seen: _Seen) -> str:
    host = f"[{seen.host}]" if ":" in seen.host else seen.host
    netloc = host if seen.port is None else f"{host}:{seen.port}"
    return urlunsplit((seen.scheme, netloc, seen.path, "", ""))


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _first(value: str) -> str:
    """The first of a header's comma-separated values (the one nearest the browser)."""
    return value.split(",", 1)[0].strip()


def _slashed(path: str) -> str:
    """``path`` between slashes: "" → "/", "base" → "/base/"."""
    inner = path.strip("/")
    return f"/{inner}/" if inner else "/"
