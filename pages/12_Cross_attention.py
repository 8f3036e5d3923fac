"""Cross-attention: a target's queries attend to a source's keys, in a decoder layer's order."""

from translation import _
from ui.blocks import cross_view, page_frame
from ui.session import run_order

page = run_order.setup(__file__)
page_frame.show_header(
    page,
    _("12 · Cross-attention"),
    _(
        "Self-attention mixes one sequence with itself. A translator, a captioner or a model "
        "reading a retrieved passage needs more: the words it writes (the target) must look at "
        "another sequence (the source). In cross-attention the queries come from the target, "
        "the keys and values from the source, so the weights form a target × source matrix. "
        "Edit either grid: everything below is recomputed from both."
    ),
    announce=False,
)
grid = cross_view.show_inputs(page)
layer = cross_view.run_layer(page, grid)
if layer is not None:
    cross_view.show_heading(_("The decoder layer, in order"))
    step = cross_view.show_order(page, layer)
    cross_view.show_step(page, layer, step)
    cross_view.show_code(layer)
    target, source = layer.cross_attention.num_tokens, layer.cross_attention.num_keys
    page_frame.predict(
        page,
        _(
            "The target has {target} tokens and the source {source}. How many rows and columns "
            "has the matrix of cross-attention weights?"
        ).format(target=target, source=source),
        _(
            "{target} × {source}: one row per target token (its query) and one column per "
            "source token (its key). Each row sums to 1 over the source, and each target "
            "token's output is a mix of the source's values."
        ).format(target=target, source=source),
        key="cross_shape",
        choices=(
            _("target × source: {target} × {source}").format(target=target, source=source),
            _("source × target: {source} × {target}").format(target=target, source=source),
            _("source × source: {source} × {source}").format(source=source),
        ),
        correct=0,
    )
page_frame.finish(page)
