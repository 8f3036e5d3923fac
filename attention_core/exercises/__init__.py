"""Exercises on the learner's own numbers, answered by hand and checked here.

One function per kind (``vectors``: a dot product of two embeddings, an embedding's length,
a cosine similarity; ``scores``: a score, a scaled score, a softmax weight, a masked
weight; ``values``: a weight after dropout, a context vector's entry, the shape after a
head split, the numbers in a KV cache), each deterministic from the trace and an exercise
seed (``makers.make_exercise``); ``page_set`` chooses a page's exercises together, none
giving another's answer away; ``answers.check`` reads what a person typed and says what is
wrong.
"""

from __future__ import annotations

from attention_core.exercises.answers import Verdict, check, outcome, outcomes
from attention_core.exercises.base import (
    KIND_NAMES,
    KINDS,
    MISTAKE_NAMES,
    Cell,
    Exercise,
    Given,
    Line,
    Mistake,
)
from attention_core.exercises.makers import MAKERS, make_exercise
from attention_core.exercises.page_set import page_set

__all__ = [
    "KINDS",
    "KIND_NAMES",
    "MAKERS",
    "MISTAKE_NAMES",
    "Cell",
    "Exercise",
    "Given",
    "Line",
    "Mistake",
    "Verdict",
    "check",
    "make_exercise",
    "outcome",
    "outcomes",
    "page_set",
]
