"""What the last tap did: the notice shown just above the picker until the next action, for an
action applied, refused (with its rule, R7a's "record it anyway" where the table may overrule
it) or stale, and for a change another phone made."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from ..i18n.words import gettext, ngettext, say, say_capitalized
from ..rules import GameState, Outcome, RuleError
from ..store import StaleRevision
from ..ui.labels import Why


class Tone(enum.StrEnum):
    SCORED = "scored"
    OK = "ok"
    REFUSED = "refused"
    STALE = "stale"


@dataclass(frozen=True, slots=True)
class Notice:
    """The result of the last action. Plain data: it travels in the session between a form
    POST and its redirect when the page runs without JavaScript."""

    tone: Tone
    text: str
    points: int = 0
    who: str | None = None
    next: str = ""
    rule: str | None = None
    why: tuple[Why, ...] = ()  # learning mode: each reason's rule and sentence
    # R7a: a refusal the table may overrule is recorded anyway by posting these fields there.
    confirm_url: str = ""
    confirm_fields: tuple[tuple[str, str], ...] = ()

    @property
    def title(self) -> str:
        if self.tone is Tone.REFUSED:
            return gettext("Not allowed")
        if self.tone is Tone.SCORED and self.who:
            return ngettext(
                "%(who)s scores %(num)s", "%(who)s scores %(num)s", self.points, who=self.who
            )
        return ""

    @property
    def shows_next(self) -> bool:
        return bool(self.next) and self.next not in self.text

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> Notice | None:
        if not isinstance(data, dict):
            return None
        try:
            why = tuple(Why(str(r["rule"]), str(r["text"])) for r in data["why"])
            fields = tuple((str(name), str(value)) for name, value in data["confirm_fields"])
            tone = Tone(data["tone"])
            return cls(**{**data, "tone": tone, "why": why, "confirm_fields": fields})
        except (KeyError, TypeError, ValueError):
            return None  # a cookie from another version: show nothing rather than fail


def outcome_notice(state: GameState, outcome: Outcome, why: tuple[Why, ...] = ()) -> Notice:
    fixed = outcome.fixed
    if fixed is not None and fixed.dropped:  # a fix that took later moves back: a warning
        tone = Tone.STALE
    else:
        tone = Tone.SCORED if outcome.points else Tone.OK
    return Notice(
        tone=tone,
        text=say(outcome.message),
        points=outcome.points,
        who=state.name(outcome.seat) if outcome.seat is not None else None,
        next=say(outcome.next),
        why=why,
    )


def refusal_notice(
    refusal: RuleError, confirm: tuple[str, Mapping[str, str]] | None = None
) -> Notice:
    """A refusal in words; with ``confirm`` (an address and the form's fields) the table may
    record it anyway (R7a)."""
    text = say_capitalized(refusal.message)
    if confirm is None:
        return Notice(Tone.REFUSED, text, rule=refusal.rule)
    url, fields = confirm
    return Notice(
        Tone.REFUSED, text, rule=refusal.rule, confirm_url=url, confirm_fields=tuple(fields.items())
    )


def stale_notice(stale: StaleRevision) -> Notice:
    """A submission for a revision the game has left: nothing was applied."""
    return Notice(Tone.STALE, say(stale.message))


def saved_notice(state: GameState) -> Notice:
    """A tap sent again whose first sending was saved (its answer was lost on the way)."""
    return Notice(
        Tone.OK, gettext("Saved: that was already recorded."), next=say(state.next_step())
    )


def change_notice(state: GameState, next_step: str) -> Notice | None:
    """What another phone just did, for a screen that follows it."""
    if not state.done:
        return None
    return Notice(Tone.OK, say(state.done), next=next_step)
