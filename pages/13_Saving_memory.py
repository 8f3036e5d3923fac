"""Attention that saves memory: latent attention's cache, gated DeltaNet's state, FlashAttention's
tiles and a memory calculator for a real model's size."""

from translation import _
from ui.blocks import check_yourself, latent_view, memory_calculator, page_frame, tiles_view
from ui.session import run_order

page = run_order.setup(__file__)
page_frame.show_header(
    page,
    _("13 · Saving memory: attention for long contexts"),
    _(
        "A model that generates keeps every earlier token's keys and values, and for long texts "
        "this cache outgrows the model itself. The sections below show three ways today's "
        "models keep less, on your matrix and the sidebar's settings, each checked against the "
        "plain computation, and then the bytes each one keeps for a model of the size you type."
    ),
)
latent_view.show_latent(page)
latent_view.show_gates(page)
page_frame.predict(
    page,
    _(
        "A gated DeltaNet layer has read 10 tokens; then it reads 10,000 more. How much larger "
        "has its memory grown?"
    ),
    _(
        "Not at all: each head keeps one head_dim × head_dim state, whatever the number of "
        "tokens. A KV cache would have grown about a thousand times, a key and a value per "
        "token."
    ),
    key="deltanet_state",
    choices=(_("Not at all"), _("About a thousand times")),
    correct=0,
)
tiles_view.show_tiles(page)
memory_calculator.show_calculator(page)
check_yourself.show_check_yourself(page)
page_frame.finish(page)
