"""The only code that touches ``st.session_state`` and ``st.query_params``: the settings and
the link, the widgets drawn from the parameter table, the one run order of every page, the
page list, the editor's pending changes and the per-process caches."""
