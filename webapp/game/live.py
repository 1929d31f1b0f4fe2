"""The "nothing changed" answer to a screen that follows a game: every open screen asks every
2 s, and nearly always nothing changed.

Such a poll (``GET /g/<id>/poll?seq=N`` or ``/v/<view id>/poll?seq=N`` with ``N`` the game's
revision now) is answered before the app's per-request work (the request context, the rate
limits, the language, the session, compression): one read of the game's revision and a short
``200`` with ``Content-Length: 0``. Not a ``204`` or ``304``: waitress closes the connection
after either, so each phone would open a new one every 2 s. Anything else (a changed game, an
unknown one, a database that does not answer, a Host the app does not answer to) goes on to
the app, which answers it as any request (``views.poll``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..web.game import store_of
from ..web.security import answers_host, plain_headers

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment
    from flask import Flask

POLL = re.compile(r"/([gv])/([A-Za-z0-9_-]{1,32})/poll")
ASKED = re.compile(r"seq=(\d{1,9})")
NOTHING = b""


def register(app: Flask) -> None:
    """Answer the polls that find nothing changed in front of ``app``'s WSGI application."""
    app.wsgi_app = unchanged_polls(app, app.wsgi_app)  # type: ignore[method-assign,assignment]


def unchanged_polls(app: Flask, inner: WSGIApplication) -> WSGIApplication:
    def answer(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        asked = _asked(environ)
        if asked is not None and answers_host(app, environ.get("HTTP_HOST", "")):
            key, by_view, revision = asked
            if _revision(app, key, by_view) == revision:
                headers = [
                    *plain_headers(app, environ.get("wsgi.url_scheme") == "https"),
                    ("Content-Type", "text/html; charset=utf-8"),
                    ("Content-Length", "0"),
                    ("ETag", f'"{revision}"'),
                    ("Vary", "HX-Request, Accept-Encoding"),
                ]
                start_response("200 OK", headers)
                return [NOTHING]
        return inner(environ, start_response)

    return answer


def _asked(environ: WSGIEnvironment) -> tuple[str, bool, int] | None:
    """A poll's game key, whether it is the watch link's, and the revision its screen shows;
    None for any other request."""
    if environ.get("REQUEST_METHOD") != "GET":
        return None
    path = POLL.fullmatch(environ.get("PATH_INFO", ""))
    asked = ASKED.fullmatch(environ.get("QUERY_STRING", ""))
    if path is None or asked is None:
        return None
    return path[2], path[1] == "v", int(asked[1])


def _revision(app: Flask, key: str, by_view: bool) -> int | None:
    """The game's revision; None when the app should answer (no such game, or the database
    does not answer: the app says so, and counts it, as for any request)."""
    try:
        return store_of(app).revision(key, by_view)
    except Exception:  # answered by the app instead, which handles each one
        return None
