"""Plain data in, a Vega-Lite dict, a Plotly figure, a Markdown table or a KaTeX string out.
Nothing here imports streamlit (a contract in pyproject.toml checks it): a spec is built and
tested without a running app."""
