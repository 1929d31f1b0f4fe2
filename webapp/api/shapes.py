"""The JSON API's shapes: a game's state and an action's outcome as the API answers them
(README, "JSON API"), each an ``as_json()``. Nothing here decides a rule; it reads the
answers of ``webapp.rules`` and names them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from ..i18n.words import rules_said, say
from ..rules import GameState, HandResult, Layout, Move, Options, Outcome, Status
from ..rules.circle_stats import CircleStats
from ..rules.sheet import Sheet
from ..store import CircleRow, MemberGame, Snapshot
from ..ui.labels import winner_names


@dataclass(frozen=True, slots=True)
class GameShape:
    """The game state of the JSON API, as a reader reaches it: a watch link's without the
    players' id."""

    snapshot: Snapshot
    viewer: bool = False
    clock_ends: datetime | None = None  # R30: when time is up (the store's to say)

    def as_json(self) -> dict[str, Any]:
        return _game(self.snapshot, self.viewer, self.clock_ends)


@dataclass(frozen=True, slots=True)
class OutcomeShape:
    """What an action did: its kind, who, points, the count, the message and what is next;
    for a correction, the move fixed and where and why it stopped."""

    state: GameState
    outcome: Outcome

    def as_json(self) -> dict[str, Any]:
        outcome = self.outcome
        found = {
            "type": str(outcome.kind),
            "player": self.state.name(outcome.seat) if outcome.seat is not None else None,
            "points": outcome.points,
            "count": outcome.count,
            "breakdown": outcome.breakdown,
            "message": say(outcome.message),
            "next": say(outcome.next),
        }
        fixed = outcome.fixed
        if fixed is None:
            return found
        stopped = fixed.refusal
        because = None
        if stopped is not None:
            because = {"code": stopped.code, "rule": stopped.rule, "message": say(stopped.message)}
        return found | {
            "fixed": {"entry": fixed.entry, "kept": fixed.kept, "stopped": fixed.stopped},
            "taken_back": len(fixed.dropped),
            "stopped_because": because,
        }


def _game(snapshot: Snapshot, viewer: bool, clock_ends: datetime | None) -> dict[str, Any]:
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
        "id": snapshot.view_id if viewer else snapshot.id,
        "view_id": snapshot.view_id,
        "seq": snapshot.seq,
        "status": state.status.value,
        "players": players,
        "partnership": options.partnership,
        "target": options.goal,
        "rules": dict(_rules(options)),
        "rules_title": rules_said(options),
        "winner": winner_names(state),
        "winners": [options.side_name(side) for side in state.winners],
        "ended_early": state.ended_early,
        "next_leader": _next_leader(state),
        "hand": _hand(state),
        "hands": [_result(state, result) for result in state.results],
        "can_undo": state.can_undo,
        "can_draw": state.can_draw,
        "can_pass": state.can_pass,
        "time_called": state.time_called,
        "overtime": [options.side_name(side) for side in state.overtime],
        "clock_ends": None if clock_ends is None else clock_ends.isoformat("T", "seconds") + "Z",
        "last": say(state.done) or None,
        "next": say(state.next_step()),
    }
    if options.partnership:
        data["teams"] = [
            {"players": [options.players[s] for s in options.seats_of(side)], "score": score}
            for side, score in enumerate(state.scores)
        ]
    return data


@lru_cache(maxsize=256)
def _rules(options: Options) -> tuple[tuple[str, object], ...]:
    """The options by their names, worked out once per rules, not for every answer."""
    return tuple(options.rules_dict().items())


def _next_leader(state: GameState) -> str | None:
    if state.status is not Status.AWAITING_START or state.next_leader is None:
        return None
    return state.name(state.next_leader)


def _hand(state: GameState) -> dict[str, Any] | None:
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
        "layout": _layout(layout),
        "moves": [_move(state, move) for move in hand.moves],
        "end": hand.end.value if hand.end else None,
        "went_out": state.name(hand.went_out) if hand.went_out is not None else None,
    }


def _layout(layout: Layout) -> dict[str, Any]:
    return {
        "lead": str(layout.lead) if layout.lead else None,
        "arms": {arm.value: [str(tile) for tile in layout.arm(arm)] for arm in layout.all_arms},
    }


def _move(state: GameState, move: Move) -> dict[str, Any]:
    data: dict[str, Any] = {"type": str(move.kind), "player": state.name(move.seat)}
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


def _result(state: GameState, result: HandResult) -> dict[str, Any]:
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


@dataclass(frozen=True, slots=True)
class SheetShape:
    """The score sheet as data: ``sides`` in seat order (a partnership its two players), then
    ``hands``, each with ``points`` and ``totals`` per side; ``end`` is ``domino``,
    ``blocked`` or null while the hand is played, ``settled`` false for the hand not settled."""

    sheet: Sheet

    def as_json(self) -> dict[str, Any]:
        options = self.sheet.options
        return {
            "sides": [
                {
                    "name": options.side_name(side),
                    "players": [options.players[seat] for seat in options.seats_of(side)],
                }
                for side in range(options.side_count)
            ],
            "target": options.goal,
            "hands": [
                {
                    "number": row.number,
                    "points": list(row.points),
                    "totals": list(row.totals),
                    "end": row.end.value if row.end else None,
                    "went_out": None if row.went_out is None else options.players[row.went_out],
                    "settled": row.settled,
                }
                for row in self.sheet.hands
            ],
            "winners": [options.side_name(side) for side in self.sheet.winners],
        }


def circle_json(
    circle: CircleRow,
    viewer: bool,
    stats: CircleStats,
    games: Sequence[MemberGame],
    names: Mapping[int, str],
) -> dict[str, Any]:
    """A circle as the API answers it: its games (newest first) and its people's figures over
    its finished games (a partnership's win counts for both partners)."""

    def side_of(game: MemberGame, side: int) -> dict[str, Any]:
        summary = game.summary
        seats = [seat for seat, s in enumerate(summary.sides) if s == side]
        return {
            "players": [names.get(game.people[seat], summary.players[seat]) for seat in seats],
            "score": summary.finals[side],
            "won": side in summary.winners,
        }

    return {
        "id": circle.view_id if viewer else circle.id,
        "name": circle.name,
        "finished": stats.finished,
        "games": [
            {
                "id": game.view_id if viewer else game.id,
                "date": game.created_at.date().isoformat(),
                "preset": game.summary.preset,
                "over": game.summary.over,
                "sides": [side_of(game, side) for side in range(len(game.summary.finals))],
            }
            for game in games
        ],
        "players": [
            {
                "name": person.name,
                "games": person.games,
                "wins": person.wins,
                "win_rate": round(person.win_rate, 4),
                "points": person.points,
                "points_per_hand": round(person.per_hand, 2),
                "best_hand": person.best_hand,
                "highest_count": person.top_count,
                "went_out": person.went_out,
            }
            for person in stats.people
        ],
        "head_to_head": [
            {
                "players": [names.get(m.first, ""), names.get(m.second, "")],
                "games": m.games,
                "ahead": [m.first_ahead, m.second_ahead],
                "tied": m.tied,
            }
            for m in stats.meetings
        ],
    }
