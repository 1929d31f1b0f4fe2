"""Replay any hand move by move: the layout, the count and who scored what after each move,
with the hand's audit (R6, R7) once it is settled; each moment a link to share."""

from __future__ import annotations

from typing import Any

from flask import abort, redirect, render_template, url_for
from flask.typing import ResponseReturnValue

from ..i18n.words import gettext, ngettext
from ..rules import Move, Options
from ..rules.correction import words
from ..rules.history import History, PlayedHand
from ..store.history import hand_audit
from ..ui.labels import AuditView, settled_players
from ..ui.layouts import Picture
from ..web.game import Table, both_links, store
from ..web.security import public_url
from . import bp


@both_links(bp, "/replay", endpoint="replay_latest")
def replay_latest(table: Table) -> ResponseReturnValue:
    if table.state.hand_number == 0:
        abort(404, gettext("No hand has been played in this game yet: there is nothing to replay."))
    return redirect(url_for(".replay_hand", number=table.state.hand_number))


@both_links(bp, "/replay/<int:number>", endpoint="replay_hand")
def replay_hand(table: Table, number: int) -> ResponseReturnValue:
    played = _played(table, number)
    return redirect(url_for(".replay", number=number, step=min(1, len(played.hand.moves))))


@both_links(bp, "/replay/<int:number>/<int:step>", endpoint="replay")
def replay_step(table: Table, number: int, step: int) -> ResponseReturnValue:
    """Hand ``number`` after ``step`` of its moves: the layout, the count, who scored what."""
    options = table.state.options
    history = store().history(table.snapshot)
    played = _played(table, number, history)
    moves = played.hand.moves
    if not 0 <= step <= len(moves):
        abort(
            404,
            ngettext(
                "Hand %(number)s has %(num)s move: there is no move %(step)s.",
                "Hand %(number)s has %(num)s moves: there is no move %(step)s.",
                len(moves),
                number=number,
                step=step,
            ),
        )
    layout = moves[step].before if step < len(moves) else played.hand.layout
    move = moves[step - 1] if step else None
    last = move.tile if move is not None and move.kind == "play" else None
    found = hand_audit(played, options)
    flagged = {
        breach.move + 1: {
            "certainty": breach.certainty.value,
            "sentence": breach.sentence,
            "rule": breach.rule,
        }
        for breach in (found.breaches if found else ())
    }
    scores = played.scores_at(step, options)
    sides = [
        {
            "name": options.side_name(side),
            "score": score,
            "this_hand": score - played.scores_before[side],
            "moved": move is not None and options.side_of(move.seat) == side,
        }
        for side, score in enumerate(scores)
    ]
    return render_template(
        "disputes/replay.html",
        table=table,
        state=table.state,
        options=options,
        hands=[h.number for h in history.hands],
        played=played,
        number=number,
        step=step,
        total=len(moves),
        move=_move_view(options, move) if move else None,
        moves=[_move_view(options, m) for m in moves],
        flagged=flagged,
        picture=Picture.of(layout, last),
        sides=sides,
        result=_result_view(options, played) if step == len(moves) else None,
        audit=AuditView.of(found, options) if found and step == len(moves) else None,
        share=public_url(".replay", view_id=table.snapshot.view_id, number=number, step=step),
        leader=options.players[played.hand.leader],
        fixes=[fixed.message for fixed in played.fixes],
    )


def _played(table: Table, number: int, history: History | None = None) -> PlayedHand:
    played = (history or store().history(table.snapshot)).hand(number)
    if played is None:
        abort(404, gettext("There is no hand %(number)s in this game.", number=number))
    return played


def _move_view(options: Options, move: Move) -> dict[str, Any]:
    """A move in words: who did what, and for a play the count after it and the points."""
    name = options.players[move.seat]
    return {
        "kind": move.kind,
        "who": name,
        "text": words(move, options.players),
        "tile": str(move.tile) if move.tile else None,
        "points": move.points,
        "breakdown": move.breakdown,
    }


def _result_view(options: Options, played: PlayedHand) -> dict[str, Any] | None:
    result = played.result
    hand = played.hand
    if hand.end is None:
        return {"settled": False, "end": None}
    ended = (
        gettext("%(name)s went out (domino)", name=options.players[hand.went_out])
        if hand.went_out is not None
        else gettext("Blocked: nobody could play")
    )
    if result is None:
        return {"settled": False, "end": ended}
    return {
        "settled": True,
        "end": ended,
        "players": settled_players(options, result),
        "sides": [
            {
                "name": options.side_name(side),
                "scored": result.scored[side],
                "settled": result.settled[side],
                "score": result.scores[side],
            }
            for side in range(options.side_count)
        ],
        "reports": {
            options.players[seat]: [str(t) for t in report.tiles] if report.tiles else None
            for seat, report in (played.reports.reports if played.reports else ())
        },
    }
