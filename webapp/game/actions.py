"""The game's actions: every tap is a real form POST carrying the game's ``seq``.

Without JavaScript it redirects back to the game page, which shows the game's last outcome;
with htmx the answer is the regions that changed, already showing the outcome. Every action
of the game screen and of the fix page goes through :func:`act`, the one path from a form to
the store: an outcome, a refusal (with R7a's "record it anyway" where the table may overrule
it) or a stale submission are each answered one way. Which tiles fit where, points, rounding
and refusals all come from ``webapp.rules``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ..rules import (
    Action,
    Arm,
    CallTime,
    Draw,
    Pass,
    Play,
    RuleError,
    StartHand,
    Tile,
    Undo,
)
from ..store import StaleRevision
from ..web.game import Table, store
from ..web.htmx import is_htmx
from . import bp, screen, settling
from .notice import (
    Notice,
    last_notice,
    outcome_notice,
    refusal_notice,
    saved_notice,
    stale_notice,
)
from .regions import Entry
from .views import show

#: How a page answers a submission that changed nothing: with its notice and HTTP status.
Refused = Callable[[Notice, int], ResponseReturnValue]


def submitted_seq() -> int | None:
    return request.form.get("seq", type=int)


def act(
    table: Table,
    action: Action,
    refused: Refused,
    again: Mapping[str, str] | None = None,
    picker_shown: bool = False,
) -> ResponseReturnValue:
    """Store ``action`` if the game is still at the submitted revision; then show the game with
    its outcome: to htmx, the regions that changed from the game as the phone showed it
    (``picker_shown``: a tap on the picker as that game draws it). A refusal the table may
    overrule (R7a) offers to send the same form (``again``) with ``confirm=1``; a stale
    submission shows the game as it is now."""
    seq = submitted_seq()
    before = table.snapshot
    try:
        after, outcome = store().apply(before.id, seq, action, read=before)
    except StaleRevision as stale:
        table.moved_to(stale.current)
        if stale.resent:
            return shown(table, saved_notice(stale.current.state))
        return refused(stale_notice(stale), 409)
    except RuleError as refusal:
        confirm = (request.path, again) if refusal.confirmable and again is not None else None
        return refused(refusal_notice(refusal, confirm), 422)
    table.moved_to(after)
    if is_htmx():
        return show(table, outcome_notice(after, outcome), before=before, picker_shown=picker_shown)
    return redirect(url_for(".screen"), 303)


def shown(table: Table, notice: Notice) -> ResponseReturnValue:
    """The game with ``notice``: its regions to htmx, else a redirect after the POST to the
    game's page, which shows its last action's result (``notice.last_notice``)."""
    if is_htmx():
        return show(table, notice)
    return redirect(url_for(".screen"), 303)


def on_screen(table: Table, settle: Mapping[int, Entry] | None = None) -> Refused:
    """The game screen's answer to a submission that changed nothing: with htmx, a refusal
    changes only the notice (what was typed stays); a stale one shows the game as it is."""

    def answer(notice: Notice, status: int) -> ResponseReturnValue:
        if status == 422:
            return show(table, notice, settle=settle, status=status, regions=("notice",))
        return show(table, notice, status=status)

    return answer


# --- the actions ----------------------------------------------------------------------------------


@bp.post("/g/<game_id>/play")
def play(table: Table) -> ResponseReturnValue:
    """A tapped tile: played at once where it fits one place, mirror images counted once (or
    where the form says), else the table is asked which end. A tile that fits nowhere is sent to
    the rules all the same, which say why. The game read to find where the tile fits is the one
    the play is judged against."""
    seq = submitted_seq()
    answer = on_screen(table)
    try:
        tile = Tile.parse(request.form.get("tile", ""))
        end = request.form.get("end", "").strip()
        if end:
            return act(table, Play(tile, Arm.parse(end)), answer)
        places = table.state.places(tile) if seq == table.seq else ()
        if len(places) <= 1:  # (a stale tap is about an earlier layout: said before anything)
            play = Play(tile, places[0].arm if places else None)
            return act(table, play, answer, picker_shown=_picker_as_drawn(table))
    except RuleError as refusal:
        return answer(refusal_notice(refusal), 422)
    if not is_htmx():
        return redirect(url_for(".screen", choose=str(tile)), 303)
    # The question is said in the live region too; what it shows stays the last result.
    choice = screen.choice_of(tile, places)
    return show(table, last_notice(table.snapshot), choice=choice, regions=("notice", "work"))


def _picker_as_drawn(table: Table) -> bool:
    """Whether the tap came from the picker as this game draws it: its form says whether it
    showed the hints (another phone may have turned them on or off since)."""
    snapshot = table.snapshot
    return request.form.get("hints") == ("1" if snapshot.hints else "0")


@bp.post("/g/<game_id>/draw")
def draw(table: Table) -> ResponseReturnValue:
    try:
        action = Draw.parse(request.form.get("count", "1"), confirm=_confirmed())
    except RuleError as refusal:
        return on_screen(table)(refusal_notice(refusal), 422)
    return act(table, action, on_screen(table), again={"count": str(action.count)})


@bp.post("/g/<game_id>/pass")
def pass_turn(table: Table) -> ResponseReturnValue:
    return act(table, Pass(confirm=_confirmed()), on_screen(table), again={})


def _confirmed() -> bool:
    """R7a: the table insists on a draw or pass the record disproves ("Record it anyway")."""
    return request.form.get("confirm") == "1"


@bp.post("/g/<game_id>/time")
def call_time(table: Table) -> ResponseReturnValue:
    """R30: the table calls time: the highest side wins, or those tied at the top play on."""
    return act(table, CallTime(), on_screen(table))


@bp.post("/g/<game_id>/undo")
def undo(table: Table) -> ResponseReturnValue:
    return act(table, Undo(), on_screen(table))


@bp.post("/g/<game_id>/start")
def start(table: Table) -> ResponseReturnValue:
    # R21: the table may say nobody holds a double, so the leader it names leads any tile.
    no_double = request.values.get("no_double") == "1"
    try:
        action = StartHand.parse(request.form.get("leader", ""), no_double=no_double)
    except RuleError as refusal:
        return on_screen(table)(refusal_notice(refusal), 422)
    return act(table, action, on_screen(table))


@bp.post("/g/<game_id>/settle")
def settle(table: Table) -> ResponseReturnValue:
    """Settle the hand with what was entered: one confirmation, the preview shown as typed."""
    state = table.state
    entered = settling.entered(state)
    answer = on_screen(table, settle=entered)
    if submitted_seq() != table.seq:  # stale: nothing applied, unless it was this very one
        return act(table, settling.as_sent(state), answer)
    try:
        settlement = settling.reports(state, entered)
    except RuleError as refusal:
        return answer(refusal_notice(refusal), 422)
    return act(table, settlement, answer)


@bp.get("/g/<game_id>/settle/preview")
def settle_preview(table: Table) -> ResponseReturnValue:
    """What the settlement would do with what is typed so far (a GET: it changes nothing)."""
    state = table.state
    entered = settling.entered(state)
    preview, refusal = settling.preview(state, entered)
    notice = refusal_notice(refusal) if refusal else None
    if is_htmx():
        view = screen.build(table.snapshot, False, settle=entered, preview=preview)
        return render_template(
            "game/_settle_preview.html", screen=view, work=view.work, refusal=notice
        )
    return show(table, notice, settle=entered, preview=preview)
