"""Rescore: the game as played beside the same log under other options (R13–R30), hand by
hand, naming a play those rules would refuse and why."""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from flask import request, url_for
from flask.typing import ResponseReturnValue

from ..i18n.words import gettext, say, say_capitalized
from ..rules import BadOptions, Options
from ..rules.history import PlayedHand
from ..rules.options import OPTION_SPECS
from ..rules.progress import HandResult
from ..rules.rescore import CHANGEABLE, Rescore, changed
from ..store.history import kept
from ..ui.forms import PresetChoice, RuleField, RulesForm, preset_choices, rule_fields
from ..web.game import Table, both_links, store
from ..web.limits import heavy, replaying
from ..web.pages import render_page
from . import bp

#: Every house rule a rescore may change: all but what happened at the table (the deal, the
#: drawing, who led, the clock: ``rules.rescore.AS_PLAYED``).
_DISPUTED = tuple(spec for spec in OPTION_SPECS if spec.name in CHANGEABLE)


@dataclass(frozen=True, slots=True)
class FinalScore:
    name: str
    score: int
    won: bool


@dataclass(frozen=True, slots=True)
class Column:
    """One way of scoring the game: its rules in words, the final scores, how the game ends."""

    label: str
    rules: str
    scores: tuple[FinalScore, ...]
    ending: str


@dataclass(frozen=True, slots=True)
class Cell:
    """A side after a hand under one set of rules: not played, played but not settled (the
    points made so far), or settled (the points made, what settling added or took)."""

    played: bool
    settled: bool = False
    score: int = 0
    scored: int = 0
    change: int = 0


@dataclass(frozen=True, slots=True)
class SideCells:
    name: str
    cells: tuple[Cell, Cell]  # as played, rescored


@dataclass(frozen=True, slots=True)
class Row:
    """A hand: how it ended, and each side's score after it under both rules."""

    number: int
    ended: str
    sides: tuple[SideCells, ...]
    differs: bool


@dataclass(frozen=True, slots=True)
class RescorePage:
    """The rescore page: the form, and the game as played beside the game rescored."""

    played_rules: str  # the rules the game is played by, in words
    goal: int
    partnership: bool
    form: RulesForm
    presets: tuple[PresetChoice, ...]
    specs: tuple[RuleField, ...]
    disputed: bool  # a house rule or the target was chosen: the house rules show open
    error: str | None  # why the options chosen cannot be
    found: bool  # whether the game was rescored
    same: bool  # whether the other rules change nothing
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]  # a page of hands, the newest first
    shown: str  # which hands the page shows, of how many
    newer: str | None  # the page of the hands after these
    older: str | None  # the page of the hands before these


#: Hands on a page of the rescore, the newest first: the totals need every hand (worked out
#: once per settlement and set of rules, and kept), the page draws only these.
HANDS_SHOWN = 10


@both_links(bp, "/rescore", endpoint="rescore")
@heavy
def rescore_page(table: Table) -> ResponseReturnValue:
    """The game as played beside the same log under other options (R13–R25)."""
    options = table.state.options
    other_preset = "pagat" if options.preset == "seed" else "seed"
    form = RulesForm.read(lambda name: request.args.get(name, ""), _DISPUTED, other_preset)
    error = None
    found = None
    try:
        other = changed(options, preset=form.preset, target=form.target, **form.chosen)
        # Every hand replayed under rules not worked out yet for the game: limited per client.
        with nullcontext() if kept(store(), table.snapshot, other) else replaying:
            # As played: the game's state holds every result; the other rules replay the log.
            found = Rescore(table.state, store().history(table.snapshot, other))
    except BadOptions as refusal:
        error = say_capitalized(refusal.message)
    pages = _pages(found.hands if found else 0)
    page = RescorePage(
        played_rules=say(options.title),
        goal=options.goal,
        partnership=options.partnership,
        form=form,
        presets=preset_choices(),
        specs=rule_fields(_DISPUTED),
        disputed=form.changed,
        error=error,
        found=found is not None,
        same=found is not None and found.same,
        columns=_columns(found) if found else (),
        rows=_rows(found, pages[0]) if found else (),
        shown=pages[1],
        newer=pages[2],
        older=pages[3],
    )
    return render_page("disputes/rescore.html", page), 422 if error else 200


def _columns(found: Rescore) -> tuple[Column, ...]:
    """The two ways of scoring: their rules in words, final scores, and how the game ends."""
    columns = []
    for label, state, ending in (
        (gettext("As played"), found.played, found.ending_as_played()),
        (gettext("Rescored"), found.other.state, found.ending(found.other)),
    ):
        options = state.options
        columns.append(
            Column(
                label=label,
                rules=_rules_words(options),
                scores=tuple(
                    FinalScore(name=options.side_name(side), score=score, won=side in state.winners)
                    for side, score in enumerate(state.scores)
                ),
                ending=say(ending),
            )
        )
    return tuple(columns)


def _pages(hands: int) -> tuple[tuple[int, ...], str, str | None, str | None]:
    """The hands this page shows (``?hand=``: the newest of them; the last by default), said,
    and the addresses of the newer and the older page, the rules asked about kept."""
    newest = min(max(request.args.get("hand", hands, type=int), 1), hands)
    numbers = tuple(range(newest, max(0, newest - HANDS_SHOWN), -1))
    if not numbers:
        return (), "", None, None
    asked: dict[str, Any] = {
        name: value
        for name, value in request.args.items()
        if name != "hand" and not name.startswith("_")
    }

    def page(number: int) -> str:
        return url_for("disputes.rescore", **asked, hand=str(number))

    shown = gettext(
        "Hands %(newest)s to %(oldest)s of %(num)s", newest=newest, oldest=numbers[-1], num=hands
    )
    newer = page(min(hands, newest + HANDS_SHOWN)) if newest < hands else None
    older = page(numbers[-1] - 1) if numbers[-1] > 1 else None
    return numbers, shown, newer, older


def _rows(found: Rescore, numbers: tuple[int, ...]) -> tuple[Row, ...]:
    """Hand by hand (those ``numbers``), each side's score after the hand under both rules."""
    options = found.played.options
    rows = []
    for number, as_played, rescored in found.rows(numbers):
        sides = tuple(
            SideCells(
                name=options.side_name(side),
                cells=(_cell(as_played, side, options), _cell(rescored, side, options)),
            )
            for side in range(options.side_count)
        )
        first = as_played or rescored
        assert first is not None  # a row is a hand played under one rules or the other
        rows.append(
            Row(
                number=number,
                ended=_ended(options, first),
                sides=sides,
                differs=any(a != b for a, b in (side.cells for side in sides)),
            )
        )
    return tuple(rows)


def _cell(played: HandResult | PlayedHand | None, side: int, options: Options) -> Cell:
    if played is None:
        return Cell(played=False)
    result = played if isinstance(played, HandResult) else played.result
    if result is None:
        assert isinstance(played, PlayedHand)
        moves = len(played.hand.moves)
        score = played.scores_at(moves, options)[side]
        made = score - played.scores_before[side]
        return Cell(played=True, settled=False, score=score, scored=made)
    return Cell(
        played=True,
        settled=True,
        scored=result.scored[side],
        change=result.settled[side],
        score=result.scores[side],
    )


def _ended(options: Options, played: HandResult | PlayedHand) -> str:
    hand = played if isinstance(played, HandResult) else played.hand
    if hand.went_out is not None:
        return gettext("%(name)s went out", name=options.players[hand.went_out])
    if hand.end is not None:
        return gettext("blocked")
    return gettext("not finished")


def _rules_words(options: Options) -> str:
    """The rules in force, named as a table says them ("Muggins, rounding up"), and the target."""
    return gettext("%(rules)s; to %(target)s", rules=say(options.title), target=options.goal)
