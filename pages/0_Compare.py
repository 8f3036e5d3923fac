"""Compare: the settings pinned as A beside the current settings B, and how the weights differ."""

import streamlit as st

from translation import _
from ui.blocks import compare, page_frame
from ui.blocks.matrix_editor import show_matrix_editor
from ui.session import run_order

page = run_order.setup(__file__)
page_frame.show_header(
    page,
    _("Compare A and B side by side"),
    _(
        "Pin the current settings as **A**, then change anything: a setting in the sidebar or a "
        "number of the matrix. **B** is always the current settings. Both are in the link, so a "
        "shared link shows the same comparison."
    ),
)
pinned = compare.show_pin(page)
if pinned is not None:
    compare.show_compare(page, pinned)
else:
    st.info(
        _("Nothing is pinned yet: *Pin these settings as A* keeps the current settings as A."),
        icon=":material/push_pin:",
    )
with st.expander(_("Embedding matrix (edit me)"), expanded=False):
    show_matrix_editor(page)
page_frame.finish(page)
