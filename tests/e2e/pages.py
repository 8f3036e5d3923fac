"""Every page of the app, as a learner reaches it: its deep link and what it prints."""

from __future__ import annotations

import re

PATHS = {  # page file stem -> deep link path
    "streamlit_app": "",
    "1_Embeddings": "Embeddings",
    "2_Simplified_attention": "Simplified_attention",
    "3_Trainable_weights": "Trainable_weights",
    "4_Scaling": "Scaling",
    "5_Causal_mask": "Causal_mask",
    "6_Dropout": "Dropout",
    "7_Multi-head_attention": "Multi-head_attention",
    "8_Common_mistakes": "Common_mistakes",
    "9_Word_vectors": "Word_vectors",
    "10_Real_sentences": "Real_sentences",
}
LESSONS = [path for path in PATHS.values() if path]
BROKEN_NUMBERS = re.compile(r"\bnan\b|\binf\b|traceback", re.IGNORECASE)


def url(server: str, path: str, query: str = "") -> str:
    """A deep link: ``server/path?query``."""
    return f"{server}/{path}" + (f"?{query}" if query else "")


def decimals_of(texts) -> set[int]:
    """How many decimals the numbers among ``texts`` are printed with."""
    found = set()
    for text in texts:
        for number in re.findall(r"(?<![\w.])-?[0-9]+\.([0-9]+)(?![\w.])", text):
            found.add(len(number))
    return found
