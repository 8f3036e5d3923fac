"""The command line: ``python -m attention_core`` prints scores, weights and context vectors.

Every flag is a row of the parameter table, with the same name as the dashboard's link key.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Any, NoReturn

import torch

import translation
from attention_core.config import AttentionConfig
from attention_core.cross import decoder_layer, target_of
from attention_core.embeddings import display_labels
from attention_core.errors import AttentionInputError
from attention_core.explain import context_terms, score_terms
from attention_core.formatting import format_number
from attention_core.knobs.links import read_params
from attention_core.knobs.param import Param
from attention_core.knobs.settings import Settings
from attention_core.knobs.table import PARAMS
from attention_core.memory_report import MEMORY_FLAGS, render_memory
from attention_core.pipeline import run_attention
from attention_core.trace import AttentionTrace
from translation import _

FLAGS = (
    *(
        name
        for name, p in PARAMS.items()
        if p.scope in ("input", "config", "view") and not p.dashboard_only
    ),
    *MEMORY_FLAGS,
)


# Flags that take a value, joined to it by :func:`join_values` (``--answer`` is the exercise's).
VALUE_FLAGS = (*FLAGS, "kind", "number", "answer")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        fail(message)


def _help(param: Param) -> str:
    text = _(param.help)
    if param.choices:
        text += " " + _("Choices: {choices}.").format(choices=", ".join(param.choices))
    elif param.low is not None:
        text += " " + _("{low} to {high}.").format(
            low=param.to_text(param.low), high=param.to_text(param.high)
        )
    if param.default is not None:
        text += " " + _("Default: {value}.").format(value=param.to_text(param.default))
    return text.replace("%", "%%")


def build_parser(commands: bool = True) -> argparse.ArgumentParser:
    """The argument parser: one ``--name VALUE`` flag per row of the parameter table,
    ``--json``, and (with ``commands``) the ``exercise`` command
    (:mod:`attention_core.cli_exercise`). A command line without a command is parsed without
    it, so that a stray value is named as one ("unrecognized arguments: --bogus 1"), not as a
    command."""
    parser = _Parser(
        prog="python -m attention_core",
        description=_("Run self-attention on a small embedding matrix and print every step."),
    )
    add_setting_flags(parser)
    parser.add_argument(
        "--memory",
        action="store_true",
        help=_(
            "also print the memory a model of the size given by the memory flags keeps "
            "(every memory flag implies it)"
        ),
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help=_(
            "print the whole trace as one strict JSON object (masked −∞ and undefined "
            "values are null)"
        ),
    )
    if commands:
        from attention_core import cli_exercise  # it builds on this module

        cli_exercise.add_command(parser.add_subparsers(dest="command", metavar="exercise"))
    return parser


def add_setting_flags(parser: argparse.ArgumentParser, default: object = None) -> None:
    """One ``--name VALUE`` flag per row of the parameter table that the command line has.
    A command's parser gives ``argparse.SUPPRESS``: its defaults would otherwise replace the
    values given before the command's name."""
    for name in FLAGS:
        parser.add_argument(f"--{name}", metavar="VALUE", default=default, help=_help(PARAMS[name]))


def join_values(argv: list[str]) -> list[str]:
    """Write ``--flag VALUE`` as ``--flag=VALUE`` so that a value may start with '-'.

    argparse takes ``--x -1,0;0,1`` or ``--tokens -a,b`` for two flags; joined, the value
    is read as it is.
    """
    joined: list[str] = []
    index = 0
    while index < len(argv):
        arg = argv[index]
        if arg.startswith("--") and arg[2:] in VALUE_FLAGS and index + 1 < len(argv):
            joined.append(f"{arg}={argv[index + 1]}")
            index += 2
            continue
        joined.append(arg)
        index += 1
    return joined


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status (2 for bad input, with one line on stderr).

    ``exercise`` prints an exercise or checks an answer (:mod:`attention_core.cli_exercise`).
    Its words are in the language of ``--lang``, else of the environment (``LANG``, as
    gettext reads it), else English; numbers and labels are the same in every language.
    """
    argv = join_values(sys.argv[1:] if argv is None else argv)
    with translation.speaking(_language_asked(argv) or translation.from_environment(os.environ)):
        return _run(argv)


def _language_asked(argv: list[str]) -> str | None:
    """The ``--lang`` value of a command line (joined by :func:`join_values`), if any."""
    given = [arg.split("=", 1)[1] for arg in argv if arg.startswith("--lang=")]
    return given[-1] if given else None


def _run(argv: list[str]) -> int:
    torch.set_num_threads(1)
    asked = {"exercise", "-h", "--help"} & set(argv)  # a command, or the help that lists it
    args = build_parser(commands=bool(asked)).parse_args(argv)
    if getattr(args, "command", None) == "exercise":
        from attention_core import cli_exercise

        return cli_exercise.run(args)
    given = {name: [getattr(args, name)] for name in FLAGS if getattr(args, name) is not None}
    crossed = "target" in given or "target_tokens" in given
    try:
        settings, _notices = read_params(given, strict=True)
        if crossed:
            return write(_decoder_report(settings, args.json))
        trace = run_attention(settings.embeddings(), settings.config())
        memory = args.memory or any(name in given for name in MEMORY_FLAGS)
        report = render_memory(settings.values) if memory else ""
    except AttentionInputError as error:
        fail(str(error))
    query = settings.query_index if "query" in given else None
    if args.json:
        text = json.dumps(_strict_json(trace.to_dict()), allow_nan=False)
    else:
        text = render_text(trace, settings, query) + (f"\n\n{report}" if report else "")
    return write(text)


def write(text: str) -> int:
    """Print ``text`` whatever the terminal's encoding; a closed pipe (``| head``) ends quietly."""
    try:
        _emit(sys.stdout, text + "\n")
    except BrokenPipeError:
        # Python flushes stdout again at exit; point it at /dev/null so that flush is silent.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 0


def _emit(stream: Any, text: str) -> None:
    """Write ``text`` to any text stream: a terminal or pipe gets bytes in its own encoding,
    characters it cannot encode written as escapes (never an error); a stream without bytes
    underneath (a notebook's, ``io.StringIO``) gets the text itself."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    data = text.encode(encoding, errors="backslashreplace")
    raw = getattr(stream, "buffer", None)
    if raw is not None:
        raw.write(data)
    else:
        stream.write(data.decode(encoding))
    stream.flush()


def _strict_json(value: Any) -> Any:
    """Replace −∞ (masked), ∞ and NaN by null: JSON has no such numbers."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, list):
        return [_strict_json(item) for item in value]
    if isinstance(value, dict):
        return {key: _strict_json(item) for key, item in value.items()}
    return value


def fail(message: str) -> NoReturn:
    """One line on stderr, then exit with status 2."""
    _emit(sys.stderr, _("attention_core: error: {message}").format(message=message) + "\n")
    raise SystemExit(2)


def render_text(trace: AttentionTrace, settings: Settings, query: int | None) -> str:
    """A readable report: the settings, then scores, weights and context vectors per head."""
    config = trace.config
    decimals = settings["decimals"]
    labels = display_labels(trace.tokens)
    lines = [
        _(
            "tokens: {labels}  (d_in {d_in}, width of queries {width}, init {init}, seed {seed})"
        ).format(
            labels=" ".join(labels),
            d_in=trace.inputs.shape[1],
            width=trace.queries.shape[1],
            init=config.init,
            seed=config.seed,
        ),
        _(
            "scores {scoring}, divided by {divisor} ({scaling}), {norm}, mask {mask} "
            "({mask_strategy}), dropout {dropout:g}{mode}, heads {heads}"
        ).format(
            scoring=config.scoring,
            divisor=format_number(trace.scale_divisor, decimals, ascii_only=True),
            scaling=config.scaling,
            norm=config.norm,
            mask=config.mask,
            mask_strategy=config.mask_strategy,
            dropout=config.dropout,
            mode="" if config.train else " (eval)",  # PyTorch's module.eval()
            heads=trace.num_heads,
        ),
        # The flags' names and choices stay as typed; the words around them are translated.
        _("qkv_bias {state}, out_proj {out_proj}").format(
            state=_("on") if trace.b_query is not None else _("off"), out_proj=config.out_proj
        )
        + (
            _(", heads_layout {layout}").format(layout=config.heads_layout)
            if trace.num_heads > 1
            else ""
        )
        + _variants(config),
    ]
    for head in range(trace.num_heads):
        if trace.num_heads > 1:
            scores_title = _("scaled scores (head {head})").format(head=head + 1)
            weights_title = _("weights (head {head})").format(head=head + 1)
        else:
            scores_title, weights_title = _("scaled scores"), _("weights")
        scores = trace.masked_scores[head]
        weights = trace.weights_after_dropout[head]
        lines += ["", scores_title, *_table(labels, labels, scores, decimals)]
        lines += ["", weights_title, *_table(labels, labels, weights, decimals)]
    width = trace.output.shape[1]
    columns = [f"z{c + 1}" for c in range(width)]
    lines += ["", _("context vectors"), *_table(labels, columns, trace.output, decimals)]
    if query is not None:
        head = min(int(settings["head"]), trace.num_heads) - 1
        lines += ["", *_explain(trace, labels, query, head, decimals)]
    return "\n".join(lines)


def _decoder_report(settings: Settings, as_json: bool) -> str:
    """With ``--target``: the decoder layer on the target, with ``--x`` and ``--tokens`` as the
    source; its two steps' weights, then the output (or both traces as JSON)."""
    target = target_of(settings["target"], settings["target_tokens"], translation.language())
    layer = decoder_layer(target, settings.embeddings(), settings.config())
    first, second = layer.self_attention, layer.cross_attention
    if as_json:
        both = {"self_attention": first.to_dict(), "cross_attention": second.to_dict()}
        return json.dumps(_strict_json(both), allow_nan=False)
    decimals, rows = settings["decimals"], display_labels(target.tokens)
    columns = display_labels(second.key_tokens)
    lines = [_("step 1: masked self-attention over the target, weights (head 1)")]
    if layer.left_out:  # they pair the positions of one sequence
        lines.insert(0, _("step 2 leaves out: {names}").format(names=", ".join(layer.left_out)))
    lines += _table(rows, rows, first.weights_after_dropout[0], decimals)
    lines += ["", _("step 2: cross-attention to the source, weights (head 1)")]
    lines += _table(rows, columns, second.weights_after_dropout[0], decimals)
    width = [f"z{c + 1}" for c in range(second.output.shape[1])]
    lines += ["", _("output"), *_table(rows, width, second.output, decimals)]
    return "\n".join(lines)


def _variants(config: AttentionConfig) -> str:
    """Today's variants, named only when they are on: ", kv_groups 2, window 3, rope (base
    10000)"; nothing with their defaults, so the book's header stays the book's."""
    parts = []
    if config.kv_groups:
        parts.append(_("kv_groups {count}").format(count=config.kv_groups))
    if config.window:
        parts.append(_("window {size}").format(size=config.window))
    if config.rope:
        parts.append(_("rope (base {rope_base})").format(rope_base=config.rope_base))
    return "".join(_(", {part}").format(part=part) for part in parts)


def _table(rows: list[str], columns: list[str], matrix: torch.Tensor, decimals: int) -> list[str]:
    first = max(len(r) for r in rows)
    cells = [[format_number(v, decimals, ascii_only=True) for v in row] for row in matrix.tolist()]
    width = max([len(c) for c in columns] + [len(c) for row in cells for c in row])
    header = " " * first + "  " + "  ".join(c.rjust(width) for c in columns)
    body = [
        r.ljust(first) + "  " + "  ".join(c.rjust(width) for c in row)
        for r, row in zip(rows, cells, strict=True)
    ]
    return [header, *body]


def _explain(
    trace: AttentionTrace, labels: list[str], query: int, head: int, decimals: int
) -> list[str]:
    def number(value: float) -> str:
        return format_number(value, decimals, ascii_only=True)

    lines = [
        _("step by step for query {query} ({label}), head {head}").format(
            query=query + 1, label=labels[query], head=head + 1
        )
    ]
    for key in range(trace.num_tokens):
        terms = score_terms(trace, query, key, head)
        products = " + ".join(
            f"{number(q)}*{number(k)}"
            for q, k in zip(terms.query_terms, terms.key_terms, strict=True)
        )
        lines.append(
            f"  score({labels[query]}, {labels[key]}) = {products} = {number(terms.total)};"
            f" / {number(terms.divisor)} = {number(terms.scaled)}"
        )
    mixed = context_terms(trace, query, head)
    parts = " + ".join(
        f"{number(w)}*[{', '.join(number(v) for v in row)}]"
        for w, row in zip(mixed.weights, mixed.value_rows, strict=True)
    )
    result = ", ".join(number(v) for v in mixed.result)
    lines.append(f"  context = {parts} = [{result}]")
    return lines
