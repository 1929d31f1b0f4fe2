"""Rescore: the game as played beside the same log under other options (R13–R25), hand by
hand, naming a play those rules would refuse and why."""

from __future__ import annotations

from typing import Any

from flask import render_template, request
from flask.typing import ResponseReturnValue

from ..i18n.words import gettext, say, say_capitalized
from ..rules import BadOptions, Options, Status
from ..rules.history import PlayedHand, replay
from ..rules.options import OPTION_SPECS
from ..rules.rescore import Rescore, changed
from ..ui.forms import RulesForm, preset_choices, rule_fields
from ..web.game import Table, both_links, store
from . import bp

#: Every house rule a rescore may change: all but the deal, since the hands were dealt (R1).
_DISPUTED = tuple(spec for spec in OPTION_SPECS if spec.name != "deal")


@both_links(bp, "/rescore", endpoint="rescore")
def rescore_page(table: Table) -> ResponseReturnValue:
    """The game as played beside the same log under other options (R13–R25)."""
    options = table.state.options
    other_preset = "pagat" if options.preset == "seed" else "seed"
    form = RulesForm.read(lambda name: request.args.get(name, ""), _DISPUTED, other_preset)
    history = store().history(table.snapshot)
    error = None
    found = None
    try:
        other = changed(options, preset=form.preset, target=form.target, **form.chosen)
        found = Rescore(history, replay(other, store().actions(table.snapshot)))
    except BadOptions as refusal:
        error = say_capitalized(refusal.message)
    return render_template(
        "disputes/rescore.html",
        table=table,
        state=table.state,
        options=options,
        form=form,
        presets=preset_choices(),
        specs=rule_fields(_DISPUTED),
        disputed=form.changed,
        error=error,
        found=found,
        columns=_columns(found) if found else [],
        rows=_rows(found) if found else [],
        finished=table.state.status is Status.GAME_OVER,
    ), 422 if error else 200


def _columns(found: Rescore) -> list[dict[str, Any]]:
    """The two ways of scoring: their rules in words, final scores, and how the game ends."""
    columns = []
    for label, history in (
        (gettext("As played"), found.played),
        (gettext("Rescored"), found.other),
    ):
        options = history.options
        state = history.state
        columns.append(
            {
                "label": label,
                "rules": _rules_words(options),
                "scores": [
                    {"name": options.side_name(side), "score": score, "won": side in state.winners}
                    for side, score in enumerate(state.scores)
                ],
                "ending": found.ending(history),
            }
        )
    return columns


def _rows(found: Rescore) -> list[dict[str, Any]]:
    """Hand by hand, each side's score after the hand under both rules."""
    options = found.played.options
    rows = []
    for number, *pair in found.rows():
        cells = []
        for side in range(options.side_count):
            cells.append([_cell(played, side, options) for played in pair])
        first = next(p for p in pair if p is not None)
        rows.append(
            {
                "number": number,
                "ended": _ended(options, first),
                "sides": [
                    {"name": options.side_name(side), "cells": cells[side]}
                    for side in range(options.side_count)
                ],
                "differs": any(a != b for a, b in cells),
            }
        )
    return rows


def _cell(played: PlayedHand | None, side: int, options: Options) -> dict[str, Any]:
    if played is None:
        return {"played": False}
    result = played.result
    if result is None:
        moves = len(played.hand.moves)
        score = played.scores_at(moves, options)[side]
        made = score - played.scores_before[side]
        return {"played": True, "settled": False, "score": score, "scored": made}
    return {
        "played": True,
        "settled": True,
        "scored": result.scored[side],
        "change": result.settled[side],
        "score": result.scores[side],
    }


def _ended(options: Options, played: PlayedHand) -> str:
    hand = played.hand
    if hand.went_out is not None:
        return gettext("%(name)s went out", name=options.players[hand.went_out])
    if hand.end is not None:
        return gettext("blocked")
    return gettext("not finished")


def _rules_words(options: Options) -> str:
    """The rules in force, named as a table says them ("Muggins, rounding up"), and the target."""
    return gettext("%(rules)s; to %(target)s", rules=say(options.title), target=options.goal)
