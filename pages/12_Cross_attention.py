"""Cross-attention: a target's queries attend to a source's keys, in a decoder layer's order."""

from translation import _
from ui.blocks import check_yourself, cross_view, page_frame
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
if layer is not None:  # no chart prints an answer its exercises ask (on step 2's run)
    check_yourself.exercises_on(page, layer.cross_attention)
if layer is not None:
    cross_view.show_heading(_("The decoder layer, in order"))
    step = cross_view.show_order(page, layer)
    cross_view.show_step(page, layer, step)
    cross_view.show_code(layer)
    page_frame.predict(
        page,
        _(
            "Add one token to the source grid. What happens to the cross-attention weights, "
            "and to step 1's output?"
        ),
        _(
            "The weights get one more column (one more key to attend to), and every row still "
            "sums to 1, so each target token's weights shift. Step 1 does not change at all: "
            "masked self-attention reads only the target, never the source."
        ),
        key="cross_new_source",
        choices=(
            _("One more row; step 1 changes too"),
            _("One more column; step 1 stays the same"),
            _("One more column; step 1 changes too"),
            _("Nothing changes until the target grows"),
        ),
        correct=1,
    )
    # The exercises work on step 2, the page's own idea: the target's queries (step 1's
    # output) against the source's keys, a target × source matrix.
    check_yourself.show_check_yourself(page, layer.cross_attention)
page_frame.finish(page)
