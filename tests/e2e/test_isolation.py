"""A real server, many concurrent sessions: each sees exactly its own numbers."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from attention_core import AttentionConfig, preset_embeddings, run_attention
from tests.budget import ALONE
from tests.e2e.agent_client import context_vector, interact

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(ALONE)]
SESSIONS = 8
CHANGES = 5


def expected(seed: int, d_out: int, mask: str, dropout: float) -> list[float]:
    config = AttentionConfig(seed=seed, d_out=d_out, mask=mask, dropout=dropout, dropout_seed=seed)
    trace = run_attention(preset_embeddings("journey"), config)
    return [round(v, 4) for v in trace.head_context[0, 1].tolist()]


def one_learner(server: str, index: int) -> list[str]:
    """Open a link of one's own, then change the seed a few times; report any wrong number."""
    d_out, mask, dropout = 1 + index % 8, ("none", "causal")[index % 2], 0.3 * (index % 3 > 0)
    seed = 1000 + index
    link = {
        "seed": [str(seed)],
        "d_out": [str(d_out)],
        "mask": [mask],
        "dropout": [f"{dropout:g}"],
        "dropout_seed": [str(seed)],
    }
    snapshot, _ = interact(server, {"query_params": link})
    problems = []
    for step in range(CHANGES + 1):
        got = context_vector(snapshot)
        want = expected(seed, d_out, mask, dropout)
        if got != pytest.approx(want, abs=1.5e-4):
            problems.append(f"session {index} step {step}: {got} != {want}")
        seed += 7
        snapshot, _ = interact(
            server,
            {
                "session_id": snapshot["session_id"],
                "widget_state": {"seed": seed, "dropout_seed": seed},
            },
        )
    return problems


def test_concurrent_sessions_each_see_their_own_numbers(server):
    with ThreadPoolExecutor(max_workers=SESSIONS) as pool:
        results = list(pool.map(lambda i: one_learner(server, i), range(SESSIONS)))
    problems = [p for result in results for p in result]
    assert problems == []


def test_the_same_link_always_gives_the_same_numbers(server):
    link = {
        "query_params": {
            "seed": ["77"],
            "d_out": ["5"],
            "dropout": ["0.4"],
            "dropout_seed": ["3"],
            "mask": ["causal"],
        }
    }
    vectors = [context_vector(interact(server, link)[0]) for _ in range(4)]
    assert all(v == vectors[0] for v in vectors)
    config = AttentionConfig(seed=77, d_out=5, dropout=0.4, dropout_seed=3, mask="causal")
    want = run_attention(preset_embeddings("journey"), config).head_context[0, 1].tolist()
    assert vectors[0] == pytest.approx(want, abs=1.5e-4)
