"""A class question as a teacher runs it (issue 51), through AppTest on the process's store:
a follower cannot reveal an open question; the teacher sees the count, and the histogram only
when they show it; *Vote again* keeps the first vote; the reveal brings the answer and both
histograms to the follower; the teacher's CSV holds every answer given, anonymous; what gives
the answer away is hidden from followers (and from the projector on request); a store outage
does not lose the open question or a learner's ticked answer."""

from __future__ import annotations

import ast
import csv
import io
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from classroom.store import StoreDownError
from tests.ui.apptest import ENTRY, PAGES, alerts, assert_clean, open_page, title_of, vega_specs
from tests.ui.test_class_mode import teach as start_teaching
from ui.blocks.class_question import answers_csv
from ui.session import class_mode
from ui.session.class_mode import classroom

PAGE, QUESTION = "4_Scaling", "scaling_variance"
ANSWER_START = "It doubles: q·k is a sum"
HIDDEN = "hidden until the teacher reveals the answer"
GIVEAWAYS = ("The variance of q·k against d", "Score variance", "The table measured at d = 512")


def teach(page: str = PAGE) -> tuple[AppTest, str, str]:
    """A teacher's session on ``page``: *Class → Teach a class* clicked there."""
    at = open_page(page)
    code, key = start_teaching(at)
    return at, code, key


def join(code: str, page: str = PAGE) -> AppTest:
    at = open_page(page, {"class": code})
    assert_clean(at)
    return at


def buttons(at: AppTest) -> dict[str, str]:
    return {b.key: b.label for b in at.button}


def revealed(at: AppTest) -> bool:
    return any(s.value.startswith(ANSWER_START) for s in at.success)


def chart_titles(at: AppTest) -> list[str]:
    return [t for t in map(title_of, vega_specs(at)) if t in ("First vote", "Second vote")]


def answer(at: AppTest, round_: int, choice: int) -> AppTest:
    at.radio(key=f"class_answer_{QUESTION}_{round_}").set_value(choice).run()
    assert_clean(at)
    return at


def captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


def test_a_follower_cannot_reveal_an_open_question_and_sees_no_giveaway():
    teacher, code, _key = teach()
    learner = join(code)
    assert f"reveal_{QUESTION}" in buttons(learner)  # before the question is asked: its own
    learner.button(key=f"reveal_{QUESTION}").click().run()
    assert revealed(learner)  # revealed on its own before the class asks
    teacher.button(key=f"class_ask_{QUESTION}").click().run()
    learner.run()
    assert_clean(learner)
    assert f"reveal_{QUESTION}" not in buttons(learner)
    assert not revealed(learner)  # the earlier reveal does not show it while the class answers
    hidden = [c for c in captions(learner) if HIDDEN in c]
    assert [c.split(":")[0].strip("*") for c in hidden] == list(GIVEAWAYS)
    assert not any("512" in str(m.value) and "|" in str(m.value) for m in learner.markdown)
    assert "score variance" not in [title_of(s) for s in vega_specs(learner)]
    # The projector (the teacher's screen) hides them too, with the same lines, until the
    # teacher shows them on purpose; hiding them again takes them off once more.
    assert len([c for c in captions(teacher) if HIDDEN in c]) == len(GIVEAWAYS)
    assert "score variance" not in [title_of(s) for s in vega_specs(teacher)]
    teacher.toggle(key=f"class_conceal_{QUESTION}_1").set_value(False).run()
    assert_clean(teacher)
    assert not [c for c in captions(teacher) if HIDDEN in c]
    assert "score variance" in [title_of(s) for s in vega_specs(teacher)]
    learner.run()
    assert len([c for c in captions(learner) if HIDDEN in c]) == len(GIVEAWAYS)  # never theirs
    teacher.toggle(key=f"class_conceal_{QUESTION}_0").set_value(True).run()
    assert len([c for c in captions(teacher) if HIDDEN in c]) == len(GIVEAWAYS)
    teacher.button(key=f"class_reveal_{QUESTION}").click().run()
    learner.run()
    assert revealed(learner) and not [c for c in captions(learner) if HIDDEN in c]
    assert "score variance" in [title_of(s) for s in vega_specs(learner)]


def test_two_votes_histograms_on_request_the_shift_and_the_reveal_on_a_follower():
    teacher, code, _key = teach()
    teacher.button(key=f"class_ask_{QUESTION}").click().run()
    learners = [join(code) for _ in range(3)]
    for at, choice in zip(learners, (0, 1, 2), strict=True):
        answer(at, 1, choice)
    teacher.run()
    assert_clean(teacher)
    assert "First vote: 3 answers so far." in captions(teacher)
    assert chart_titles(teacher) == []  # the count only, until the teacher shows them
    teacher.button(key=f"class_show_{QUESTION}").click().run()
    assert chart_titles(teacher) == ["First vote"]
    assert "3 answers. A: 1 (33 %); B: 1 (33 %); C: 1 (33 %); D: 0 (0 %)." in captions(teacher)
    teacher.button(key=f"class_again_{QUESTION}").click().run()
    assert chart_titles(teacher) == []  # the second vote waits to be shown too
    assert "Second vote: 0 answers so far." in captions(teacher)
    for at, choice in zip(learners, (1, 1, 3), strict=True):
        at.run()
        assert at.radio(key=f"class_answer_{QUESTION}_2").value is None  # a fresh vote
        answer(at, 2, choice)
    teacher.run()
    assert "Second vote: 3 answers so far." in captions(teacher)
    teacher.button(key=f"class_show_{QUESTION}").click().run()
    assert chart_titles(teacher) == ["First vote", "Second vote"]
    shift = "**Correct (B): 33 % → 67 %** from the first vote to the second."
    # The teacher's screen is the projector: which choice is correct waits for the reveal.
    assert not [m.value for m in teacher.markdown if "Correct" in m.value]
    teacher.button(key=f"class_reveal_{QUESTION}").click().run()
    assert shift in [m.value for m in teacher.markdown]
    teacher.button(key=f"class_reveal_{QUESTION}").click().run()  # hidden again
    assert "3 answers. A: 1 (33 %); B: 1 (33 %); C: 1 (33 %); D: 0 (0 %)." in captions(teacher)
    assert "3 answers. A: 0 (0 %); B: 2 (67 %); C: 0 (0 %); D: 1 (33 %)." in captions(teacher)
    follower = learners[0]
    follower.run()
    assert chart_titles(follower) == [] and not revealed(follower)  # shown on the projector only
    teacher.button(key=f"class_reveal_{QUESTION}").click().run()
    follower.run()
    assert_clean(follower)
    assert revealed(follower)
    assert chart_titles(follower) == ["First vote", "Second vote"]
    assert shift in [m.value for m in follower.markdown]
    assert follower.radio(key=f"class_answer_{QUESTION}_2").disabled
    assert follower.radio(key=f"class_answer_{QUESTION}_2").value == 1


def test_the_csv_holds_every_answer_given_by_session_and_round_without_names():
    teacher, code, key = teach()
    teacher.button(key=f"class_ask_{QUESTION}").click().run()
    learners = [join(code) for _ in range(2)]
    given = {}
    for at, first in zip(learners, (3, 1), strict=True):
        answer(at, 1, 2)
        answer(at, 1, first)  # a changed mind: the last answer counts
        given[at.session_state[class_mode.MEMBERSHIP].learner] = {1: first}
    teacher.button(key=f"class_again_{QUESTION}").click().run()
    for at, second in zip(learners, (1, 0), strict=True):
        at.run()
        answer(at, 2, second)
        given[at.session_state[class_mode.MEMBERSHIP].learner][2] = second
    rows = list(csv.reader(io.StringIO(answers_csv(classroom().answer_rows(code, key)))))
    assert rows[0] == ["learner_session", "question", "round", "choice", "answered_at_utc"]
    found = {}
    for learner, question, number, choice, when in rows[1:]:
        assert question == QUESTION and re.fullmatch(r"[0-9a-f]{16}", learner)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", when)
        found.setdefault(learner, {})[int(number)] = "ABCD".index(choice)
    assert found == given
    assert len(rows) == 1 + 4


def test_a_store_outage_keeps_the_open_question_and_the_learners_ticked_answer(monkeypatch):
    """Fault 4 of issue 51: while the store is down the teacher is never offered to ask again,
    and a learner whose radio was not drawn meanwhile shows its stored answer afterwards."""
    teacher, code, _key = teach()
    teacher.button(key=f"class_ask_{QUESTION}").click().run()
    learner = answer(join(code), 1, 3)
    store = classroom()._store
    original = store.read

    def down(*_args):
        raise StoreDownError("stopped")

    monkeypatch.setattr(store, "read", down)
    teacher.slider(key="d_out").set_value(4).run()  # the teacher moves d_out meanwhile
    assert_clean(teacher)
    assert f"class_ask_{QUESTION}" not in buttons(teacher)
    assert any("cannot be read now" in c for c in captions(teacher))
    learner.run()
    assert_clean(learner)
    assert [r for r in learner.radio if r.key.startswith("class_answer_")] == []
    assert f"reveal_{QUESTION}" not in buttons(learner)  # still open as far as it knows
    assert len([c for c in captions(learner) if HIDDEN in c]) == len(GIVEAWAYS)
    monkeypatch.setattr(store, "read", original)
    teacher.run()
    learner.run()
    assert_clean(learner)
    assert f"class_ask_{QUESTION}" not in buttons(teacher)
    assert "First vote: 1 answer so far." in captions(teacher)
    assert learner.radio(key=f"class_answer_{QUESTION}_1").value == 3


QUESTION_PAGES = [p for p in PAGES if p[:1].isdigit() and p != "0_Compare"]  # lessons and Flow
GUIDE = Path(ENTRY).parent / "docs" / "teachers-guide.md"


def question_table() -> dict[str, tuple[str, list[str]]]:
    """The teacher's guide's table of questions: question → (correct letter, what gives it away)."""
    rows, inside = {}, False
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("| page | question | correct |"):
            inside = True
        elif inside and not line.startswith("|"):
            break
        elif inside and not line.startswith("| ---"):
            _page, question, correct, parts = (c.strip() for c in line.strip("|").split("|"))
            rows[question.strip("`")] = (correct, [] if parts == "nothing" else parts.split(", "))
    return rows


@pytest.mark.parametrize("page", QUESTION_PAGES)
def test_every_question_can_be_asked_and_hides_what_the_guide_says_gives_it_away(page):
    """Every *Predict, then reveal* question has choices, so the teacher can ask it; a
    follower then sees one line in place of each part the teacher's guide's table names, and the
    teacher is offered to hide them where there are any."""
    teacher, code, _key = teach(page)
    asks = [k for k in buttons(teacher) if k.startswith("class_ask_")]
    assert len(asks) == 1, buttons(teacher)
    teacher.button(key=asks[0]).click().run()
    assert_clean(teacher)
    question = asks[0].removeprefix("class_ask_")
    assert f"class_reveal_{question}" in buttons(teacher)
    assert not any("did not change" in body for _, _, body in alerts(teacher))
    learner = join(code, page)
    hidden = [c.split(": hidden until")[0].strip("*").lower() for c in captions(learner)]
    hidden = [h for h, c in zip(hidden, captions(learner), strict=True) if HIDDEN in c]
    assert hidden == [part.lower() for part in question_table()[question][1]]
    offered = [t.key for t in teacher.toggle if t.key.startswith("class_conceal_")]
    assert len(offered) == (1 if hidden else 0)


def test_every_question_names_its_choices_and_its_correct_one_as_the_guide_does():
    """The shift between two votes is named by the correct choice: every *Predict, then
    reveal* call gives ``choices`` and a ``correct`` index among them (read from the source),
    the one the teacher's guide's table of questions gives."""
    found = {}
    for path in sorted(Path(ENTRY).parent.glob("pages/*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {
            target.id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "predict":
                given = {k.arg: k.value for k in node.keywords}
                choices, correct = given["choices"], ast.literal_eval(given["correct"])
                assert isinstance(choices, ast.Tuple) and 0 <= correct < len(choices.elts)
                key = given["key"]
                question = key.value if isinstance(key, ast.Constant) else names[key.id]
                found[path.stem] = (question, "ABCDEF"[correct])
    assert set(found) == set(QUESTION_PAGES)
    table = question_table()
    assert {q: letter for q, letter in found.values()} == {q: c for q, (c, _) in table.items()}
    assert found["4_Scaling"] == ("scaling_variance", "B")  # "It doubles"
