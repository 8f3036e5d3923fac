"""ui.session.message_queue: a run of some fragments that starts while a finished whole run's
messages still wait to be sent does not drop them (tests/e2e/test_quick_presses_browser.py
saw a slider vanish and a blank page when it did)."""

from __future__ import annotations

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.forward_msg_queue import ForwardMsgQueue

from ui.session import message_queue

Status = ForwardMsg.ScriptFinishedStatus


def element(path: list[int], fragment: str = "") -> ForwardMsg:
    message = ForwardMsg()
    message.metadata.delta_path.extend(path)
    message.delta.new_element.markdown.body = f"{path} {fragment}"
    if fragment:
        message.delta.fragment_id = fragment
    return message


def finished(status: int) -> ForwardMsg:
    message = ForwardMsg()
    message.script_finished = status
    return message


def kinds(queue: ForwardMsgQueue) -> list[str]:
    shown = []
    for message in queue._queue:
        if message.WhichOneof("type") == "delta":
            shown.append(message.delta.new_element.markdown.body)
        else:
            shown.append(Status.Name(message.script_finished))
    return shown


def queued(*messages: ForwardMsg) -> ForwardMsgQueue:
    queue = ForwardMsgQueue()
    for message in messages:
        queue.enqueue(message)
    return queue


def test_a_finished_whole_run_keeps_its_fragments_elements_when_a_fragment_run_starts():
    message_queue.install()
    message_queue.install()  # twice changes nothing
    queue = queued(
        element([0, 1]),
        element([0, 3, 0], "slider"),
        finished(Status.FINISHED_SUCCESSFULLY),
    )
    queue.clear(retain_lifecycle_msgs=True, fragment_ids_this_run=["slider"])
    assert kinds(queue) == ["[0, 1] ", "[0, 3, 0] slider", "FINISHED_SUCCESSFULLY"]


def test_a_stopped_runs_elements_of_the_fragments_are_still_dropped():
    message_queue.install()
    queue = queued(
        element([0, 1]),
        finished(Status.FINISHED_SUCCESSFULLY),
        element([0, 3, 0], "slider"),  # a fragment run stopped halfway by this new one
        element([0, 5], "views"),
        finished(Status.FINISHED_EARLY_FOR_RERUN),
    )
    queue.clear(retain_lifecycle_msgs=True, fragment_ids_this_run=["slider"])
    assert kinds(queue) == [
        "[0, 1] ",
        "FINISHED_SUCCESSFULLY",
        "[0, 5] views",
        "FINISHED_EARLY_FOR_RERUN",
    ]


def test_a_whole_run_still_clears_every_element_waiting():
    message_queue.install()
    queue = queued(
        element([0, 1]), element([0, 3, 0], "slider"), finished(Status.FINISHED_SUCCESSFULLY)
    )
    queue.clear(retain_lifecycle_msgs=True)
    assert kinds(queue) == ["FINISHED_EARLY_FOR_RERUN"]  # Streamlit's own rule, unchanged
