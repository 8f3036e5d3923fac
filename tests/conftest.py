"""Session-wide test set-up: a tiny BERT the tests build themselves, and no network for the hub."""

from __future__ import annotations

import json
import os
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest
import torch

from tests import budget  # loads the Hypothesis profile named by TESTS_PROFILE

# Read by huggingface_hub when it is first imported: set before anything imports it.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

# The app and the command line compute on one thread (ui/session/run_order.py,
# attention_core/cli.py); the tests' own core runs must do the same arithmetic, or a number can
# print one digit apart (sums split over two threads round differently). torch keeps this setting
# per thread.
torch.set_num_threads(1)

SEED_001_WORDS = "i must go back to my ship and crew we process your order the bank by river"


TINY_LAYERS, TINY_HEADS = 2, 4  # a link beyond these is told about on page 10


def build_tiny_model(folder: Path) -> Path:
    """A 2-layer, 4-head BERT with a tiny WordPiece vocabulary, saved with save_pretrained."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizer

    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *SEED_001_WORDS.split(), "##s"]
    BertTokenizer(vocab={w: i for i, w in enumerate(vocab)}).save_pretrained(folder)
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=16,
        num_hidden_layers=TINY_LAYERS,
        num_attention_heads=TINY_HEADS,
        intermediate_size=32,
        max_position_embeddings=64,
    )
    state = torch.random.get_rng_state()
    try:
        torch.manual_seed(0)  # a fixed tiny model; the global state is restored right after
        BertModel(config).save_pretrained(folder)
    finally:
        torch.random.set_rng_state(state)
    return folder


@pytest.fixture(scope="session", autouse=True)
def tiny_model(tmp_path_factory) -> Path:
    """Point the app at the tiny model and keep the Hugging Face hub offline for every test."""
    folder = build_tiny_model(tmp_path_factory.mktemp("tiny-bert"))
    os.environ["ATTENTION_MODEL"] = str(folder)
    return folder


def pytest_xdist_auto_num_workers(config) -> int:
    """Workers for ``-n auto``: ``TESTS_WORKERS``, or twice the cores.

    A browser test spends most of its time waiting for a page (measured: 40 % of one core for
    the whole of a browser test file, its server and Chromium included), so two workers per
    core keep both cores busy; the AppTest and core tests lose nothing by it.
    """
    wanted = os.environ.get("TESTS_WORKERS", "").strip()
    if wanted:
        return int(wanted)
    return 2 * (os.cpu_count() or 1)


# The suite's budget, shown at the end of every run (issue 50): each test's own time (setup,
# call and teardown, as its worker measured it) summed by area, and the wall clock.
_took: Counter[str] = Counter()
_tests: Counter[str] = Counter()
_started = time.monotonic()


# The walks' coverage (issue 64): per page, the controls drawn and those a walk changed, as
# each walking test recorded them (``record_property``: xdist brings them to the controller).
_walks: defaultdict[str, defaultdict[str, tuple[set[str], set[str]]]] = defaultdict(
    lambda: defaultdict(lambda: (set(), set()))
)


def pytest_runtest_logreport(report) -> None:
    _took[budget.area_of(report.nodeid.split("::")[0])] += report.duration
    if report.when == "call" or (report.when == "setup" and report.skipped):
        _tests[budget.area_of(report.nodeid.split("::")[0])] += 1
    for name, value in report.user_properties:
        if name in budget.WALKS:
            for page, (drawn, walked) in json.loads(value).items():
                _walks[name][page][0].update(drawn)
                _walks[name][page][1].update(walked)


def pytest_terminal_summary(terminalreporter) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER") or not _took:
        return  # the controller prints it, once, for every worker's tests
    terminalreporter.section("the suite's budget")
    wall = time.monotonic() - _started
    for line in budget.budget_table(_took, _tests, wall):
        terminalreporter.write_line(line)
    if _walks:
        terminalreporter.section("what the walks reached")
        for line in budget.walks_table(_walks):
            terminalreporter.write_line(line)
