"""The command line: ``python -m attention_core`` prints scores, weights and context vectors."""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn

import torch

from attention_core.embeddings import display_labels
from attention_core.errors import AttentionInputError
from attention_core.explain import context_terms, score_terms
from attention_core.params import (
    ALL_PARAMS,
    Settings,
    build_embeddings,
    check_query,
    parse_params,
)
from attention_core.pipeline import run_attention
from attention_core.trace import AttentionTrace

HELP = {
    "preset": "journey (default), nugues, montreal or random",
    "tokens": "comma-separated token labels, e.g. Your,journey,starts",
    "x": "the embedding matrix: rows separated by ';', values by ','",
    "d_out": "width of queries, keys and values (1-16; default 2)",
    "init": "book (default), linear, identity",
    "seed": "seed for the weights and the random presets (0 to 2^32-1; default 123)",
    "scoring": "dot (default) or cosine",
    "scaling": "none, d or sqrt_d (default)",
    "norm": "softmax (default), naive_softmax, sum or none",
    "mask": "none (default), causal or padding",
    "mask_strategy": "neg_inf (default), zero_renorm, zero_scores, zero_no_renorm",
    "padding": "with --mask padding: how many trailing tokens are padding",
    "dropout": "dropout rate p, 0 <= p < 1 (default 0)",
    "dropout_seed": "seed for the dropout sample (default 0)",
    "train": "true (default) applies dropout; false is evaluation mode",
    "heads": "number of heads (1-8; default 1)",
    "heads_layout": "split (default) or wrapper",
    "out_proj": "seeded (default) or identity output projection for several heads",
    "num_tokens": "rows of the random preset",
    "d_in": "columns of the random preset",
    "query": "1-based token to explain step by step, as in x^(2)",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        _fail(message)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser; every flag is a parameter name of :mod:`attention_core.params`."""
    parser = _Parser(
        prog="python -m attention_core",
        description="Run self-attention on a small embedding matrix and print every step.",
    )
    for name in ALL_PARAMS:
        parser.add_argument(f"--{name}", metavar="VALUE", help=HELP[name])
    parser.add_argument("--json", action="store_true", help="print the whole trace as JSON")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status (2 for bad input, with one line on stderr)."""
    torch.set_num_threads(1)
    args = build_parser().parse_args(argv)
    given = {name: getattr(args, name) for name in ALL_PARAMS if getattr(args, name) is not None}
    try:
        settings, errors = parse_params(given)
        if errors:
            raise AttentionInputError(errors[0])
        embeddings = build_embeddings(settings)
        query = check_query(settings, embeddings.num_tokens) if "query" in given else None
        trace = run_attention(embeddings, settings.config)
    except AttentionInputError as error:
        _fail(str(error))
    if args.json:
        print(json.dumps(trace.to_dict()))
    else:
        print(render_text(trace, settings, query))
    return 0


def _fail(message: str) -> NoReturn:
    print(f"attention_core: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def render_text(trace: AttentionTrace, settings: Settings, query: int | None) -> str:
    """A readable report: the settings, then scores, weights and context vectors per head."""
    config = trace.config
    labels = display_labels(trace.tokens)
    lines = [
        f"tokens: {' '.join(labels)}  (d_in {trace.inputs.shape[1]}, d_out {config.d_out},"
        f" init {config.init}, seed {config.seed})",
        f"scores {config.scoring}, divided by {trace.scale_divisor:.4f} ({config.scaling}),"
        f" {config.norm}, mask {config.mask} ({config.mask_strategy}),"
        f" dropout {config.dropout:g}{'' if config.train else ' (eval)'}, heads {trace.num_heads}",
    ]
    for head in range(trace.num_heads):
        suffix = f" (head {head + 1})" if trace.num_heads > 1 else ""
        lines += ["", f"scaled scores{suffix}", *_table(labels, labels, trace.masked_scores[head])]
        lines += [
            "",
            f"weights{suffix}",
            *_table(labels, labels, trace.weights_after_dropout[head]),
        ]
    width = trace.output.shape[1]
    lines += [
        "",
        "context vectors",
        *_table(labels, [f"z{c + 1}" for c in range(width)], trace.output),
    ]
    if query is not None:
        lines += ["", *_explain(trace, labels, query)]
    return "\n".join(lines)


def _table(rows: list[str], columns: list[str], matrix: torch.Tensor) -> list[str]:
    first = max(len(r) for r in rows)
    cells = [[_cell(v) for v in row] for row in matrix.tolist()]
    width = max([len(c) for c in columns] + [len(c) for row in cells for c in row])
    header = " " * first + "  " + "  ".join(c.rjust(width) for c in columns)
    body = [
        r.ljust(first) + "  " + "  ".join(c.rjust(width) for c in row)
        for r, row in zip(rows, cells, strict=True)
    ]
    return [header, *body]


def _cell(value: float) -> str:
    if value == float("-inf"):
        return "-inf"
    return f"{value:.4f}"


def _explain(trace: AttentionTrace, labels: list[str], query: int) -> list[str]:
    lines = [f"step by step for query {query + 1} ({labels[query]}), head 1"]
    for key in range(trace.num_tokens):
        terms = score_terms(trace, query, key)
        products = " + ".join(
            f"{q:.4f}*{k:.4f}" for q, k in zip(terms.query_terms, terms.key_terms, strict=True)
        )
        lines.append(
            f"  score({labels[query]}, {labels[key]}) = {products} = {terms.total:.4f};"
            f" / {terms.divisor:.4f} = {terms.scaled:.4f}"
        )
    mixed = context_terms(trace, query)
    parts = " + ".join(
        f"{w:.4f}*[{', '.join(f'{v:.4f}' for v in row)}]"
        for w, row in zip(mixed.weights, mixed.value_rows, strict=True)
    )
    result = ", ".join(f"{v:.4f}" for v in mixed.result)
    lines.append(f"  context = {parts} = [{result}]")
    return lines
