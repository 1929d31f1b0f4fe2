"""What the last tap did: the notice shown just above the picker until the next action, for an
action applied, refused (with its rule, R7a's "record it anyway" where the table may overrule
it) or stale, and for a change another phone made.

An action's result is the game's own last outcome (``Scorebook.last``), so a screen opened or
reloaded shows it again until the next action, and never a result from before it; a refusal
or a stale tap changed nothing, so it is shown only in the answer to that tap."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from ..i18n.words import gettext, ngettext, say, say_capitalized
from ..rules import ActionKind, GameState, Outcome, RuleError
from ..rules.messages import Message
from ..store import Snapshot, StaleRevision
from ..ui.labels import Why, play_reasons


class Tone(enum.StrEnum):
    SCORED = "scored"
    OK = "ok"
    REFUSED = "refused"
    STALE = "stale"


@dataclass(frozen=True, slots=True)
class Notice:
    """The result of the last tap."""

    tone: Tone
    text: str
    points: int = 0
    who: str | None = None
    next: str = ""
    still: str = ""  # after a refusal: what the table still does next ("Ben to play")
    rule: str | None = None
    why: tuple[Why, ...] = ()  # learning mode: each reason's rule and sentence
    brief: str = ""  # a play as a short verbosity says it: its tile and end, without the sum
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


def brief_play(outcome: Outcome, who: str | None) -> str:
    """A play as this phone's short verbosity says it, after its title: "5-3 up" (its points
    are the title's, "Ben scores 15"); unscored, "Ana: 5-4 left, 0 points"."""
    play = outcome.message
    if outcome.kind is not ActionKind.PLAY or not isinstance(play, Message):
        return ""
    while isinstance(inner := play.params.get("play"), Message):
        play = inner  # inside "…, scores 15" and R25's and R30's "…, but"
    tile = str(play.params.get("tile", ""))
    end = play.params.get("end")
    said = gettext("%(tile)s %(end)s", tile=tile, end=say(end)) if end else tile
    if outcome.points:
        return said
    return gettext("%(name)s: %(play)s, 0 points", name=who or "", play=said)


def outcome_notice(game: Snapshot, outcome: Outcome) -> Notice:
    """What ``outcome`` (the action that made ``game``) did, explained by its rules in learning
    mode."""
    state = game.state
    why = play_reasons(state, outcome) if game.learning else ()
    fixed = outcome.fixed
    if fixed is not None and fixed.dropped:  # a fix that took later moves back: a warning
        tone = Tone.STALE
    else:
        tone = Tone.SCORED if outcome.points else Tone.OK
    who = state.name(outcome.seat) if outcome.seat is not None else None
    return Notice(
        tone=tone,
        text=say(outcome.message),
        points=outcome.points,
        who=who,
        next=say(outcome.next),
        why=why,
        brief=brief_play(outcome, who),
    )


def refusal_notice(
    refusal: RuleError, confirm: tuple[str, Mapping[str, str]] | None = None
) -> Notice:
    """A refusal in words, and whose turn it still is (nothing changed); with ``confirm`` (an
    address and the form's fields) the table may record it anyway (R7a)."""
    text = say_capitalized(refusal.message)
    still = say(refusal.still) if refusal.still is not None else ""
    if confirm is None:
        return Notice(Tone.REFUSED, text, still=still, rule=refusal.rule)
    url, fields = confirm
    return Notice(
        Tone.REFUSED,
        text,
        still=still,
        rule=refusal.rule,
        confirm_url=url,
        confirm_fields=tuple(fields.items()),
    )


def stale_notice(stale: StaleRevision) -> Notice:
    """A submission for a revision the game has left: nothing was applied."""
    return Notice(Tone.STALE, say(stale.message))


def saved_notice(state: GameState) -> Notice:
    """A tap sent again whose first sending was saved (its answer was lost on the way)."""
    return Notice(
        Tone.OK, gettext("Saved: that was already recorded."), next=say(state.next_step())
    )


def last_notice(game: Snapshot) -> Notice | None:
    """What the game's last action did, for its screen opened or reloaded by the players."""
    outcome = game.book.last
    return outcome_notice(game, outcome) if outcome is not None else None


def change_notice(game: Snapshot, next_step: str) -> Notice | None:
    """What the game's last action did, for a screen that did not make it (another phone that
    follows it, the watch link): said plainly, without points, so that only the phone that
    tapped buzzes."""
    outcome = game.book.last
    return Notice(Tone.OK, say(outcome.message), next=next_step) if outcome is not None else None
