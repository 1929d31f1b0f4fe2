"""The game screen followed live: ``/g/<id>/stream`` and ``/v/<id>/stream``, a stream of
Server-Sent Events carrying the screen's regions each time the game moves, rendered once per
look of the page and written to every follower (:mod:`webapp.web.followers`).

The page's poll (``#live``, ``views.poll``) stays: the page sends it while the stream has not
said hello (no JavaScript, a proxy that buffers, the stream refused or cut).
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask, current_app, g, request
from flask.testing import EnvironBuilder
from flask.typing import ResponseReturnValue

from ..i18n import COOKIE, language
from ..store.feed import GONE
from ..web.followers import HOLD, Followers, Look, Queued, opening
from ..web.game import Table, both_links, store
from ..web.security import CSRF_HEADER, FETCH_SITE, csrf_token
from . import bp, screen
from .notice import change_notice
from .views import TURNED, show

_MAKING = threading.Lock()


@both_links(bp, "/stream", endpoint="stream")
def stream(table: Table) -> ResponseReturnValue:
    """The game's changes from the revision the page shows (``Last-Event-ID`` when the browser
    reconnects, else ``?seq``), as long as the page stays open."""
    now = table.seq
    since = _since(now)
    look = Look(
        game_id=table.snapshot.id,
        key=table.key,
        viewer=table.viewer,
        language=language(),
        turned=request.cookies.get(TURNED) == "1",
        base_url=request.url_root,
    )
    followers = _followers(current_app._get_current_object())  # type: ignore[attr-defined]
    token = csrf_token()
    hold = request.environ.get(HOLD)
    if hold is not None:  # waitress: its loop holds the connection, no thread does
        sink = hold()
        follower = followers.follow(look, sink, since, now, token)
        sink.on_gone = lambda: followers.leave(follower)
        body = iter([opening(now, followers.beat)])
    else:  # any other server: a generator waits for the changes
        queued = Queued()
        follower = followers.follow(look, queued, since, now, token)
        body = queued.body(opening(now, followers.beat), lambda: followers.leave(follower))
    # A change heard between reading the game and the follower's joining went to the others
    # only (the change feed announces each revision once): ask once more now that it is in.
    try:
        latest = store().revision(table.key, table.viewer)
    except LookupError:  # deleted meanwhile: the page is told to load it again
        latest = GONE
    except BaseException:  # the database out: no stream (the page reconnects), no follower
        followers.leave(follower)
        raise
    if latest > now or latest == GONE:
        followers.changed(look.game_id, latest)
    response = current_app.response_class(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache, no-store"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _since(now: int) -> int:
    """The revision the page shows: what the browser last heard, or what the page was drawn at
    (a number that is no revision counts as the current one: nothing to catch up)."""
    for given in (request.headers.get("Last-Event-ID", ""), request.args.get("seq", "")):
        if given.isdigit() and len(given) < 10:
            return min(int(given), now)
    return now


def _followers(app: Flask) -> Followers:
    """This app's followers, made at the first stream."""
    with _MAKING:
        found = app.extensions.get("allfives_followers")
        if found is None:
            environs: dict[Look, dict[str, Any]] = {}  # only its followers' thread renders
            found = app.extensions["allfives_followers"] = Followers(
                app, store(), lambda look: render(app, look, environs)
            )
    return found


def render(
    app: Flask, look: Look, environs: dict[Look, dict[str, Any]] | None = None
) -> tuple[int, str]:
    """The screen's regions as a page with ``look`` would get them from its poll, now: its
    revision and HTML, its form token the followers' mark (each follower gets its own).
    ``environs`` keeps each look's request as made the first time: making it again cost 45 µs
    of every render, half of what the request context costs."""
    environ = environs.get(look) if environs is not None else None
    if environ is None:
        environ = _environ(app, look)
        if environs is not None:
            if len(environs) >= ENVIRONS_KEPT:
                environs.clear()
            environs[look] = environ
    with app.request_context(dict(environ)):
        g.table = table = Table(look.key, look.viewer)
        snapshot = table.snapshot
        notice = change_notice(snapshot, screen.next_step(snapshot.state, table.viewer))
        answer = show(table, notice)  # to htmx: (the regions, status)
        assert isinstance(answer, tuple)
        return snapshot.seq, str(answer[0])


ENVIRONS_KEPT = 4096  # looks whose request is kept: a club night's open screens, many times over


def _environ(app: Flask, look: Look) -> dict[str, Any]:
    """The request of a page with ``look`` asking for its regions, as a WSGI environ."""
    cookie = f"{COOKIE}={look.language}" + (f"; {TURNED}=1" if look.turned else "")
    mark = app.extensions["allfives_followers"].mark
    headers = {"HX-Request": "true", "Cookie": cookie, FETCH_SITE: "same-origin", CSRF_HEADER: mark}
    path = f"/{'v' if look.viewer else 'g'}/{look.key}/stream"
    builder = EnvironBuilder(app, path, base_url=look.base_url, headers=headers)
    try:
        return builder.get_environ()
    finally:
        builder.close()
