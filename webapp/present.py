"""A game's state as plain data: the JSON API's body and the templates' context.

Nothing here decides a rule; it reads the answers of ``webapp.rules`` and names them.
"""

from __future__ import annotations

from typing import Any

from .rules import DOUBLE_SIX, Arm, GameState, HandResult, Layout, Move, Options, Status
from .rules.layout import arm_name
from .store import Snapshot
from .words import say, say_capitalized


def game_data(snapshot: Snapshot) -> dict[str, Any]:
    """The game state of the JSON API (see README, "JSON API")."""
    state = snapshot.state
    options = state.options
    hand = state.hand
    players = [
        {
            "seat": seat + 1,
            "name": name,
            "score": state.scores[options.side_of(seat)],
            "held": hand.held[seat] if hand else 0,
        }
        for seat, name in enumerate(options.players)
    ]
    data: dict[str, Any] = {
        "id": snapshot.id,
        "view_id": snapshot.view_id,
        "seq": snapshot.seq,
        "status": state.status.value,
        "players": players,
        "partnership": options.partnership,
        "target": options.goal,
        "rules": options.rules_dict(),
        "rules_title": say(options.title),
        "winner": winner_names(state),
        "winners": [options.side_name(side) for side in state.winners],
        "next_leader": _next_leader(state),
        "hand": hand_data(state),
        "hands": [result_data(state, result) for result in state.results],
        "can_undo": state.can_undo,
        "can_draw": state.can_draw,
        "can_pass": state.can_pass,
        "last": say(state.done) or None,
        "next": say(state.next_step()),
    }
    if options.partnership:
        data["teams"] = [
            {"players": [options.players[s] for s in options.seats_of(side)], "score": score}
            for side, score in enumerate(state.scores)
        ]
    return data


def winner_names(state: GameState) -> str | list[str] | None:
    if state.winner is None:
        return None
    seats = state.options.seats_of(state.winner)
    names = [state.options.players[seat] for seat in seats]
    return names if state.options.partnership else names[0]


def _next_leader(state: GameState) -> str | None:
    if state.status is not Status.AWAITING_START or state.next_leader is None:
        return None
    return state.name(state.next_leader)


def hand_data(state: GameState) -> dict[str, Any] | None:
    hand = state.hand
    if hand is None:
        return None
    layout = hand.layout
    return {
        "number": hand.number,
        "leader": state.name(hand.leader),
        "turn": state.name(hand.turn) if state.status is Status.PLAYING else None,
        "boneyard": hand.boneyard,
        "drawable": hand.drawable,
        "held": {state.name(seat): count for seat, count in enumerate(hand.held)},
        "ends": {arm.value: pip for arm, pip in layout.open_ends.items()},
        "count": layout.count,
        "breakdown": layout.breakdown,
        "spinner": str(layout.spinner) if layout.spinner else None,
        "spinners": [str(spinner.tile) for spinner in layout.spinners],
        "layout": layout_data(layout),
        "moves": [move_data(state, move) for move in hand.moves],
        "end": hand.end.value if hand.end else None,
        "went_out": state.name(hand.went_out) if hand.went_out is not None else None,
    }


def layout_data(layout: Layout) -> dict[str, Any]:
    return {
        "lead": str(layout.lead) if layout.lead else None,
        "arms": {arm.value: [str(tile) for tile in layout.arm(arm)] for arm in layout.all_arms},
    }


def move_data(state: GameState, move: Move) -> dict[str, Any]:
    data: dict[str, Any] = {"type": move.kind, "player": state.name(move.seat)}
    if move.kind == "play":
        data.update(
            tile=str(move.tile),
            end=move.arm.value if move.arm else None,
            count=move.count,
            points=move.points,
            breakdown=move.breakdown,
        )
    elif move.kind == "draw":
        data["count"] = move.drawn
    return data


def result_data(state: GameState, result: HandResult) -> dict[str, Any]:
    options = state.options
    return {
        "number": result.number,
        "end": result.end.value,
        "went_out": state.name(result.went_out) if result.went_out is not None else None,
        "pips": {options.players[s]: p for s, p in enumerate(result.pips)},
        "rounded": {options.players[s]: r for s, r in enumerate(result.rounded)},
        "scored": {options.side_name(side): v for side, v in enumerate(result.scored)},
        "settled": {options.side_name(side): v for side, v in enumerate(result.settled)},
        "scores": {options.side_name(side): v for side, v in enumerate(result.scores)},
    }


def settled_players(options: Options, result: HandResult) -> list[dict[str, Any]]:
    """Each player's pips at the end of a hand and their R13 rounding, as the rules settled."""
    return [
        {"name": name, "pips": result.pips[seat], "rounded": result.rounded[seat]}
        for seat, name in enumerate(options.players)
    ]


def tile_hints(state: GameState) -> list[dict[str, Any]]:
    """For the picker: each of the 28 tiles, whether it is played, and where it fits."""
    hand = state.hand
    on_table = set(hand.layout.tiles) if hand else set()
    hints = []
    for tile in DOUBLE_SIX:
        places = state.placements(tile)
        hints.append(
            {
                "tile": tile,
                "played": tile in on_table,
                "places": places,
                "best": max((p.points for p in places), default=0),
            }
        )
    return hints


def end_label(arm: Arm) -> str:
    """An open end as the table names it (R17): ``Left``, ``Up``, ``6-6 up``…, in the reader's
    language."""
    return say_capitalized(arm_name(arm))
