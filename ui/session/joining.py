"""Joining a class from the room: the address a learner's device opens, and the join slide.

The address is chosen by ``classroom.addresses.choose`` (pure, with its rules and tests); this
module only gathers what it needs: the teacher's browser address and request headers
(``st.context``), Streamlit's options, the ``ATTENTION_PUBLIC_URL`` setting and this machine's
network addresses. The join slide is a session flag: while it is set, the page frame draws
the slide alone (``ui.blocks.page_frame.show_title``).
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlencode

import streamlit as st
from streamlit import config

from classroom.addresses import PUBLIC_URL, JoinAddress, Request, choose
from ui.session import nav

SLIDE = "_class_join_slide"  # the teacher's page shows the join slide
# Where a datagram socket would go to reach the internet: connecting one sends nothing, and
# its own address is then the one the default route leaves from (what streamlit run prints as
# its "Network URL", streamlit.net_util.get_internal_ip), here for IPv4 and then IPv6.
_ROUTE_PROBES = ((socket.AF_INET, "8.8.8.8"), (socket.AF_INET6, "2001:4860:4860::8888"))
_PAGE_PATHS = frozenset(page.url_path for page in nav.PAGES if page.url_path)


def address() -> JoinAddress:
    """The address join links carry, for this session's browser (read on every call: the
    teacher may move to another network, and it costs two system calls)."""
    request = Request(
        url=st.context.url,
        headers=dict(st.context.headers.items()),
        page_paths=_PAGE_PATHS,
        base_path=str(st.get_option("server.baseUrlPath") or ""),
        server_port=int(st.get_option("server.port")),
        tls=bool(st.get_option("server.sslCertFile")),
        listen=str(st.get_option("server.address") or "")
        if config.is_manually_set("server.address")
        else "",
    )
    return choose(request, network_addresses(), os.environ.get(PUBLIC_URL, ""))


def join_link(code: str, key: str) -> str:
    """The link that joins class ``code`` (``key`` is the link's name for the code)."""
    return address().link(urlencode({key: code}))


def network_addresses() -> list[str]:
    """This machine's addresses on its network (IPv4 first), found as ``streamlit run`` finds
    the one it prints; none when the machine has no route out."""
    found = []
    for family, probe in _ROUTE_PROBES:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probing:
                probing.connect((probe, 1))
                found.append(str(probing.getsockname()[0]))
        except OSError:  # no such route (or no IPv6 at all)
            continue
    return found


def slide_open() -> bool:
    return bool(st.session_state.get(SLIDE))


def open_slide() -> None:
    st.session_state[SLIDE] = True


def close_slide() -> None:
    st.session_state[SLIDE] = False
