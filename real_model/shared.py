"""One model per server process, shared by every session; a failure is remembered until retried.

Streamlit's ``st.cache_resource`` does not remember exceptions, so a page wrapping
``load_model`` in it would try again (and wait again) on every rerun of every session. This
cache remembers the failure's message once per process; ``forget_model`` clears it for a
*Retry* button. The message is kept as a ``Message`` (its English text and values), so each
session reads it in its own language.
"""

from __future__ import annotations

import threading

from real_model import loader
from real_model.files import Message
from real_model.loader import LoadedModel, ModelLoadError

_lock = threading.Lock()
_results: dict[str, LoadedModel | Message | str] = {}  # source -> the model, or why it failed


def shared_model(source: str | None = None) -> LoadedModel:
    """The model for ``source`` (default: ``model_source()``), loaded once per process.

    Concurrent first calls wait for one load. After a failure every call raises the same
    message at once, without trying again, until ``forget_model`` is called.

    Raises:
        ModelLoadError: the remembered reason the model cannot be loaded.
    """
    key = loader.model_source() if source is None else source
    with _lock:
        if key not in _results:
            try:
                _results[key] = loader.load_model(key)
            except ModelLoadError as error:
                # The message only (no traceback kept alive), still to be put in words.
                message = error.args[0] if len(error.args) == 1 else None
                _results[key] = message if isinstance(message, Message) else str(error)
        result = _results[key]
    if not isinstance(result, LoadedModel):
        raise ModelLoadError(result)
    return result


def remembered_failure(source: str | None = None) -> str | None:
    """The remembered reason ``source`` failed to load, or None (not tried, or loaded)."""
    key = loader.model_source() if source is None else source
    with _lock:
        result = _results.get(key)
    return None if result is None or isinstance(result, LoadedModel) else str(result)


def forget_model(source: str | None = None) -> None:
    """Forget the model or failure of ``source`` (all sources when None): the next call loads."""
    with _lock:
        if source is None:
            _results.clear()
        else:
            _results.pop(source, None)
