"""A small client for Streamlit's agent API (POST /_stcore/agent/interact): real server sessions
driven over HTTP, used by the isolation test and the load benchmark."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any


def interact(base_url: str, body: dict[str, Any], timeout: float = 60.0) -> tuple[dict, float]:
    """One request; returns the snapshot and the latency in seconds."""
    request = urllib.request.Request(
        f"{base_url}/_stcore/agent/interact",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=timeout) as response:
        snapshot = json.loads(response.read())
    return snapshot, time.perf_counter() - start


def elements(node: Any, kind: str) -> list[dict]:
    """Every element of one type in a snapshot's tree."""
    found = []
    if isinstance(node, dict):
        if node.get("type") == kind:
            found.append(node)
        for value in node.values():
            found.extend(elements(value, kind))
    elif isinstance(node, list):
        for value in node:
            found.extend(elements(value, kind))
    return found


def context_vector(snapshot: dict) -> list[float]:
    """The focused query's context vector, read from the formula (the last [..] in the TeX)."""
    formulas = [
        e["props"]["body"]
        for e in elements(snapshot["tree"], "latex")
        if "alpha" in e["props"].get("body", "")
    ]
    joined = re.sub(r"\s*\\\\\s*&\\qquad\s*", " ", formulas[0])  # a vector continued on a new line
    last = re.findall(r"\[([−\d., ]+)\]", joined)[-1]  # the minus sign, as the app prints it
    return [float(v.replace("−", "-")) for v in last.split(",")]
