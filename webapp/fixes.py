"""Fixing an earlier move of the hand, as a pencil would: ``/g/<id>/fix/<move>``.

The game log lists the current hand's moves as they stand, each with a *Fix* link. The fix
page shows the move as entered and the layout as it stood then, and lets the table say what
it really was: another tile (and its end, with the points, when several fit), a draw of
another count, a pass, or nothing at all. Each choice shows beforehand what the correction
would do to the later moves, as ``webapp.rules`` works it out (``Correct`` applied to the game
in memory, nothing stored); the POST stores it with the game's ``seq`` and returns to the game
with the outcome. Every step is a link or a plain form: it works without JavaScript.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from .drawing import draw_layout
from .games import store
from .present import end_label
from .rules import (
    DOUBLE_SIX,
    Arm,
    Correct,
    Draw,
    GameState,
    IllegalAction,
    Move,
    Pass,
    Play,
    RuleError,
    Tile,
    whole_number,
)
from .rules.correction import can_fix, words
from .rules.messages import N_
from .screen import Notice, PickerTile, refusal_notice
from .store import Snapshot, StaleRevision
from .words import gettext, say

bp = Blueprint("fixes", __name__)


def fix_entries(snap: Snapshot, viewer: bool) -> list[dict[str, Any]]:
    """For the game log: the moves of the hand being played as they stand, each with the
    address of its fix page; none on a watch link, or once the hand is settled."""
    state = snap.state
    hand = state.hand
    if viewer or hand is None or not can_fix(state):
        return []
    names = state.options.players
    base = url_for("fixes.fix", game_id=snap.id, entry=0)[:-1]  # one URL built, not one a move
    return [
        {
            "number": number,
            "kind": move.kind,
            "text": say(words(move, names)),
            "points": move.points,
            "url": f"{base}{number}",
        }
        for number, move in enumerate(hand.moves, start=1)
    ]


@bp.get("/g/<game_id>/fix/<int:entry>")
def fix(game_id: str, entry: int) -> ResponseReturnValue:
    snapshot = store().get(game_id)
    return _page(snapshot, entry, request.args.get("tile", ""))


@bp.post("/g/<game_id>/fix/<int:entry>")
def apply_fix(game_id: str, entry: int) -> ResponseReturnValue:
    seq = request.form.get("seq", type=int)
    try:
        correction = Correct(entry, _chosen())
        after, outcome = store().apply(game_id, seq, correction)
    except StaleRevision as stale:
        notice = Notice("stale", say(stale.message))
        return _page(stale.current, entry, "", notice, status=409)
    except RuleError as refusal:
        notice = refusal_notice(refusal)
        return _page(store().get(game_id), entry, request.form.get("tile", ""), notice, 422)
    fixed = outcome.fixed
    tone = "stale" if fixed and fixed.dropped else "ok"
    session["notice"] = Notice(tone, say(outcome.message), next=say(outcome.next)).as_dict()
    return redirect(url_for("pages.game", game_id=after.id), 303)


def _chosen() -> tuple[Play | Draw | Pass, ...]:
    """What the form says the move really was."""
    what = request.form.get("what", "")
    if what == "play":
        tile = Tile.parse(request.form.get("tile", ""))
        end = request.form.get("end", "").strip()
        return (Play(tile, Arm.parse(end) if end else None),)
    if what == "draw":
        count = whole_number(request.form.get("count", ""), 2)
        if not count:
            raise IllegalAction("bad_draw", N_("draw a whole number of tiles, 1 or more"), "R6")
        return (Draw(count),)
    if what == "pass_play":  # it was the next player's tile: the one entered passed first
        tile = Tile.parse(request.form.get("tile", ""))
        end = request.form.get("end", "").strip()
        return (Pass(), Play(tile, Arm.parse(end) if end else None))
    if what == "pass":
        return (Pass(),)
    if what == "remove":
        return ()
    raise IllegalAction(
        "bad_correction", N_("say what the move really was: a tile, a draw or a pass")
    )


# --- the page ----------------------------------------------------------------------------------


def _page(
    snapshot: Snapshot,
    entry: int,
    tile_text: str,
    notice: Notice | None = None,
    status: int = 200,
) -> ResponseReturnValue:
    state = snapshot.state
    hand = state.hand
    if hand is None or not can_fix(state) or not 1 <= entry <= len(hand.moves):
        if notice is not None:  # stale: the move is gone from the game as it is now
            page = render_template(
                "error.html", title=gettext("Already changed"), message=notice.text
            )
            return page, status
        abort(
            404,
            gettext("There is no move %(entry)s to fix in the hand being played.", entry=entry),
        )
    names = state.options.players
    move = hand.moves[entry - 1]
    before = move.before
    chosen: Tile | None = None
    try:
        chosen = Tile.parse(tile_text) if tile_text else None
    except RuleError as refusal:
        notice = notice or refusal_notice(refusal)
    boneyard = hand.boneyard_before(entry)
    return render_template(
        "fix.html",
        snap=snapshot,
        state=state,
        entry=entry,
        total=len(hand.moves),
        number=hand.number,
        was=say(words(move, names)),
        was_kind=move.kind,
        before=before,
        drawing=draw_layout(before, None) if before.lead else None,
        who=names[move.seat],
        tiles=_tiles(move),
        tile=chosen,
        places=_places(state, entry, move, chosen) if chosen else [],
        draws=_draws(state, entry, boneyard),
        passing=_choice(state, Correct(entry, (Pass(),))),
        removing=_choice(state, Correct(entry, ())),
        boneyard=boneyard,
        notice=notice,
        to={"rules": url_for("pages.rules")},
        game_url=url_for("pages.game", game_id=snapshot.id),
        fix_url=url_for("fixes.fix", game_id=snapshot.id, entry=entry),
    ), status


def _tiles(move: Move) -> list[PickerTile]:
    """The picker as things stood just before ``move``: what was on the table, and where each
    tile would have fitted (R5) and for how many points (R11); before a lead, the leads that
    score."""
    before = move.before
    tiles = []
    for tile in DOUBLE_SIX:
        played = tile in set(before.tiles)
        places = () if played else before.placements(tile)
        best = max((p.points for p in places), default=0)
        fits = bool(places) and (before.lead is not None or best > 0)
        tiles.append(PickerTile(str(tile), played, fits, best))
    return tiles


def _places(state: GameState, entry: int, move: Move, tile: Tile) -> list[dict[str, Any]]:
    """Each end ``tile`` fitted just before ``move``, its points, and what fixing to it does."""
    found = []
    for place in move.before.placements(tile):
        lead = move.before.lead is None
        choice = _choice(state, Correct(entry, (Play(tile, place.arm),)))
        # R7: with the boneyard empty, the tile may have been the next player's.
        after_pass = _choice(state, Correct(entry, (Pass(), Play(tile, place.arm))))
        found.append(
            {
                "arm": place.arm.value if place.arm else "",
                "label": gettext("Lead it")
                if lead or place.arm is None
                else gettext("%(end)s end", end=end_label(place.arm)),
                "points": place.points,
                "breakdown": place.breakdown,
                **choice,
                "after_pass": after_pass if after_pass["allowed"] else None,
            }
        )
    return found


def _draws(state: GameState, entry: int, boneyard: int) -> list[dict[str, Any]]:
    """A draw of each count the boneyard held then, with what fixing to it does."""
    return [
        {"count": count, **_choice(state, Correct(entry, (Draw(count),)))}
        for count in range(1, min(boneyard, 28) + 1)
    ]


def _choice(state: GameState, correction: Correct) -> dict[str, Any]:
    """What ``correction`` would do, worked out on the game in memory (nothing stored)."""
    try:
        _after, outcome = state.apply(correction)
    except RuleError as refusal:
        return {"allowed": False, "effect": say(refusal.message), "rule": refusal.rule}
    fixed = outcome.fixed
    assert fixed is not None
    by = state.options.players[fixed.now[-1].seat] if fixed.now else None
    if fixed.dropped:
        effect = gettext(
            "move %(move)s would no longer fit: %(dropped)s taken back",
            move=fixed.stopped,
            dropped=len(fixed.dropped),
        )
    elif fixed.kept:
        effect = gettext("keeps every later move")
    else:
        effect = gettext("the last move")
    message = say(outcome.message)
    return {"allowed": True, "effect": effect, "message": message, "rule": None, "by": by}
