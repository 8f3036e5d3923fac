"""The project's own error type: every message is one sentence a learner can act on."""


class AttentionInputError(ValueError):
    """Raised when a setting, a matrix or a parameter is invalid; the message says which and why."""
