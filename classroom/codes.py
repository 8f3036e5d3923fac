"""Join codes, teacher keys and learner ids: random, short where a person reads them."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from translation import _

# No look-alikes: no 0/O, 1/I/L, 5/S, 2/Z, 8/B, U/V.
CODE_ALPHABET = "ACDEFGHJKMNPQRTWXY34679"
CODE_LENGTH = 6
KEY_BYTES = 24  # a teacher key: 32 URL-safe characters
LEARNER_BYTES = 8


class BadCodeError(ValueError):
    """A join code that cannot be one (its message names what is wrong)."""


def new_code() -> str:
    """A random join code, e.g. ``K7RM3Q``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: str) -> str:
    """A join code as typed (any case, spaces and dashes ignored), or :class:`BadCodeError`."""
    if len(text) > 40:
        raise BadCodeError(
            _("a class code has {CODE_LENGTH} characters; this text has {count}").format(
                CODE_LENGTH=CODE_LENGTH, count=len(text)
            )
        )
    code = "".join(ch for ch in text.upper() if ch not in " -")
    if not code:  # an empty box (a browser drops a paste longer than the box allows)
        raise BadCodeError(
            _("a class code has {CODE_LENGTH} characters, and none was given").format(
                CODE_LENGTH=CODE_LENGTH
            )
        )
    if len(code) != CODE_LENGTH:
        raise BadCodeError(
            _("a class code has {CODE_LENGTH} characters, not {count}").format(
                CODE_LENGTH=CODE_LENGTH, count=len(code)
            )
        )
    wrong = sorted({ch for ch in code if ch not in CODE_ALPHABET})
    if wrong:
        raise BadCodeError(
            _(
                "a class code uses only the letters and digits {CODE_ALPHABET}; {count} "
                "character(s) of this one are not among them"
            ).format(CODE_ALPHABET=CODE_ALPHABET, count=len(wrong))
        )
    return code


def new_key() -> str:
    """A secret teacher key (kept in the teacher's session, never in a link)."""
    return secrets.token_urlsafe(KEY_BYTES)


def key_digest(key: str) -> str:
    """What the store keeps of a teacher key: its SHA-256, never the key."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def key_matches(key: str, digest: str) -> bool:
    """True when ``key`` is the key whose digest is ``digest`` (in constant time)."""
    return bool(digest) and hmac.compare_digest(key_digest(key), digest)


def new_leader_token() -> str:
    """A random token for the one session that leads a class now (not a secret: it only says
    which of the key holders' sessions leads)."""
    return secrets.token_hex(LEARNER_BYTES)


def new_learner_id() -> str:
    """A random id for one learner session: the only thing stored about a learner."""
    return secrets.token_hex(LEARNER_BYTES)
