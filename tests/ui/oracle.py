"""The numbers each page must show: ``attention_core`` run on the settings the page shows.

``check_numbers(at)`` reads the settings from the widgets and the URL (never from the app's
private state), recomputes what the page is about with the core, and compares every number it
checks with what is printed: chart cells, Markdown tables, metrics, sentences and formulas.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

import torch

from attention_core import AttentionConfig, AttentionTrace, make_embeddings, run_attention
from attention_core.compare import read_pin
from attention_core.embeddings import Embeddings, display_labels
from attention_core.experiments import dropout_average
from attention_core.formatting import MINUS, format_number, format_scientific, format_vector
from attention_core.knobs.settings import Settings
from attention_core.knobs.table import CONFIG_PARAMS, MASK_STRATEGIES, PARAMS
from attention_core.lessons import (
    common_mistakes,
    compare_normalisations,
    no_peeking,
    several_heads,
    similarity,
)
from attention_core.masks import judge_mask
from tests.ui.apptest import (
    chart,
    column,
    current_page,
    markdown_tables,
    records,
    shown_settings,
    table_with,
    title_of,
    vega_specs,
)
from ui import safe
from ui.specs.sizing import PRESENT_CELL_FONT, PRESENT_MIN_DECIMALS

Matrix = Sequence[Sequence[float]]


def core_config(settings: Settings, **changes: object) -> AttentionConfig:
    """The config the shown settings describe, with a page's own changes."""
    values = {name: settings[name] for name in CONFIG_PARAMS}
    return AttentionConfig(**{**values, **changes})


def core_embeddings(settings: Settings) -> Embeddings:
    """The learner's tokens and matrix, as shown."""
    return make_embeddings(settings.tokens, settings.rows)


def cell_text(value: float, decimals: int, masked: bool = False) -> str:
    """How a chart cell prints a number: a masked score −∞, any other non-number "undef."."""
    if not math.isfinite(value):
        return "−∞" if masked and value == -math.inf else "undef."
    return format_number(value, decimals)


def expect_heatmap(
    spec: dict,
    matrix: torch.Tensor | Matrix,
    decimals: int,
    labels: Sequence[str] | None = None,
    dropped: torch.Tensor | None = None,
) -> None:
    """Every cell of a heatmap prints the matrix's number (✕ only where dropout dropped it)."""
    values = matrix.tolist() if isinstance(matrix, torch.Tensor) else [list(r) for r in matrix]
    cells = records(spec)
    width = len(values[0])
    assert len(cells) == len(values) * width, spec["title"]
    title = title_of(spec)
    for index, cell in enumerate(cells):
        i, j = divmod(index, width)
        if cell["text"] == "✕":
            assert dropped is not None and bool(dropped[i][j]), (title, i, j)
            continue
        expected = cell_text(values[i][j], decimals, cell["state"] == "masked")
        assert cell["text"] == expected, (title, i, j, cell["text"], values[i][j])
    if labels is not None:
        shown = [safe.plain(label, 20) for label in labels]
        assert spec["encoding"]["y"]["sort"] == shown, title


def numbers(text: str) -> list[str]:
    """The numbers written in a text, as printed."""
    return re.findall(rf"{MINUS}?[0-9]+\.[0-9]+", text)


# Why a row of weights holds NaN, as the summary must say it (the label is the table's).
UNDEFINED_WHY = f"0/0, or ∞/∞ after an overflow: see “{PARAMS['norm'].label}” under More settings"


def summary(
    trace: AttentionTrace,
    query: int,
    head: int,
    decimals: int,
    name: Callable[[str], str] = lambda label: safe.md(label, 24),
) -> str:
    """The focused query's result in words, as the Playground must state it (``name`` writes
    a label: Markdown-escaped on the page, plain as the browser shows it)."""
    labels = display_labels(trace.tokens)
    row = trace.weights_after_dropout[head, query].tolist()
    vector = ", ".join(format_number(v, decimals) for v in trace.output[query].tolist())
    who = name(labels[query])
    # What the output row is: with an output projection it is no longer the context vector.
    what = (
        "context vector"
        if trace.config.out_proj == "none"
        else "output after the output projection"
    )
    if trace.num_heads > 1:  # one head's weights, every head's output
        who = f"In head {head + 1} of {trace.num_heads}, {who}"
        if trace.config.out_proj == "none":
            what += f" (the outputs of the {trace.num_heads} heads joined)"
    if any(math.isnan(w) for w in row):  # 0/0 or ∞/∞: no key is attended to most
        return f"{who} has undefined weights ({UNDEFINED_WHY}); {what} {vector}."
    if all(w == 0 for w in row):  # no weight at all: naming the "largest" 0 names anyone
        if not trace.allowed[query].any():
            why = "nothing to attend to (the mask hides every key), so every weight is 0"
        elif trace.config.dropout_active:
            why = "every weight dropped by dropout"
        else:
            why = "every weight 0"
        return f"{who} has {why}; {what} {vector}."
    printed = [format_number(w, decimals) for w in row]
    top = format_number(max(row), decimals)
    after = " after dropout" if trace.config.dropout_active else ""
    names = [name(labels[j]) for j, text in enumerate(printed) if text == top]
    return (
        f"{who} attends most to {tie_words(names)} "
        f"({top}{' each' if len(names) > 1 else ''}{after}); {what} {vector}."
    )


def tie_words(names: list[str]) -> str:
    """Keys that print the same largest weight, in words (the app names up to three)."""
    if len(names) == 1:
        return names[0]
    if len(names) <= 3:
        return ", ".join(names[:-1]) + " and " + names[-1]
    return f"{names[0]}, {names[1]} and {len(names) - 2} more"


class Shown:
    """The settings a page shows and the helpers every page check needs."""

    def __init__(self, at) -> None:
        self.at = at
        self.settings = shown_settings(at)
        self.decimals = int(self.settings["decimals"])
        self.embeddings = core_embeddings(self.settings)
        self.labels = display_labels(self.settings.tokens)
        self.query = self.settings.query_index

    def fmt(self, value: float) -> str:
        return format_number(float(value), self.decimals)

    def run(self, **changes: object) -> AttentionTrace:
        return run_attention(self.embeddings, core_config(self.settings, **changes))

    def head(self) -> int:
        """The head the page shows (the head widget, where there is one), 0-based."""
        drawn = [w.value for w in self.at.radio if w.key == "head"]
        return int(drawn[0]) - 1 if drawn else 0

    def printed(self, spec: dict) -> int:
        """The decimals a heatmap prints: the page's, or projected, fewer (2 or more) at
        cells of ``PRESENT_CELL_FONT`` px or more, said in a caption under it."""
        texts = [str(r["text"]) for r in records(spec)]
        fixed = [t for t in texts if re.fullmatch(rf"{MINUS}?[0-9]+\.[0-9]+", t)]
        printed = len(fixed[0].split(".")[1]) if fixed else self.decimals
        said = [c.value for c in self.at.caption if c.value.startswith("This chart rounds to")]
        if printed == self.decimals:
            return printed
        assert self.settings["present"], (title_of(spec), fixed[:3], self.decimals)
        assert PRESENT_MIN_DECIMALS <= printed < self.decimals, (title_of(spec), fixed[:3])
        assert all(len(t.split(".")[1]) == printed for t in fixed), title_of(spec)
        fonts = [
            layer["mark"]["fontSize"] for layer in spec["layer"] if layer["mark"]["type"] == "text"
        ]
        assert fonts and min(fonts) >= PRESENT_CELL_FONT, (title_of(spec), fonts)
        assert any(c.startswith(f"This chart rounds to {printed} decimals") for c in said), said
        assert any(c.endswith(f"gives every number to {self.decimals}.") for c in said), said
        return printed

    def heatmap(self, title: str, matrix, labels=True, dropped=None) -> None:
        spec = chart(self.at, title)
        expect_heatmap(spec, matrix, self.printed(spec), self.labels if labels else None, dropped)

    def weights(self, title: str, trace: AttentionTrace, head: int = 0) -> None:
        """A weights heatmap: after dropout, ✕ allowed only on dropped cells."""
        dropped = trace.dropped[head] if trace.config.dropout_active else None
        self.heatmap(title, trace.weights_after_dropout[head], True, dropped)

    def focus(self, trace: AttentionTrace, head: int) -> None:
        """The result in words and the focused query's bars."""
        self.summary(trace, head)
        self.bars(trace, head)

    def summary(self, trace: AttentionTrace, head: int) -> None:
        """The result in words, under the weights."""
        block = self.at.container(key="result_summary")
        expected = summary(trace, self.query, head, self.decimals)
        assert [m.value for m in block.markdown] == [expected]

    def lines(self, trace: AttentionTrace) -> None:
        """The weights as lines: every head's kept weights, printed as the core computed them."""
        from tests.ui.test_flow_lines_compare import line_records

        kept, dropped = line_records(chart(self.at, "attention weights as lines"))
        weights = trace.weights_after_dropout
        for r in kept:
            assert r["weight"] == self.fmt(weights[int(r["head"][5:]) - 1, r["query"], r["key"]])
        for r in dropped:
            assert r["weight"] == "dropped"
            assert not bool(trace.dropout_keep[int(r["head"][5:]) - 1, r["query"], r["key"]])
        drawn = {(r["query"], r["key"]) for r in kept + dropped}
        if trace.config.mask_strategy != "zero_scores":  # that pitfall leaves weight: drawn
            assert drawn <= {(i, j) for i, j in (~trace.blocked).nonzero().tolist()}

    def bars(self, trace: AttentionTrace, head: int) -> None:
        """The focused query's weights as bars."""
        bars = [s for s in vega_specs(self.at) if title_of(s).startswith("weights of ")]
        assert len(bars) == 1
        weights = trace.weights_after_dropout[head, self.query].tolist()
        assert [r["text"] for r in records(bars[0])] == [self.fmt(w) for w in weights]


def playground(shown: Shown) -> None:
    trace = shown.run()
    head = shown.head()
    shown.summary(trace, head)
    if shown.settings["weights_view"] == "lines":
        shown.lines(trace)
    else:
        shown.weights("attention weights", trace, head)
    panel = shown.settings["panel"]  # only the open tab is built
    if panel == "steps":
        shown.bars(trace, head)
    elif panel == "scores":
        scores = [s for s in vega_specs(shown.at) if title_of(s).startswith("scores q·k")]
        assert len(scores) == 1
        expect_heatmap(scores[0], trace.masked_scores[head], shown.printed(scores[0]), shown.labels)
        raw = [s for s in vega_specs(shown.at) if title_of(s).startswith("scores ω = q·k")]
        assert len(raw) == (trace.config.scaling != "none")  # before scaling: the book's ω
        for spec in raw:
            expect_heatmap(spec, trace.scores[head], shown.printed(spec), shown.labels)
        shown.heatmap("context vectors", trace.output)
    elif panel == "qkv":
        shown.heatmap("queries = X · W_query", trace.queries)
        shown.heatmap("values = X · W_value", trace.values)
    elif panel == "checks":
        table = table_with(shown.at, "row sum after dropout")
        diagnostics = trace.diagnostics
        assert column(table, "row sum") == [shown.fmt(v) for v in diagnostics.row_sums[head]]
        assert column(table, "entropy (nats)") == [shown.fmt(v) for v in diagnostics.entropy[head]]
        largest = [shown.fmt(v) for v in diagnostics.max_weight[head]]
        assert column(table, "largest weight") == largest


def embeddings_page(shown: Shown) -> None:
    pairs = similarity(shown.embeddings)
    shown.heatmap("embeddings x", shown.embeddings.values)
    shown.heatmap("dot products x·x", pairs.dot)
    shown.heatmap("cosine similarity", pairs.cosine)
    lengths = [m.value for m in shown.at.markdown if m.value.startswith("Lengths ‖x‖")]
    assert len(lengths) == 1
    assert numbers(lengths[0]) == [shown.fmt(n) for n in pairs.norms.tolist()]


def simplified_page(shown: Shown) -> None:
    simple = shown.run(
        init="identity", scoring="dot", scaling="none", norm="softmax", mask="none",
        dropout=0.0, heads=1, heads_layout="split", qkv_bias=False, out_proj="none",
        kv_groups=0, window=0, rope=False,
    )  # fmt: skip
    # Each score in the wide layout; a narrow one (a phone's) may follow, with the same numbers.
    scores = [e.value for e in shown.at.latex if r"\omega_" in e.value]
    # (the narrow one is the same score: the same ω subscript; two scores may share numbers)
    score_of = [re.search(r"\\omega_\{([^}]*)\}", s).group(1) for s in scores]  # type: ignore[union-attr]
    scores = [s for i, s in enumerate(scores) if not (i and score_of[i] == score_of[i - 1])]
    assert [numbers(s)[-1] for s in scores] == [
        shown.fmt(v) for v in simple.scores[0, shown.query].tolist()
    ]
    rows = compare_normalisations(shown.embeddings, shown.query, shown.settings["input_scale"])
    tables = [t for t in markdown_tables(shown.at) if t[0] == ["key", "weight"]]
    assert len(tables) == 3
    for table, row in zip(tables, rows, strict=True):
        assert column(table, "weight") == [shown.fmt(w) for w in row.weights]
    scope = _captions(shown, "Only these three tables")  # the other sections keep X as it is
    scale = shown.settings["input_scale"]
    expected = (
        f"Only these three tables multiply the embeddings by {scale:g}; sections 1, 3 and 4 "
        "use them as they are."
    )
    assert scope == ([] if scale == 1 else [expected]), scope
    shown.heatmap("attention weights", simple.weights_after_dropout[0])
    shown.heatmap("context vectors", simple.output)


def trainable_page(shown: Shown) -> None:
    if shown.settings["weights_from"] == "typed":
        typed = tuple(shown.settings[name] for name in ("wq", "wk", "wv"))
        trace = shown.run(
            init="custom", custom_weights=typed, heads=1, heads_layout="split", kv_groups=0
        )
    else:
        trace = shown.run()
        shown.heatmap("W_query", trace.W_query, labels=False)
    head = shown.head()
    shown.focus(trace, head)
    shown.weights("attention weights", trace, head)
    shown.heatmap("keys = X · W_key", trace.keys)


def scaling_page(shown: Shown) -> None:
    for scaling, caption in zip(
        ("none", "d", "sqrt_d"), _captions(shown, "largest weight"), strict=True
    ):
        trace = shown.run(scaling=scaling, dropout=0.0)
        title = {"none": "no scaling", "d": "÷ d_k = ÷ ", "sqrt_d": "÷ √d_k = ÷ "}[scaling]
        if scaling != "none":
            title += shown.fmt(trace.scale_divisor)
        shown.heatmap(title, trace.weights_after_dropout[0])
        diagnostics = trace.diagnostics
        assert caption == (
            f"Token {shown.query + 1}: largest weight "
            f"{shown.fmt(diagnostics.max_weight[0, shown.query])}, entropy "
            f"{shown.fmt(diagnostics.entropy[0, shown.query])} nats. All the scores: variance "
            f"{shown.fmt(diagnostics.scaled_score_variance)}."
        )


# Page 5 names the sidebar's normalisation in its titles (a review found "−∞, then softmax"
# above weights divided by the row sum).
NORM_WORDS = {
    "softmax": "softmax",
    "naive_softmax": "naive softmax",
    "sum": "row sum",
    "none": "no normalisation",
}


def short_title(strategy: str, norm: str) -> str:
    if strategy == "zero_scores":
        return "scores × mask (pitfall)"  # before any normalisation: nothing to name
    word = NORM_WORDS[norm]
    if strategy == "neg_inf":
        return "−∞, then " + word
    return word + (", zero, renormalise" if strategy == "zero_renorm" else ", zero (pitfall)")


def visible(shown: Shown, value: float) -> str:
    """How page 5 prints a leak: never as 0 when it is not 0."""
    text = shown.fmt(value)
    if value != 0 and math.isfinite(value) and float(text.replace(MINUS, "-")) == 0:
        return format_scientific(value)
    return text


def causal_page(shown: Shown) -> None:
    settings = shown.settings
    errors = [e.value for e in shown.at.error]
    for strategy in MASK_STRATEGIES:
        trace = shown.run(mask="causal", mask_strategy=strategy, dropout=0.0)
        shown.heatmap(short_title(strategy, settings["norm"]), trace.weights_after_dropout[0])
        verdict = judge_mask(trace)
        if verdict.fault == "row_sum":
            sums = trace.weights[0].sum(dim=-1)[trace.allowed.any(dim=-1)]
            worst = float(sums[(sums - 1).abs().argmax()])
            places = next(  # never printed as 1: as many decimals as tell it from 1
                (d for d in range(shown.decimals, 10) if round(worst, d) != 1), 9
            )
            text = format_number(worst, places)
            assert f"wrong: a row sums to {text} instead of 1" in errors, errors
        if verdict.fault == "leak":
            leak = visible(shown, verdict.leaked)
            assert f"wrong: a future token gets weight {leak}" in errors, errors
        elif verdict.fault == "undefined":  # 0/0 is named before any leak
            assert "wrong: undefined weights (0/0 in a row)" in errors, errors
    inspected = shown.run(mask="causal", mask_strategy=settings["inspect"], dropout=0.0)
    verdict = judge_mask(inspected)
    metrics = {m.label: m.value for m in shown.at.metric}
    assert metrics["largest future weight"] == visible(shown, verdict.leaked)
    assert metrics["worst row-sum error"] == shown.fmt(verdict.worst_row_sum_error)
    config = core_config(settings)
    peek = no_peeking(shown.embeddings, config, settings["peek_token"] - 1, settings["peek_amount"])
    table = table_with(shown.at, "output moved, causal mask")
    assert column(table, "output moved, causal mask") == [shown.fmt(v) for v in peek.with_mask]
    assert column(table, "output moved, no mask") == [shown.fmt(v) for v in peek.without_mask]
    padded = shown.run(mask="padding", padding=settings["lesson_padding"], dropout=0.0)
    shown.heatmap("padding mask: no one attends to padding", padded.weights_after_dropout[0])
    size = shown.embeddings.num_tokens
    linked = settings["my_mask"]
    if linked and len(linked) == size and all(len(row) == size for row in linked):
        allowed = tuple(tuple(bool(v) for v in row) for row in linked)
    else:
        allowed = tuple(tuple(i > 0 and j <= i for j in range(size)) for i in range(size))
    mine = shown.run(mask="custom", custom_mask=allowed, dropout=0.0)
    shown.heatmap("your mask", mine.weights_after_dropout[0])


def dropout_page(shown: Shown) -> None:
    settings = shown.settings
    p = settings["dropout"] if settings["dropout"] > 0 else 0.5
    train = shown.run(dropout=p, train=True)
    evaluation = shown.run(dropout=p, train=False)
    shown.heatmap("before dropout (evaluation)", evaluation.weights_after_dropout[0])
    shown.weights(f"training, p = {p:g} (✕ = dropped)", train)
    sums = ", ".join(shown.fmt(v) for v in train.diagnostics.row_sums_after_dropout[0].tolist())
    assert _captions(shown, "Row sums in training")[0].endswith(f"Row sums in training: {sums}.")
    if not settings["present"]:  # the sentence under it follows the numbers (a review: it said
        row_sums = train.diagnostics.row_sums_after_dropout[0]  # "lose most of their weight")
        row_sums = row_sums[row_sums.isfinite()]  # not a 0/0 row's
        span = ""
        if len(row_sums):
            span = f" (here from {shown.fmt(row_sums.min())} to {shown.fmt(row_sums.max())})"
        said = [m.value for m in shown.at.markdown if "no longer sum to 1" in m.value]
        assert said == [
            f"After dropout the rows no longer sum to 1{span}: the "
            "dropped weights are gone and the kept ones are multiplied by "
            f"{shown.fmt(train.dropout_factor)}. That is expected; it is noise for training only."
        ], said
    average, gap = dropout_average(train.weights, p, settings["samples"], settings["dropout_seed"])
    assert [m.value for m in shown.at.metric] == [shown.fmt(gap)]
    samples = settings["samples"]
    shown.heatmap(f"average of {samples} sample{'s' * (samples != 1)}", average[0])


def multihead_page(shown: Shown) -> None:
    config = several_heads(core_config(shown.settings, dropout=0.0), shown.embeddings.d_in)
    trace = run_attention(shown.embeddings, config) if config is not None else shown.run()
    for head in range(trace.num_heads):
        shown.weights(f"head {head + 1}", trace, head)
    shown.heatmap("the heads' outputs side by side", trace.context)
    title = "weights averaged over heads (what nn.MultiheadAttention returns)"
    shown.heatmap(title, trace.mean_weights)


def mistakes_page(shown: Shown) -> None:
    runs = common_mistakes(shown.embeddings, core_config(shown.settings))
    labels = [e.label for e in shown.at.expander if e.label[:1].isdigit()]
    assert [label.split(". ", 1)[0] for label in labels] == [str(i + 1) for i in range(len(runs))]
    differences = [m.value for m in shown.at.markdown if m.value.startswith("The weights differ")]
    assert differences == [
        f"The weights differ by up to **{shown.fmt(runs[0].max_weight_diff)}** (mistake − "
        f"correct, below); the context vectors by up to **{shown.fmt(runs[0].max_diff)}**."
    ]
    first = runs[0]
    shown.heatmap("the mistake", first.wrong_weights[0])
    shown.heatmap("mistake − correct", first.weight_difference[0])


def word_vectors_page(shown: Shown) -> None:
    from real_model import glove_attention

    glove = glove_attention(shown.settings["sentence"])
    labels = display_labels(glove.words)
    focus = glove.focus_index(shown.settings["word"])
    table = next(t for t in markdown_tables(shown.at) if t[0][0] == "numbers")
    printed = [cell for row in table[1:] for cell in row[1:]]
    assert printed == [shown.fmt(v) for v in glove.embeddings.values[focus].tolist()]
    softmax = chart(shown.at, "softmax(X Xᵀ / √50)")
    expect_heatmap(softmax, glove.softmax.weights[0], shown.printed(softmax), labels)


def real_sentences_page(shown: Shown) -> None:
    from real_model import compare_word, shared_model
    from real_model.seed001 import AMAZON, ODYSSEY

    comparison = compare_word(shared_model(), ODYSSEY, AMAZON, shown.settings["compare"].lower())
    metrics = {m.label: m.value for m in shown.at.metric}
    assert metrics["cosine of its two contextual vectors"] == shown.fmt(
        comparison.contextual_cosine
    )
    assert metrics["cosine of its two noncontextual vectors"] == shown.fmt(
        comparison.noncontextual_cosine
    )
    assert any(s.value.startswith("Reproduced") for s in shown.at.success)


def flow_page(shown: Shown) -> None:
    from tests.ui.test_flow_lines_compare import check_every_number, picture_cells

    diagrams = [s for s in vega_specs(shown.at) if not title_of(s)]  # the one untitled picture
    assert len(diagrams) == 1
    # Projected, the picture may print fewer decimals than the page, and then says so.
    x_cell = picture_cells(diagrams[0])["X"][(0, 0)]
    printed = len(x_cell.split(".")[1]) if "." in x_cell else 0
    said = [c.value for c in shown.at.caption if "The picture rounds to" in c.value]
    if printed == shown.decimals:
        assert said == []
    else:
        assert shown.settings["present"] and 2 <= printed < shown.decimals, x_cell
        assert said and said[0].startswith(f"The picture rounds to {printed} decimals"), said
    check_every_number(shown.run(), shown.query, shown.head(), diagrams[0], printed)


def compare_page(shown: Shown) -> None:
    titles = [title_of(s) for s in vega_specs(shown.at)]
    pin = shown.settings["pin"]
    if not pin:
        assert not [t for t in titles if t.startswith(("A:", "B − A"))]
        return
    pinned = read_pin(pin)
    first = run_attention(pinned.embeddings(), pinned.config())
    second = shown.run()
    if first.num_heads != second.num_heads:
        before, after, head = first.mean_weights, second.mean_weights, None
    else:
        head = shown.head()
        before, after = first.weights_after_dropout[head], second.weights_after_dropout[head]
    a_title, b_title = [t for t in titles if t.startswith(("A: weights", "B: weights"))]
    a_chart, b_chart = chart(shown.at, a_title), chart(shown.at, b_title)
    expect_heatmap(a_chart, before, shown.printed(a_chart), display_labels(pinned.tokens))
    expect_heatmap(b_chart, after, shown.printed(b_chart), shown.labels)
    if first.num_tokens == second.num_tokens:
        difference = chart(shown.at, "B − A: change of each weight")
        expect_heatmap(difference, after - before, shown.printed(difference), shown.labels)
    else:
        assert "B − A: change of each weight" not in titles


def todays_attention_page(shown: Shown) -> None:
    from attention_core import AttentionInputError, rope
    from attention_core.head_split import trace_head_split
    from attention_core.kv_cache import generate
    from ui.blocks.grouped_heads import EXAMPLE

    trace = shown.run()
    # with one head, the grouped heads and the head split show the example's four heads
    heads = trace
    if trace.num_heads == 1:
        try:
            heads = shown.run(**EXAMPLE)
        except AttentionInputError:  # the example's heads do not fit (identity weights)
            heads = trace
    if heads.num_heads > 1:
        group_size = heads.num_heads // heads.kv_heads
        for head in range(heads.num_heads):
            shown.weights(f"head {head + 1} · K/V {head // group_size + 1}", heads, head)
        memory = table_with(shown.at, "bytes per token")
        bytes_each = 2 * heads.kv_heads * heads.head_dim * 4
        assert f"{bytes_each} B" in column(memory, "bytes per token")
    split = trace_head_split(heads)
    wrong = column(table_with(shown.at, "“head 1”, wrong view"), "“head 1”, wrong view")
    assert wrong == [format_vector(row, shown.decimals) for row in split.wrong_queries[0].tolist()]
    window = shown.settings["window"]
    causal = shown.run(mask="causal", custom_mask=None)
    title = f"causal, window {window}" if window else "causal, no window"
    shown.weights(title + (" (head 1)" if causal.num_heads > 1 else ""), causal, 0)
    steps = generate(shown.embeddings, core_config(shown.settings))
    cache = table_with(shown.at, "cache size (K and V)")
    assert column(cache, "cache size (K and V)") == [f"{s.cache_bytes} B" for s in steps]
    current = steps[min(int(shown.settings["kv_step"]), len(steps)) - 1]
    said = [m.value for m in shown.at.markdown if m.value.startswith("Head 1's weights")]
    printed = [shown.fmt(w) for w in current.weights[0].tolist()]  # "undefined" for 0/0, ∞/∞
    assert numbers(said[0]) == numbers(" ".join(printed))
    assert all(word in said[0] for word in printed)
    if trace.head_dim % 2:
        assert any(a.value.startswith("RoPE turns pairs") for a in shown.at.info)
        return
    turned = trace if trace.config.rope else shown.run(rope=True)
    if turned.rope_angles is not None:
        angles = table_with(shown.at, "position")
        expected = rope.angles(trace.num_tokens, turned.head_dim, turned.config.rope_base)
        assert [row[2].split(" rad")[0] for row in angles[1:]] == [
            shown.fmt(a) for a in expected[:, 0].tolist()
        ]


def cross_attention_page(shown: Shown) -> None:
    """The decoder layer on the link's source and target: the chosen step's Q/K/V shapes,
    scores, weights and output, the axes named after both sequences."""
    from attention_core.cross import decoder_layer, decoder_problem, target_of

    settings = shown.settings
    target = target_of(settings["target"], settings["target_tokens"], settings["lang"])
    problem = decoder_problem(target, shown.embeddings, core_config(settings))
    if problem is not None:  # said instead of the layer (without projections, two widths)
        said = [i.value for i in shown.at.info if i.value.startswith("The decoder layer cannot")]
        assert said and "need the same width" in said[0], said
        return
    layer = decoder_layer(target, shown.embeddings, core_config(settings))
    step = int(settings["decoder_step"])
    trace = layer.self_attention if step == 1 else layer.cross_attention
    head = shown.head()
    rows = display_labels(target.tokens)
    keys = "target" if step == 1 else "source"
    axes = f"rows: target queries × columns: {keys} keys"
    weights = chart(shown.at, f"step {step} weights ({axes})")
    dropped = trace.dropped[head] if trace.config.dropout_active else None
    matrix = trace.weights_after_dropout[head]
    expect_heatmap(weights, matrix, shown.printed(weights), rows, dropped)
    assert len(records(weights)) == target.num_tokens * trace.num_keys
    scores = chart(shown.at, f"step {step} scores ({axes})")
    expect_heatmap(scores, trace.masked_scores[head], shown.printed(scores), rows)
    output = chart(shown.at, f"step {step}'s output")
    expect_heatmap(output, trace.output, shown.printed(output), rows)
    shapes = table_with(shown.at, "result")
    width = trace.queries.shape[1]
    assert column(shapes, "result")[:2] == [
        f"{target.num_tokens} × {width}",
        f"{trace.num_keys} × {width}",
    ]
    if step == 2:
        said = [m.value for m in shown.at.markdown if m.value.startswith("Rows are the target's")]
        assert said and f"{target.num_tokens} queries" in said[0], said
        assert f"the source's {trace.num_keys} keys" in said[0]


def saving_memory_page(shown: Shown) -> None:
    from attention_core.flash_tiles import tiled_attention
    from attention_core.gated_deltanet import gated_deltanet
    from attention_core.latent_attention import latent_attention
    from attention_core.memory_estimates import book_commands, estimate, gigabytes, model_size
    from attention_core.memory_report import memory_rows

    trace = shown.run()
    settings = shown.settings
    mla = latent_attention(shown.embeddings, trace, int(settings["latent_width"]))
    sizes = table_with(shown.at, "bytes per token")
    assert column(sizes, "bytes per token")[0] == f"{2 * trace.num_heads * trace.head_dim * 4} B"
    assert column(sizes, "bytes per token")[-1] == f"{mla.latent_dim * 4} B"
    shown.heatmap("the latent cache (one row per token)", mla.latents)
    delta = gated_deltanet(trace)
    memory = table_with(shown.at, "tokens so far")
    assert column(memory, "KV cache (multi-head)") == [
        f"{s.kv_cache_bytes()} B" for s in delta.steps
    ]
    assert set(column(memory, "gated DeltaNet's state")) == {f"{delta.steps[0].state_bytes} B"}
    head = min(int(settings["head"]), trace.num_heads) - 1  # the sidebar's head
    tiles = tiled_attention(trace, head, settings["tile_queries"], settings["tile_keys"])
    held = table_with(shown.at, "score entries held at once")
    assert column(held, "score entries held at once") == [
        str(tiles.held_tiled),
        str(tiles.held_plain),
    ]
    step = tiles.steps[min(int(settings["tile_step"]), len(tiles.steps)) - 1]
    running = table_with(shown.at, "running sum l")
    assert column(running, "running sum l") == [
        f"{shown.fmt(a)} → {shown.fmt(b)}"
        for a, b in zip(step.sum_before.tolist(), step.sum_after.tolist(), strict=True)
    ]
    result = estimate(model_size(settings.values))
    calculator = table_with(shown.at, "bytes kept")
    assert column(calculator, "bytes kept") == [f"{c:,.0f} B" for _n, c, _s in memory_rows(result)]
    assert column(calculator, "gigabytes")[0] == gigabytes(result.mha)
    commands = [c.value for c in shown.at.code if c.value.startswith("uv run")]
    assert commands == ["\n".join(book_commands(result.size).values())]


def _captions(shown: Shown, containing: str) -> list[str]:
    return [c.value for c in shown.at.caption if containing in c.value]


CHECKS: dict[str, Callable[[Shown], None]] = {
    "streamlit_app": playground,
    "0_Flow": flow_page,
    "0_Compare": compare_page,
    "1_Embeddings": embeddings_page,
    "2_Simplified_attention": simplified_page,
    "3_Trainable_weights": trainable_page,
    "4_Scaling": scaling_page,
    "5_Causal_mask": causal_page,
    "6_Dropout": dropout_page,
    "7_Multi-head_attention": multihead_page,
    "8_Common_mistakes": mistakes_page,
    "9_Word_vectors": word_vectors_page,
    "10_Real_sentences": real_sentences_page,
    "11_Todays_attention": todays_attention_page,
    "12_Cross_attention": cross_attention_page,
    "13_Saving_memory": saving_memory_page,
}


def check_numbers(at) -> Settings:
    """Assert that the page shows the core's numbers for the settings it shows; returns them."""
    shown = Shown(at)
    CHECKS[current_page(at)](shown)
    return shown.settings
