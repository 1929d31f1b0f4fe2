"""Settling disputes: check a play without entering it, replay any hand, audit, rescore.

Every page here is a GET that changes nothing, so each works on the players' link (``/g/…``)
and on the watch link (``/v/…``) alike; links to share with the table use the watch link, so
sharing a moment never hands out the right to enter plays. The answers all come from
``webapp.rules``: ``why_not`` and ``placements`` for a play, ``rules.history`` for the hands
already settled, ``rules.audit`` for draws and passes, ``rules.rescore`` for other options.
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from . import present
from .drawing import draw_layout
from .games import store
from .rules import (
    Action,
    Arm,
    BadOptions,
    GameState,
    Layout,
    Move,
    Options,
    RuleError,
    Status,
    Tile,
    recorded,
)
from .rules.audit import Audit, audit
from .rules.correction import words
from .rules.history import History, PlayedHand, replay, settled_after, settled_prefix
from .rules.options import OPTION_SPECS, PRESET_LIST
from .rules.rescore import Rescore, changed
from .screen import picker_tiles
from .security import public_url
from .store import Snapshot
from .words import get_locale, gettext, ngettext, say, say_capitalized

bp = Blueprint("disputes", __name__)
View = TypeVar("View", bound=Callable[..., ResponseReturnValue])


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads a page, as its templates see it: the game's public id for that reader (the
    watch id for an onlooker, never the edit id), the revision shown, and whether they only
    watch."""

    id: str
    seq: int
    viewer: bool


@dataclass(frozen=True, slots=True)
class Table:
    """A game as this page's reader reaches it: by the players' link or the watch link."""

    snapshot: Snapshot  # with the real id: never shown to a watcher
    viewer: bool

    @property
    def key(self) -> str:
        return self.snapshot.view_id if self.viewer else self.snapshot.id

    @property
    def state(self) -> GameState:
        return self.snapshot.state

    @property
    def shown(self) -> Reader:
        """The game as the templates see it: a watcher's carries the watch id only."""
        return Reader(self.key, self.snapshot.seq, self.viewer)


def _table(key: str, viewer: bool) -> Table:
    snapshot = store().get_by_view(key) if viewer else store().get(key)
    return Table(snapshot, viewer)


def _route(rule: str, endpoint: str) -> Callable[[View], View]:
    """Register a view on the players' link and on the watch link (endpoint ``…_view``)."""

    def register(view: View) -> View:
        bp.add_url_rule(f"/g/<key>{rule}", endpoint, view, defaults={"viewer": False})
        bp.add_url_rule(f"/v/<key>{rule}", f"{endpoint}_view", view, defaults={"viewer": True})
        return view

    return register


def dispute_url(name: str, snap: Reader, _external: bool = False, **args: Any) -> str:
    """The URL of a disputes page for ``snap``'s reader (on the edit or the watch link)."""
    endpoint = f"disputes.{name}_view" if snap.viewer else f"disputes.{name}"
    if _external:
        return public_url(endpoint, key=snap.id, **args)
    # Built once per game: the game screen links each hand's replay on every render. (Keyed
    # by the app's mount point, the only part of the request a path depends on.)
    piece = ("path", request.script_root, endpoint, tuple(args.items()))
    found = store().cache.at(snap.id, piece, 0)
    if found is None:
        found = url_for(endpoint, key=snap.id, **args)
        store().cache.put(snap.id, piece, 0, found)
    return str(found)


def _url(name: str, table: Table, _external: bool = False, **args: Any) -> str:
    return dispute_url(name, table.shown, _external=_external, **args)


def _watch_url(name: str, table: Table, **args: Any) -> str:
    """The link to share with the table: the watch link, which cannot change the game."""
    return public_url(f"disputes.{name}_view", key=table.snapshot.view_id, **args)


# --- the history of a game, replayed from its log -----------------------------------------------


def history_of(snapshot: Snapshot) -> History:
    """The game's log up to ``snapshot`` folded through the rules, kept per revision."""
    return _logged(snapshot)[1]


def _logged(snapshot: Snapshot) -> tuple[tuple[Action, ...], History]:
    """The actions of the log up to ``snapshot`` and their history."""
    actions = _actions(snapshot)
    return actions, _folded(snapshot, snapshot.seq, actions)


def _actions(snapshot: Snapshot) -> tuple[Action, ...]:
    """The game's actions up to ``snapshot``, read from the log (they are not kept: a long
    game's would cost more memory than all else kept of it)."""
    stored = store().log_since(snapshot.id, 0)[: snapshot.seq]
    return tuple(recorded(action) for _, action in stored)


def _settled(snapshot: Snapshot) -> int:
    """The settled prefix of the log up to ``snapshot`` (see ``settled_prefix``).

    Kept per game as the settled prefix as of each action in effect, and extended by what is
    new, so that a game's fortieth hand does not read and parse the thirty-nine before it on
    every play."""
    cache = store().cache
    known = cache.get(snapshot.id, "settled")
    read, prefixes = known if known is not None else (0, array("l"))
    if read > snapshot.seq:  # a page of an earlier revision
        return settled_prefix(_actions(snapshot))
    if read < snapshot.seq:
        added = store().log_since(snapshot.id, read)[: snapshot.seq - read]
        actions = [recorded(stored) for _, stored in added]
        prefixes = array("l", settled_after(prefixes, actions, read))
        cache.put(snapshot.id, "settled", read + len(actions), prefixes)
    return prefixes[-1] if prefixes else 0


def _folded(snapshot: Snapshot, seq: int, actions: tuple[Action, ...]) -> History:
    """The first ``seq`` actions of the game folded through the rules, kept per revision."""
    found = store().cache.at(snapshot.id, "history", seq)
    if not isinstance(found, History):
        found = replay(snapshot.state.options, actions[:seq])
        store().cache.put(snapshot.id, "history", seq, found)
    return found


def hand_audit(played: PlayedHand, options: Options) -> Audit | None:
    """The audit of a settled hand (R6, R7); None before it is settled."""
    if played.reports is None:
        return None
    return audit(played.hand, played.reports.by_seat, options.players)


def disputes_of(snap: Snapshot) -> dict[str, Any]:
    """For the game screen: each settled hand's audit, and which hand was settled last.

    Only settled hands are audited, so the replay stops at the last settlement in effect and
    is kept while the next hand is played.
    """
    state = snap.state
    if not state.results:
        return {"audits": {}, "last": None}
    prefix = _settled(snap)
    # The audits change only with the settlements in effect: worked out once per settlement
    # (the history they come from is not kept).
    kept_notes = store().cache.at(snap.id, "audits", prefix)
    if isinstance(kept_notes, dict):
        return kept_notes
    notes = _every_audit(snap, prefix)
    # The log lists the last two hands move by move, with their audits; the older ones are
    # drawn once per settlement (``older_hands``), so only the recent audits are kept.
    recent = state.hand_number - 1
    kept = {number: seen for number, seen in notes["audits"].items() if number >= recent}
    store().cache.put(snap.id, "audits", prefix, {**notes, "audits": kept})
    return notes


def _every_audit(snap: Snapshot, prefix: int) -> dict[str, Any]:
    """Every settled hand's audit, from the log up to the last settlement in effect (kept
    for the rest of the request, which may draw the older hands with them)."""
    found = g.get("allfives_audits")
    if found is not None and found[0] == (snap.id, prefix):
        return dict(found[1])
    state = snap.state
    history = replay(state.options, _actions(snap)[:prefix])
    audits = {}
    for played in history.hands:
        checked = hand_audit(played, state.options)
        if checked is not None:
            audits[played.number] = _audit_view(checked, state.options)
    notes = {"audits": audits, "last": state.results[-1].number, "prefix": prefix}
    g.allfives_audits = ((snap.id, prefix), notes)
    return dict(notes)


def older_hands(shown: Reader, real: Snapshot, log: list[dict[str, Any]]) -> Markup:
    """The game log's settled hands before the last two: their headings, results and audits,
    which change only with the settlements in effect, so drawn once per settlement."""
    older = [hand for hand in log if not hand["entries"] and hand["number"]]
    if not older:
        return Markup("")
    notes = disputes_of(real)
    numbers = tuple(hand["number"] for hand in older)
    kept = store().cache.at(real.id, ("older", shown.id, str(get_locale())), notes["prefix"])
    if kept is not None and kept[0] == numbers:
        return Markup(zlib.decompress(kept[1]).decode())
    every = _every_audit(real, notes["prefix"])
    found = Markup(render_template("_log_older.html", hands=older, notes=every, snap=shown))
    # Kept compressed: a long game's older hands are tens of kilobytes of HTML, a tenth of it
    # deflated, and unpacking it costs less than drawing it again.
    packed = zlib.compress(found.encode(), 1)
    store().cache.put(
        real.id, ("older", shown.id, str(get_locale())), notes["prefix"], (numbers, packed)
    )
    return found


def _audit_view(found: Audit, options: Options) -> dict[str, Any]:
    return {
        "number": found.number,
        "checked": found.checked,
        "summary": found.summary(options.players),
        "doubles": list(found.doubles),
        "breaches": [
            {
                "move": breach.move + 1,
                "sentence": breach.sentence,
                "certainty": breach.certainty.value,
                "rule": breach.rule,
            }
            for breach in found.breaches
        ],
    }


def more_of(snapshot: Snapshot, viewer: bool, log: list[dict[str, Any]]) -> dict[str, Any]:
    """For the game screen's "More" sheet: the dispute links that apply now, the last settled
    hand's audit, and the game log with each settled hand's audit (read from the store here,
    in the view, so no template reads it)."""
    table = Table(snapshot, viewer)
    state = snapshot.state
    links = []
    if state.status is Status.PLAYING:
        links.append(
            (gettext("Check a play"), gettext("without entering it"), _url("check", table))
        )
    if state.hand_number:
        number = state.hand_number
        links.append(
            (
                gettext("Replay hand %(number)s", number=number),
                "",
                _url("replay_hand", table, number=number),
            )
        )
    if state.results:
        links.append((gettext("Rescore under other rules"), "", _url("rescore", table)))
    notes = disputes_of(snapshot) if state.results else {"audits": {}, "last": None}
    between = state.status in (Status.AWAITING_START, Status.GAME_OVER)
    last = notes["audits"].get(notes["last"]) if between else None
    return {
        "links": links,
        "audit": last if last and (last.get("checked") or last.get("doubles")) else None,
        "audit_hand": notes["last"],
        "audits": notes["audits"],
        "log": [hand for hand in log if hand["entries"] or not hand["number"]],
        "older": older_hands(table.shown, snapshot, log),
        "snap": table.shown,
        "learning": _learning(snapshot) if snapshot.learning and not viewer else None,
    }


def _learning(snapshot: Snapshot) -> dict[str, Any] | None:
    """Learning mode: every tile that fits now, where, and what it would score."""
    state = snapshot.state
    hand = state.hand
    if state.status is not Status.PLAYING or hand is None:
        return None
    return {"hints": present.tile_hints(state), "leading": hand.layout.lead is None}


bp.record_once(lambda setup: setup.app.jinja_env.globals.update(dispute_url=dispute_url))


# --- check a play ---------------------------------------------------------------------------------


@_route("/check", "check")
def check(key: str, viewer: bool) -> ResponseReturnValue:
    """Whether a tile may be played (on an end) now, what it would score, or why not."""
    table = _table(key, viewer)
    state = table.state
    hand = state.hand
    verdict: dict[str, Any] | None = None
    tile: Tile | None = None
    try:
        tile = Tile.parse(request.args["tile"]) if request.args.get("tile") else None
        arm = Arm.parse(request.args["end"]) if tile and request.args.get("end") else None
        if tile is not None:
            verdict = _verdict(state, tile, arm)
    except RuleError as refusal:
        verdict = {"refusal": _refusal(refusal)}
    # Between hands there is no layout to play on: the last hand's is not shown as if it were.
    playing = hand is not None and state.status is Status.PLAYING
    layout = hand.layout if hand and playing else Layout()
    after = verdict.get("after") if verdict else None
    drawing = draw_layout(after or layout, tile if after else _last_tile(hand) if playing else None)
    return render_template(
        "check.html",
        table=table,
        snap=table.shown,
        state=state,
        tile=tile,
        verdict=verdict,
        drawing=drawing if (after or layout).lead else None,
        shown_layout=after or layout,
        tiles=picker_tiles(state, coaching=True),
        arms=list(layout.all_arms),
    )


def _verdict(state: GameState, tile: Tile, arm: Arm | None) -> dict[str, Any]:
    """The engine's answer about ``tile`` (on ``arm``): a refusal, the places, or the one place."""
    hand = state.hand
    leading = hand is not None and hand.layout.lead is None
    if leading:
        arm = None  # R4: a lead goes on no end
    refusal = state.why_not(tile, arm)
    verdict: dict[str, Any] = {"tile": tile, "arm": arm, "leading": leading, "ends": []}
    anywhere = state.why_not(tile)  # refused whatever the end: the status, or already played
    if not leading and (anywhere is None or anywhere.code == "no_match"):
        verdict["ends"] = _ends(state, tile)
    if refusal is not None:
        verdict["refusal"] = _refusal(refusal)
        return verdict
    assert hand is not None
    places = state.placements(tile)
    if arm is not None:
        places = tuple(place for place in places if place.arm is arm)
    verdict["places"] = places
    if len(places) == 1:
        verdict["place"] = places[0]
        verdict["after"] = hand.layout.place(tile, places[0].arm)
        verdict["who"] = state.name(hand.turn)
    return verdict


def _ends(state: GameState, tile: Tile) -> list[dict[str, Any]]:
    """For each end of the layout: may ``tile`` go there, and for how many points — or why not."""
    places = {place.arm: place for place in state.placements(tile)}
    ends = []
    layout = state.hand.layout if state.hand else Layout()
    for arm in layout.all_arms:
        refusal = state.why_not(tile, arm)
        ends.append(
            {
                "arm": arm,
                "place": places.get(arm),
                "refusal": _refusal(refusal) if refusal else None,
            }
        )
    return ends


def _refusal(refusal: RuleError) -> dict[str, Any]:
    return {"text": say_capitalized(refusal.message), "rule": refusal.rule, "code": refusal.code}


def _last_tile(hand: Any) -> Tile | None:
    if hand and hand.moves and hand.moves[-1].kind == "play":
        found: Tile | None = hand.moves[-1].tile
        return found
    return None


# --- replay ---------------------------------------------------------------------------------------


@_route("/replay", "replay_latest")
def replay_latest(key: str, viewer: bool) -> ResponseReturnValue:
    table = _table(key, viewer)
    if table.state.hand_number == 0:
        abort(404, gettext("No hand has been played in this game yet: there is nothing to replay."))
    return redirect(_url("replay_hand", table, number=table.state.hand_number))


@_route("/replay/<int:number>", "replay_hand")
def replay_hand(key: str, viewer: bool, number: int) -> ResponseReturnValue:
    table = _table(key, viewer)
    played = _played(table, number)
    return redirect(_url("replay", table, number=number, step=min(1, len(played.hand.moves))))


@_route("/replay/<int:number>/<int:step>", "replay")
def replay_step(key: str, viewer: bool, number: int, step: int) -> ResponseReturnValue:
    """Hand ``number`` after ``step`` of its moves: the layout, the count, who scored what."""
    table = _table(key, viewer)
    options = table.state.options
    history = history_of(table.snapshot)
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
        "replay.html",
        table=table,
        snap=table.shown,
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
        layout=layout,
        drawing=draw_layout(layout, last) if layout.lead else None,
        sides=sides,
        result=_result_view(options, played) if step == len(moves) else None,
        audit=_audit_view(found, options) if found and step == len(moves) else None,
        share=_watch_url("replay", table, number=number, step=step),
        leader=options.players[played.hand.leader],
        fixes=[fixed.message for fixed in played.fixes],
    )


def _played(table: Table, number: int, history: History | None = None) -> PlayedHand:
    played = (history or history_of(table.snapshot)).hand(number)
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
        "players": present.settled_players(options, result),
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


#: Every house rule a rescore may change: all but the deal, since the hands were dealt (R1).
_DISPUTED = tuple(spec for spec in OPTION_SPECS if spec.name != "deal")

# --- rescore --------------------------------------------------------------------------------------


@_route("/rescore", "rescore")
def rescore_page(key: str, viewer: bool) -> ResponseReturnValue:
    """The game as played beside the same log under other options (R13–R25)."""
    table = _table(key, viewer)
    options = table.state.options
    other_preset = "pagat" if options.preset == "seed" else "seed"
    form = {
        "preset": request.args.get("preset", other_preset).strip()[:12],
        "target": request.args.get("target", "").strip()[:6],
    }
    form.update({spec.name: request.args.get(spec.name, "").strip()[:20] for spec in _DISPUTED})
    history = history_of(table.snapshot)
    error = None
    found = None
    try:
        other = changed(options, **form)
        found = Rescore(history, replay(other, _logged(table.snapshot)[0]))
    except BadOptions as refusal:
        error = say_capitalized(refusal.message)
    return render_template(
        "rescore.html",
        table=table,
        snap=table.shown,
        state=table.state,
        options=options,
        form=form,
        presets=PRESET_LIST,
        specs=_DISPUTED,
        disputed=any(form[spec.name] for spec in _DISPUTED) or bool(form["target"]),
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
