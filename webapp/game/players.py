"""The players' housekeeping, from More → *Players*: ``/g/<id>/players``, on the players' link
only. A name typed wrong is fixed (an action of the log, :class:`~webapp.rules.Rename`, checked
by the rules as names are when a game starts), and the game can be ended early with the scores
as they stand (:class:`~webapp.rules.EndGame`). Both are plain forms sent through the game's one
path for actions (:func:`~webapp.game.actions.act`), so they work without JavaScript, and Undo
on the game screen takes either back. A refusal shows this page again, with what was typed.

The game can be deleted too: not an action of its log but a tombstone on the game (the store's
``delete``). Its links then answer that it was deleted, with, on the players' link and for
``RESTORE_WINDOW``, the button that brings it back (``web.errors.deleted_page``).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import redirect, request, url_for
from flask.typing import ResponseReturnValue

from ..i18n.words import gettext, say
from ..rules import EndGame, RuleError, Status, from_dict
from ..rules.messages import Items
from ..rules.options import MAX_NAME_LENGTH
from ..store import RESTORE_WINDOW
from ..web.game import Table, remember, store
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
    restore_minutes: int  # how long a deleted game can be brought back


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


@bp.post("/g/<game_id>/delete")
def delete(table: Table) -> ResponseReturnValue:
    """Delete the game at once: its links now say so, and offer to bring it back for a while."""
    store().delete(table.key)
    return redirect(url_for(".screen"), 303)


@bp.post("/g/<game_id>/restore")
def restore(table: Table) -> ResponseReturnValue:
    """Bring a deleted game back (within ``RESTORE_WINDOW``), into this device's list again."""
    store().delete(table.key, delete=False)
    remember(table.key)
    return redirect(url_for(".screen"), 303)


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
        restore_minutes=RESTORE_WINDOW.seconds // 60,
    )
    return render_page("game/players.html", page), status
