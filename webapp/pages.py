"""The pages of the table app: home, new game, rules, and the game screen with its actions.

Every action is a real form POST carrying the game's ``seq``. Without JavaScript it redirects
back to the game page (the outcome travels in the session); with htmx (``HX-Request``) the
response is the ``#game`` region itself, already showing the outcome. Which tiles fit where,
points, rounding and refusals all come from ``webapp.rules``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue

from . import disputes, fixes, screen, teaching
from .drawing import piece_svg, qr_svg, tile_svg, tile_symbols, tile_use
from .games import create_game, recent_games, remember, store
from .limits import creating
from .rules import (
    Action,
    Arm,
    BadOptions,
    Draw,
    EndHand,
    GameState,
    IllegalAction,
    ImpossibleReport,
    Pass,
    Play,
    Report,
    RuleError,
    StartHand,
    Status,
    Tile,
    Undo,
    deduced_pips,
    to_dict,
    whole_number,
)
from .rules.messages import N_
from .rules.options import OPTION_SPECS, PRESET_LIST, TARGET_SENTENCE
from .security import public_url
from .store import Snapshot, StaleRevision
from .words import format_timedelta, gettext, say

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
        tile_svg=tile_svg, piece_svg=piece_svg, tile_symbols=tile_symbols, tile_use=tile_use
    )
)


# --- home, rules ------------------------------------------------------------------------------


@bp.get("/")
def home() -> ResponseReturnValue:
    games = [_summary(snapshot) for snapshot in recent_games()]
    return render_template("home.html", games=games)


@bp.get("/rules")
def rules() -> ResponseReturnValue:
    return render_template("rules.html", presets=PRESET_LIST)


def _summary(snapshot: Snapshot) -> dict[str, Any]:
    state = snapshot.state
    options = state.options
    sides = [
        {"name": options.side_name(side), "score": score, "won": side in state.winners}
        for side, score in enumerate(state.scores)
    ]
    finished = state.status is Status.GAME_OVER
    if finished:
        status = gettext("Finished")
    elif state.hand_number == 0:
        status = gettext("Not started")
    elif state.status is Status.AWAITING_START:
        status = gettext("Hand %(number)s next", number=state.hand_number + 1)
    elif state.status is Status.HAND_OVER:
        status = gettext("Hand %(number)s to settle", number=state.hand_number)
    else:
        status = gettext("Hand %(number)s", number=state.hand_number)
    return {
        "id": snapshot.id,
        "sides": sides,
        "status": status,
        "finished": finished,
        "when": _ago(snapshot.updated_at),
    }


def _ago(when: datetime) -> str:
    """How long ago, as the reader's language says it ("5 minutes ago")."""
    since = datetime.now(UTC).replace(tzinfo=None) - when
    if since.total_seconds() < 60:
        return gettext("just now")
    return format_timedelta(-since)


# --- new game ----------------------------------------------------------------------------------


@bp.get("/new")
def new_game() -> ResponseReturnValue:
    return _new_page(_new_form({}))


def _new_page(form: dict[str, Any], refusal: BadOptions | None = None) -> ResponseReturnValue:
    """The new-game form: presets by what they do, every house rule from the one table."""
    page = render_template(
        "new.html",
        form=form,
        presets=PRESET_LIST,
        specs=OPTION_SPECS,
        target_sentence=TARGET_SENTENCE,
        error=say(refusal.message) if refusal else None,
        rule=refusal.rule if refusal else None,
    )
    return (page, 422) if refusal else page


@bp.post("/new")
@creating
def create() -> ResponseReturnValue:
    form = _new_form(request.form)
    resize = request.form.get("resize")
    if resize in ("add", "remove"):
        return _new_page(form)
    players = [name for name in form["names"] if name.strip()]
    rules = {"preset": form["preset"], "target": form["target"]}
    rules.update({spec.name: form[spec.name] for spec in OPTION_SPECS})
    try:
        snapshot = create_game(players, form["partnership"], _chosen(rules))
    except BadOptions as refusal:
        return _new_page(form, refusal)
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
    chosen = {spec.name: str(get(spec.name, ""))[:20] for spec in OPTION_SPECS}
    target = get("target", "").strip()[:6]
    return {
        "names": names,
        "partnership": bool(get("partnership", "")),  # offered with four name fields (R2)
        "preset": get("preset", "seed") or "seed",
        "target": target,
        "changed": bool(target) or any(chosen.values()),
        **chosen,
    }


# --- the game screen ---------------------------------------------------------------------------

ALL_REGIONS = ("scores", "board", "notice", "work", "controls", "live")
# This phone's choice to draw the layout as seen from across the table: a cookie of its own,
# so that showing a play needs no session.
TURNED = "turned"


@bp.get("/g/<game_id>")
def game(game_id: str) -> ResponseReturnValue:
    snapshot = store().get(game_id)
    remember(game_id)
    notice = screen.Notice.from_dict(session.pop("notice", None))
    return _show(snapshot, notice, choice=_asked_choice(snapshot))


@bp.get("/g/<game_id>/poll")
def poll(game_id: str) -> ResponseReturnValue:
    """Follow changes made on other phones: 204 while the game is where this page left it."""
    return _poll(store().revision(game_id), lambda: store().get(game_id), viewer=False)


@bp.get("/v/<view_id>")
def view(view_id: str) -> ResponseReturnValue:
    """The live game for onlookers: everything shown, nothing changeable."""
    return _show(store().get_by_view(view_id), viewer=True)


@bp.get("/v/<view_id>/poll")
def view_poll(view_id: str) -> ResponseReturnValue:
    snapshot = store().get_by_view(view_id)
    return _poll(snapshot.seq, lambda: snapshot, viewer=True)


@bp.get("/g/<game_id>/more")
def more(game_id: str) -> ResponseReturnValue:
    """The game's log and dispute links, loaded when the "More" sheet opens."""
    return render_template("_more_live.html", more=more_of(store().get(game_id), viewer=False))


@bp.get("/v/<view_id>/more")
def view_more(view_id: str) -> ResponseReturnValue:
    return render_template("_more_live.html", more=more_of(store().get_by_view(view_id), True))


@bp.post("/v/<view_id>")
@bp.post("/v/<view_id>/<path:_anything>")
def view_write(view_id: str, _anything: str = "") -> ResponseReturnValue:
    store().get_by_view(view_id)  # a friendly 404 for a link that is no game at all
    message = gettext(
        "This is the view-only link of a game: it shows the game live but cannot change it. "
        "Ask the players for the edit link to enter plays."
    )
    return render_template("error.html", title=gettext("View only"), message=message), 403


def _poll(revision: int, load: Callable[[], Snapshot], viewer: bool) -> ResponseReturnValue:
    seen = request.args.get("seq", type=int)
    if seen == revision:
        response = Response(status=204)
        response.set_etag(str(revision))
        return response
    snapshot = load()
    if not is_htmx():
        if viewer:
            return redirect(url_for(".view", view_id=snapshot.view_id))
        return redirect(url_for(".game", game_id=snapshot.id))
    return _show(snapshot, screen.change_notice(snapshot.state, viewer), viewer=viewer)


def _asked_choice(snapshot: Snapshot) -> screen.Choice | None:
    """Without JavaScript a tile that fits several ends comes back as ``?choose=6-4``: a GET,
    so reloading the question never resubmits anything."""
    asked = request.args.get("choose", "")
    if not asked or snapshot.state.status is not Status.PLAYING:
        return None
    try:
        tile = Tile.parse(asked[:5])
    except RuleError:
        return None
    places = screen.choices(snapshot.state, tile)
    return screen.choice_of(tile, places) if len(places) > 1 else None


# --- the actions -------------------------------------------------------------------------------


@bp.post("/g/<game_id>/play")
def play(game_id: str) -> ResponseReturnValue:
    """A tapped tile: played at once where it fits one place (or where the form says), else the
    table is asked which end. The store checks the revision, then the rules, in one go; the
    game read to find where the tile fits is the one the play is judged against."""
    seq = _seq()
    snapshot = None
    try:
        tile = Tile.parse(request.form.get("tile", ""))
        end = request.form.get("end", "").strip()
        if end:
            return _apply(game_id, seq, Play(tile, Arm.parse(end)))
        snapshot = store().get(game_id)
        if seq != snapshot.seq:  # a stale tap is about an earlier layout: say so before anything
            return _stale(StaleRevision(snapshot, seq), Play(tile, None))
        state = snapshot.state
        places = screen.choices(state, tile)
        if not places:
            raise state.why_not(tile) or IllegalAction(
                "no_match", N_("%(tile)s cannot be played now", tile=str(tile))
            )
        if len(places) == 1:
            return _apply(game_id, seq, Play(tile, places[0].arm), read=snapshot)
    except RuleError as refusal:
        return _refused(game_id, refusal, read=snapshot)
    if not is_htmx():
        return redirect(url_for(".game", game_id=game_id, choose=str(tile)), 303)
    return _show(snapshot, choice=screen.choice_of(tile, places), regions=("work",))


@bp.post("/g/<game_id>/draw")
def draw(game_id: str) -> ResponseReturnValue:
    count = whole_number(request.form.get("count", "1"), 2)
    if not count:
        refusal = IllegalAction("bad_draw", N_("draw a whole number of tiles, 1 or more"), "R6")
        return _refused(game_id, refusal)
    return _act(game_id, Draw(count, confirm=_confirmed()), again={"count": str(count)})


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
        refusal = IllegalAction(
            "bad_seat", N_("%(shown)s is not a seat at this table", shown=repr(leader[:20]))
        )
        return _refused(game_id, refusal)
    # R21: the table may say nobody holds a double, so the leader it names leads any tile.
    return _act(game_id, StartHand(seat, no_double=request.values.get("no_double") == "1"))


@bp.post("/g/<game_id>/settle")
def settle(game_id: str) -> ResponseReturnValue:
    """Settle the hand with what was entered: one confirmation, the preview shown as typed."""
    snapshot = store().get(game_id)
    seq = _seq()
    if seq != snapshot.seq:
        return _stale(StaleRevision(snapshot, seq), None)
    entered = _settle_form(snapshot.state)
    try:
        return _apply(game_id, seq, EndHand.of(_reports(snapshot.state, entered)), read=snapshot)
    except RuleError as refusal:
        return _refused(game_id, refusal, settle=entered, read=snapshot)


@bp.get("/g/<game_id>/settle/preview")
def settle_preview(game_id: str) -> ResponseReturnValue:
    """What the settlement would do with what is typed so far (a GET: it changes nothing)."""
    snapshot = store().get(game_id)
    state = snapshot.state
    entered = _settle_form(state)
    preview, refusal = _preview(state, entered)
    if is_htmx():
        view = screen.build(snapshot, False, settle=entered, preview=preview)
        notice = screen.refusal_notice(refusal) if refusal else None
        return render_template("_settle_preview.html", screen=view, work=view.work, refusal=notice)
    notice = screen.refusal_notice(refusal) if refusal else None
    return _show(snapshot, notice, settle=entered, preview=preview)


@bp.post("/g/<game_id>/again")
@creating
def again(game_id: str) -> ResponseReturnValue:
    options = store().get(game_id).state.options
    snapshot = create_game(list(options.players), options.partnership, options.rules_dict())
    return redirect(url_for(".game", game_id=snapshot.id), 303)


@bp.post("/g/<game_id>/coaching")
def coaching(game_id: str) -> ResponseReturnValue:
    """The picker's hints (what fits, what scores) on or off: a setting, not a game action."""
    store().set_screen(game_id, "coaching", request.form.get("on") == "1")
    return redirect(url_for(".game", game_id=game_id), 303)


@bp.post("/g/<game_id>/turn")
def turn_board(game_id: str) -> ResponseReturnValue:
    """Draw the layout as seen from the other side of the table, on this phone only."""
    store().get(game_id)  # a friendly 404 for a link that is no game at all
    on = request.form.get("on") == "1"
    response = redirect(url_for(".game", game_id=game_id), 303)
    response.set_cookie(
        TURNED,
        "1" if on else "",
        max_age=current_app.permanent_session_lifetime if on else 0,
        secure=current_app.session_interface.get_cookie_secure(current_app),
        httponly=True,
        samesite="Lax",
    )
    return response


# --- doing an action ---------------------------------------------------------------------------


def _seq() -> int | None:
    return request.form.get("seq", type=int)


def _act(game_id: str, action: Action, again: dict[str, str] | None = None) -> ResponseReturnValue:
    """Apply ``action``; a refusal the table may overrule (R7a) offers to send the same form
    (``again``) with ``confirm=1``."""
    snapshot = store().get(game_id)  # the one read: the play is judged, or refused, on it
    try:
        return _apply(game_id, _seq(), action, read=snapshot)
    except RuleError as refusal:
        if refusal.confirmable and again is not None:
            return _refused(game_id, refusal, confirm=(request.path, again), read=snapshot)
        return _refused(game_id, refusal, read=snapshot)


def _apply(
    game_id: str, seq: int | None, action: Action, read: Snapshot | None = None
) -> ResponseReturnValue:
    """Store ``action``; then show the game with its outcome (redirect-after-POST without JS).
    ``read``: the game as this request already read it."""
    try:
        after, outcome = store().apply(game_id, seq, action, read=read)
    except StaleRevision as stale:
        return _stale(stale, action)
    why = teaching.play_reasons(after.state, outcome) if after.learning else []
    notice = screen.outcome_notice(after.state, outcome, why)
    if is_htmx():
        return _show(after, notice)
    session["notice"] = notice.as_dict()
    return redirect(url_for(".game", game_id=game_id), 303)


def _stale(stale: StaleRevision, action: Action | None) -> ResponseReturnValue:
    """A submission for a revision the game has left. If the action that moved the game on
    from that revision is this very one, it is a resend of a tap already saved (a phone that
    lost the answer, and tried again): say it is saved. Otherwise nothing is applied."""
    current = stale.current
    if action is not None and stale.submitted is not None and stale.submitted < current.seq:
        recorded = store().log_since(current.id, stale.submitted)
        if recorded and _same(recorded[0][1], to_dict(action)):
            said = gettext("Saved: that was already recorded.")
            notice = screen.Notice("ok", said, next=say(current.state.next_step()))
            if not is_htmx():
                session["notice"] = notice.as_dict()
                return redirect(url_for(".game", game_id=current.id), 303)
            return _show(current, notice)
    return _show(current, screen.Notice("stale", say(stale.message)), status=409)


def _same(recorded: dict[str, Any], sent: dict[str, Any]) -> bool:
    """Whether a stored action is the one sent; a tap that left the end to the rules matches
    the same tile on whatever end they chose."""
    if sent.get("type") == "play" and "end" not in sent:
        recorded = {key: value for key, value in recorded.items() if key != "end"}
    return recorded == sent


def _refused(
    game_id: str,
    refusal: RuleError,
    settle: dict[int, dict[str, Any]] | None = None,
    confirm: tuple[str, dict[str, str]] | None = None,
    read: Snapshot | None = None,
) -> ResponseReturnValue:
    """The refusal where the eye is; with htmx only the notice changes (what was typed stays).
    ``confirm``: the address and fields that record it anyway (R7a); ``read``: the game as this
    request already read it (a refusal changed nothing)."""
    notice = screen.refusal_notice(refusal, confirm)
    snapshot = read or store().get(game_id)
    return _show(snapshot, notice, settle=settle, status=422, regions=("notice",))


# --- settling a hand ---------------------------------------------------------------------------


def _settle_form(state: GameState) -> dict[int, dict[str, Any]]:
    """What was entered for each seat still holding tiles: pips typed, or tiles tapped; and the
    pips of the one player the rules can work out (R14), marked as deduced."""
    hand = state.hand
    if hand is None or state.status is not Status.HAND_OVER:
        return {}
    source = request.values
    entered: dict[int, dict[str, Any]] = {
        seat: {
            "pips": source.get(f"pips_{seat}", "").strip()[:4],
            "tiles": [t[:5] for t in source.getlist(f"tiles_{seat}")][:28],
        }
        for seat, held in enumerate(hand.held)
        if held
    }
    try:
        known = _reports(state, entered)
    except RuleError:
        return entered
    deduced = deduced_pips(EndHand.of(known).by_seat, hand.held, hand.unplayed, hand.boneyard)
    if deduced is not None:
        seat, pips = deduced
        entered[seat] = {"pips": str(pips), "tiles": [], "deduced": True}
    return entered


def _reports(state: GameState, entered: dict[int, dict[str, Any]]) -> dict[int, Report | Any]:
    reports: dict[int, Any] = {}
    for seat, values in entered.items():
        if values["tiles"]:
            reports[seat] = [Tile.parse(text) for text in values["tiles"]]
        elif (pips := whole_number(values["pips"], 4)) is not None:
            reports[seat] = pips
        elif values["pips"]:
            raise ImpossibleReport(
                "report_pips",
                N_("%(name)s's pips must be a whole number, 0 or more", name=state.name(seat)),
                "R14",
            )
    return reports


def _preview(
    state: GameState, entered: dict[int, dict[str, Any]]
) -> tuple[screen.Preview | None, RuleError | None]:
    """The settlement as the rules would make it, or why they would refuse it; nothing before
    every player's entry is in."""
    if any(not (values["pips"] or values["tiles"]) for values in entered.values()):
        return None, None
    try:
        after, outcome = state.apply(EndHand.of(_reports(state, entered)))
    except RuleError as refusal:
        return None, refusal
    assert outcome.result is not None
    why = teaching.rounding_reasons(outcome.result.pips, state.options.rounding)
    return screen.preview_of(state, outcome, after, why), None


# --- rendering ---------------------------------------------------------------------------------


def _show(
    snapshot: Snapshot,
    notice: screen.Notice | None = None,
    *,
    viewer: bool = False,
    choice: screen.Choice | None = None,
    settle: dict[int, dict[str, Any]] | None = None,
    preview: screen.Preview | None = None,
    status: int = 200,
    regions: tuple[str, ...] = ALL_REGIONS,
) -> ResponseReturnValue:
    """The game screen; to htmx, only ``regions``, each swapped into place out of band."""
    if settle is None and snapshot.state.status is Status.HAND_OVER and not viewer:
        settle = _settle_form(snapshot.state)
    view = screen.build(
        snapshot, viewer, notice, choice, settle, preview, turned=request.cookies.get(TURNED) == "1"
    )
    if is_htmx():
        return render_template("_regions.html", screen=view, regions=regions), status
    extra = {
        "more": more_of(snapshot, viewer),
        "share": None if viewer else _share_links(snapshot),
    }
    return render_template("game.html", screen=view, **extra), status


def more_of(snapshot: Snapshot, viewer: bool) -> dict[str, Any]:
    """The "More" sheet's live part: dispute links, the last hand's audit and the game log."""
    found = disputes.more_of(snapshot, viewer, _log(snapshot))
    return {**found, "fixable": fixes.fix_entries(snapshot, viewer)}


def _share_links(snapshot: Snapshot) -> list[dict[str, str]]:
    """The edit and view links of a game, each with a QR code a phone camera can read.

    They start with the configured public address when there is one (see
    ``security.public_url``)."""
    links = []
    for label, hint, endpoint, key in (
        (
            gettext("Players' link"),
            gettext("Lets another phone enter plays."),
            ".game",
            snapshot.id,
        ),
        (
            gettext("Watch link"),
            gettext("Shows the game live, changes nothing."),
            ".view",
            snapshot.view_id,
        ),
    ):
        arg = "game_id" if endpoint == ".game" else "view_id"
        url = public_url(endpoint, **{arg: key})
        qr = store().cache.at(snapshot.id, ("qr", url), 0)  # drawn once per game and link
        if qr is None:
            qr = qr_svg(url)
            store().cache.put(snapshot.id, ("qr", url), 0, qr)
        links.append({"label": label, "hint": hint, "url": url, "qr": qr})
    return links


def _log(snapshot: Snapshot) -> list[dict[str, Any]]:
    """Every action still in effect, grouped by hand, newest hand first (undone ones are gone).

    Only the last two hands are listed action by action, so a play costs the same in the
    twentieth hand as in the first; earlier hands keep their heading and a link to their
    replay. Their states, one per action in effect, are a scorebook's from the start of the
    hand before (its mark announces that hand)."""
    state = snapshot.state
    newest = state.hand.number if state.hand else 0
    keep_from = max(1, newest - 1) if newest else 0
    states = store().reaching(snapshot, keep_from).states
    entries = []
    for before, current in zip((None, *states), states, strict=False):
        if before is None and not current.can_undo:
            continue  # a game not started yet: no action made it
        entry: dict[str, Any] = {"text": say(current.done), "points": 0, "kind": "info"}
        hand, earlier = current.hand, before.hand if before else None
        entry["hand"] = hand.number if hand else 0
        if entry["hand"] < keep_from:
            continue
        if before is not None and len(current.results) > len(before.results):
            entry["kind"] = "settle"
        elif hand and earlier is not None and earlier.number == hand.number:
            if hand.moves and hand.moves[:-1] == earlier.moves:  # one move added, not a fix
                move = hand.moves[-1]
                entry.update(kind=move.kind, points=move.points, who=state.name(move.seat))
        else:
            entry["kind"] = "start"
        entries.append(entry)
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
