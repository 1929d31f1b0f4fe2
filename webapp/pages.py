"""The pages of the table app: home, new game, rules, and the game screen with its actions.

Every action is a real form POST carrying the game's ``seq``. Without JavaScript it redirects
back to the game page (the outcome travels in the session); with htmx (``HX-Request``) the
response is the ``#game`` region itself, already showing the outcome. Which tiles fit where,
points, rounding and refusals all come from ``webapp.rules``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from . import present, teaching
from .drawing import draw_layout, picker_tiles, piece_svg, qr_svg, tile_svg
from .games import create_game, recent_games, remember, store
from .rules import (
    Action,
    Arm,
    BadOptions,
    Draw,
    EndHand,
    GameState,
    IllegalAction,
    ImpossibleReport,
    Outcome,
    Pass,
    Play,
    Report,
    RuleError,
    StartHand,
    Status,
    Tile,
    Undo,
    whole_number,
)
from .store import Snapshot, StaleRevision

bp = Blueprint("pages", __name__)

DEFAULT_NAME_FIELDS = 3


def is_htmx() -> bool:
    """The one place that tells an htmx request from a plain one."""
    return request.headers.get("HX-Request") == "true"


@bp.after_request
def _vary(response: Response) -> Response:
    response.vary.add("HX-Request")
    return response


# Globals rather than context: the tile macros are imported without the template's context.
bp.record_once(
    lambda state: state.app.jinja_env.globals.update(
        tile_svg=tile_svg, piece_svg=piece_svg, picker_tiles=picker_tiles
    )
)


# --- home, rules ------------------------------------------------------------------------------


@bp.get("/")
def home() -> ResponseReturnValue:
    games = [_summary(snapshot) for snapshot in recent_games()]
    return render_template("home.html", games=games)


@bp.get("/rules")
def rules() -> ResponseReturnValue:
    return render_template("rules.html")


def _summary(snapshot: Snapshot) -> dict[str, Any]:
    state = snapshot.state
    options = state.options
    sides = [
        {"name": options.side_name(side), "score": score, "won": side == state.winner}
        for side, score in enumerate(state.scores)
    ]
    if state.status is Status.GAME_OVER:
        status = "Finished"
    elif state.hand_number == 0:
        status = "Not started"
    elif state.status is Status.AWAITING_START:
        status = f"Hand {state.hand_number + 1} next"
    elif state.status is Status.HAND_OVER:
        status = f"Hand {state.hand_number} to settle"
    else:
        status = f"Hand {state.hand_number}"
    return {"id": snapshot.id, "sides": sides, "status": status, "when": _ago(snapshot.updated_at)}


def _ago(when: datetime) -> str:
    seconds = (datetime.now(UTC).replace(tzinfo=None) - when).total_seconds()
    if seconds < 60:
        return "just now"
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count > 1 else ''} ago"
    return ""


# --- new game ----------------------------------------------------------------------------------


@bp.get("/new")
def new_game() -> ResponseReturnValue:
    return render_template("new.html", form=_new_form({}))


@bp.post("/new")
def create() -> ResponseReturnValue:
    form = _new_form(request.form)
    resize = request.form.get("resize")
    if resize in ("add", "remove"):
        return render_template("new.html", form=form)
    players = [name for name in form["names"] if name.strip()]
    rules = {"preset": form["preset"]}
    rules.update({name: form[name] for name in ("deal", "target", "settlement", "finish")})
    try:
        snapshot = create_game(players, form["partnership"], _chosen(rules))
    except BadOptions as refusal:
        return render_template("new.html", form=form, error=refusal.message, rule=refusal.rule), 422
    return redirect(url_for(".game", game_id=snapshot.id), 303)


def _chosen(rules: dict[str, str]) -> dict[str, str]:
    """Blank options mean "as the preset says"."""
    return {name: value.strip() for name, value in rules.items() if value and value.strip()}


def _new_form(source: Any) -> dict[str, Any]:
    names = [str(name)[:40] for name in source.getlist("name")] if source else []
    count = len(names) or DEFAULT_NAME_FIELDS
    resize = source.get("resize") if source else None
    if resize == "add":
        count = min(4, count + 1)
    elif resize == "remove":
        count = max(2, count - 1)
    names = (names + [""] * count)[:count]
    get = source.get if source else (lambda _name, default="": default)
    return {
        "names": names,
        "partnership": bool(get("partnership", "")),
        "preset": get("preset", "seed") or "seed",
        "deal": get("deal", ""),
        "target": get("target", "").strip()[:6],
        "settlement": get("settlement", ""),
        "finish": get("finish", ""),
    }


# --- the game screen ---------------------------------------------------------------------------


@bp.get("/g/<game_id>")
def game(game_id: str) -> ResponseReturnValue:
    snapshot = store().get(game_id)
    remember(game_id)
    notice = session.pop("notice", None)
    return _render(snapshot, notice)


@bp.get("/g/<game_id>/poll")
def poll(game_id: str) -> ResponseReturnValue:
    """Follow changes made on other phones: 204 while the game is where this page left it."""
    return _poll(store().revision(game_id), lambda: store().get(game_id), viewer=False)


@bp.get("/v/<view_id>")
def view(view_id: str) -> ResponseReturnValue:
    """The live game for onlookers: everything shown, nothing changeable."""
    return _render(_as_viewer(store().get_by_view(view_id)))


@bp.get("/v/<view_id>/poll")
def view_poll(view_id: str) -> ResponseReturnValue:
    snapshot = store().get_by_view(view_id)
    return _poll(snapshot.seq, lambda: snapshot, viewer=True)


@bp.post("/v/<view_id>")
@bp.post("/v/<view_id>/<path:_anything>")
def view_write(view_id: str, _anything: str = "") -> ResponseReturnValue:
    store().get_by_view(view_id)  # a friendly 404 for a link that is no game at all
    message = (
        "This is the view-only link of a game: it shows the game live but cannot change it. "
        "Ask the players for the edit link to enter plays."
    )
    return render_template("error.html", title="View only", message=message), 403


def _poll(revision: int, load: Callable[[], Snapshot], viewer: bool) -> ResponseReturnValue:
    seen = request.args.get("seq", type=int)
    if seen == revision:
        response = Response(status=204)
        response.set_etag(str(revision))
        return response
    snapshot = load()
    if viewer:
        snapshot = _as_viewer(snapshot)
    if not is_htmx():
        return redirect(_game_url(snapshot))
    done = snapshot.state.done
    notice = {"tone": "ok", "text": done, "next": snapshot.state.next_step()} if done else None
    return _render(snapshot, notice)


def _game_url(snapshot: Snapshot, page: str = "", **args: Any) -> str:
    """The game page (or its ``poll``) as this snapshot's reader sees it: edit or view link."""
    if snapshot.id == snapshot.view_id:
        return url_for(".view_poll" if page else ".view", view_id=snapshot.id, **args)
    return url_for(".poll" if page else ".game", game_id=snapshot.id, **args)


def _as_viewer(snapshot: Snapshot) -> Snapshot:
    """The snapshot as an onlooker may see it: the edit id never leaves the server."""
    return replace(snapshot, id=snapshot.view_id)


@bp.post("/g/<game_id>/play")
def play(game_id: str) -> ResponseReturnValue:
    chosen = _chosen_play()
    if chosen is not None:
        # Tile and end both given: the store checks the revision first, then the rules, in one
        # transaction; no need to read the game before.
        try:
            return _apply(game_id, _seq(), chosen)
        except RuleError as refusal:
            return _refused(store().get(game_id), refusal)
    snapshot = store().get(game_id)
    state = snapshot.state
    seq = _seq()
    if seq != snapshot.seq:  # a stale tap is about an earlier layout: say so before anything
        return _stale(StaleRevision(snapshot, seq))
    try:
        tile = Tile.parse(request.form.get("tile", ""))
        end = request.form.get("end", "").strip()
        if end:
            return _apply(snapshot.id, seq, Play(tile, Arm.parse(end)))
        places = state.placements(tile)
        if not places:
            raise state.why_not(tile) or IllegalAction("no_match", f"{tile} cannot be played now")
        if len(places) > 1:
            return _render(snapshot, choice={"tile": str(tile), "places": places})
        return _apply(snapshot.id, seq, Play(tile, places[0].arm))
    except RuleError as refusal:
        return _refused(snapshot, refusal)


def _chosen_play() -> Play | None:
    """The play when the form names a well-formed tile, an end and a revision; else ``None``."""
    end = request.form.get("end", "").strip()
    if not end or _seq() is None:
        return None
    try:
        return Play(Tile.parse(request.form.get("tile", "")), Arm.parse(end))
    except RuleError:
        return None  # judged on the full path, after the revision


@bp.post("/g/<game_id>/draw")
def draw(game_id: str) -> ResponseReturnValue:
    count = whole_number(request.form.get("count", "1"), 2)
    action: Action | RuleError = (
        Draw(count, confirm=_confirmed())
        if count
        else IllegalAction("bad_draw", "draw a whole number of tiles, 1 or more", "R6")
    )
    return _act(game_id, action, again={"count": str(count)})


@bp.post("/g/<game_id>/pass")
def pass_turn(game_id: str) -> ResponseReturnValue:
    return _act(game_id, Pass(confirm=_confirmed()), again={})


def _confirmed() -> bool:
    """R7a: the table insists on a draw or pass the record disproves ("Record it anyway")."""
    return request.form.get("confirm") == "1"


@bp.post("/g/<game_id>/undo")
def undo(game_id: str) -> ResponseReturnValue:
    return _act(game_id, Undo())


@bp.post("/g/<game_id>/start")
def start(game_id: str) -> ResponseReturnValue:
    leader = request.form.get("leader", "").strip()
    seat = whole_number(leader, 4)
    if leader not in ("", "random") and seat is None:
        refusal = IllegalAction("bad_seat", f"{leader[:20]!r} is not a seat at this table")
        return _act(game_id, refusal)
    return _act(game_id, StartHand(seat))


@bp.post("/g/<game_id>/settle")
def settle(game_id: str) -> ResponseReturnValue:
    snapshot = store().get(game_id)
    state = snapshot.state
    seq = _seq()
    if seq != snapshot.seq:
        return _stale(StaleRevision(snapshot, seq))
    entered = _settle_form(state)
    try:
        action = EndHand.of(_reports(state, entered))
        if request.form.get("step") != "confirm":
            after, outcome = state.apply(action)
            preview = _preview(state, after, outcome)
            return _render(snapshot, settle={"entered": entered, "preview": preview})
        return _apply(snapshot.id, seq, action)
    except RuleError as refusal:
        return _refused(snapshot, refusal, settle={"entered": entered, "preview": None})


@bp.post("/g/<game_id>/again")
def again(game_id: str) -> ResponseReturnValue:
    options = store().get(game_id).state.options
    snapshot = create_game(list(options.players), options.partnership, options.rules_dict())
    return redirect(url_for(".game", game_id=snapshot.id), 303)


# --- doing an action ---------------------------------------------------------------------------


def _seq() -> int | None:
    return request.form.get("seq", type=int)


def _act(
    game_id: str, action: Action | RuleError, again: dict[str, str] | None = None
) -> ResponseReturnValue:
    """Apply ``action``; a refusal the table may overrule (R7a) offers to send the same form
    (``again``) with ``confirm=1``."""
    snapshot = store().get(game_id)
    if isinstance(action, RuleError):
        return _refused(snapshot, action)
    try:
        return _apply(snapshot.id, _seq(), action)
    except RuleError as refusal:
        if refusal.confirmable and again is not None:
            return _refused(snapshot, refusal, confirm={"url": request.path, "fields": again})
        return _refused(snapshot, refusal)


def _apply(game_id: str, seq: int | None, action: Action) -> ResponseReturnValue:
    """Store ``action``; then show the game with its outcome (redirect-after-POST without JS)."""
    try:
        after, outcome = store().apply(game_id, seq, action)
    except StaleRevision as stale:
        return _stale(stale)
    notice = _outcome_notice(after.state, outcome)
    if after.learning:
        notice["why"] = teaching.play_reasons(after.state, outcome)
    if is_htmx():
        return _render(after, notice)
    session["notice"] = notice
    return redirect(url_for(".game", game_id=game_id), 303)


def _stale(stale: StaleRevision) -> ResponseReturnValue:
    notice = {"tone": "stale", "text": stale.message}
    return _render(stale.current, notice, status=409)


def _refused(
    snapshot: Snapshot,
    refusal: RuleError,
    settle: dict[str, Any] | None = None,
    confirm: dict[str, Any] | None = None,
) -> ResponseReturnValue:
    current = store().get(snapshot.id)
    text = refusal.message[:1].upper() + refusal.message[1:]
    notice = {"tone": "refused", "text": text, "rule": refusal.rule, "confirm": confirm}
    return _render(current, notice, status=422, settle=settle)


def _outcome_notice(state: GameState, outcome: Outcome) -> dict[str, Any]:
    who = state.name(outcome.seat) if outcome.seat is not None else None
    return {
        "tone": "scored" if outcome.points else "ok",
        "text": outcome.message,
        "points": outcome.points,
        "who": who,
        "next": outcome.next,
    }


# --- settling a hand ---------------------------------------------------------------------------


def _settle_form(state: GameState) -> dict[int, dict[str, Any]]:
    """What was entered for each seat still holding tiles: pips typed, or tiles tapped."""
    hand = state.hand
    if hand is None or state.status is not Status.HAND_OVER:
        return {}
    return {
        seat: {
            "pips": request.form.get(f"pips_{seat}", "").strip()[:4],
            "tiles": [t[:5] for t in request.form.getlist(f"tiles_{seat}")][:28],
        }
        for seat, held in enumerate(hand.held)
        if held
    }


def _reports(state: GameState, entered: dict[int, dict[str, Any]]) -> dict[int, Report | Any]:
    reports: dict[int, Any] = {}
    for seat, values in entered.items():
        if values["tiles"]:
            reports[seat] = [Tile.parse(text) for text in values["tiles"]]
        elif (pips := whole_number(values["pips"], 4)) is not None:
            reports[seat] = pips
        elif values["pips"]:
            raise ImpossibleReport(
                "report_pips", f"{state.name(seat)}'s pips must be a whole number, 0 or more", "R14"
            )
    return reports


def _preview(before: GameState, after: GameState, outcome: Outcome) -> dict[str, Any]:
    """The settlement as the rules computed it, before it is stored."""
    result = outcome.result
    assert result is not None
    options = before.options
    players = present.settled_players(options, result)
    sides = [
        {
            "name": options.side_name(side),
            "before": before.scores[side],
            "change": result.settled[side],
            "after": result.scores[side],
        }
        for side in range(options.side_count)
    ]
    return {"players": players, "sides": sides, "next": outcome.next, "over": after.winner}


# --- rendering ---------------------------------------------------------------------------------


def _render(
    snapshot: Snapshot,
    notice: dict[str, Any] | None = None,
    status: int = 200,
    choice: dict[str, Any] | None = None,
    settle: dict[str, Any] | None = None,
) -> ResponseReturnValue:
    template = "_game.html" if is_htmx() else "game.html"
    context = _game_context(snapshot, notice, choice, settle)
    return render_template(template, **context), status


def _game_context(
    snapshot: Snapshot,
    notice: dict[str, Any] | None,
    choice: dict[str, Any] | None,
    settle: dict[str, Any] | None,
) -> dict[str, Any]:
    state = snapshot.state
    hand = state.hand
    viewer = snapshot.id == snapshot.view_id
    last = None
    if hand and hand.moves and hand.moves[-1].kind == "play":
        last = hand.moves[-1].tile
    return {
        "snap": snapshot,
        "state": state,
        "winner": present.winner_names(state),
        "status": state.status.value,
        "sides": _sides(state),
        "hints": present.tile_hints(state),
        "drawing": draw_layout(hand.layout, last) if hand else None,
        "ends": list(hand.layout.open_ends.items()) if hand else [],
        "log": _log(state),
        "notice": notice,
        "choice": choice,
        "settle": settle or {"entered": {}, "preview": None},
        "holding": [seat for seat, held in enumerate(hand.held) if held] if hand else [],
        "unplayed": [str(tile) for tile in hand.unplayed] if hand else [],
        "draw_max": min(hand.boneyard, 28) if hand else 0,
        "viewer": viewer,
        "live_url": _game_url(snapshot, "poll", seq=snapshot.seq),
        "share": None if viewer or is_htmx() else _share_links(snapshot),
        "to": _action_urls(snapshot.id),
    }


_ACTIONS = {name: name for name in ("play", "draw", "undo", "start", "settle", "again", "learning")}
_ACTIONS["pass_turn"] = "pass"


def _action_urls(game_id: str) -> dict[str, str]:
    """The game's action URLs, built once per screen rather than once per form."""
    game = url_for(".game", game_id=game_id)
    urls = {name: f"{game}/{path}" for name, path in _ACTIONS.items()}
    return {**urls, "game": game, "rules": url_for(".rules")}


def _share_links(snapshot: Snapshot) -> list[dict[str, str]]:
    """The edit and view links of a game, each with a QR code a phone camera can read."""
    links = []
    for label, hint, endpoint, key in (
        ("Players' link", "Lets another phone enter plays.", ".game", snapshot.id),
        ("Watch link", "Shows the game live, changes nothing.", ".view", snapshot.view_id),
    ):
        arg = "game_id" if endpoint == ".game" else "view_id"
        url = url_for(endpoint, _external=True, **{arg: key})
        links.append({"label": label, "hint": hint, "url": url, "qr": qr_svg(url)})
    return links


def _sides(state: GameState) -> list[dict[str, Any]]:
    """One scoreboard row per player, or per team in partnership."""
    options = state.options
    hand = state.hand
    turn = state.turn
    sides = []
    for side, score in enumerate(state.scores):
        seats = options.seats_of(side)
        sides.append(
            {
                "name": options.side_name(side),
                "score": score,
                "progress": min(max(score, 0), options.goal),
                "turn": turn in seats,
                "won": state.winner == side,
                "players": [
                    {
                        "name": options.players[seat],
                        "held": hand.held[seat] if hand else None,
                        "turn": seat == turn,
                    }
                    for seat in seats
                ],
            }
        )
    return sides


def _log(state: GameState) -> list[dict[str, Any]]:
    """Every action still in effect, grouped by hand, newest hand first (undone ones are gone).

    Each state remembers the one before it and the action that made it, in words. Only the
    last two hands are listed action by action, so a play costs the same in the twentieth hand
    as in the first; earlier hands keep their heading and a link to their replay."""
    newest = state.hand.number if state.hand else 0
    keep_from = max(1, newest - 1) if newest else 0
    entries = []
    current = state
    while current.previous is not None:
        before = current.previous
        entry: dict[str, Any] = {"text": current.done, "points": 0, "kind": "info"}
        hand, earlier = current.hand, before.hand
        entry["hand"] = hand.number if hand else 0
        if entry["hand"] < keep_from:
            break
        if len(current.results) > len(before.results):
            entry["kind"] = "settle"
        elif hand and earlier is not None and earlier.number == hand.number:
            if len(hand.moves) > len(earlier.moves):
                move = hand.moves[-1]
                entry.update(kind=move.kind, points=move.points, who=state.name(move.seat))
        else:
            entry["kind"] = "start"
        entries.append(entry)
        current = before
    entries.reverse()
    hands: dict[int, list[dict[str, Any]]] = {
        result.number: [] for result in state.results if result.number < keep_from
    }
    for entry in entries:
        hands.setdefault(entry["hand"], []).append(entry)
    results = {result.number: result for result in state.results}
    return [
        {"number": number, "entries": found, "result": results.get(number)}
        for number, found in sorted(hands.items(), reverse=True)
    ]
