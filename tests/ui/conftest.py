"""AppTest set-up: every test fails if the app logged a caught bug (a traceback) meanwhile."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from tests.ui.apptest import ServerLog


@pytest.fixture(autouse=True)
def server_log() -> Iterator[ServerLog]:
    """What the app wrote to its server log during the test; must hold no error."""
    handler = ServerLog()
    logger = logging.getLogger("attention_dashboard")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
    assert [r.getMessage() for r in handler.records] == [], [
        logging.Formatter().formatException(r.exc_info) if r.exc_info else r.getMessage()
        for r in handler.records
    ]
