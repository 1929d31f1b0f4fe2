"""Words and small views shared by pages and the JSON API: who won, the ends' names, each
player's pips as settled, and the reasons learning mode gives. Nothing here decides a rule:
each reads an answer of ``webapp.rules`` and names it in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..i18n.words import gettext, say, say_capitalized
from ..rules import Arm, GameState, HandResult, Options, Outcome
from ..rules.audit import Audit
from ..rules.explain import Reason, explain_move, explain_rounding
from ..rules.layout import arm_name
from ..rules.sheet import SheetRow


def winner_names(state: GameState) -> str | list[str] | None:
    """The winner: a player's name, or a partnership's two names."""
    if state.winner is None:
        return None
    seats = state.options.seats_of(state.winner)
    names = [state.options.players[seat] for seat in seats]
    return names if state.options.partnership else names[0]


def end_label(arm: Arm) -> str:
    """An open end as the table names it (R17): ``Left``, ``Up``, ``6-6 up``…, in the reader's
    language."""
    return say_capitalized(arm_name(arm))


def sheet_end(options: Options, row: SheetRow, over: bool) -> str:
    """How a hand on the score sheet ended (R12): who went out, or blocked; for the hand not
    settled, that it is being played, or that the game ended before it was."""
    if row.went_out is not None:
        ended = gettext("%(name)s went out", name=options.players[row.went_out])
    elif row.end is not None:
        ended = gettext("blocked")
    else:
        return gettext("not finished") if over else gettext("being played")
    return ended if row.settled else gettext("%(end)s, not settled", end=ended)


@dataclass(frozen=True, slots=True)
class Held:
    """A player's pips at the end of a hand and their R13 rounding, as the rules settled."""

    name: str
    pips: int
    rounded: int


def settled_players(options: Options, result: HandResult) -> tuple[Held, ...]:
    return tuple(
        Held(name, result.pips[seat], result.rounded[seat])
        for seat, name in enumerate(options.players)
    )


@dataclass(frozen=True, slots=True)
class Why:
    """One reason learning mode gives: its rule and its sentence, said."""

    rule: str
    text: str


def reasons(found: Iterable[Reason]) -> tuple[Why, ...]:
    return tuple(Why(reason.rule, say(reason.text)) for reason in found)


def play_reasons(state: GameState, outcome: Outcome) -> tuple[Why, ...]:
    """Why the action just taken did what it did (learning mode's notice)."""
    hand = state.hand
    if outcome.kind not in ("play", "draw", "pass") or hand is None or not hand.moves:
        return ()
    return reasons(explain_move(hand.moves[-1]))


def rounding_reasons(pips: Sequence[int], rounding: str = "nearest") -> tuple[Why, ...]:
    """How each player's pips round (R13, R22), for the settlement's preview."""
    return reasons(explain_rounding(held, rounding) for held in pips if held)


@dataclass(frozen=True, slots=True)
class BreachView:
    """A draw or pass made while holding a tile that fitted (R6, R7): its move (from 1)."""

    move: int
    sentence: str
    certainty: str  # "certain" or "possible"
    rule: str


@dataclass(frozen=True, slots=True)
class AuditView:
    """A settled hand's audit in words: what was checked, and every breach found."""

    number: int
    checked: int
    summary: str
    doubles: tuple[str, ...]
    breaches: tuple[BreachView, ...]

    @property
    def worth_showing(self) -> bool:
        """Whether anything was checked or found (an audit of nothing is not shown alone)."""
        return bool(self.checked or self.doubles)

    @classmethod
    def of(cls, found: Audit, options: Options) -> AuditView:
        return cls(
            number=found.number,
            checked=found.checked,
            summary=say(found.summary(options.players)),
            doubles=tuple(say(double) for double in found.doubles),
            breaches=tuple(
                BreachView(
                    breach.move + 1, say(breach.sentence), breach.certainty.value, breach.rule
                )
                for breach in found.breaches
            ),
        )
