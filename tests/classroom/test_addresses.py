"""The address a join link carries (classroom/addresses.py): the setting, then the browser's
address unless it is this machine's own, then the network address, else a loopback address
said to be unreachable."""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from classroom.addresses import (
    BROWSER,
    LOOPBACK,
    NETWORK,
    SETTING,
    Request,
    choose,
    is_loopback,
    read_public_url,
)

PAGES = frozenset({"Flow", "Scaling"})
LAN = ("192.0.2.2", "fd00::2")  # what the route probes find on a machine in a room's network


def test_the_browsers_address_behind_a_proxy_or_on_a_hosted_demo_is_kept_without_the_page():
    request = Request(url="https://attention.example.org/Flow", page_paths=PAGES)
    found = choose(request, LAN)
    assert (found.root, found.source, found.reachable) == (
        "https://attention.example.org/",
        BROWSER,
        True,
    )
    assert found.link("class=K7RM3Q") == "https://attention.example.org/?class=K7RM3Q"


def test_without_the_browsers_address_the_proxys_host_headers_say_it():
    headers = {"Host": "127.0.0.1:8081", "X-Forwarded-Host": "hall.example.org:8080"}
    found = choose(Request(headers={**headers, "X-Forwarded-Proto": "https"}), LAN)
    assert (found.root, found.source) == ("https://hall.example.org:8080/", BROWSER)
    # nginx (deploy/nginx.conf.in) forwards the browser's Host itself, and the scheme
    found = choose(Request(headers={"host": "10.1.2.3:8080", "x-forwarded-proto": "http"}), LAN)
    assert found.root == "http://10.1.2.3:8080/"


def test_localhost_becomes_the_machines_network_address_with_the_browsers_port():
    found = choose(Request(url="http://localhost:8501/Scaling", page_paths=PAGES), LAN)
    assert (found.root, found.source, found.reachable) == ("http://192.0.2.2:8501/", NETWORK, True)
    # behind serve.sh's nginx on port 8080: the workers listen on 127.0.0.1, nginx does not
    proxied = Request(
        url="http://127.0.0.1:8080/",
        headers={"X-Forwarded-For": "127.0.0.1", "X-Forwarded-Proto": "http"},
        server_port=8081,
        listen="127.0.0.1",
    )
    assert choose(proxied, LAN).root == "http://192.0.2.2:8080/"
    # serve.sh's nginx says where it listens: on the network, or on this machine only
    for listen, source in (("0.0.0.0", NETWORK), ("127.0.0.1", LOOPBACK), ("::", NETWORK)):
        headers = {**proxied.headers, "X-Attention-Listen": listen}
        found = choose(replace(proxied, headers=headers), LAN)
        assert found.source == source and found.listens_locally == (source == LOOPBACK)
    headers = {**proxied.headers, "X-Attention-Listen": "192.0.2.7"}
    assert choose(replace(proxied, headers=headers), LAN).root == "http://192.0.2.7:8080/"


def test_a_server_listening_on_one_address_is_joined_there_or_only_from_this_machine():
    browser = Request(url="http://localhost:8501/", listen="192.0.2.7")
    assert choose(browser, LAN).root == "http://192.0.2.7:8501/"
    local = choose(Request(url="http://localhost:8501/", listen="127.0.0.1"), LAN)
    assert (local.source, local.listens_locally, local.reachable) == (LOOPBACK, True, False)
    assert local.root == "http://localhost:8501/"
    everywhere = choose(Request(url="http://localhost:8501/", listen="0.0.0.0"), LAN)
    assert everywhere.root == "http://192.0.2.2:8501/" and not everywhere.listens_locally


def test_the_public_url_setting_wins_over_the_browser_and_the_network():
    hosted = Request(url="https://attention.example.org/", page_paths=PAGES)
    for request in (hosted, Request(url="http://localhost:8501/")):
        found = choose(request, LAN, " https://Class.Example.org:8443/attention ")
        assert (found.root, found.source) == ("https://class.example.org:8443/attention/", SETTING)
        assert found.refused == ""
    assert choose(hosted, LAN, "http://192.0.2.9:80").root == "http://192.0.2.9/"


BAD_SETTINGS = (
    "attention.example.org",  # no scheme
    "localhost:8501",  # read as the scheme "localhost"
    "ftp://attention.example.org/",
    "javascript:alert(1)",
    "http://",
    "https://exa mple.org/",
    "http://user:secret@attention.example.org/",  # a password on the projector
    "http://attention.example.org:99999/",
    "http://attention.example.org:port/",
    "http://attention.example.org/?class=K7RM3Q",
    "http://attention.example.org/#join",
    "http://<img src=x>/",
    "http://[::1/",
    "https://" + "a" * 400 + ".org/",
)


@pytest.mark.parametrize("setting", BAD_SETTINGS)
def test_a_setting_that_is_no_http_address_is_named_and_the_other_rules_decide(setting):
    assert read_public_url(setting) is None
    found = choose(Request(url="http://localhost:8501/"), LAN, setting)
    assert (found.root, found.source, found.refused) == ("http://192.0.2.2:8501/", NETWORK, setting)


def test_an_empty_setting_is_no_setting():
    assert choose(Request(url="http://localhost:8501/"), LAN, "  ").refused == ""


def test_ipv6_addresses_are_bracketed_and_a_link_local_one_is_passed_over():
    assert choose(Request(url="http://[::1]:8501/"), LAN).root == "http://192.0.2.2:8501/"
    only_v6 = choose(Request(url="http://[::1]:8501/"), ("fe80::1", "fd00::2"))
    assert (only_v6.root, only_v6.source) == ("http://[fd00::2]:8501/", NETWORK)
    browser = choose(Request(url="http://[2001:db8::5]:8501/Flow", page_paths=PAGES), LAN)
    assert (browser.root, browser.source) == ("http://[2001:db8::5]:8501/", BROWSER)
    assert choose(Request(headers={"Host": "[2001:db8::5]:8080"}), LAN).root == (
        "http://[2001:db8::5]:8080/"
    )


def test_the_base_path_is_kept_and_the_page_path_is_not():
    found = choose(Request(url="http://localhost:8501/attention/Flow", page_paths=PAGES), LAN)
    assert found.root == "http://192.0.2.2:8501/attention/"
    home = choose(Request(url="https://example.org/attention", page_paths=PAGES), LAN)
    assert home.root == "https://example.org/attention/"
    unknown = Request(base_path="/attention/", server_port=8502)  # no url, no headers
    assert choose(unknown, LAN).root == "http://192.0.2.2:8502/attention/"


def test_with_no_network_address_the_link_is_this_machines_and_said_to_be_unreachable():
    for network in ((), ("127.0.0.1",), ("::1", "fe80::1")):  # 127.0.0.1: Streamlit's fallback
        found = choose(Request(url="http://localhost:8501/Flow", page_paths=PAGES), network)
        assert (found.root, found.source, found.reachable) == (
            "http://localhost:8501/",
            LOOPBACK,
            False,
        )
        assert not found.listens_locally


def test_a_hostile_host_header_is_ignored():
    found = choose(Request(headers={"Host": "evil.example/<script>", "X-Forwarded-Host": ""}), ())
    assert found.root == "http://localhost:8501/" and found.source == LOOPBACK
    spaced = choose(Request(url="http://exa mple.org/", headers={"Host": "ok.example"}), ())
    assert spaced.root == "http://ok.example/"


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("LOCALHOST.", True),
        ("app.localhost", True),
        ("127.1.2.3", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),
        ("0.0.0.0", True),
        ("192.0.2.2", False),
        ("fd00::2", False),
        ("example.org", False),
        ("localhost.example.org", False),
    ],
)
def test_which_hosts_name_this_machine_only(host, loopback):
    assert is_loopback(host) is loopback


TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)


@given(url=TEXT, host=TEXT, proto=TEXT, setting=TEXT)
def test_whatever_the_request_says_the_root_is_an_http_address_ending_with_a_slash(
    url, host, proto, setting
):
    headers = {"Host": host, "X-Forwarded-Proto": proto}
    found = choose(Request(url=url, headers=headers, page_paths=PAGES), LAN, setting)
    parts = urlsplit(found.root)
    assert parts.scheme in ("http", "https") and parts.hostname, found
    assert found.root.endswith("/") and not parts.query and not parts.fragment
    assert not any(ch.isspace() for ch in found.root)
    assert (found.source == SETTING) == (read_public_url(setting) is not None)
