"""*Check yourself* (AppTest): a wrong answer's hint, the worked solution after two, a right
answer counted in the title row, hostile answers shown only as text, and the block in
Chinese. One test per kind of behaviour; the numbers come from the core on the page's run."""

from __future__ import annotations

import json
import re

import pytest

from attention_core import AttentionConfig, preset_embeddings, run_attention
from tests.budget import in_rotation
from tests.ui.apptest import (
    as_read,
    assert_clean,
    markup_problems,
    open_page,
    shown_texts,
    title_of,
    vega_specs,
)
from tests.ui.untranslated import english_left
from ui.blocks.check_yourself import PAGE_KINDS, SECTION, exercises_of
from ui.session import nav

PAGE = "5_Causal_mask"


def page_exercise(kind: str):
    """The exercise page 5 asks by default, made by the core on the page's causal run."""
    trace = run_attention(preset_embeddings("journey"), AttentionConfig(mask="causal"))
    return exercises_of(PAGE, trace, 4, focus=1)[kind]  # token 2 is focused


def opened(params=None):
    at = open_page(PAGE, params)
    at.session_state["check_yourself"] = True  # the section opened (an expander, no widget)
    return at.run()


def answer(at, kind: str, text: str):
    at.text_input(key=f"exercise_answer_{kind}").set_value(text)
    return at.button(key=f"FormSubmitter:exercise_{kind}-Check").click().run()


def progress(at) -> str:
    """The title row's badge, as it reads."""
    badges = [m.value for m in at.markdown if m.value.startswith(":gray-badge[")]
    badges += [m.value for m in at.markdown if m.value.startswith(":green-badge[")]
    return badges[0].split("[", 1)[1].rstrip("]")


def test_every_lesson_asks_at_least_three_kinds():
    lessons = {p.key for p in nav.PAGES if p.title[:1].isdigit()}
    assert set(PAGE_KINDS) == lessons
    assert all(len(set(kinds)) >= 3 for kinds in PAGE_KINDS.values())


def test_a_wrong_answer_gets_its_hint_two_the_solution_and_a_right_one_counts():
    exercise = page_exercise("masked_weight")
    unmasked = next(m for m in exercise.mistakes if m.key == "masked_after_softmax")
    at = opened()
    assert progress(at) == "0 of 3 solved"
    latex_before = len(at.latex)
    at = answer(at, "masked_weight", f"{unmasked.value:.4f}")
    hints = [w.value for w in at.warning]
    assert any("masked after the softmax without renormalising" in h for h in hints), hints
    assert len(at.latex) == latex_before  # no solution after one wrong answer
    at = answer(at, "masked_weight", "0.9999")
    assert_clean(at)
    solution = "".join(x.value for x in at.latex[latex_before:])
    assert exercise.answer_text in solution and r"\Sigma" in solution
    at = answer(at, "masked_weight", f"{float(exercise.answer) * 100:.2f}%")
    assert as_read(at.success[-1].value) == f"Right: {exercise.answer_text}."
    assert progress(at) == "1 of 3 solved"


def test_hostile_answers_are_refused_and_shown_only_as_text():
    at = opened()
    for typed in ("<img src=x onerror=alert(1)>", "**1** :red[x] $x$", "nan", "1e999"):
        at = answer(at, "scaled_score", typed)
        assert_clean(at)
        assert at.info, typed  # refused in a sentence
        echo = next(c.value for c in at.caption if c.value.startswith("You answered: "))
        assert markup_problems(echo) == [], echo
    assert progress(at) == "0 of 3 solved"


def test_each_answer_field_says_how_close_an_answer_must_be():
    """The tolerance was never said, and differs by kind and decimals: page 5's weight is
    counted within ± 0.0002 at 4 decimals, ± 0.02 at 2. Each exercise has its line."""
    at = opened()
    notes = [c.value for c in at.caption if c.value.startswith(("Counted right", "Only the"))]
    assert len(notes) == 3, notes
    weight = page_exercise("masked_weight")
    assert f"Counted right within ± {weight.tolerance:.4f} of the answer." in notes
    two = opened({"decimals": "2"})
    wider = [c.value for c in two.caption if c.value.startswith("Counted right")]
    assert "Counted right within ± 0.02 of the answer." in wider, wider


def test_an_empty_check_says_so_and_keeps_the_last_answers_hint():
    """Check with nothing typed said nothing and wiped the last answer's hint."""
    exercise = page_exercise("scaled_score")
    forgot = next(m for m in exercise.mistakes if m.key == "forgot_to_scale")
    at = answer(opened(), "scaled_score", f"{forgot.value:.4f}")
    hint = [w.value for w in at.warning]
    empty = "Type your answer first."
    assert any("scale" in h for h in hint) and not any(empty in i.value for i in at.info)
    for typed in ("", "   "):
        at = answer(at, "scaled_score", typed)
        assert_clean(at)
        assert any(empty in i.value for i in at.info), typed
        assert [w.value for w in at.warning] == hint  # the hint stays
    at = answer(at, "scaled_score", exercise.answer_text)
    assert not any(empty in i.value for i in at.info)
    assert as_read(at.success[-1].value) == f"Right: {exercise.answer_text}."


def test_the_exercises_hints_and_solution_are_in_chinese():
    exercise = page_exercise("scaled_score")
    forgot = next(m for m in exercise.mistakes if m.key == "forgot_to_scale")
    at = opened()
    for typed in ("0", f"{forgot.value:.4f}"):
        at = answer(at, "scaled_score", typed)
    # Then the language: AppTest cannot run a Chinese page twice (it reads a select box's
    # value back through the labels of its last run), so the answers are given before.
    at.radio(key="lang").set_value("zh_CN").run()
    assert "忘了缩放" in at.warning[0].value
    assert progress(at) == "已解答 0 / 3 题"
    assert any(exercise.answer_text in x.value for x in at.latex)  # the worked solution
    shown = [x.value for kind in ("markdown", "caption", "warning", "info") for x in at.get(kind)]
    shown += [w.label for w in at.text_input] + [b.label for b in at.button]
    assert [(text, english_left(text)) for text in shown if english_left(text)] == []


def test_a_class_exercise_checked_on_each_screen_and_counted_for_the_teacher():
    from tests.ui.test_class_questions import join, teach

    exercise = page_exercise("masked_weight")
    unmasked = next(m for m in exercise.mistakes if m.key == "masked_after_softmax")
    question = "ex5_masked_weight"
    teacher, code, _key = teach(PAGE)
    teacher.session_state["check_yourself"] = True
    teacher.run()
    teacher.button(key=f"class_ask_{question}").click().run()
    learners = [join(code, PAGE) for _ in range(3)]
    typed_answers = ("0.9", exercise.answer_text, exercise.answer_text)
    for at, typed in zip(learners, typed_answers, strict=True):
        # The asked exercise is drawn above the closed section, with the class's note.
        assert "The class's exercise" in [h.value for h in at.subheader]
        at = answer(at, "masked_weight", typed)
        assert_clean(at)
    first = learners[0]
    answer(first, "masked_weight", f"{unmasked.value:.4f}")  # a second wrong answer
    hints = [w.value for w in first.warning]
    assert any("without renormalising" in h for h in hints), hints
    assert not any(exercise.answer_text in x.value for x in first.latex)  # no solution yet
    # Nor does a chart print the answer, on the learner's screen or on the projector.
    labels = ["Your", "journey", "starts", "with", "one", "step"]
    (_what, query, key), *_ = sorted(exercise.asks)
    cell = (labels[query], labels[key])
    assert _printing(_cells(first), cell, "?") != []
    assert _printing(_cells(first), cell, exercise.answer_text) == []
    teacher.run()
    assert "First vote: 3 answers so far." in [c.value for c in teacher.caption]
    teacher.button(key=f"class_show_{question}").click().run()
    assert_clean(teacher)
    assert _printing(_cells(teacher), cell, exercise.answer_text) == []  # before the reveal
    name = f"masked after softmax, not renormalised ({unmasked.value:.4f})"
    summary = [m.value for m in teacher.markdown if " right (" in m.value]
    # Before the reveal the projector shows the share right, but neither the outcomes'
    # histogram nor a wrong answer's name and value (nor, so, the right one's).
    assert summary == ["2 of 3 answers right (67 %)."]
    assert [s for s in vega_specs(teacher) if "right (" in json.dumps(s)] == []
    assert not any(f"{unmasked.value:.4f}" in c.value for c in teacher.caption)
    teacher.button(key=f"class_reveal_{question}").click().run()
    summary = [m.value for m in teacher.markdown if " right (" in m.value]
    assert summary == [
        f"2 of 3 answers right (67 %). The most common wrong answer: {name}, 1 answer."
    ]
    assert [s for s in vega_specs(teacher) if "right (" in json.dumps(s)] != []
    assert _printing(_cells(teacher), cell, exercise.answer_text) != []  # revealed
    first.run()
    assert any(exercise.answer_text in x.value for x in first.latex)  # the worked solution
    assert _printing(_cells(first), cell, exercise.answer_text) != []


def _cells(at) -> dict[str, dict[tuple[str, str], dict]]:
    """Each heatmap of the page by title: its cells by (row, column), as sent to the browser."""
    charts = {}
    for spec in vega_specs(at):
        records = spec.get("data", {}).get("values") or []
        if records and "state" in records[0]:
            charts[title_of(spec)] = {(r["row"], r["column"]): r for r in records}
    return charts


def _printing(charts, cell, text) -> list[str]:
    """The charts that print ``text`` at ``cell``."""
    return [title for title, cells in charts.items() if cells.get(cell, {}).get("text") == text]


def test_a_chart_never_prints_the_number_an_exercise_asks_until_it_is_answered():
    """Page 5 printed the asked weight α(2,1) = 0.3986 in its heatmaps above the question.
    With the section open, each cell that would print an answer reads "?" on grey, its
    number not sent at all; a right answer shows it; the closed section asks nothing."""
    labels = ["Your", "journey", "starts", "with", "one", "step"]
    softmax = page_exercise("softmax_weight")
    (_what, query, key), *_ = sorted(softmax.asks)
    cell = (labels[query], labels[key])

    closed = _cells(open_page(PAGE).run())
    charts = _printing(closed, cell, softmax.answer_text)
    assert charts, "no chart prints the asked weight: the test asks nothing"

    at = opened()
    shown = _cells(at)
    assert _printing(shown, cell, softmax.answer_text) == []
    assert _printing(shown, cell, "?") == charts
    assert all(shown[title][cell]["value"] is None for title in charts)
    # no cell anywhere prints a number an answer would be counted right for
    for kind in PAGE_KINDS[PAGE]:
        exercise = page_exercise(kind)
        near = [
            (title, c["text"])
            for title, cells in shown.items()
            for c in cells.values()
            if c["value"] is not None and abs(c["value"] - exercise.answer) <= exercise.tolerance
        ]
        assert near == [], (kind, exercise.answer_text)
    assert any("an exercise below asks" in c.value for c in at.caption)

    at = answer(at, "softmax_weight", softmax.answer_text)
    assert _printing(_cells(at), cell, softmax.answer_text) == charts


# Each lesson at its defaults and with a mask, dropout, two heads, another focus and two
# decimals, in turn (``in_rotation``: half of them each run, all in the thorough profile).
VARIANTS = (
    {},
    {"mask": "causal", "dropout": "0.2", "d_out": "4", "heads": "2", "query": "4"},
    {"decimals": "2", "scaling": "d", "query": "5"},
)
SIGHT = [
    (page, n)
    for i, page in enumerate(PAGE_KINDS)
    for n in range(len(VARIANTS))
    if in_rotation(i + n)
]


@pytest.mark.parametrize(("page", "variant"), SIGHT)
def test_no_answer_is_on_screen_before_it_is_answered(page, variant):
    """Every text the page shows with its section open, charts, tables, formulas and the
    other exercises' numbers included: no answer printed as the answer is (the headline's
    largest weight, a formula's context vector, a softmax row's scaled score were)."""
    at = open_page(page, VARIANTS[variant])
    at.session_state[SECTION] = True
    at = at.run()
    assert_clean(at)
    made = at.session_state["_exercise_run"]["made"][1]
    text = "\n".join(shown_texts(at)).replace("−", "-")
    for kind, exercise in made.items():
        if isinstance(exercise.answer, tuple) or exercise.tolerance == 0:
            continue  # a shape or a count: whole numbers the page prints as sizes
        answer = re.escape(exercise.answer_text.replace("−", "-"))
        found = re.findall(rf".{{0,40}}(?<![\d.-]){answer}(?!\d).{{0,20}}", text)
        assert found == [], (kind, exercise.answer_text, found)


def test_the_percentage_is_offered_only_where_a_weight_is_asked():
    """Page 1 asks a dot product, a length and a cosine: no weight, so no "22.64%" (it said
    a weight may be typed as a percentage); page 2 asks a softmax weight and says so."""
    captions = {}
    for page in ("1_Embeddings", "2_Simplified_attention"):
        at = open_page(page)
        at.session_state[SECTION] = True
        at = at.run()
        assert_clean(at)
        captions[page] = " ".join(c.value for c in at.caption if "by hand" in c.value)
    assert captions["1_Embeddings"] and "percentage" not in captions["1_Embeddings"]
    assert "22.64%" in captions["2_Simplified_attention"]
