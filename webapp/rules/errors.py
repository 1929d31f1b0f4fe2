"""The refusals of the rules engine.

Every refusal is a :class:`RuleError` (a :class:`ValueError`) carrying a stable ``code`` for
programs, the ``rule`` it enforces (an id of RULES.md such as ``"R10"``, or ``None`` for plain
input errors) and a ``message`` a player understands: a :class:`~.messages.Message`, whose
``params`` (the tile, the open ends, the player) the refusal carries too, so the web layer can
say it in any language. Raising one never changes a state: every state in this package is
immutable.
"""

from __future__ import annotations

from collections.abc import Mapping

from .messages import Message, Param


class RuleError(ValueError):
    """A refused input or action: ``code`` for programs, ``rule`` and ``message`` for people."""

    confirmable = False  # True: the table may insist, and the action is recorded (R7a)

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message
        # A refusal changes nothing, so the turn stays where it was: what the table still does
        # next ("Ben to play"), given by the state that refused the action (None for input
        # refused before any state saw it).
        self.still: Message | None = None

    @property
    def params(self) -> Mapping[str, Param]:
        """What the message names: ``{"tile": "6-6", "ends": Items(...)}``; {} if nothing."""
        return self.message.params if isinstance(self.message, Message) else {}

    def as_dict(self) -> dict[str, str | None]:
        return {"code": self.code, "rule": self.rule, "message": self.message}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, rule={self.rule!r})"


class NotationError(RuleError):
    """Text that does not name a tile of the double-six set."""


class IllegalAction(RuleError):
    """A play, draw, pass, start or undo the rules do not allow now."""


class ImpossibleReport(RuleError):
    """Remaining pips or tiles at the end of a hand that cannot be true (R14)."""


class BadOptions(RuleError):
    """Game options outside what RULES.md defines."""


class RecordContradiction(IllegalAction):
    """A draw or pass the hand's record proves wrong (R7a): recorded only if the table confirms,
    since an earlier entry may be the mistake."""

    confirmable = True
