"""Flow: the focused token's path through attention as one picture, revealed stage by stage."""

from ui import flow_views, views
from ui import page as run_order

page = run_order.setup(__file__)
views.show_header(
    page,
    "Flow: one token through attention",
    "Follow the focused token (choose it in the sidebar) from its embedding to its output. "
    "Each box holds your numbers; the arrows say which rows and columns meet. Step with "
    "*Previous* and *Next*, the ← and → keys, or a presentation clicker: the stage is part of "
    "the link, so a shared link opens at the same stage.",
)
head = views.head_choice(page)
stage = flow_views.show_stepper(page)
flow_views.show_flow(page, page.trace, head, stage)
views.finish(page)
