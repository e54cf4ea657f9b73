"""One error tree for the domain, split by cause.

A malformed command (bad notation, a field out of range) is a different failure from a
well-formed command that the rules do not allow now; the service maps each kind to its own
HTTP status and problem type.
"""

from __future__ import annotations


class DomainError(Exception):
    """Anything the domain refuses. ``str(error)`` is a sentence a player understands."""

    kind = "domain-error"


class InvalidCommand(DomainError):  # noqa: N818  (the names read as the rules speak)
    """The command cannot be understood: bad notation, unknown option, value out of range."""

    kind = "invalid-command"


class InvalidNotation(InvalidCommand):
    kind = "invalid-notation"


class InvalidOptions(InvalidCommand):
    kind = "invalid-options"


class IllegalMove(DomainError):  # noqa: N818
    """The command is well formed, but the rules do not allow it now."""

    kind = "illegal-move"


class NotYourTurn(IllegalMove):
    kind = "not-your-turn"


class MatchOver(IllegalMove):
    kind = "match-over"


class MatchAlreadyEnded(MatchOver):
    """Resigning or adjudicating a match that has already ended."""

    kind = "match-already-ended"
