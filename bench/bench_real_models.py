"""First-load time and memory of the real weights: GloVe 6B 50d and the packaged MiniLM.

Run: python bench/bench_real_models.py [--cold] [--write]

Every measurement runs in a fresh Python process (so "first load" is really the first), and
reports wall time and the process's resident memory from /proc/self/status (RSS, split into
anonymous memory and file-backed pages, which other processes mapping the same files share).
``--cold`` first asks the kernel to drop these packages' files from the page cache
(posix_fadvise DONTNEED on those files only), as after a reboot. ``--write`` appends the
table to bench/RESULTS.md. Timings never go into the test suite.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LONG = (
    "Attention lets every word of this rather long sentence look at every other word, and the "
    "model learns which ones matter most"
)  # 22 words and a comma: 25 MiniLM tokens with [CLS] and [SEP]


def memory() -> dict[str, float]:
    """This process's RSS, anonymous and file-backed resident memory, in MB."""
    values = {}
    with open("/proc/self/status") as status:
        for line in status:
            name, _, rest = line.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile", "VmHWM"):
                values[name] = int(rest.split()[0]) / 1024
    return values


def timed(function: Callable[[], T]) -> tuple[T, float]:
    """The function's result and its wall time in seconds."""
    start = time.perf_counter()
    result = function()
    return result, time.perf_counter() - start


def child_glove() -> dict:
    import torch  # noqa: F401  (the app has torch loaded before any page runs)

    import real_model

    before = memory()
    glove, load_s = timed(real_model.shared_glove)
    after_load = memory()
    sentence = "I must go back to my ship and to my crew"
    _, first_sentence_s = timed(lambda: real_model.glove_attention(sentence))
    sentence_s = statistics.median(
        timed(lambda: real_model.glove_attention(sentence))[1] for _ in range(7)
    )
    _, pca_s = timed(real_model.glove_pca)
    _, words_s = timed(lambda: real_model.playground_words(["king", "queen", "ship"], 3))
    checks, _ = timed(real_model.seed001_checks)
    checks_s = statistics.median(timed(real_model.seed001_checks)[1] for _ in range(7))
    assert all(check.matches for check in checks) and len(glove) == 400_000
    return {
        "load_s": load_s,
        "rss_added": after_load["VmRSS"] - before["VmRSS"],
        "anon_added": after_load["RssAnon"] - before["RssAnon"],
        "first_sentence_ms": first_sentence_s * 1000,  # includes torch's one-time warm-up
        "sentence_ms": sentence_s * 1000,
        "pca_fit_ms": pca_s * 1000,
        "playground_words_ms": words_s * 1000,
        "seed001_checks_ms": checks_s * 1000,
    }


def child_minilm() -> dict:
    import torch  # noqa: F401

    import real_model

    before = memory()
    _, import_s = timed(lambda: __import__("transformers").AutoModel)
    after_import = memory()
    loaded, load_s = timed(lambda: real_model.load_model(real_model.DEFAULT_MODEL))
    after_load = memory()
    assert loaded.num_heads == 12
    return {
        "import_transformers_s": import_s,
        "import_rss_added": after_import["VmRSS"] - before["VmRSS"],
        "load_s": load_s,
        "rss_added": after_load["VmRSS"] - after_import["VmRSS"],
        "anon_added": after_load["RssAnon"] - after_import["RssAnon"],
    }


def child_both() -> dict:
    import torch

    import real_model

    start = memory()
    real_model.shared_glove()
    real_model.glove_attention(real_model.seed001.ODYSSEY)
    loaded = real_model.load_model(real_model.DEFAULT_MODEL)
    both = memory()
    peak = [both["VmRSS"]]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], memory()["VmRSS"])
            time.sleep(0.002)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    worst, start_time = 0.0, time.perf_counter()
    for layer in range(loaded.num_layers):
        for head in range(loaded.num_heads):
            worst = max(worst, real_model.reproduce_head(loaded, LONG, layer, head).max_diff)
    heads_s = time.perf_counter() - start_time
    done.set()
    sampler.join()
    return {
        "rss_start": start["VmRSS"],
        "rss_both": both["VmRSS"],
        "anon_both": both["RssAnon"],
        "file_both": both["RssFile"],
        "peak_during_heads": peak[0],
        "hwm": memory()["VmHWM"],
        "heads": loaded.num_layers * loaded.num_heads,
        "tokens": len(real_model.analysis.encode(loaded, LONG)[0]),
        "ms_per_head": heads_s * 1000 / (loaded.num_layers * loaded.num_heads),
        "worst_diff": worst,
        "threads": torch.get_num_threads(),
    }


def child_failure() -> dict:
    import real_model

    times = []
    for _ in range(2):
        start = time.perf_counter()
        try:
            real_model.shared_model("someone/not-a-real-model-id")
        except real_model.ModelLoadError:
            times.append(time.perf_counter() - start)
    return {"first_s": times[0], "second_s": times[1], "offline": os.environ.get("HF_HUB_OFFLINE")}


CHILDREN = {
    "glove": child_glove,
    "minilm": child_minilm,
    "both": child_both,
    "failure": child_failure,
}


def evict_from_page_cache() -> None:
    """Drop only these two packages' files from the page cache."""
    from real_model.glove import glove_folder
    from real_model.loader import packaged_model_folder

    for folder in (glove_folder(), packaged_model_folder()):
        for path in folder.rglob("*"):
            if path.is_file():
                descriptor = os.open(path, os.O_RDONLY)
                try:
                    os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
                finally:
                    os.close(descriptor)


def run_child(name: str, cold: bool, env: dict[str, str] | None = None) -> dict:
    if cold:
        evict_from_page_cache()
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", **(env or {})}
    environment.pop("ATTENTION_MODEL", None)
    environment = {key: value for key, value in environment.items() if value != ""}
    output = subprocess.run(
        [sys.executable, __file__, "--child", name],
        capture_output=True,
        text=True,
        check=True,
        env=environment,
        cwd=ROOT,
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def report(cold: bool) -> str:
    glove = run_child("glove", cold)
    minilm = run_child("minilm", cold)
    both = run_child("both", cold)
    online = run_child("failure", False, {"HF_HUB_OFFLINE": "", "TRANSFORMERS_OFFLINE": ""})
    offline = run_child("failure", False)
    cache = "cold (files dropped from the page cache first)" if cold else "warm page cache"
    return "\n".join(
        [
            f"Page cache: {cache}.",
            "",
            "| measure | result |",
            "| --- | --- |",
            f"| GloVe: first load (SHA-256 of 84 MB, word index, memory map) | "
            f"{glove['load_s']:.2f} s, +{glove['rss_added']:.0f} MB RSS "
            f"(+{glove['anon_added']:.0f} MB anonymous; includes importing pyarrow) |",
            f"| GloVe: the Odyssey sentence (lookup + both attentions), first call (torch "
            f"warm-up) / median of the next 7 | {glove['first_sentence_ms']:.0f} / "
            f"{glove['sentence_ms']:.1f} ms |",
            f"| GloVe: PCA fit on 10 000 words (once) / 3 words into the Playground / all 12 "
            f"seed 001 checks (median of 7) | {glove['pca_fit_ms']:.0f} / "
            f"{glove['playground_words_ms']:.1f} / {glove['seed001_checks_ms']:.1f} ms |",
            f"| MiniLM: import transformers | {minilm['import_transformers_s']:.2f} s, "
            f"+{minilm['import_rss_added']:.0f} MB RSS |",
            f"| MiniLM: first load (SHA-256 of 6 files, 91 MB; tokenizer + model) | "
            f"{minilm['load_s']:.2f} s, +{minilm['rss_added']:.0f} MB RSS "
            f"(+{minilm['anon_added']:.0f} MB anonymous) |",
            f"| one process with torch, both loaded (RSS before loading: "
            f"{both['rss_start']:.0f} MB) | {both['rss_both']:.0f} MB RSS "
            f"({both['anon_both']:.0f} MB anonymous, {both['file_both']:.0f} MB file-backed) |",
            f"| peak RSS while reproducing all {both['heads']} heads on a "
            f"{both['tokens']}-token sentence ({both['threads']} torch threads) | "
            f"{both['peak_during_heads']:.0f} MB (high-water mark {both['hwm']:.0f} MB); "
            f"{both['ms_per_head']:.0f} ms per head; worst max abs diff {both['worst_diff']:.1e} |",
            f"| unloadable hub id, hub unreachable, HF_HUB_OFFLINE unset: first / second call | "
            f"{online['first_s']:.2f} s / {online['second_s'] * 1000:.2f} ms |",
            f"| the same with HF_HUB_OFFLINE=1: first / second call | "
            f"{offline['first_s']:.2f} s / {offline['second_s'] * 1000:.2f} ms |",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--child", choices=sorted(CHILDREN))
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(CHILDREN[args.child]()))
        return
    import torch

    machine = (
        f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}, "
        f"torch {torch.__version__}, load average {os.getloadavg()[0]:.1f} at the start; "
        f"{datetime.date.today().isoformat()}"
    )
    table = report(args.cold)
    command = "python bench/bench_real_models.py" + (" --cold" if args.cold else "")
    text = f"\n### Real weights (`{command}`)\n\nMachine: {machine}.\n{table}\n"
    print(text)
    if args.write:
        with (ROOT / "bench" / "RESULTS.md").open("a") as results:
            results.write(text)


if __name__ == "__main__":
    main()
