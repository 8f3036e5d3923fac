"""The pages of the app, in the order the lessons teach, and what each one uses."""

from __future__ import annotations

from dataclasses import dataclass

from translation import N_


@dataclass(frozen=True)
class PageInfo:
    """One page: its file, its name in the navigation, its icon and what it takes from the
    sidebar (``uses``) or deliberately leaves out (``ignores``). ``title``, ``uses`` and
    ``ignores`` are English messages: shown through ``translation._``.

    ``icon`` (a Material symbol) is drawn from the font Streamlit serves itself; the browser
    tab's ``favicon`` is an emoji, which Streamlit draws inline. A Material favicon would be
    fetched from Google's servers on every visit.
    """

    path: str
    title: str
    icon: str
    favicon: str
    uses: str
    ignores: str = ""
    words: bool = False  # its tokens are the words of sentences, not the learner's matrix
    front: bool = False  # it draws FRONT_KNOBS beside its results, not in the sidebar
    draws: tuple[str, ...] = ()  # shared knobs the page draws beside what they change

    @property
    def key(self) -> str:
        """The page's id: its file name without folder and extension."""
        return self.path.rsplit("/", 1)[-1].removesuffix(".py")

    @property
    def url_path(self) -> str:
        """The page's path in the browser ("" for the home page)."""
        if self.path == "streamlit_app.py":
            return ""
        return self.key.split("_", 1)[1]


# The knobs the dashboard exists for, drawn by a ``front`` page above its results.
FRONT_KNOBS = ("d_out", "scaling", "mask", "dropout")

PAGES = (
    PageInfo(
        "streamlit_app.py",
        N_("Playground"),
        ":material/science:",
        "🧪",
        N_("the four knobs and every setting in the sidebar"),
        front=True,
    ),
    PageInfo(
        "pages/0_Flow.py",
        N_("Flow of one token"),
        ":material/route:",
        "➡️",
        N_("every setting in the sidebar and the focused token"),
    ),
    PageInfo(
        "pages/0_Compare.py",
        N_("Compare A and B"),
        ":material/compare:",
        "⚖️",
        N_("every setting in the sidebar as B, and the settings pinned as A"),
    ),
    PageInfo(
        "pages/1_Embeddings.py",
        N_("1 · Embeddings"),
        ":material/scatter_plot:",
        "📍",
        N_(
            "the matrix and the focused token; only the dashed context vector uses the other "
            "settings"
        ),
    ),
    PageInfo(
        "pages/2_Simplified_attention.py",
        N_("2 · Simplified attention"),
        ":material/functions:",
        "➗",
        N_("the matrix and the focused token"),
        N_(
            "d_out, the weights, scaling, mask, dropout and today's variants (K/V groups, the "
            "window, RoPE): simplified attention has no weights"
        ),
    ),
    PageInfo(
        "pages/3_Trainable_weights.py",
        N_("3 · Trainable weights"),
        ":material/tune:",
        "🎛️",
        N_("every setting in the sidebar; typed weights replace d_out, heads, W init and seed"),
    ),
    PageInfo(
        "pages/4_Scaling.py",
        N_("4 · Scaling"),
        ":material/straighten:",
        "📏",
        N_("the matrix, the weights and the mask; it compares all three scalings itself"),
        N_("the sidebar's scaling and dropout"),
    ),
    PageInfo(
        "pages/5_Causal_mask.py",
        N_("5 · Causal mask"),
        ":material/visibility_off:",
        "🙈",
        N_("the matrix, the weights and scaling; it sets the mask itself"),
        N_("the sidebar's mask and dropout"),
    ),
    PageInfo(
        "pages/6_Dropout.py",
        N_("6 · Dropout"),
        ":material/grain:",
        "🎲",
        N_("every setting in the sidebar, dropout rate and seed included"),
        N_("the sidebar's training mode: this page shows training and evaluation side by side"),
    ),
    PageInfo(
        "pages/7_Multi-head_attention.py",
        N_("7 · Multi-head attention"),
        ":material/view_column:",
        "🧩",
        N_(
            "every setting in the sidebar but dropout; with 1 head it shows two heads (an odd "
            "d_out made even), or without projections the fewest that divide the embedding width"
        ),
        N_("the sidebar's dropout (the heads are shown without it)"),
    ),
    PageInfo(
        "pages/8_Common_mistakes.py",
        N_("8 · Common mistakes"),
        ":material/report:",
        "⚠️",
        N_("the matrix, the weights and the mask; each mistake sets its own scaling and dropout"),
        N_("the sidebar's scaling, normalisation and dropout"),
    ),
    PageInfo(
        "pages/9_Word_vectors.py",
        N_("9 · Real word vectors"),
        ":material/dictionary:",
        "🚢",
        N_("real GloVe vectors of the words you type, and the number of decimals"),
        N_(
            "the matrix and the sidebar's weights, scaling, mask and dropout (Nugues' chapter 15 "
            "uses none)"
        ),
        words=True,
    ),
    PageInfo(
        "pages/10_Real_sentences.py",
        N_("10 · Real sentences"),
        ":material/translate:",
        "📖",
        N_("a pretrained model's own embeddings and weights"),
        N_("the matrix and the sidebar's settings, except the number of decimals"),
        words=True,
    ),
    PageInfo(
        "pages/11_Todays_attention.py",
        N_("11 · Today's attention"),
        ":material/rocket_launch:",
        "🚀",
        N_(
            "every setting in the sidebar; it draws heads, K/V groups, the window and RoPE itself, "
            "beside what they change"
        ),
        N_("dropout in the KV-cache section: generation runs in evaluation mode"),
        draws=("heads", "kv_groups", "window", "rope", "rope_base"),
    ),
    PageInfo(
        "pages/12_Cross_attention.py",
        N_("12 · Cross-attention"),
        ":material/swap_horiz:",
        "🔀",
        N_(
            "the matrix as the source, a target of its own, and the sidebar's weights, scaling, "
            "padding mask, dropout and heads"
        ),
        N_(
            "the focused token, and in cross-attention the causal mask, the window and RoPE: "
            "they pair positions within one sequence"
        ),
    ),
    PageInfo(
        "pages/13_Saving_memory.py",
        N_("13 · Saving memory"),
        ":material/memory:",
        "💾",
        N_(
            "every setting in the sidebar; latent attention and gated DeltaNet draw their own "
            "weights from the seed, and the calculator uses the model size you type"
        ),
        N_(
            "dropout: latent attention, gated attention and DeltaNet run as the book's classes "
            "do at inference"
        ),
    ),
)
BY_KEY = {page.key: page for page in PAGES}
