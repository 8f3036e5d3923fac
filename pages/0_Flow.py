"""Flow: the focused token's path through attention as one picture, revealed stage by stage."""

from translation import _
from ui.blocks import flow_view, focus_panel, page_frame
from ui.session import run_order

page = run_order.setup(__file__)
page_frame.show_header(
    page,
    _("Flow of one token through attention"),
    _(
        "Follow the focused token (choose it in the sidebar) from its embedding to its output. "
        "Each box holds your numbers; the arrows say which rows and columns meet. Step with "
        "*Previous* and *Next*, the ← and → keys, or a presentation clicker: the stage is part of "
        "the link, so a shared link opens at the same stage."
    ),
)
head = focus_panel.head_choice(page)
stage = flow_view.show_stepper(page)
flow_view.show_flow(page, page.trace, head, stage)
page_frame.predict(
    page,
    _("The focused token's context vector is a weighted sum of which vectors?"),
    _(
        "Of the values: each weight, from the query's score against one key, multiplies that "
        "token's value vector, and the context vector is their sum. The queries and keys only "
        "decide the weights. Step to the last stages to see the weights meet V."
    ),
    key="flow_values",
    choices=(_("The queries"), _("The keys"), _("The values"), _("The embeddings")),
    correct=2,
)
page_frame.finish(page)
