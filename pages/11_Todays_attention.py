"""Today's attention: grouped K/V heads, the head split, a sliding window, a KV cache and RoPE."""

from translation import _
from ui.blocks import check_yourself, generation, grouped_heads, page_frame
from ui.session import run_order

page = run_order.setup(__file__)
page_frame.show_header(
    page,
    _("11 · Today's attention: what LLMs use now"),
    _(
        "Chapter 3's attention is the heart of every GPT. The models of today change a few parts "
        "of it, to save memory and to know where each token stands. Each section below changes "
        "one part, on your matrix and the sidebar's settings, and checks the result against the "
        "plain computation. The knobs here are shared: the other pages use them too."
    ),
)
grouped_heads.show_grouped_query(page)
grouped_heads.show_head_split(page)
generation.show_window(page)
generation.show_kv_cache(page)
generation.show_rope(page, question="rope_relative")
page_frame.predict(
    page,
    _(
        "With RoPE on, two tokens stand at positions 2 and 5, then the same two at 7 and 10. "
        "Is their score the same?"
    ),
    _(
        "Yes: both pairs are 3 positions apart, and RoPE's turns cancel down to the difference of "
        "the two angles. The section above moves every position by 1, 10 and 1000: the turned "
        "queries change, the scores do not."
    ),
    key="rope_relative",
    choices=(_("Yes, the same"), _("No, later positions score differently")),
    correct=0,
)
check_yourself.show_check_yourself(page)
page_frame.finish(page)
