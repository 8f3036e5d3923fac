"""Free loopback ports, the process table and deploy/serve.sh, for the lecture-hall tests
(replicas, class mode) and bench."""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVE = ROOT / "deploy" / "serve.sh"


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


def tool(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    return f"/usr/sbin/{name}" if os.access(f"/usr/sbin/{name}", os.X_OK) else None


def start_serve(
    run_dir: Path,
    workers: int,
    env: dict[str, str] | None = None,
    address: str = "127.0.0.1",
) -> tuple[subprocess.Popen, int, list[int]]:
    """``deploy/serve.sh --workers N`` on free ports (nginx's on ``address``: ``0.0.0.0`` for
    a class that joins by the machine's network address; the workers' and Redis's on
    loopback after it), its configs and logs in ``run_dir``, ``env`` added to the environment
    its workers inherit; returns once it is ready."""
    port, *worker_ports = free_ports(workers + 2)
    worker_ports = worker_ports[:workers]
    log = (run_dir.parent / "serve.log").open("w")
    command = ["bash", str(SERVE), "--workers", str(workers), "--port", str(port)]
    command += ["--first-worker-port", str(worker_ports[0]), "--run-dir", str(run_dir)]
    command += ["--address", address]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # a terminal's Ctrl-C in pytest does not reach it directly
        env={**os.environ, **(env or {})},
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and process.poll() is None:
        if "serve.sh: ready" in (run_dir.parent / "serve.log").read_text():
            return process, port, worker_ports
        time.sleep(0.5)
    process.terminate()
    process.wait(60)
    pytest.fail("serve.sh did not get ready:\n" + (run_dir.parent / "serve.log").read_text())


def stop_serve(process: subprocess.Popen) -> None:
    """Last resort after a failure: SIGTERM, then SIGKILL serve.sh (supervisord follows)."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
