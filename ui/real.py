"""Streamlit side of the real-model page: one cached, read-only model for every session."""

from __future__ import annotations

import streamlit as st

from real_model import LoadedModel, ModelLoadError, load_model


@st.cache_resource(
    show_spinner="Loading the model. The first time, it is downloaded from the Hugging Face "
    "hub (about 90 MB); after that every session shares this copy.",
    max_entries=2,
)
def shared_model(source: str) -> LoadedModel:
    """The model for ``source``, loaded once per server process (never mutated)."""
    return load_model(source)


def model_or_message(source: str) -> LoadedModel | None:
    """The model, or None after explaining on the page why it cannot be loaded."""
    try:
        return shared_model(source)
    except ModelLoadError as error:
        st.error(f"The model cannot be loaded: {error}.", icon=":material/cloud_off:")
        st.markdown(
            "The rest of the app does not need it. For an offline classroom, download the "
            "model once on a machine with network access "
            "(`AutoModel.from_pretrained(...).save_pretrained(folder)` and the same for "
            "`AutoTokenizer`), copy the folder, and start the app with "
            "`ATTENTION_MODEL=/path/to/folder streamlit run streamlit_app.py`."
        )
        return None
