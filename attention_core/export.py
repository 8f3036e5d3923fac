"""Code export: a self-contained PyTorch script that reproduces one trace's context vectors."""

from __future__ import annotations

from attention_core import export_book
from attention_core.export_book import tensor as _tensor
from attention_core.trace import AttentionTrace

_NORMALISE = {
    "softmax": ["weights = torch.softmax(masked_scores, dim=-1)"],
    "naive_softmax": [
        "exponentials = torch.exp(masked_scores)  # no max subtracted: large scores overflow",
        "weights = exponentials / exponentials.sum(dim=-1, keepdim=True)",
    ],
    "sum": [
        "kept = masked_scores.masked_fill(torch.isneginf(masked_scores), 0.0)",
        "weights = kept / kept.sum(dim=-1, keepdim=True)",
    ],
    "none": ["weights = masked_scores.masked_fill(torch.isneginf(masked_scores), 0.0)"],
}


def export_script(trace: AttentionTrace) -> str:
    """Return Python source (torch only) that recomputes and prints ``trace.output``: the
    book's inputs, weights and class where the view uses them (``attention_core.export_book``),
    with the learner's changes as edits, then every step the view adds."""
    title = "Cross-attention" if trace.is_cross else "Self-attention"
    lines = [
        f'"""{title}, step by step, exactly as the attention dashboard computed it."""',
        *_IMPORTS,
        *export_book.input_lines(trace),
        *_source_lines(trace),
        "",
        *_weight_lines(trace),
    ]
    if export_book.plain(trace) and not trace.is_cross:
        lines += ["", "", *export_book.CLASS_LINES]
    else:
        lines += _step_lines(trace)
    return "\n".join([*lines, *_PRINT]) + "\n"


def export_decoder_script(first: AttentionTrace, second: AttentionTrace) -> str:
    """Python source (torch only) for a decoder layer: causal self-attention over the target
    (``first``), then cross-attention from its output to the source (``second``); prints
    the output of the second."""
    lines = [
        '"""A decoder layer, step by step, exactly as the attention dashboard computed it."""',
        *_IMPORTS,
        "# Step 1: masked (causal) self-attention over the target",
        f"tokens = {list(first.tokens)!r}",
        f"inputs = {_tensor(first.inputs)}  # the target: (num_target, d_in)",
        *_weight_lines(first),
        *_step_lines(first),
        "",
        "# Step 2: cross-attention, queries from step 1's output, keys and values from the source",
        "inputs = output  # step 1's output: (num_target, width)",
        *_source_lines(second),
        *_weight_lines(second),
        *_step_lines(second),
    ]
    return "\n".join([*lines, *_PRINT]) + "\n"


_IMPORTS = ["", "import torch", "import torch.nn.functional as F", ""]
_PRINT = ["", "torch.set_printoptions(precision=6, sci_mode=False)", "print(output)"]


def _source_lines(trace: AttentionTrace) -> list[str]:
    """Cross-attention's second input: the source, whose keys and values the target reads."""
    if trace.source_inputs is None:
        return []
    return [
        f"source_tokens = {list(trace.key_tokens)!r}",
        f"source = {_tensor(trace.source_inputs)}  # (num_source, d_source)",
    ]


def _weight_lines(trace: AttentionTrace) -> list[str]:
    if export_book.book_draw(trace):
        return export_book.weight_lines(trace)
    return [
        f"W_query = {_tensor(trace.W_query)}  # (d_in, width of queries)",
        f"W_key = {_tensor(trace.W_key)}  # ({'d_source' if trace.is_cross else 'd_in'}, width)",
        f"W_value = {_tensor(trace.W_value)}",
    ]


def _step_lines(trace: AttentionTrace) -> list[str]:
    """Every step of the view, from the projections to ``output``."""
    config = trace.config
    lines = [
        *_bias_lines(trace),
        f"num_heads = {trace.num_heads}",
        "",
        *_projection_lines(trace),
        "",
        "",
        "def split_heads(matrix):",
        "    # (num_tokens, num_heads * head_dim) -> (num_heads, num_tokens, head_dim)",
        "    return matrix.reshape(matrix.shape[0], num_heads, -1).transpose(0, 1)",
        "",
        "",
        "head_queries = split_heads(queries)",
        "head_keys = split_heads(keys)",
        "head_values = split_heads(values)",
    ]
    if config.scoring == "cosine":
        lines += [
            "head_queries = F.normalize(head_queries, dim=-1)  # cosine similarity",
            "head_keys = F.normalize(head_keys, dim=-1)",
        ]
    lines += [
        f"scores = head_queries @ head_keys.transpose(-2, -1)  # {_score_shape(trace)}",
        SCALED[config.scaling],
    ]
    lines += _mask_lines(trace)
    lines += _NORMALISE[config.norm]
    lines += _after_norm_lines(trace)
    lines += [
        "head_context = weights @ head_values  # (num_heads, num_tokens, head_dim)",
        "context = head_context.transpose(0, 1).reshape(len(tokens), -1)",
    ]
    return lines + _output_lines(trace)


def _score_shape(trace: AttentionTrace) -> str:
    if trace.is_cross:
        return "(num_heads, target tokens, source tokens)"
    return "(num_heads, tokens, tokens)"


SCALED = {  # the scaling of the scores, as the book writes it
    "none": "scaled_scores = scores  # not scaled",
    "d": "scaled_scores = scores / head_keys.shape[-1]  # divided by d_k",
    "sqrt_d": "scaled_scores = scores / head_keys.shape[-1] ** 0.5  # divided by the root of d_k",
}


def _bias_lines(trace: AttentionTrace) -> list[str]:
    biases = (("b_query", trace.b_query), ("b_key", trace.b_key), ("b_value", trace.b_value))
    return [f"{name} = {_tensor(bias)}" for name, bias in biases if bias is not None]


def _projection_lines(trace: AttentionTrace) -> list[str]:
    layers = (
        ("queries", "query", trace.b_query),
        ("keys", "key", trace.b_key),
        ("values", "value", trace.b_value),
    )
    kv_input = "source" if trace.is_cross else "inputs"
    lines = [
        f"{name} = {'inputs' if part == 'query' else kv_input} @ W_{part}"
        + ("" if bias is None else f" + b_{part}")
        for name, part, bias in layers
    ]
    lines[0] += "  # (num_tokens, width of queries)"
    return lines


def _output_lines(trace: AttentionTrace) -> list[str]:
    if trace.W_out is None:
        return ["output = context  # no output projection"]
    lines = [f"W_out = {_tensor(trace.W_out)}"]
    if trace.b_out is None:
        return [*lines, "output = context @ W_out"]
    return [*lines, f"b_out = {_tensor(trace.b_out)}", "output = context @ W_out + b_out"]


def _mask_lines(trace: AttentionTrace) -> list[str]:
    strategy = trace.config.mask_strategy
    if not _masks_anything(trace):
        return ["masked_scores = scaled_scores  # nothing is masked"]
    lines = [f"allowed = {_tensor(trace.allowed)}  # True = may attend"]
    if trace.config.mask == "causal" and bool(trace.allowed.equal(trace.allowed.tril())):
        lines = [
            "# Section 3.5.1's causal mask: no query may look at a later key",
            "allowed = torch.tril(torch.ones(len(tokens), len(tokens), dtype=torch.bool))",
        ]
    if strategy == "neg_inf":
        lines.append("masked_scores = scaled_scores.masked_fill(~allowed, float('-inf'))")
    elif strategy == "zero_scores":
        lines.append("masked_scores = scaled_scores * allowed  # PITFALL: 0 is not -inf")
    else:
        lines.append("masked_scores = scaled_scores  # the mask is applied after normalising")
    return lines


def _masks_anything(trace: AttentionTrace) -> bool:
    """False when every query may attend to every key (no mask, padding 0, an all-True grid):
    the dashboard then skips the masking steps, and so does the script."""
    return not bool(trace.allowed.all())


def _after_norm_lines(trace: AttentionTrace) -> list[str]:
    config = trace.config
    strategy = config.mask_strategy if _masks_anything(trace) else None
    lines = []
    if strategy == "neg_inf":
        lines.append("# a row with nothing to attend to gets zero weights instead of NaN")
        lines.append("weights = torch.where(allowed.any(dim=-1, keepdim=True), weights, 0.0)")
    if strategy == "zero_renorm":
        lines += _zero_renorm_lines(config.norm)
    if strategy == "zero_no_renorm":
        lines.append("weights = weights * allowed  # PITFALL: rows no longer sum to 1")
    if config.dropout_active:
        lines += [
            f"dropout_keep = {_tensor(trace.dropout_keep)}  # the sample the dashboard drew",
            f"weights = weights * dropout_keep / (1 - {export_book.short(config.dropout)})",
        ]
    return lines


def _zero_renorm_lines(norm: str) -> list[str]:
    if norm != "softmax":
        return [
            "weights = weights * allowed",
            "row_sums = weights.sum(dim=-1, keepdim=True)",
            "weights = weights / torch.where(row_sums == 0, 1.0, row_sums)",
        ]
    return [
        "# zero the blocked weights and renormalise: softmax's denominator cancels, so start",
        "# again from the scores, shifted by each row's largest KEPT score (never underflows)",
        "kept_scores = masked_scores.masked_fill(~allowed, float('-inf'))",
        "row_max = kept_scores.amax(dim=-1, keepdim=True)",
        "weights = torch.exp(kept_scores - torch.where(row_max.isfinite(), row_max, 0.0))",
        "row_sums = weights.sum(dim=-1, keepdim=True)",
        "weights = weights / torch.where(row_sums == 0, 1.0, row_sums)",
    ]
