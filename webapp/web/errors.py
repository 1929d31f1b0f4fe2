"""Errors as players and programs should see them: never a stack trace.

One answer for each kind of error, a page for a player or JSON for a script (the API's
paths): :func:`json_error` is the one JSON error body, ``{"error": {"code", "rule",
"message"}}``; :func:`error_page` the one error page."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping

from flask import Flask, Response, jsonify, render_template, request
from flask.globals import request_ctx
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from ..i18n.words import gettext, ngettext, say
from ..rules import RuleError
from ..store import CircleNotFound, GameDeleted, GameNotFound, StaleRevision, out_of_reach
from ..store.schema import utcnow
from .htmx import is_htmx
from .limits import retry_after

# Seconds a client is asked to wait while the database is out of reach: a PostgreSQL restart
# or a SQLite lock passes in a few. (The phone sends a kept tap again every 3 s anyway.)
OUTAGE_RETRY_AFTER = "5"


def _first_and_last(error: BaseException) -> str:
    """The error that started it, then the one raised: a failed COMMIT is followed by a
    ROLLBACK that fails too, and the real cause is the first."""
    chain = [error]
    while (earlier := chain[-1].__cause__ or chain[-1].__context__) and len(chain) < 10:
        chain.append(earlier)
    said = [" ".join(str(getattr(e, "orig", None) or e).split())[:300] for e in chain]
    # Left out: errors that say nothing (the pool's own signal to reconnect prints as "()").
    said = [text for text in said if text.strip("() ")] or said[:1]
    first, last = said[-1], said[0]
    return first if first == last else f"{first} (then, while undoing it: {last})"


def json_error(
    status: int,
    code: str,
    message: str,
    rule: str | None = None,
    *,
    details: Mapping[str, object] | None = None,
    beside: Mapping[str, object] | None = None,
) -> ResponseReturnValue:
    """The JSON API's error: ``{"error": {"code", "rule", "message", …details}, …beside}`` and
    ``status``."""
    error = {"code": code, "rule": rule, "message": message, **(details or {})}
    return jsonify({"error": error, **(beside or {})}), status


def error_page(title: str, message: str, code: int, rule: str | None = None) -> ResponseReturnValue:
    """The error page; plain text when the request's Host header is too malformed for any
    URL (the page's links) to be built on it."""
    if request_ctx.url_adapter is None:
        return Response(f"{title}\n\n{message}\n", code, mimetype="text/plain")
    return render_template("error.html", title=title, message=message, rule=rule), code


def deleted_page(error: GameDeleted) -> ResponseReturnValue:
    """A deleted game's links: ``410 Gone``, saying so; on the players' link, for a while, with
    the way to bring it back (a form with this device's token)."""
    message = gettext("This game was deleted.")
    until = error.restore_until.isoformat(timespec="seconds") + "Z" if error.restorable else None
    if _wants_json():
        return json_error(410, "deleted", message, details={"restore_until": until})
    left = ""
    if error.restorable:
        minutes = max(1, -(-int((error.restore_until - utcnow()).total_seconds()) // 60))
        left = ngettext(
            "It can be brought back for %(num)s more minute.",
            "It can be brought back for %(num)s more minutes.",
            minutes,
        )
    page = render_template("deleted.html", message=message, left=left, game_id=error.game_id)
    # A screen following the game (its poll, a tap) reloads, to show this page whole.
    return page, 410, {"HX-Refresh": "true"} if is_htmx() else {}


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _either(
    status: int,
    code: str,
    title: str,
    message: str,
    rule: str | None = None,
    details: Mapping[str, object] | None = None,
) -> ResponseReturnValue:
    """The JSON error for the API's paths, the error page for every other."""
    if _wants_json():
        return json_error(status, code, message, rule, details=details)
    return error_page(title, message, status, rule)


def register(app: Flask) -> None:
    @app.errorhandler(RuleError)
    def refused(error: RuleError) -> ResponseReturnValue:
        # R7a: a refusal the table may overrule says so; send the action again with
        # "confirm": true to record it anyway.
        return _either(
            422,
            error.code,
            gettext("Not allowed"),
            say(error.message),
            error.rule,
            {"confirmable": error.confirmable},
        )

    @app.errorhandler(StaleRevision)
    def stale(error: StaleRevision) -> ResponseReturnValue:
        return _either(409, "stale_seq", gettext("Already changed"), say(error.message))

    @app.errorhandler(GameNotFound)
    def missing(_error: GameNotFound) -> ResponseReturnValue:
        message = gettext("There is no game at this address. Check the link, or start a new game.")
        return _either(404, "no_such_game", gettext("No such game"), message)

    @app.errorhandler(GameDeleted)
    def deleted(error: GameDeleted) -> ResponseReturnValue:
        return deleted_page(error)

    @app.errorhandler(CircleNotFound)
    def no_circle(_error: CircleNotFound) -> ResponseReturnValue:
        message = gettext("There is no circle at this address. Check the link.")
        return _either(404, "no_such_circle", gettext("No such circle"), message)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        code = error.code or 500
        title, message = _http_words(code, error)
        answer = _either(code, error.name.lower().replace(" ", "_"), title, message)
        if code != 429:
            return answer
        response = app.make_response(answer)
        response.headers["Retry-After"] = retry_after()
        return response

    said = _OutageLog(app.logger)

    @app.errorhandler(Exception)
    def crashed(error: Exception) -> ResponseReturnValue:
        if out_of_reach(app.extensions["allfives_store"].engine, error):
            # The database went away, is restarting, locked or on a full disk: a 503, after
            # which the phone sends its tap again, and a line in the log, not a traceback.
            said.unavailable(error)
            message = gettext(
                "The game store is unavailable just now. Nothing was changed; try again soon."
            )
            answer = _either(503, "unavailable", gettext("Try again soon"), message)
            response = app.make_response(answer)
            response.headers["Retry-After"] = OUTAGE_RETRY_AFTER
            return response
        app.logger.exception("unhandled error", exc_info=error)
        message = gettext(
            "Something went wrong on our side. Nothing was changed; please try again."
        )
        return _either(500, "server_error", gettext("Sorry"), message)


class _OutageLog:
    """Lines about a database out of reach: the first at once, then at most one every
    ``EVERY`` seconds while it lasts, counting the requests refused since the last line (an
    outage under load refused hundreds a second, each with a traceback)."""

    EVERY = 10.0

    def __init__(self, logger: logging.Logger) -> None:
        self.logger = logger
        self.lock = threading.Lock()
        self.quiet_until = 0.0
        self.unsaid = 0

    def unavailable(self, error: BaseException) -> None:
        now = time.monotonic()
        with self.lock:
            if now < self.quiet_until:
                self.unsaid += 1
                return
            unsaid, self.unsaid, self.quiet_until = self.unsaid, 0, now + self.EVERY
        more = f" ({unsaid} more refused since the last line)" if unsaid else ""
        self.logger.error("database unavailable: %s%s", _first_and_last(error), more)


def _http_words(code: int, error: HTTPException) -> tuple[str, str]:
    """An HTTP error's title and sentence in the reader's language. Our own ``abort(code,
    sentence)`` calls pass a sentence already said; Werkzeug's stock descriptions are replaced
    for the errors a player meets."""
    stock = {
        400: (gettext("Bad request"), gettext("The request could not be understood.")),
        403: (gettext("Forbidden"), gettext("This link cannot change the game.")),
        404: (gettext("Not found"), gettext("There is nothing at this address.")),
        405: (gettext("Not allowed"), gettext("This address does not take that kind of request.")),
        413: (gettext("Too large"), gettext("That request is too large.")),
        429: (
            gettext("Too many requests"),
            gettext(
                "Too many requests from this device in a short time. Nothing was changed: "
                "wait a minute, then try again."
            ),
        ),
    }
    title, sentence = stock.get(code, (error.name, error.description or error.name))
    own = type(error).description
    if error.description and error.description != own and code not in (413, 429):
        sentence = error.description  # a sentence of ours, said where it was raised
    return title, sentence
