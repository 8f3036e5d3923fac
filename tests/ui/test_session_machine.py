"""A learner's session as a Hypothesis state machine: rules are the learner's actions.

Controls are changed through their widgets; the matrix grid is edited the way the browser
sends it (the data editor's cumulative state, relative to the table the grid was drawn from,
under the grid's current key; a fresh grid, with no edits, whenever that key changes); tokens
are added and deleted; pages are switched; the browser's Back and Forward return to an earlier
link of the session; the copied link is opened in a new session.
AppTest sets the values directly (no typing, no clicks in a browser: see tests/e2e).

After every action: no exception, no nan/inf, no error-path message, every widget shows what
the URL says, and the numbers shown are the core's on the settings shown. Each accepted edit
changes the matrix in the URL, so N edits give N changes.
"""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from attention_core.embeddings import preset_embeddings
from attention_core.knobs.param import MAX_TOKENS
from attention_core.knobs.settings import MATRIX_PARAMS, Settings
from attention_core.knobs.settle import settle
from attention_core.knobs.table import INPUT_PARAMS, PARAMS
from tests.budget import examples
from tests.ui.apptest import (
    HOME,
    PAGES,
    WIDGET_KINDS,
    alerts,
    as_read,
    assert_clean,
    current_page,
    go_to,
    grid_key,
    open_page,
    reopen_from_link,
    send_edits,
    url_params,
    url_settings,
)
from tests.ui.oracle import check_numbers
from tests.ui.strategies import LABELS, legal_links, value
from tests.ui.test_pages import snapshot
from ui.session import state

# The widgets that choose the preset matrix (the matrix and its labels are typed, not chosen).
MATRIX_SOURCE = tuple(name for name in INPUT_PARAMS if name not in MATRIX_PARAMS)
NUMBERS = st.integers(-10_000, 10_000).map(lambda k: k / 1000)  # the grid's step is 0.001
BAD_CELLS = (11.0, -10.5, None, "abc", float("inf"))
BAD_LABELS = ("", "a,b", "x;y", "zero\u200bwidth", "L" * 21)


def widget_values(kind: str, widget: Any, num_tokens: int) -> st.SearchStrategy[Any]:
    """Values the widget offers (a slider's stops, a selectbox's options...)."""
    param = PARAMS[widget.key]
    if kind == "toggle":
        return st.booleans()
    if kind == "text_input":
        return value(param, num_tokens)
    if kind in ("slider", "number_input"):
        low, high = float(widget.min), float(widget.max)
        if param.kind == "int":
            return st.integers(int(low), int(high))
        stops = round((high - low) / param.step)
        return st.integers(0, stops).map(lambda k: round(low + k * param.step, 6))
    if param.kind == "choice":
        return st.sampled_from(param.choices)
    if all(option.isdigit() for option in widget.options):
        return st.sampled_from([int(option) for option in widget.options])
    first = int(param.low)  # "x(3) starts", "head 2", "layer 1"; isolate's 0 is every token
    return st.integers(first, first + len(widget.options) - 1)


def assert_shows_its_preset(shown: Settings) -> None:
    """The matrix is the chosen example's, drawn afresh."""
    preset = preset_embeddings(shown["preset"], shown["seed"], shown["num_tokens"], shown["d_in"])
    assert (shown.tokens, shown.rows) == (preset.tokens, preset.as_rows())


class Grid:
    """What the browser's grid holds: the table it was drawn from and the edits since."""

    def __init__(self, at: Any, key: str) -> None:
        frame = at.data_editor(key=key).value
        self.key = key
        self.tokens = [str(t) for t in frame["token"]]
        self.rows = [[float(v) for v in row[1:]] for row in frame.itertuples(index=False)]
        self.columns = list(frame.columns)
        self.edited: dict[int, dict[str, Any]] = {}
        self.added: list[dict[str, Any]] = []
        self.deleted: list[int] = []

    def visible(self) -> list[tuple[str, int]]:
        """The rows on screen: the drawn ones not deleted, then the added ones."""
        kept = [("drawn", i) for i in range(len(self.rows)) if i not in self.deleted]
        return kept + [("added", k) for k in range(len(self.added))]

    def cell(self, row: tuple[str, int], column: str) -> Any:
        where, index = row
        if where == "added":
            return self.added[index][column]
        drawn = self.tokens[index] if column == "token" else self.rows[index][self.column(column)]
        return self.edited.get(index, {}).get(column, drawn)

    def column(self, name: str) -> int:
        return self.columns.index(name) - 1

    def set(self, row: tuple[str, int], column: str, new: Any) -> None:
        where, index = row
        if where == "added":
            self.added[index][column] = new
        else:
            self.edited.setdefault(index, {})[column] = new

    def delete(self, row: tuple[str, int]) -> None:
        where, index = row
        if where == "added":
            del self.added[index]
        else:
            self.deleted.append(index)
            self.edited.pop(index, None)

    def state(self) -> dict[str, Any]:
        return {
            "edited_rows": {i: dict(c) for i, c in self.edited.items()},
            "added_rows": [dict(r) for r in self.added],
            "deleted_rows": list(self.deleted),
        }

    def matrix(self) -> tuple[tuple[str, ...], tuple[tuple[float, ...], ...]]:
        """The matrix these edits describe (when every cell is valid)."""
        rows = self.visible()
        tokens = tuple(str(self.cell(r, "token")) for r in rows)
        values = tuple(tuple(float(self.cell(r, c)) for c in self.columns[1:]) for r in rows)
        return tokens, values


class LearnerSession(RuleBasedStateMachine):
    """One browser tab on the dashboard."""

    def __init__(self) -> None:
        super().__init__()
        self.at: Any = None
        self.grid: Grid | None = None
        self.history: list[tuple[str, dict[str, list[str]], tuple]] = []  # the browser's

    # --- bookkeeping ---------------------------------------------------------------------

    def ran(self) -> None:
        """After a run: a fresh grid (no edits) whenever the grid's key is new or was gone."""
        key = grid_key(self.at)
        if key is None:
            self.grid = None
        elif self.grid is None or self.grid.key != key:
            self.grid = Grid(self.at, key)
        entry = (current_page(self.at), url_params(self.at), snapshot(self.at))
        if not self.history or self.history[-1][:2] != entry[:2]:
            self.history.append(entry)

    def matrix(self) -> tuple[tuple[str, ...], tuple[tuple[float, ...], ...]]:
        shown = url_settings(self.at)
        return shown.tokens, shown.rows

    def send(self) -> None:
        assert self.grid is not None
        send_edits(self.at, self.grid.state())

    # --- the learner's actions -----------------------------------------------------------

    @initialize(data=st.data())
    def open_a_link(self, data: st.DataObject) -> None:
        page = data.draw(st.sampled_from([HOME, HOME, *PAGES]), label="page")
        link = data.draw(st.just({}) | legal_links(page), label="link")
        self.at = open_page(page, link)
        self.ran()

    @rule(data=st.data())
    def change_a_control(self, data: st.DataObject) -> None:
        # Every widget but the language (read in English; tests/ui/test_translation.py).
        drawn = {
            w.key: (k, w)
            for k in WIDGET_KINDS
            for w in self.at.get(k)
            if w.key in PARAMS and w.key != "lang"
        }
        kind, widget = drawn[data.draw(st.sampled_from(sorted(drawn)), label="widget")]
        before = url_settings(self.at)
        new = data.draw(widget_values(kind, widget, before.num_tokens), label=widget.key)
        widget.set_value(new).run()
        self.ran()
        after = url_settings(self.at)
        # A value that clashes with another knob is settled by the core, saying so (K/V heads
        # that do not divide the heads: the most that do).
        wanted = settle(before.replace(**{widget.key: new}))[0][widget.key]
        assert after[widget.key] == wanted, (widget.key, new, wanted, after[widget.key])
        if widget.key in MATRIX_SOURCE and new != before[widget.key]:  # a real choice
            assert_shows_its_preset(after)
        else:  # a seed or any other control never replaces the matrix
            assert (after.tokens, after.rows) == (before.tokens, before.rows)

    @precondition(lambda self: self.grid is not None)
    @rule(data=st.data())
    def edit_a_cell(self, data: st.DataObject) -> None:
        grid = self.grid
        row = data.draw(st.sampled_from(grid.visible()), label="row")
        column = data.draw(st.sampled_from(grid.columns), label="column")
        old = grid.cell(row, column)
        new = data.draw(st.sampled_from(LABELS) if column == "token" else NUMBERS, label="to")
        if new == old:
            new = f"{old[:18]}·" if column == "token" else (0.0 if old else 1.0)
        before = self.matrix()
        grid.set(row, column, new)
        self.send()
        assert grid_key(self.at) == grid.key, "an edit never gives a new grid"
        self.ran()
        assert self.matrix() == grid.matrix() != before  # this edit, and only it, is kept

    @precondition(lambda self: self.grid is not None)
    @rule(data=st.data())
    def type_a_bad_cell_then_fix_it(self, data: st.DataObject) -> None:
        grid = self.grid
        row = data.draw(st.sampled_from(grid.visible()), label="row")
        column = data.draw(st.sampled_from(grid.columns), label="column")
        bad = data.draw(st.sampled_from(BAD_LABELS if column == "token" else BAD_CELLS))
        before = self.matrix()
        grid.set(row, column, bad)
        self.send()
        self.ran()
        refused = [t for _, _, t in alerts(self.at) if t.startswith("Matrix: ")]
        assert len(refused) == 1 and "last valid matrix" in refused[0], alerts(self.at)
        assert self.matrix() == before
        fixed = "ok" if column == "token" else 0.5
        grid.set(row, column, fixed)
        self.send()
        self.ran()
        assert self.matrix() == grid.matrix()

    @precondition(lambda self: self.grid is not None and len(self.grid.visible()) < MAX_TOKENS)
    @rule(data=st.data())
    def add_a_token(self, data: st.DataObject) -> None:
        grid = self.grid
        record = {"token": data.draw(st.sampled_from(LABELS), label="label")}
        for name in grid.columns[1:]:
            record[name] = data.draw(NUMBERS, label=name)
        grid.added.append(record)
        self.send()
        self.ran()
        assert self.matrix() == grid.matrix()

    @precondition(lambda self: self.grid is not None and len(self.grid.visible()) > 1)
    @rule(data=st.data())
    def delete_a_token(self, data: st.DataObject) -> None:
        grid = self.grid
        rows, query = grid.visible(), url_settings(self.at)["query"]
        grid.delete(data.draw(st.sampled_from(rows), label="row"))
        self.send()
        self.ran()
        assert self.matrix() == grid.matrix()
        focused, kept = rows[query - 1], grid.visible()  # the focused token follows its token
        expected = kept.index(focused) + 1 if focused in kept else min(query, len(kept))
        assert url_settings(self.at)["query"] == expected
        shown = [as_read(t) for _, _, t in alerts(self.at)]  # the notice as a learner reads it
        said = [t for t in shown if f"token {query} (" in t and "deleted" in t]
        assert bool(said) == (focused not in kept), said  # only its own deletion is told

    @precondition(lambda self: self.grid is not None)
    @rule()
    def paste_too_many_rows(self) -> None:
        before, key = self.matrix(), self.grid.key
        zeros = dict.fromkeys(self.grid.columns[1:], 0.0)
        self.grid.added += [{"token": "p", **zeros} for _ in range(MAX_TOKENS + 1)]
        self.send()
        self.ran()
        assert self.matrix() == before
        assert any(f"at most {MAX_TOKENS} tokens" in t for _, _, t in alerts(self.at))
        assert self.grid.key != key, "a refused paste gives a fresh grid"

    @precondition(lambda self: self.grid is not None)
    @rule()
    def reset(self) -> None:
        self.at.button(key="reset_matrix").click().run()
        self.ran()
        shown = url_settings(self.at)
        preset = preset_embeddings(
            shown["preset"], shown["seed"], shown["num_tokens"], shown["d_in"]
        )
        assert (shown.tokens, shown.rows) == (preset.tokens, preset.as_rows())

    @rule(page=st.sampled_from([HOME, HOME, *PAGES]))
    def go_to_page(self, page: str) -> None:
        before, here = self.matrix(), current_page(self.at)
        go_to(self.at, page)
        if page != here:  # another page: a grid of its own, drawn from the current matrix
            self.grid = None
        self.ran()
        assert self.matrix() == before

    @precondition(lambda self: len(self.history) > 1)
    @rule(data=st.data())
    def go_back_in_history(self, data: st.DataObject) -> None:
        """Back (or Forward) to an earlier URL: the browser sends that URL and the widgets'
        values as they are, and Streamlit marks the run as a history navigation."""
        index = data.draw(st.integers(0, len(self.history) - 2), label="entry")
        page, params, shown = self.history[index]
        self.at.query_params.clear()
        for key, values in params.items():
            self.at.query_params[key] = values if len(values) > 1 else values[0]
        if page != current_page(self.at):
            self.at.switch_page(PAGES[page].path)
        with patch.object(state, "_history_navigation", return_value=True):
            self.at.run()
        self.ran()
        assert (current_page(self.at), url_params(self.at)) == (page, params)
        assert snapshot(self.at) == shown

    @rule()
    def reload_from_the_copied_link(self) -> None:
        before = snapshot(self.at)
        self.at = reopen_from_link(self.at)
        self.grid = None  # another tab: a grid of its own, whatever its key
        self.history = []
        self.ran()
        assert snapshot(self.at) == before

    # --- after every action --------------------------------------------------------------

    @invariant()
    def shows_the_cores_numbers(self) -> None:
        if self.at is not None:
            assert_clean(self.at)
            check_numbers(self.at)  # also: every widget shows what the URL says


LearnerSession.TestCase.settings = settings(
    max_examples=examples(default=20, thorough=60),
    stateful_step_count=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
test_a_learners_session = LearnerSession.TestCase
