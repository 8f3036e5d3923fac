"""A learner's session as a Hypothesis state machine: rules are the learner's actions.

The walks are drawn from what each page renders, never from a list written beside it: a
walk starts on each page, changes the controls that page draws (those it has not changed
yet first, in a drawn order, each to a drawn value) and, between every few changes, does
what a person does around them (another page, Back, a reload from the copied link, the
grid). Each walk lasts until its page's controls have all been changed; the suite prints,
per page, the controls the walks changed out of those drawn (``tests/conftest.py``).

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

import json
from collections import defaultdict
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from attention_core.embeddings import preset_embeddings
from attention_core.knobs.param import MAX_TOKENS
from attention_core.knobs.settings import MATRIX_PARAMS, Settings
from attention_core.knobs.settle import settle
from attention_core.knobs.table import INPUT_PARAMS, PARAMS
from tests.budget import examples, walk_settings
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
CHANGES_BETWEEN = 3  # controls changed between two actions around them (while any is left)
SPARE_STEPS = 8  # the controls a change draws (a random example: its size and seed), and theirs
# The controls that draw another (the mask draws the padding): changed first among the rest,
# after those they draw (changing the mask first may hide the padding it drew for good).
TRIGGERS = {p.only_when[0] for p in PARAMS.values() if p.only_when}
DRAWN_BY_ANOTHER = {name for name, p in PARAMS.items() if p.only_when}
LAST = {"present"}  # projected, a page draws fewer controls (cross-attention's decoder step)
WALK = st.integers(0, 2**31)  # a walk's number: 0 in Hypothesis' simplest example only
# page -> the controls it drew, and those a walk changed there (this process's walks)
DRAWN: defaultdict[str, set[str]] = defaultdict(set)
WALKED: defaultdict[str, set[str]] = defaultdict(set)


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


def drawn_controls(at: Any) -> dict[str, tuple[str, Any]]:
    """The controls of the parameter table that the page drew: key -> (kind, widget). The
    language is read in English here (a page in Chinese: tests/ui/test_translation.py, and
    the browser's walks)."""
    return {
        w.key: (k, w)
        for k in WIDGET_KINDS
        for w in at.get(k)
        if w.key in PARAMS and w.key != "lang"
    }


def around(machine: LearnerSession) -> bool:
    """An action around the controls is due: a few changed since the last one, or every
    control of this page changed already."""
    if machine.skip or set(machine.unwalked()) & machine.appeared:
        return False  # a control the last change drew is changed first (no Back before it)
    return machine.changes >= CHANGES_BETWEEN or not machine.unwalked()


def walking(machine: LearnerSession) -> bool:
    return not machine.skip


class LearnerSession(RuleBasedStateMachine):
    """One browser tab on the dashboard, opened on ``start`` (any page when None)."""

    start: str | None = None
    usual: frozenset[str] = frozenset()  # the controls the start page draws at its defaults
    steps = 0  # the steps of one example (``steps_for``)
    whole = 0  # walks that passed every step (a count only: nothing depends on it)

    def __init__(self) -> None:
        super().__init__()
        self.skip = False  # Hypothesis' simplest example: no walk (``open_a_link``)
        self.at: Any = None
        self.grid: Grid | None = None
        self.history: list[tuple[str, dict[str, list[str]], tuple]] = []  # the browser's
        self.changes = 0  # controls changed since the last action around them
        self.appeared: set[str] = set()  # controls the last run drew that the one before did not
        self.drawn: set[str] = set()
        self.left = False  # the walk has been on another page than its own
        # What this walk drew and changed on its page: counted once it has walked every step
        # (Hypothesis may stop an example early, when it runs out of data, and start another).
        self.my_drawn: set[str] = set()
        self.my_walked: set[str] = set()
        self.steps_done = 0

    # --- bookkeeping ---------------------------------------------------------------------

    def ran(self) -> None:
        """After a run: a fresh grid (no edits) whenever the grid's key is new or was gone;
        the controls the walk's own page draws are counted until the walk goes elsewhere."""
        drawn = set(drawn_controls(self.at))
        self.appeared, self.drawn = drawn - self.drawn, drawn
        if current_page(self.at) != self.start:
            self.left = True
        elif not self.left:  # on its page, until it goes elsewhere (then its walk is done)
            self.my_drawn.update(drawn)
        key = grid_key(self.at)
        if key is None:
            self.grid = None
        elif self.grid is None or self.grid.key != key:
            self.grid = Grid(self.at, key)
        entry = (current_page(self.at), url_params(self.at), snapshot(self.at))
        if not self.history or self.history[-1][:2] != entry[:2]:
            self.history.append(entry)

    def unwalked(self) -> list[str]:
        """This page's drawn controls that no walk has changed here yet."""
        if self.at is None:
            return []
        page = current_page(self.at)
        walked = WALKED[page] | (self.my_walked if page == self.start else set())
        return sorted(set(drawn_controls(self.at)) - walked)

    def matrix(self) -> tuple[tuple[str, ...], tuple[tuple[float, ...], ...]]:
        shown = url_settings(self.at)
        return shown.tokens, shown.rows

    def send(self) -> None:
        assert self.grid is not None
        send_edits(self.at, self.grid.state())

    # --- the learner's actions -----------------------------------------------------------

    @initialize(data=st.data())
    def open_a_link(self, data: st.DataObject) -> None:
        # Hypothesis' first example of a test is its simplest: every number 0, so the first
        # choice of every list, and the first rule every step. A walk's first example is that
        # one; it is skipped (``settings`` asks for one example more).
        self.skip = data.draw(WALK, label="walk") == 0
        if self.skip:
            return
        pages = [self.start] if self.start else [HOME, HOME, *PAGES]
        page = data.draw(st.sampled_from(pages), label="page")
        link = data.draw(st.just({}) | legal_links(page), label="link")
        self.at = open_page(page, link)
        self.ran()

    @precondition(lambda self: self.skip)
    @rule()
    def skip_the_simplest_example(self) -> None:
        """Nothing: the walk that Hypothesis draws first, all zeros, is not walked."""

    @precondition(walking)
    @rule(data=st.data())
    def change_a_control(self, data: st.DataObject) -> None:
        drawn = drawn_controls(self.at)
        # The ones not changed yet first; first of all those a setting draws (the padding
        # under the padding mask), before another change may hide them again.
        unwalked = self.unwalked()
        choices = (
            [c for c in unwalked if c not in self.usual]
            or [c for c in unwalked if c in DRAWN_BY_ANOTHER]  # before the control they need
            # the page's own (a sidebar setting may stop the page drawing them: no decoder step
            # on page 12 once the weights are the identity and the two widths differ)
            or [c for c in unwalked if PARAMS[c].page == self.start]
            or [c for c in unwalked if c in TRIGGERS]  # early: what they draw has time
            or [c for c in unwalked if c not in LAST]
            or unwalked
            # every one changed: again any, but in the last steps none that draws another
            # (the padding drawn by the walk's last change would be left unchanged)
            or [c for c in sorted(drawn) if c not in TRIGGERS or self.steps - self.steps_done > 2]
            or sorted(drawn)
        )
        kind, widget = drawn[data.draw(st.sampled_from(choices), label="widget")]
        if current_page(self.at) == self.start:
            self.my_walked.add(widget.key)
        else:
            WALKED[current_page(self.at)].add(widget.key)
        self.changes += 1
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
    @precondition(around)
    @rule(data=st.data())
    def edit_a_cell(self, data: st.DataObject) -> None:
        self.changes = 0
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
    @precondition(around)
    @rule(data=st.data())
    def type_a_bad_cell_then_fix_it(self, data: st.DataObject) -> None:
        self.changes = 0
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
    @precondition(around)
    @rule(data=st.data())
    def add_a_token(self, data: st.DataObject) -> None:
        self.changes = 0
        grid = self.grid
        record = {"token": data.draw(st.sampled_from(LABELS), label="label")}
        for name in grid.columns[1:]:
            record[name] = data.draw(NUMBERS, label=name)
        grid.added.append(record)
        self.send()
        self.ran()
        assert self.matrix() == grid.matrix()

    @precondition(lambda self: self.grid is not None and len(self.grid.visible()) > 1)
    @precondition(around)
    @rule(data=st.data())
    def delete_a_token(self, data: st.DataObject) -> None:
        self.changes = 0
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
    @precondition(around)
    @rule()
    def paste_too_many_rows(self) -> None:
        self.changes = 0
        before, key = self.matrix(), self.grid.key
        zeros = dict.fromkeys(self.grid.columns[1:], 0.0)
        self.grid.added += [{"token": "p", **zeros} for _ in range(MAX_TOKENS + 1)]
        self.send()
        self.ran()
        assert self.matrix() == before
        assert any(f"at most {MAX_TOKENS} tokens" in t for _, _, t in alerts(self.at))
        assert self.grid.key != key, "a refused paste gives a fresh grid"

    @precondition(lambda self: self.grid is not None)
    @precondition(around)
    @rule()
    def reset(self) -> None:
        self.changes = 0
        self.at.button(key="reset_matrix").click().run()
        self.ran()
        shown = url_settings(self.at)
        preset = preset_embeddings(
            shown["preset"], shown["seed"], shown["num_tokens"], shown["d_in"]
        )
        assert (shown.tokens, shown.rows) == (preset.tokens, preset.as_rows())

    @precondition(lambda self: not self.skip and not self.unwalked())  # this page's first
    @rule(page=st.sampled_from([HOME, HOME, *PAGES]))
    def go_to_page(self, page: str) -> None:
        self.changes = 0
        before, here = self.matrix(), current_page(self.at)
        go_to(self.at, page)
        if page != here:  # another page: a grid of its own, drawn from the current matrix
            self.grid = None
        self.ran()
        assert self.matrix() == before

    @precondition(lambda self: len(self.history) > 1)
    @precondition(lambda self: not self.skip and not self.unwalked())
    # Back may draw a control again (the padding, back to the padding mask): two steps are left
    # to change it (a seed's walk ended on such a Back, the padding drawn and never changed).
    @precondition(lambda self: self.steps - self.steps_done >= 2)
    @rule(data=st.data())
    def go_back_in_history(self, data: st.DataObject) -> None:
        """Back (or Forward) to an earlier URL: the browser sends that URL and the widgets'
        values as they are, and Streamlit marks the run as a history navigation."""
        self.changes = 0
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

    @precondition(around)
    @rule()
    def reload_from_the_copied_link(self) -> None:
        self.changes = 0
        before = snapshot(self.at)
        self.at = reopen_from_link(self.at)
        self.grid = None  # another tab: a grid of its own, whatever its key
        self.history = []
        self.ran()
        assert snapshot(self.at) == before

    # --- after every action --------------------------------------------------------------

    def teardown(self) -> None:
        if self.steps_done >= self.steps and not self.skip:  # a whole walk: it counts
            type(self).whole += 1
            DRAWN[self.start].update(self.my_drawn)
            WALKED[self.start].update(self.my_walked)

    @invariant()
    def shows_the_cores_numbers(self) -> None:
        if self.at is not None and not self.skip:
            assert_clean(self.at)
            check_numbers(self.at)  # also: every widget shows what the URL says
        # Checked after every step, and counted once it holds: a walk that failed is never
        # counted.
        self.steps_done += 1


def steps_for(count: int) -> int:
    """Steps for a walk that changes ``count`` controls, with an action around them after
    every few, and a few more: a setting may draw another control (the padding under the
    padding mask), and the walk goes on elsewhere once its page's are all changed."""
    return count + -(-count // CHANGES_BETWEEN) + SPARE_STEPS


@pytest.mark.parametrize("start", list(PAGES))
def test_a_learners_session(start: str, record_property) -> None:
    """A walk from ``start``: every control that page draws is changed (more examples of
    each in the thorough profile), with the learner's other actions in between."""
    usual = frozenset(drawn_controls(open_page(start)))
    count = len(usual)
    steps = steps_for(count)
    walk = type(
        f"LearnerSessionFrom_{start}",
        (LearnerSession,),
        {"start": start, "usual": usual, "steps": steps},
    )
    try:
        # Every step, in every example: left to itself Hypothesis may end an example after
        # its first step (a CI run counted no walk from page 9, r41 none from page 13).
        # ``_min_steps`` (run_state_machine_as_test's own argument) forbids an early end;
        # deciding to skip examples once one walk was whole made Hypothesis' replays of a
        # prefix draw differently (FlakyStrategyDefinition, s12).
        run_state_machine_as_test(walk, settings=walk_settings(steps, thorough=4), _min_steps=steps)
        assert walk.whole == examples(default=1, thorough=4), f"{walk.whole} whole walks"
    finally:
        DRAWN[start]  # the page is listed even when no whole walk was counted
        walked = {page: [sorted(DRAWN[page]), sorted(WALKED[page])] for page in DRAWN}
        record_property("walks", json.dumps(walked))
