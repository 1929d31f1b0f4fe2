"""The game screen: the page by the players' link and by the watch link, following changes
made on other phones, the More sheet, and the screen's settings (learning mode, hints, the
layout turned), none of which is a game action.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ..i18n.words import gettext
from ..rules import RuleError, Status, Tile
from ..store import Snapshot
from ..web.game import Table, both_links, create_game, remember, store
from ..web.htmx import is_htmx
from ..web.limits import creating, game_pages, heavy
from . import bp, screen, settling
from .delta import Delta, changed
from .more import more_of, share_links
from .notice import Notice, change_notice, last_notice
from .regions import Choice, Entry, Preview

ALL_REGIONS = ("scores", "board", "notice", "work", "controls", "live")
# This phone's choice to draw the layout as seen from across the table: a cookie of its own,
# so that showing a play needs no session.
TURNED = "turned"
#: The templates' indentation and blank lines: the game screen is sent without them (HTML reads a
#: line break as it reads a line break and spaces; the screen has no <pre> nor <textarea>), about
#: 2% of its bytes on every first load.
_INDENTS = re.compile(r"\n\s+")


@both_links(bp, "", endpoint="screen", methods=["GET"])
@game_pages
def game_screen(table: Table) -> ResponseReturnValue:
    """The game, with its last action's result until the next action (after a reload too)."""
    snapshot = table.snapshot
    if table.viewer:
        return show(table, change_notice(snapshot, screen.next_step(snapshot.state, True)))
    remember(snapshot.id)
    return show(table, last_notice(snapshot), choice=_asked_choice(table))


@both_links(bp, "/poll", endpoint="poll")
def poll(table: Table) -> ResponseReturnValue:
    """Follow changes made on other phones: an empty answer while the game is where this page
    left it (nearly always answered before the app, by ``live.unchanged_polls``)."""
    revision = store().revision(table.key, table.viewer)
    if request.args.get("seq", type=int) == revision:
        response = current_app.response_class(b"", status=200)
        response.set_etag(str(revision))
        return response
    if not is_htmx():
        return redirect(url_for(".screen"))
    snapshot = table.snapshot
    return show(table, change_notice(snapshot, screen.next_step(snapshot.state, table.viewer)))


@both_links(bp, "/more", endpoint="more")
@heavy
def more(table: Table) -> ResponseReturnValue:
    """The game's log, audits and dispute links, loaded when the "More" sheet opens, with the
    keys' list for the players' screen (not in every page: keys need this script anyway);
    without JavaScript, a page of its own."""
    sheet = _sheet(table)
    if is_htmx():
        more = more_of(table)
        return render_template(
            "game/_more_live.html", more=more, keys_list_too=not table.viewer, sheet_too=sheet
        )
    return render_template("game/more.html", more=more_of(table), sheet=sheet)


def _sheet(table: Table) -> dict[str, Any]:
    """What More's content brings besides the log: this game's settings (not on a watch link,
    nor once the game is over), the share links (not on a watch link) and the language menu,
    coming back to the game screen. Not in every game screen: its first load stays small, and
    these are a tap away, not part of a play."""
    back = request.path.removesuffix("/more")  # the game screen the sheet is part of
    if table.viewer:
        return {"settings": None, "share": None, "back": back}
    snapshot = table.snapshot
    settings = None
    if snapshot.state.status is not Status.GAME_OVER:
        settings = {
            "learning": snapshot.learning,
            "coaching": snapshot.hints,
            "turned": request.cookies.get(TURNED) == "1",
        }
    return {"settings": settings, "share": share_links(table), "back": back}


@bp.post("/v/<view_id>")
@bp.post("/v/<view_id>/<path:_anything>")
def watch_only(table: Table, _anything: str = "") -> ResponseReturnValue:
    table.snapshot  # noqa: B018 - a friendly 404 for a link that is no game at all
    message = gettext(
        "This is the view-only link of a game: it shows the game live but cannot change it. "
        "Ask the players for the edit link to enter plays."
    )
    return render_template("error.html", title=gettext("View only"), message=message), 403


def _asked_choice(table: Table) -> Choice | None:
    """Without JavaScript a tile that fits several ends comes back as ``?choose=6-4``: a GET,
    so reloading the question never resubmits anything."""
    asked = request.args.get("choose", "")
    state = table.state
    if not asked or state.status is not Status.PLAYING:
        return None
    try:
        tile = Tile.parse(asked[:5])
    except RuleError:
        return None
    places = state.places(tile)
    return screen.choice_of(tile, places) if len(places) > 1 else None


# --- the screen's settings ------------------------------------------------------------------------


@bp.post("/g/<game_id>/again")
@creating
def again(table: Table) -> ResponseReturnValue:
    options = table.state.options
    circle = store().circles.circle_of(table.snapshot.id)  # play again stays in the circle
    snapshot = create_game(
        list(options.players),
        options.partnership,
        options.rules_dict(),
        circle.id if circle is not None else None,
    )
    return redirect(url_for(".screen", game_id=snapshot.id), 303)


@bp.post("/g/<game_id>/coaching")
def coaching(table: Table) -> ResponseReturnValue:
    """The picker's hints (what fits, what scores) on or off: a setting, not a game action."""
    store().set_screen(table.key, "coaching", request.form.get("on") == "1")
    return redirect(url_for(".screen"), 303)


@bp.post("/g/<game_id>/learning")
def learning(table: Table) -> ResponseReturnValue:
    """Learning mode on or off: every play explained by its rules, the tiles that fit shown."""
    store().set_screen(table.key, "learning", request.form.get("on") == "1")
    return redirect(url_for(".screen"), 303)


@bp.post("/g/<game_id>/turn")
def turn_board(table: Table) -> ResponseReturnValue:
    """Draw the layout as seen from the other side of the table, on this phone only."""
    table.snapshot  # noqa: B018 - a friendly 404 for a link that is no game at all
    on = request.form.get("on") == "1"
    response = redirect(url_for(".screen"), 303)
    response.set_cookie(
        TURNED,
        "1" if on else "",
        max_age=current_app.permanent_session_lifetime if on else 0,
        secure=current_app.session_interface.get_cookie_secure(current_app),
        httponly=True,
        samesite="Lax",
    )
    return response


# --- rendering ------------------------------------------------------------------------------------


def show(
    table: Table,
    notice: Notice | None = None,
    *,
    choice: Choice | None = None,
    settle: Mapping[int, Entry] | None = None,
    preview: Preview | None = None,
    status: int = 200,
    regions: tuple[str, ...] = ALL_REGIONS,
    before: Snapshot | None = None,
    picker_shown: bool = False,
) -> ResponseReturnValue:
    """The game screen; to htmx, only ``regions``, each swapped into place out of band, and of
    those only the ones that differ from ``before``, the game as the phone showed it when it
    sent the action that made this one (``delta.changed``; ``picker_shown``: it was tapped on
    the picker as ``before`` draws it)."""
    snapshot = table.snapshot
    if settle is None and snapshot.state.status is Status.HAND_OVER and not table.viewer:
        settle = settling.entered(snapshot.state)
        if not snapshot.state.options.variant.counts_pips:  # R28: nothing to wait for
            preview = preview or settling.preview(snapshot.state, settle)[0]
    turned = request.cookies.get(TURNED) == "1"
    ends = store().clock_ends(snapshot)
    view = screen.build(
        snapshot, table.viewer, notice, choice, settle, preview, turned=turned, clock_ends=ends
    )
    if is_htmx():
        delta = Delta(regions)
        if before is not None and regions == ALL_REGIONS:
            delta = changed(screen.shown(before, table.viewer, picker_shown, ends), view)
        return render_template("game/_regions.html", screen=view, delta=delta), status
    more = more_of(table, built=False)  # the log and audits come when the sheet is opened
    page = _INDENTS.sub("\n", render_template("game/game.html", screen=view, more=more))
    return page, status
