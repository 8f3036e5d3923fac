"""The parameter table: every knob of the project named once.

Each row gives a knob's name, type, default, limits or choices, the words a learner reads and
whether it depends on the number of tokens. The config's validation, the command line's flags,
the link's keys and the dashboard's widgets are all generated from ``PARAMS``: a new knob is one
row here plus its computation.
"""

from __future__ import annotations

from typing import Any

from attention_core.knobs.memory_rows import MEMORY_ROWS
from attention_core.knobs.param import MAX_DIMS, MAX_TOKENS, Param
from translation import ENGLISH, LANGUAGES, N_

SEED_MAX = 2**32 - 1
# The rows of a real sentence's heatmaps: page 9's words found in GloVe, page 10's model tokens
# ([CLS] and [SEP] included). Both pages use a longer sentence's first this many, and say so.
SENTENCE_TOKENS = 32
# The stages of the Flow page, in the order the math happens (the ``stage`` knob counts them).
FLOW_STAGES = (
    N_("the tokens X"),
    N_("queries, keys and values"),
    N_("scores q·k"),
    N_("scaling"),
    N_("the mask"),
    N_("softmax"),
    N_("dropout"),
    N_("the weighted sum of values"),
    N_("heads merged, output projection"),
)
MASK_STRATEGIES = {
    "neg_inf": N_("−∞ before softmax"),
    "zero_renorm": N_("softmax, zero, renormalise"),
    "zero_scores": N_("scores × mask (a pitfall)"),
    "zero_no_renorm": N_("softmax, then zero (a pitfall)"),
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
            "journey": N_("The book's sentence (6 × 3)"),
            "zh_journey": N_("The book's, in Chinese (6 × 3)"),
            "nugues": N_("Nugues' test matrix (3 × 4)"),
            "montreal": N_("“I live in Montreal” (4 × 8)"),
            "random": N_("Random uniform, any size"),
        },
        "journey",
        N_("Example sentence"),
        N_(
            "Which embedding matrix to start from. Editing the matrix never changes this choice; "
            "Reset goes back to it."
        ),
        scope="input",
        widget="select",
        group="input",
    ),
    Param(
        "num_tokens",
        "int",
        6,
        N_("tokens"),
        N_("Number of tokens (rows) of the random matrix."),
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
        N_("dimensions"),
        N_("Numbers per token (columns) of the random matrix."),
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
        N_("token labels"),
        N_("Comma-separated labels, one per row of the matrix."),
        "input",
    ),
    Param(
        "x",
        "matrix",
        None,
        N_("embedding matrix"),
        N_("Rows separated by ';', numbers by ',' (e.g. 0.43,0.15,0.89;0.55,0.87,0.66)."),
        "input",
    ),
    # --- cross-attention's second sequence: the decoder's tokens (the matrix above is the
    # source, the encoder's tokens) ---------------------------------------------------------
    Param(
        "target",
        "matrix",
        None,
        N_("target matrix"),
        N_(
            "Cross-attention's target, the decoder's tokens so far: its queries attend to the "
            "embedding matrix (the source). Rows separated by ';', numbers by ',' "
            "(e.g. 0.4,0.2,0.85;0.52,0.84,0.7)."
        ),
        "input",
        high=MAX_TOKENS,
        unset=N_("the starting target"),
    ),
    Param(
        "target_tokens",
        "labels",
        None,
        N_("target token labels"),
        N_("Comma-separated labels, one per row of the target matrix."),
        "input",
        unset=N_("the starting labels"),
    ),
    # --- the config: how attention is computed ---------------------------------------------
    Param(
        "d_out",
        "int",
        2,
        N_("d_out: width of q, k and v"),
        N_("Each token's query, key and value vector has this many numbers. The book uses 2."),
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
            "book": N_("the book's torch.rand"),
            "linear": N_("nn.Linear's default"),
            "identity": N_("none: q = k = v = x"),
        },
        "book",
        N_("W_query, W_key, W_value"),
        N_(
            "How the three projection matrices are made. “none” (identity in a link or a flag) "
            "skips them, as in simplified attention: then d_out is the input width."
        ),
        internal=("custom",),
        widget="select",
        group="weights",
    ),
    Param(
        "seed",
        "int",
        123,
        N_("seed for the weights"),
        N_(
            "Random matrices are drawn from a generator started with this number: the same seed "
            "always gives the same numbers. The book uses 123."
        ),
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
        N_("heads"),
        N_(
            "Several attention heads side by side. With one wide projection cut into heads, "
            "d_out must be divisible by the number of heads."
        ),
        "config",
        low=1,
        high=8,
        step=1,
        widget="select",
        group="weights",
    ),
    _choice(
        "scaling",
        {"none": N_("none"), "d": N_("÷ d_k"), "sqrt_d": N_("÷ √d_k")},
        "sqrt_d",
        N_("Scale the scores"),
        N_(
            "Divide every score by nothing, by d_k (the width of a key) or by its square root, "
            "as the book and the original Transformer do."
        ),
        widget="radio",
        group="scores",
    ),
    _choice(
        "mask",
        {
            "none": N_("none"),
            "causal": N_("causal: no peeking"),
            "padding": N_("padding at the end"),
        },
        "none",
        N_("Mask"),
        N_("Which keys each query may not attend to. Causal: token i sees tokens 1…i only."),
        internal=("custom",),
        widget="select",
        group="scores",
    ),
    Param(
        "padding",
        "int",
        1,
        N_("padding tokens at the end"),
        N_(
            "With the padding mask: how many tokens at the end are padding, which no one attends "
            "to."
        ),
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
        N_("dropout rate p"),
        N_(
            "In training, each weight is set to 0 with probability p and the rest are multiplied "
            "by 1/(1−p)."
        ),
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
        N_("training mode"),
        N_("Dropout acts only in training; in evaluation mode the weights pass unchanged."),
        "config",
        widget="toggle",
        group="dropout",
    ),
    Param(
        "dropout_seed",
        "int",
        0,
        N_("dropout seed"),
        N_("Which weights are dropped is drawn from a generator started with this number."),
        "config",
        low=0,
        high=SEED_MAX,
        step=1,
        widget="number",
        group="dropout",
    ),
    _choice(
        "scoring",
        {"dot": N_("dot product q·k"), "cosine": N_("cosine similarity")},
        "dot",
        N_("Scores"),
        N_(
            "The dot product grows with both direction and length; the cosine measures direction "
            "only (the first attention of Nugues' chapter 15)."
        ),
        widget="radio",
        group="advanced",
    ),
    _choice(
        "norm",
        {
            "softmax": N_("softmax (stable)"),
            "naive_softmax": N_("naive softmax (overflows)"),
            "sum": N_("÷ the row sum (a pitfall)"),
            "none": N_("none: scores as weights"),
        },
        "softmax",
        N_("Scores → weights"),
        N_("How each row of scores becomes weights that sum to 1."),
        widget="select",
        group="advanced",
    ),
    _choice(
        "mask_strategy",
        MASK_STRATEGIES,
        "neg_inf",
        N_("How the mask is applied"),
        N_("The first two are correct and agree; the last two are common mistakes."),
        widget="select",
        group="advanced",
    ),
    _choice(
        "heads_layout",
        {"split": N_("one wide projection, cut into heads"), "wrapper": N_("independent heads")},
        "split",
        N_("Heads are"),
        N_(
            "Cut one d_out-wide projection into heads (the book's MultiHeadAttention), or give "
            "each head its own d_out-wide matrices (the book's MultiHeadAttentionWrapper)."
        ),
        widget="radio",
        group="advanced",
    ),
    Param(
        "qkv_bias",
        "bool",
        False,
        N_("biases on W_query, W_key, W_value"),
        N_(
            "The book's qkv_bias=True: queries, keys and values each get a bias vector, drawn "
            "like nn.Linear's (after its matrix, from the same seed). Only for drawn matrices "
            "(book, linear); “none” has no projection to add a bias to."
        ),
        "config",
        widget="toggle",
        group="advanced",
    ),
    _choice(
        "out_proj",
        {
            "none": N_("none: the heads' outputs side by side"),
            "linear": N_("nn.Linear with bias, as the book's MultiHeadAttention"),
            "identity": N_("identity matrix: shown, changes nothing"),
        },
        "none",
        N_("Output projection"),
        N_(
            "One more matrix (and bias) that mixes the heads' outputs. The default, none, is the "
            "book up to section 3.6.1 (SelfAttention, CausalAttention, MultiHeadAttentionWrapper); "
            "linear is section 3.6.2's out_proj = nn.Linear(d_out, d_out), drawn after W_value "
            "from the same seed, for any number of heads."
        ),
        widget="radio",
        group="advanced",
    ),
    # --- the attention of today's LLMs (page 11), in the same pipeline ------------------------
    Param(
        "kv_groups",
        "int",
        0,
        N_("K/V groups"),
        N_(
            "Grouped-query attention: the query heads share keys and values in this many groups, "
            "each group using its first head's. 1 is multi-query attention; 0, the default, gives "
            "every head its own, as standard multi-head attention does."
        ),
        "config",
        low=0,
        high=8,
        step=1,
        widget="select",
        group="variants",
    ),
    Param(
        "window",
        "int",
        0,
        N_("sliding window"),
        N_(
            "Sliding-window attention: each query attends only to itself and the tokens just "
            "before it, this many in all (0: no window). A window looks back only, so it is causal "
            "whatever the mask."
        ),
        "config",
        low=0,
        high=MAX_TOKENS,
        step=1,
        tokens="count",
        choice_labels=(N_("none"),),
        widget="select",
        group="variants",
    ),
    Param(
        "rope",
        "bool",
        False,
        N_("RoPE: rotate queries and keys"),
        N_(
            "Rotary position embeddings: before the scores, each pair of a head's query and key "
            "numbers is turned by an angle that grows with the token's position."
        ),
        "config",
        widget="toggle",
        group="variants",
    ),
    Param(
        "rope_base",
        "int",
        10000,
        N_("RoPE base θ"),
        N_(
            "Pair i of a head of width d turns by position × θ^(−2i/d): a larger base turns the "
            "later pairs more slowly. Llama uses 10000 (Llama 3: 500000)."
        ),
        "config",
        low=2,
        high=1_000_000,
        step=1,
        widget="number",
        group="variants",
        only_when=("rope", True),
    ),
    # --- the view: how the dashboard shows it ----------------------------------------------
    Param(
        "query",
        "int",
        2,
        N_("Focus on token"),
        N_("The token whose numbers are explained step by step (x⁽²⁾ is the second token)."),
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
        N_("decimals"),
        N_(
            "How many decimals every computed number is shown with (the grids you type into show "
            "their numbers exactly). The book prints 4."
        ),
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
            "fitted": N_("fitted to the numbers shown (small differences visible)"),
            "fixed": N_("fixed from 0 to 1 (the same colour means the same weight everywhere)"),
        },
        "fitted",
        N_("Weight colours"),
        N_(
            "Fitted: the lightest cell is the largest weight shown and the darkest the smallest. "
            "Fixed: colours mean the same weight on every chart and page."
        ),
        scope="view",
        widget="radio",
        group="view",
    ),
    _choice(
        "panel",
        {
            "steps": N_("Step by step"),
            "scores": N_("Scores and context vectors"),
            "qkv": N_("Queries, keys and values"),
            "checks": N_("Diagnostics"),
            "code": N_("Reproduce in PyTorch"),
        },
        "steps",
        N_("Playground panel"),
        N_(
            "Which part of the computation the Playground shows below the weights; only the open "
            "panel is computed and sent."
        ),
        scope="view",
        widget="tabs",
        dashboard_only=True,
    ),
    _choice(
        "weights_view",
        {"heatmap": N_("heatmap"), "lines": N_("lines")},
        "heatmap",
        N_("Show the weights as"),
        N_(
            "A heatmap (rows are queries, columns keys) or lines from each query to every key, "
            "thicker and darker for a larger weight."
        ),
        scope="view",
        widget="radio",
        dashboard_only=True,
    ),
    Param(
        "isolate",
        "int",
        0,
        N_("Show the lines of"),
        N_("One token's lines only (0: every token). Hovering a token in the chart does the same."),
        "view",
        low=0,
        high=SENTENCE_TOKENS,  # a real sentence (page 10) has up to this many tokens
        step=1,
        tokens="position",
        widget="select",
        dashboard_only=True,
    ),
    Param(
        "present",
        "bool",
        False,
        N_("Presentation mode"),
        N_("Larger type and less prose, results first: for projecting in class."),
        "view",
        widget="toggle",
        group="view",
        dashboard_only=True,
    ),
    # The words' language (never the numbers'). Drawn in every page's header, not the sidebar;
    # missing from a link, the browser's language decides, then English.
    _choice(
        "lang",
        dict(LANGUAGES),
        ENGLISH,
        N_("Language"),
        N_(
            "The language of every word on the page; numbers, token labels and formulas stay as "
            "they are. A link carries it, so a shared link opens in your language."
        ),
        scope="view",
        widget="language",
    ),
    # Which head a page shows: drawn by the pages that show one head at a time, not the sidebar.
    Param(
        "head",
        "int",
        1,
        N_("head"),
        N_("Which head's weights to show."),
        "view",
        low=1,
        high=8,
        step=1,
        widget="radio",
    ),
)

_LESSON_ROWS = (
    Param(
        "input_scale",
        "float",
        1.0,
        N_("multiply every embedding by"),
        N_(
            "For the three tables of section 2 only: their scores grow with the square of this "
            "factor. Watch the softmax written naively."
        ),
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
        N_("Inspect one way of masking"),
        N_("The scores exactly as this strategy hands them to the normalisation."),
        scope="lesson",
        widget="select",
        page="5_Causal_mask",
    ),
    Param(
        "peek_token",
        "int",
        6,
        N_("change the embedding of token"),
        N_(
            "A later token whose numbers change; with the causal mask, earlier outputs must not "
            "move."
        ),
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
        N_("by adding to each of its numbers"),
        N_("How much is added to every number of that token's embedding."),
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
        N_("padding tokens at the end"),
        N_("How many tokens at the end are padding, which no query may attend to."),
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
        {"sidebar": N_("drawn as the sidebar says"), "typed": N_("typed by me")},
        "sidebar",
        N_("W_query, W_key and W_value are"),
        N_("Drawn from the seed with the sidebar's initialisation, or typed into the grids below."),
        scope="lesson",
        widget="radio",
        page="3_Trainable_weights",
    ),
    *(
        Param(
            name,
            "matrix",
            None,
            label,
            N_("A typed projection matrix: one row per input number, one column per output."),
            "lesson",
            high=MAX_DIMS,
            page="3_Trainable_weights",
            unset=unset,
        )
        for name, label, unset in (
            ("wq", N_("typed W_query"), N_("the sidebar's W_query")),
            ("wk", N_("typed W_key"), N_("the sidebar's W_key")),
            ("wv", N_("typed W_value"), N_("the sidebar's W_value")),
        )
    ),
    Param(
        "my_mask",
        "matrix",
        None,
        N_("your mask"),
        N_("Rows are queries, columns keys: 1 = may attend, 0 = hidden."),
        "lesson",
        high=MAX_TOKENS,
        page="5_Causal_mask",
        unset=N_("the causal grid with its first row hidden"),
    ),
    Param(
        "sentence",
        "text",
        "I must go back to my ship and to my crew",
        N_("Sentence"),
        N_(
            "Words are lowercased and split at spaces, as in Nugues' chapter 15; punctuation is "
            "trimmed. The first 32 words found in GloVe are used."  # SENTENCE_TOKENS (checked)
        ),
        "lesson",
        high=200,
        widget="text",
        page="9_Word_vectors",
    ),
    Param(
        "word",
        "text",
        "ship",
        N_("Focus on the word"),
        N_("The word whose weights and new contextual vector are shown."),
        "lesson",
        high=30,
        widget="text",
        page="9_Word_vectors",
    ),
    _choice(
        "text",
        {
            "odyssey": "I must go back to my ship and to my crew",
            "amazon": "We process and ship your order",
            "own": N_("my own sentence"),
        },
        "odyssey",
        N_("Sentence"),
        N_(
            "The two sentences of Nugues' chapter 15, or one of your own (then type it in the "
            "field below)."
        ),
        scope="lesson",
        widget="radio",  # a select box invites typing, which only filters its choices
        page="10_Real_sentences",
    ),
    Param(
        "own",
        "text",
        "The bank by the river",
        N_("Your sentence"),
        N_("The model splits it into tokens; the first 32 are used."),  # SENTENCE_TOKENS
        "lesson",
        high=200,
        widget="text",
        page="10_Real_sentences",
        only_when=("text", "own"),
    ),
    Param(
        "compare",
        "text",
        "ship",
        N_("Word in both of Nugues' sentences"),
        N_("A token of the model found in both sentences."),
        "lesson",
        high=30,
        widget="text",
        page="10_Real_sentences",
    ),
    Param(
        "layer",
        "int",
        1,
        N_("layer"),
        N_("Which layer of the model (MiniLM has 6)."),
        "lesson",
        low=1,
        high=48,
        step=1,
        widget="select",
        page="10_Real_sentences",
    ),
    Param(
        "model_head",
        "int",
        1,
        N_("head"),
        N_("Which of the layer's heads (MiniLM has 12)."),
        "lesson",
        low=1,
        high=64,
        step=1,
        widget="select",
        page="10_Real_sentences",
    ),
    Param(
        "stage",
        "int",
        1,
        N_("Stage"),
        N_(
            "Reveal the pipeline one stage at a time: the Previous and Next buttons, the ← and → "
            "keys, or a presentation clicker (PageUp and PageDown)."
        ),
        "lesson",
        low=1,
        high=len(FLOW_STAGES),
        step=1,
        choice_labels=FLOW_STAGES,
        widget="select",
        page="0_Flow",
    ),
    Param(
        "pin",
        "text",
        None,
        N_("settings pinned as A"),
        N_("The settings pinned as A, written as a link's query string (preset=journey&d_out=3…)."),
        "lesson",
        high=8000,  # 12 × 16 numbers and 12 labels of 20 four-byte characters, URL-encoded
        page="0_Compare",
        unset=N_("nothing pinned"),
    ),
    Param(
        "kv_step",
        "int",
        1,
        N_("Generation step"),
        N_(
            "Generate one token at a time: the Previous and Next buttons, or the ← and → keys. "
            "Step n feeds token n and reads every earlier key and value from the cache."
        ),
        "lesson",
        low=1,
        high=MAX_TOKENS,
        step=1,
        tokens="index",
        widget="select",
        page="11_Todays_attention",
    ),
    Param(
        "decoder_step",
        "int",
        2,
        N_("Step of the decoder layer"),
        N_(
            "A decoder layer runs two attentions in order: first the target attends to itself "
            "under the causal mask, then its output attends to the source."
        ),
        "lesson",
        low=1,
        high=2,
        step=1,
        choice_labels=(N_("masked self-attention over the target"), N_("cross-attention")),
        widget="radio",
        page="12_Cross_attention",
    ),
    Param(
        "samples",
        "int",
        200,
        N_("number of dropout samples"),
        N_("How many independent dropout samples are averaged."),
        "lesson",
        low=1,
        high=5000,
        step=1,
        widget="slider",
        page="6_Dropout",
    ),
)

PARAMS: dict[str, Param] = {row.name: row for row in (*_ROWS, *_LESSON_ROWS, *MEMORY_ROWS)}
CONFIG_PARAMS = tuple(name for name, p in PARAMS.items() if p.scope == "config")
INPUT_PARAMS = tuple(name for name, p in PARAMS.items() if p.scope == "input")
VIEW_PARAMS = tuple(name for name, p in PARAMS.items() if p.scope == "view")
DEFAULTS: dict[str, Any] = {name: p.default for name, p in PARAMS.items()}
# A message holds its numbers as written (a catalog's text cannot follow a constant).
assert all(f" {SENTENCE_TOKENS} " in PARAMS[name].help for name in ("sentence", "own"))


def lesson_params(page: str) -> tuple[str, ...]:
    """The knobs that live on one lesson page."""
    return tuple(name for name, p in PARAMS.items() if p.scope == "lesson" and p.page == page)
