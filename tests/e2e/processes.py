"""Free loopback ports and the process table, for the replica test and bench."""

from __future__ import annotations

import os
import random
import socket
from pathlib import Path


def bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_ports(count: int) -> list[int]:
    """``count`` consecutive free loopback ports."""
    rng = random.Random()
    for _ in range(200):
        first = rng.randrange(20_000, 60_000)
        ports = list(range(first, first + count))
        if all(bindable(port) for port in ports):
            return ports
    raise RuntimeError("no free loopback ports")


def processes() -> dict[int, tuple[int, str, str]]:
    """Every process: pid -> (parent pid, state letter, command line)."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        table[int(entry)] = (int(fields[1]), fields[0], cmdline.decode(errors="replace"))
    return table


def descendants(pid: int) -> dict[int, str]:
    """Every process below ``pid``: pid -> command line."""
    table = processes()
    found, frontier = {}, [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, _, cmdline) in table.items():
            if ppid == parent and child not in found:
                found[child] = cmdline
                frontier.append(child)
    return found


def worker_pid(port: int) -> int | None:
    """The live `streamlit run` listening on ``port`` (by its command line)."""
    for pid, (_, state, cmdline) in processes().items():
        if state != "Z" and "streamlit" in cmdline and f"--server.port {port} " in cmdline:
            return pid
    return None
