"""A question's rounds (issue 51): vote, vote again with round 1 kept, tallies per round, the
shift of the correct share in numbers, each learner's own answer looked up, and the teacher's
rows of every answer with its time (no names), on both stores."""

from __future__ import annotations

import pytest

from classroom import Classroom, MemoryStore, NotTeacherError, RefusedError
from classroom.codes import new_learner_id
from classroom.rounds import correct_shift
from tests.classroom.test_classes import LINK, Clock, made, redis_server  # noqa: F401


def test_vote_again_counts_a_new_round_and_keeps_the_first(made):  # noqa: F811
    clock = Clock()
    room = made(clock)
    code, key = room.start("4_Scaling", LINK)
    room.ask(code, key, "scaling_variance", 4)
    state = room.state(code)
    assert (state.round, state.first_round, state.voted_again, state.shown) == (1, 1, False, False)
    learners = [new_learner_id() for _ in range(4)]
    for learner, choice in zip(learners, (0, 1, 2, 2), strict=True):
        room.answer(code, learner, "scaling_variance", choice)
    room.show_answers(code, key)
    assert room.state(code).shown
    assert room.answer_of(code, learners[2], "scaling_variance") == 2
    room.vote_again(code, key)
    state = room.state(code)
    assert (state.round, state.first_round, state.voted_again) == (2, 1, True)
    assert not state.shown and not state.revealed  # round 2's histogram waits to be shown too
    assert room.tally(code, "scaling_variance") == [0, 0, 0, 0]  # round 2 starts empty
    assert room.answer_of(code, learners[2], "scaling_variance") is None
    for learner, choice in zip(learners[:3], (1, 1, 2), strict=True):
        room.answer(code, learner, "scaling_variance", choice)
    assert room.tally(code, "scaling_variance") == [0, 2, 1, 0]
    assert room.tally(code, "scaling_variance", 1) == [1, 1, 2, 0]  # round 1 kept
    assert made().tally(code, "scaling_variance", 1) == [1, 1, 2, 0]  # and in another worker
    with pytest.raises(RefusedError, match="voted on twice"):
        room.vote_again(code, key)
    with pytest.raises(NotTeacherError):
        room.vote_again(code, "x" * 43)


def test_the_teachers_rows_hold_every_round_with_times_and_no_names(made):  # noqa: F811
    clock = Clock()
    room = made(clock)
    code, key = room.start("4_Scaling", LINK)
    first, second = new_learner_id(), new_learner_id()
    room.ask(code, key, "scaling_variance", 4)
    room.answer(code, second, "scaling_variance", 3)
    clock.now += 5
    room.answer(code, first, "scaling_variance", 1)
    clock.now += 5
    room.vote_again(code, key)
    room.answer(code, second, "scaling_variance", 1)
    room.close_question(code, key)
    room.ask(code, key, "causal_first", 4)  # another question
    clock.now += 1
    room.answer(code, first, "causal_first", 0)
    room.close_question(code, key)
    room.ask(code, key, "scaling_variance", 4)  # asked again: round 3, rounds 1-2 kept
    assert room.state(code).round == 3 and not room.state(code).voted_again
    start = 1_000_000.0
    assert room.answer_rows(code, key) == [
        (second, "scaling_variance", 1, 3, start),
        (first, "scaling_variance", 1, 1, start + 5),
        (second, "scaling_variance", 2, 1, start + 10),
        (first, "causal_first", 1, 0, start + 11),
    ]
    with pytest.raises(NotTeacherError):
        room.answer_rows(code, "")


def test_the_shift_names_the_correct_share_of_each_round():
    assert correct_shift([5, 11, 0, 0], [2, 18, 5, 0], 1) == (69, 72)
    assert correct_shift([4, 2, 3], [0, 9, 0], 1) == (22, 100)
    assert correct_shift([0, 0], [0, 3], 0) == (0, 0)  # nobody answered round 1: 0 %, not a crash
    assert correct_shift([1, 2], [1, 2], 5) == (0, 0)  # a correct index out of range


def test_a_class_bounds_its_rounds_and_its_questions():
    from classroom.classes import QUESTIONS_MAX, ROUNDS_MAX

    room = Classroom(MemoryStore())
    code, key = room.start("4_Scaling", LINK)
    for _ in range(ROUNDS_MAX):
        room.ask(code, key, "scaling_variance", 4)
    with pytest.raises(RefusedError, match=f"{ROUNDS_MAX} rounds at most"):
        room.ask(code, key, "scaling_variance", 4)
    for number in range(QUESTIONS_MAX - 1):
        room.ask(code, key, f"q{number}", 2)
    with pytest.raises(RefusedError, match=f"{QUESTIONS_MAX} questions at most"):
        room.ask(code, key, "one_too_many", 2)
    assert len(room.state(code).rounds) == QUESTIONS_MAX
