"""Class mode's shared state: a teacher's view that learners follow, and the class's answers.

Pure Python behind one small interface (``store.ClassStore``) with two implementations: in
memory for one ``streamlit run`` process, Redis for the lecture hall's several workers
(``open_store`` chooses by the ``ATTENTION_CLASS_STORE`` environment variable). No Streamlit.
"""

from classroom.classes import (
    ClassError,
    Classroom,
    ClassState,
    ClassUnavailableError,
    NoSuchClassError,
    NotLeaderError,
    NotTeacherError,
    RefusedError,
)
from classroom.codes import CODE_ALPHABET, CODE_LENGTH, read_code
from classroom.store import ClassStore, MemoryStore, open_store

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "ClassError",
    "ClassState",
    "ClassStore",
    "ClassUnavailableError",
    "Classroom",
    "MemoryStore",
    "NoSuchClassError",
    "NotLeaderError",
    "NotTeacherError",
    "RefusedError",
    "open_store",
    "read_code",
]
