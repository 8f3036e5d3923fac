"""The parameter table: every knob of the project named once.

Each row gives a knob's name, type, default, limits or choices, the words a learner reads and
whether it depends on the number of tokens. The config's validation, the command line's flags,
the link's keys and the dashboard's widgets are all generated from ``PARAMS``: a new knob is one
row here plus its computation.
"""

from __future__ import annotations

from typing import Any

from attention_core.param_spec import MAX_DIMS, MAX_TOKENS, Param

SEED_MAX = 2**32 - 1
MASK_STRATEGIES = {
    "neg_inf": "−∞ before softmax",
    "zero_renorm": "softmax, zero, renormalise",
    "zero_scores": "multiply the scores by the mask (a pitfall)",
    "zero_no_renorm": "softmax, then zero (a pitfall)",
}


def _choice(
    name: str,
    options: dict[str, str],
    default: str,
    label: str,
    help: str,
    scope: str = "config",
    **extra: Any,
) -> Param:
    return Param(
        name,
        "choice",
        default,
        label,
        help,
        scope,
        choices=tuple(options),
        choice_labels=tuple(options.values()),
        **extra,
    )


_ROWS = (
    # --- the input: which matrix ------------------------------------------------------------
    _choice(
        "preset",
        {
            "journey": "Book: “Your journey starts with one step” (6 × 3)",
            "nugues": "GloVe lesson: Nugues' test matrix (3 × 4)",
            "montreal": "Random normal: “I live in Montreal” (4 × 8)",
            "random": "Random uniform, any size",
        },
        "journey",
        "Example sentence",
        "Which embedding matrix to start from. Editing the matrix never changes this choice; "
        "Reset goes back to it.",
        scope="input",
        widget="select",
        group="input",
    ),
    Param(
        "num_tokens",
        "int",
        6,
        "tokens",
        "Number of tokens (rows) of the random matrix.",
        "input",
        low=1,
        high=MAX_TOKENS,
        step=1,
        widget="number",
        group="input",
        only_when=("preset", "random"),
    ),
    Param(
        "d_in",
        "int",
        3,
        "dimensions",
        "Numbers per token (columns) of the random matrix.",
        "input",
        low=1,
        high=MAX_DIMS,
        step=1,
        widget="number",
        group="input",
        only_when=("preset", "random"),
    ),
    Param(
        "tokens",
        "labels",
        None,
        "token labels",
        "Comma-separated labels, one per row of the matrix.",
        "input",
    ),
    Param(
        "x",
        "matrix",
        None,
        "embedding matrix",
        "Rows separated by ';', numbers by ',' (e.g. 0.43,0.15,0.89;0.55,0.87,0.66).",
        "input",
    ),
    # --- the config: how attention is computed ---------------------------------------------
    Param(
        "d_out",
        "int",
        2,
        "d_out: width of queries, keys and values",
        "Each token's query, key and value vector has this many numbers. The book uses 2.",
        "config",
        low=1,
        high=8,
        step=1,
        widget="slider",
        group="weights",
    ),
    _choice(
        "init",
        {
            "book": "random uniform, as the book's torch.rand",
            "linear": "nn.Linear's default (random, centred at 0)",
            "identity": "none: queries = keys = values = x",
        },
        "book",
        "W_query, W_key, W_value",
        "How the three projection matrices are made. “none” skips them, as in simplified "
        "attention: then d_out is the input width.",
        internal=("custom",),
        widget="select",
        group="weights",
    ),
    Param(
        "seed",
        "int",
        123,
        "seed for the weights",
        "Random matrices are drawn from a generator started with this number: the same seed "
        "always gives the same numbers. The book uses 123.",
        "config",
        low=0,
        high=SEED_MAX,
        step=1,
        widget="number",
        group="weights",
    ),
    Param(
        "heads",
        "int",
        1,
        "heads",
        "Several attention heads side by side. With one wide projection cut into heads, "
        "d_out must be divisible by the number of heads.",
        "config",
        low=1,
        high=8,
        step=1,
        widget="select",
        group="weights",
    ),
    _choice(
        "scaling",
        {"none": "none", "d": "÷ d_k", "sqrt_d": "÷ √d_k"},
        "sqrt_d",
        "Scale the scores",
        "Divide every score by nothing, by d_k (the width of a key) or by its square root, "
        "as the book and the original Transformer do.",
        widget="radio",
        group="scores",
    ),
    _choice(
        "mask",
        {"none": "none", "causal": "causal: no looking ahead", "padding": "padding at the end"},
        "none",
        "Mask",
        "Which keys each query may not attend to. Causal: token i sees tokens 1…i only.",
        internal=("custom",),
        widget="select",
        group="scores",
    ),
    Param(
        "padding",
        "int",
        1,
        "padding tokens at the end",
        "With the padding mask: how many tokens at the end are padding, which no one attends to.",
        "config",
        low=0,
        high=MAX_TOKENS,
        step=1,
        tokens="count",
        widget="number",
        group="scores",
        only_when=("mask", "padding"),
    ),
    Param(
        "dropout",
        "float",
        0.0,
        "dropout rate p",
        "In training, each weight is set to 0 with probability p and the rest are multiplied "
        "by 1/(1−p).",
        "config",
        low=0.0,
        high=0.9,
        step=0.05,
        widget="slider",
        group="dropout",
    ),
    Param(
        "train",
        "bool",
        True,
        "training mode",
        "Dropout acts only in training; in evaluation mode the weights pass unchanged.",
        "config",
        widget="toggle",
        group="dropout",
    ),
    Param(
        "dropout_seed",
        "int",
        0,
        "dropout seed",
        "Which weights are dropped is drawn from a generator started with this number.",
        "config",
        low=0,
        high=SEED_MAX,
        step=1,
        widget="number",
        group="dropout",
    ),
    _choice(
        "scoring",
        {"dot": "dot product q·k", "cosine": "cosine similarity"},
        "dot",
        "Scores",
        "The dot product grows with both direction and length; the cosine measures direction "
        "only (seed 001's first attention).",
        widget="radio",
        group="advanced",
    ),
    _choice(
        "norm",
        {
            "softmax": "softmax (stable)",
            "naive_softmax": "softmax written naively (can overflow)",
            "sum": "divide by the row sum (a pitfall)",
            "none": "none: use the scores as weights",
        },
        "softmax",
        "Scores → weights",
        "How each row of scores becomes weights that sum to 1.",
        widget="select",
        group="advanced",
    ),
    _choice(
        "mask_strategy",
        MASK_STRATEGIES,
        "neg_inf",
        "How the mask is applied",
        "The first two are correct and agree; the last two are mistakes found in the seeds.",
        widget="select",
        group="advanced",
    ),
    _choice(
        "heads_layout",
        {"split": "one wide projection, cut into heads", "wrapper": "independent heads"},
        "split",
        "Heads are",
        "Cut one d_out-wide projection into heads (the book's MultiHeadAttention), or give each "
        "head its own d_out-wide matrices (the book's MultiHeadAttentionWrapper).",
        widget="radio",
        group="advanced",
    ),
    Param(
        "qkv_bias",
        "bool",
        False,
        "biases on W_query, W_key, W_value",
        "The book's qkv_bias=True: queries, keys and values each get a bias vector, drawn "
        "like nn.Linear's (after its matrix, from the same seed). Only for drawn matrices "
        "(book, linear); “none” has no projection to add a bias to.",
        "config",
        widget="toggle",
        group="advanced",
    ),
    _choice(
        "out_proj",
        {
            "none": "none: the heads' outputs side by side",
            "linear": "nn.Linear with bias, as the book's MultiHeadAttention",
            "identity": "identity matrix: shown, changes nothing",
        },
        "none",
        "Output projection",
        "One more matrix (and bias) that mixes the heads' outputs. The default, none, is the "
        "book up to section 3.6.1 (SelfAttention, CausalAttention, MultiHeadAttentionWrapper); "
        "linear is section 3.6.2's out_proj = nn.Linear(d_out, d_out), drawn after W_value "
        "from the same seed, for any number of heads.",
        widget="radio",
        group="advanced",
    ),
    # --- the view: how the dashboard shows it ----------------------------------------------
    Param(
        "query",
        "int",
        2,
        "Focus on token",
        "The token whose numbers are explained step by step (x⁽²⁾ is the second token).",
        "view",
        low=1,
        high=MAX_TOKENS,
        step=1,
        tokens="index",
        widget="select",
        group="input",
    ),
    Param(
        "decimals",
        "int",
        4,
        "decimals",
        "How many decimals every number is shown with. The book prints 4.",
        "view",
        low=1,
        high=6,
        step=1,
        widget="select",
        group="view",
    ),
    _choice(
        "weight_scale",
        {
            "fitted": "fitted to the numbers shown (small differences visible)",
            "fixed": "fixed from 0 to 1 (the same colour means the same weight everywhere)",
        },
        "fitted",
        "Weight colours",
        "Fitted: the lightest cell is the largest weight shown and the darkest the smallest. "
        "Fixed: colours mean the same weight on every chart and page.",
        scope="view",
        widget="radio",
        group="view",
    ),
    Param(
        "present",
        "bool",
        False,
        "Presentation mode",
        "Larger type and less prose, results first: for projecting in class.",
        "view",
        widget="toggle",
        group="view",
        dashboard_only=True,
    ),
)

_LESSON_ROWS = (
    Param(
        "head",
        "int",
        1,
        "head",
        "Which head's weights to show.",
        "view",
        low=1,
        high=8,
        step=1,
        widget="radio",
    ),
    Param(
        "input_scale",
        "float",
        1.0,
        "multiply every embedding by",
        "Scores grow with the square of this factor. Watch the softmax written naively.",
        "lesson",
        low=1.0,
        high=30.0,
        step=0.5,
        widget="slider",
        page="2_Simplified_attention",
    ),
    _choice(
        "inspect",
        MASK_STRATEGIES,
        "zero_scores",
        "Inspect one way of masking",
        "The scores exactly as this strategy hands them to the normalisation.",
        scope="lesson",
        widget="select",
        page="5_Causal_mask",
    ),
    Param(
        "peek_token",
        "int",
        6,
        "change the embedding of token",
        "A later token whose numbers change; with the causal mask, earlier outputs must not move.",
        "lesson",
        low=1,
        high=MAX_TOKENS,
        step=1,
        tokens="index",
        widget="select",
        page="5_Causal_mask",
    ),
    Param(
        "peek_amount",
        "float",
        0.5,
        "by adding to each of its numbers",
        "How much is added to every number of that token's embedding.",
        "lesson",
        low=-2.0,
        high=2.0,
        step=0.1,
        widget="slider",
        page="5_Causal_mask",
    ),
    Param(
        "lesson_padding",
        "int",
        1,
        "padding tokens at the end",
        "How many tokens at the end are padding, which no query may attend to.",
        "lesson",
        low=0,
        high=MAX_TOKENS,
        step=1,
        tokens="count",
        widget="slider",
        page="5_Causal_mask",
    ),
    _choice(
        "weights_from",
        {"sidebar": "drawn as the sidebar says", "typed": "typed by me"},
        "sidebar",
        "W_query, W_key and W_value are",
        "Drawn from the seed with the sidebar's initialisation, or typed into the grids below.",
        scope="lesson",
        widget="radio",
        page="3_Trainable_weights",
    ),
    *(
        Param(
            name,
            "matrix",
            None,
            name,
            "A typed projection matrix: one row per input number, one column per output.",
            "lesson",
            high=MAX_DIMS,
            page="3_Trainable_weights",
        )
        for name in ("wq", "wk", "wv")
    ),
    Param(
        "my_mask",
        "matrix",
        None,
        "your mask",
        "Rows are queries, columns keys: 1 = may attend, 0 = hidden.",
        "lesson",
        high=MAX_TOKENS,
        page="5_Causal_mask",
    ),
    Param(
        "samples",
        "int",
        200,
        "number of dropout samples",
        "How many independent dropout samples are averaged.",
        "lesson",
        low=1,
        high=5000,
        step=1,
        widget="slider",
        page="6_Dropout",
    ),
)

PARAMS: dict[str, Param] = {row.name: row for row in (*_ROWS, *_LESSON_ROWS)}
CONFIG_PARAMS = tuple(name for name, p in PARAMS.items() if p.scope == "config")
INPUT_PARAMS = tuple(name for name, p in PARAMS.items() if p.scope == "input")
VIEW_PARAMS = tuple(name for name, p in PARAMS.items() if p.scope == "view")
DEFAULTS: dict[str, Any] = {name: p.default for name, p in PARAMS.items()}


def lesson_params(page: str) -> tuple[str, ...]:
    """The knobs that live on one lesson page."""
    return tuple(name for name, p in PARAMS.items() if p.scope == "lesson" and p.page == page)
