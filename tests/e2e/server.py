"""Start a real `streamlit run` on a free loopback port and wait until it is healthy."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def start_server(
    script: str = "streamlit_app.py",
    extra: tuple[str, ...] = (),
    timeout: float = 60.0,
    env: dict[str, str] | None = None,
    root: Path = ROOT,
) -> tuple[subprocess.Popen, str]:
    """Launch ``streamlit run script`` from ``root`` (the repository's); returns the process
    and URL.

    ``env`` adds environment variables (``root`` is always importable).
    """
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            script,
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
            *extra,
        ],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root), **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return process, url
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"streamlit run {script} did not become healthy within {timeout:.0f} s")


def stop_server(process: subprocess.Popen) -> None:
    """Stop a server started by :func:`start_server`."""
    process.terminate()
    process.wait(timeout=30)
