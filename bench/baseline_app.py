"""Baseline for the benchmarks: what a first attempt at an attention page looks like.

A data editor, three controls, attention computed inline, two Altair heatmaps and a table,
served with Streamlit's default settings. Not part of the app.
"""

import altair as alt
import pandas as pd
import streamlit as st
import torch

st.title("Self-attention (baseline)")
tokens = ["Your", "journey", "starts", "with", "one", "step"]
start = pd.DataFrame(
    [
        [0.43, 0.15, 0.89],
        [0.55, 0.87, 0.66],
        [0.57, 0.85, 0.64],
        [0.22, 0.58, 0.33],
        [0.77, 0.25, 0.10],
        [0.05, 0.80, 0.55],
    ],
    columns=["d1", "d2", "d3"],
    index=tokens,
)
frame = st.data_editor(start, key="matrix")
d_out = st.slider("d_out", 1, 8, 2, key="d_out")
seed = st.number_input("seed", 0, 2**32 - 1, 123, key="seed")
mask = st.selectbox("mask", ["none", "causal"], key="mask")

inputs = torch.tensor(frame.values.tolist(), dtype=torch.float32)
generator = torch.Generator().manual_seed(int(seed))
w_query, w_key, w_value = (torch.rand(3, d_out, generator=generator) for _ in range(3))
queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
scores = queries @ keys.T / d_out**0.5
if mask == "causal":
    scores = scores.masked_fill(~torch.tril(torch.ones(6, 6, dtype=torch.bool)), float("-inf"))
weights = torch.softmax(scores, dim=-1)
context = weights @ values


def heatmap(matrix: torch.Tensor, title: str) -> alt.Chart:
    data = pd.DataFrame(
        [
            (tokens[i], tokens[j], float(v))
            for i, row in enumerate(matrix)
            for j, v in enumerate(row)
        ],
        columns=["query", "key", "value"],
    )
    base = alt.Chart(data, title=title).encode(x="key:N", y="query:N")
    return base.mark_rect().encode(color="value:Q") + base.mark_text().encode(
        text=alt.Text("value:Q", format=".2f")
    )


st.altair_chart(heatmap(scores.clamp(min=-1e9), "scores"))
st.altair_chart(heatmap(weights, "weights"))
st.dataframe(pd.DataFrame(context.tolist(), index=tokens))
