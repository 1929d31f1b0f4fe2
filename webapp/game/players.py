"""The players' housekeeping, from More → *Players*: ``/g/<id>/players``, on the players' link
only. A name typed wrong is fixed (an action of the log, :class:`~webapp.rules.Rename`, checked
by the rules as names are when a game starts), and the game can be ended early with the scores
as they stand (:class:`~webapp.rules.EndGame`). Both are plain forms sent through the game's one
path for actions (:func:`~webapp.game.actions.act`), so they work without JavaScript, and Undo
on the game screen takes either back. A refusal shows this page again, with what was typed.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import request
from flask.typing import ResponseReturnValue

from ..i18n.words import gettext, say
from ..rules import EndGame, RuleError, Status, from_dict
from ..rules.messages import Items
from ..rules.options import MAX_NAME_LENGTH
from ..web.game import Table
from ..web.pages import render_page
from . import bp
from .actions import Refused, act
from .notice import Notice, refusal_notice


@dataclass(frozen=True, slots=True)
class NameField:
    seat: int  # from 1, as the table counts
    name: str  # as the game knows the player now
    typed: str  # what the field holds: the name, or what was typed and refused


@dataclass(frozen=True, slots=True)
class PlayersPage:
    seq: int
    names: tuple[NameField, ...]
    longest: int
    open: bool  # the game is not over: names may change, and it may be ended
    ending: str  # what ending it now would do, in words ("" when it cannot be ended)
    why_not_end: str  # why it cannot be ended now ("" when it can)
    notice: Notice | None


@bp.get("/g/<game_id>/players")
def players(table: Table) -> ResponseReturnValue:
    return _page(table)


@bp.post("/g/<game_id>/rename")
def rename(table: Table) -> ResponseReturnValue:
    """A name typed wrong, fixed: the seat (from 0, as the log keeps it) and the new name."""
    seat = request.form.get("seat", type=int)
    name = request.form.get("name", "")
    refused: Refused = lambda notice, status: _page(table, notice, status, (seat, name))  # noqa: E731
    try:
        action = from_dict({"type": "rename", "seat": seat, "name": name})
    except RuleError as refusal:
        return refused(refusal_notice(refusal), 422)
    return act(table, action, refused)


@bp.post("/g/<game_id>/end")
def end_game(table: Table) -> ResponseReturnValue:
    """The table stops: the game ends with the scores as they stand (Undo takes it back)."""
    refused: Refused = lambda notice, status: _page(table, notice, status)  # noqa: E731
    return act(table, EndGame(), refused)


def _page(
    table: Table,
    notice: Notice | None = None,
    status: int = 200,
    typed: tuple[int | None, str] = (None, ""),
) -> ResponseReturnValue:
    state = table.state
    ending, why_not = "", ""
    try:
        ended, _ = state.apply(EndGame())
    except RuleError as refusal:
        why_not = refusal_notice(refusal).text
    else:
        names = tuple(ended.options.side_name(side) for side in ended.winners)
        if len(names) > 1:
            ending = gettext(
                "%(sides)s are level: it would be a tie.", sides=say(Items(names, "and"))
            )
        else:
            ending = gettext("%(side)s is ahead and would win.", side=names[0])
    seat, text = typed
    page = PlayersPage(
        seq=table.seq,
        names=tuple(
            NameField(number + 1, name, text if number == seat else name)
            for number, name in enumerate(state.options.players)
        ),
        longest=MAX_NAME_LENGTH,
        open=state.status is not Status.GAME_OVER,
        ending=ending,
        why_not_end=why_not,
        notice=notice,
    )
    return render_page("game/players.html", page), status
