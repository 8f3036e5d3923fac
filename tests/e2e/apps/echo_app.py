"""Echo: every string of a JSON file through ui.safe and Streamlit's own renderers.

The file named by ``ECHO_TEXTS`` holds ``{"run": n, "texts": [...]}``. Each text is drawn
four ways, in containers the test reads by key: ``md{i}`` (st.markdown of safe.md),
``error{i}`` (st.error of safe.md), ``prose{i}`` (st.warning of safe.prose, as a notice
quotes a message) and ``tex{i}`` (st.latex of safe.tex). ``run`` is drawn last, so the test
knows the page it reads is the whole of this run.
"""

import json
import os
from pathlib import Path

import streamlit as st

from ui import safe

data = json.loads(Path(os.environ["ECHO_TEXTS"]).read_text(encoding="utf-8"))
st.title("Echo")
for index, text in enumerate(data["texts"]):
    with st.container(key=f"md{index}"):
        st.markdown(safe.md(text))
    with st.container(key=f"error{index}"):
        st.error(safe.md(text))
    with st.container(key=f"prose{index}"):
        st.warning(safe.prose(text), icon=":material/info:")  # as notices are drawn
    with st.container(key=f"tex{index}"):
        st.latex(safe.tex(text))
with st.container(key="run"):
    st.text(str(data["run"]))
