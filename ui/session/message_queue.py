"""A fix for Streamlit's outgoing message queue: a finished run's messages are never dropped.

Each session's messages wait in a queue until the server's event loop sends them. When a run
starts, Streamlit clears that queue of what the new run will draw again; for a run of some
fragments, of every element those fragments drew. On a loaded server the queue can still hold
a whole run that has *finished*. Its end is kept, so the browser removes what that run did not
draw, but the fragments' elements are gone from the queue: a slider drawn in a fragment
vanished from the page, and the next change drawn into its place broke the page ("Cannot set
a node at a delta path", a blank page). With this fix the queue keeps everything up to the end
of the last run that finished, as if it had been sent a moment earlier, which is what happens
on a server with time to spare. Only a run stopped halfway is cleared, as Streamlit intends.

Found by tests/e2e/test_quick_presses_browser.py (quick presses while runs queue up); the
queue's behaviour is tested in tests/ui/test_message_queue.py.
"""

from __future__ import annotations

import functools
from typing import Any

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.forward_msg_queue import ForwardMsgQueue

FINISHED = (
    ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY,
    ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
)


def _last_finished(queue: list[ForwardMsg]) -> int:
    """The index of the last message that ends a finished run (-1: none)."""
    for index in range(len(queue) - 1, -1, -1):
        message = queue[index]
        if message.WhichOneof("type") == "script_finished" and message.script_finished in FINISHED:
            return index
    return -1


def _keeping_finished_runs(clear: Any) -> Any:
    @functools.wraps(clear)
    def wrapper(
        self: ForwardMsgQueue,
        retain_lifecycle_msgs: bool = False,
        fragment_ids_this_run: list[str] | None = None,
    ) -> None:
        end = _last_finished(self._queue) if fragment_ids_this_run is not None else -1
        if not retain_lifecycle_msgs or end < 0:
            clear(self, retain_lifecycle_msgs, fragment_ids_this_run)
            return
        finished, self._queue = self._queue[: end + 1], self._queue[end + 1 :]
        clear(self, retain_lifecycle_msgs, fragment_ids_this_run)
        self._queue = finished + self._queue  # new messages compose with none of these

    wrapper.keeps_finished_runs = True  # type: ignore[attr-defined]
    return wrapper


def install() -> None:
    """Put the fix in place (once per process; later calls change nothing)."""
    if not getattr(ForwardMsgQueue.clear, "keeps_finished_runs", False):
        ForwardMsgQueue.clear = _keeping_finished_runs(ForwardMsgQueue.clear)  # type: ignore[method-assign]
