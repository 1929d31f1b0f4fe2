"""Fixing an earlier move of the hand, as a pencil would: ``/g/<id>/fix/<move>``.

The More sheet lists the current hand's moves as they stand, each with a *Fix* link. The fix
page shows the move as entered and the layout as it stood then, and lets the table say what
it really was: another tile (and its end, with the points, when several fit), a draw of
another count, a pass, or nothing at all. Each choice shows beforehand what the correction
would do to the later moves, as ``webapp.rules`` works it out (``Correct`` applied to the game
in memory, nothing stored); the POST stores it through the game's one path for actions
(:func:`~webapp.game.actions.act`). Every step is a link or a plain form: no JavaScript needed.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, render_template, request
from flask.typing import ResponseReturnValue

from ..i18n.words import gettext, say
from ..rules import Correct, Draw, GameState, Pass, Play, RuleError, Tile
from ..rules.correction import can_fix, words
from ..ui.labels import end_label
from ..ui.layouts import Picture
from ..ui.picker import picker_tiles
from ..web.game import Table
from . import bp
from .actions import Refused, act
from .notice import Notice, refusal_notice


@dataclass(frozen=True, slots=True)
class Effect:
    """What a correction would do, worked out on the game in memory (nothing stored)."""

    allowed: bool
    effect: str  # the later moves kept or taken back; or why the rules refuse it
    message: str = ""
    rule: str | None = None
    by: str | None = None  # who plays the tile after the correction


@dataclass(frozen=True, slots=True)
class FixPlace:
    """An end the chosen tile fitted before the move, and what fixing to it does."""

    arm: str
    label: str
    points: int
    breakdown: str
    effect: Effect
    after_pass: Effect | None  # R7: the tile was the next player's, the one entered passed


@dataclass(frozen=True, slots=True)
class FixDraw:
    count: int
    effect: Effect


@bp.route("/g/<game_id>/fix/<int:entry>", methods=["GET", "POST"])
def fix(table: Table, entry: int) -> ResponseReturnValue:
    tile_text = request.values.get("tile", "")
    refused: Refused = lambda notice, status: _page(table, entry, tile_text, notice, status)  # noqa: E731
    if request.method == "GET":
        return _page(table, entry, tile_text)
    form = request.form
    try:
        correction = Correct.parse(
            entry, form.get("what", ""), tile_text, form.get("end", ""), form.get("count", "")
        )
    except RuleError as refusal:
        return refused(refusal_notice(refusal), 422)
    return act(table, correction, refused)


def _page(
    table: Table, entry: int, tile_text: str, notice: Notice | None = None, status: int = 200
) -> ResponseReturnValue:
    state = table.state
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
    why_not = before.why_not(chosen) if chosen and chosen not in before.tiles else None
    return render_template(
        "game/fix.html",
        seq=table.seq,
        entry=entry,
        total=len(hand.moves),
        number=hand.number,
        was=say(words(move, names)),
        leading=before.lead is None,
        picture=Picture.of(before),
        who=names[move.seat],
        tiles=picker_tiles(before.tiles, before.placements, before.lead is None),
        tile=str(chosen) if chosen else None,
        on_table_then=chosen is not None and chosen in before.tiles,
        fitted_nowhere=say(why_not) if why_not else "",
        places=_places(state, entry, chosen) if chosen else (),
        draws=_draws(state, entry, boneyard),
        passing=_effect(state, Correct(entry, (Pass(),))),
        removing=_effect(state, Correct(entry, ())),
        boneyard=boneyard,
        notice=notice,
    ), status


def _places(state: GameState, entry: int, tile: Tile) -> tuple[FixPlace, ...]:
    """Each end ``tile`` fitted just before move ``entry``, its points, and what fixing to it
    does."""
    assert state.hand is not None
    before = state.hand.moves[entry - 1].before
    found = []
    for place in before.placements(tile):
        lead = before.lead is None or place.arm is None
        after_pass = _effect(state, Correct(entry, (Pass(), Play(tile, place.arm))))
        found.append(
            FixPlace(
                arm=place.arm.value if place.arm else "",
                label=gettext("Lead it")
                if lead or place.arm is None
                else gettext("%(end)s end", end=end_label(place.arm)),
                points=place.points,
                breakdown=place.breakdown,
                effect=_effect(state, Correct(entry, (Play(tile, place.arm),))),
                after_pass=after_pass if after_pass.allowed else None,
            )
        )
    return tuple(found)


def _draws(state: GameState, entry: int, boneyard: int) -> tuple[FixDraw, ...]:
    """A draw of each count the boneyard held then, with what fixing to it does."""
    return tuple(
        FixDraw(count, _effect(state, Correct(entry, (Draw(count),))))
        for count in range(1, min(boneyard, 28) + 1)
    )


def _effect(state: GameState, correction: Correct) -> Effect:
    """What ``correction`` would do, worked out on the game in memory (nothing stored)."""
    try:
        _after, outcome = state.apply(correction)
    except RuleError as refusal:
        return Effect(False, say(refusal.message), rule=refusal.rule)
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
    return Effect(True, effect, say(outcome.message), by=by)
