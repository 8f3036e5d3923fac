"""Is the Hugging Face hub worth waiting for? Answered in seconds, not after 50 s of retries."""

from __future__ import annotations

import os
import socket
import threading
from urllib.parse import urlsplit

HUB_PROBE_SECONDS = 3.0
_TRUE = {"1", "true", "yes", "on"}


def hub_offline() -> bool:
    """True when the environment switches the hub off (HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE)."""
    return any(
        os.environ.get(name, "").strip().lower() in _TRUE
        for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    )


def hub_reachable(timeout: float = HUB_PROBE_SECONDS) -> bool:
    """True when a TCP connection to the hub (``HF_ENDPOINT``) opens within ``timeout`` seconds.

    The probe runs in a daemon thread, so a slow name lookup cannot hold the caller longer.
    """
    endpoint = urlsplit(os.environ.get("HF_ENDPOINT", "").strip() or "https://huggingface.co")
    host = endpoint.hostname or "huggingface.co"
    port = endpoint.port or (80 if endpoint.scheme == "http" else 443)
    answer: list[bool] = []

    def probe() -> None:
        try:
            with socket.create_connection((host, port), timeout=timeout):
                answer.append(True)
        except OSError:
            answer.append(False)

    thread = threading.Thread(target=probe, name="hub-probe", daemon=True)
    thread.start()
    thread.join(timeout)
    return bool(answer) and answer[0]
