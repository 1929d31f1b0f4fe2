"""Errors as players and programs should see them: never a stack trace."""

from __future__ import annotations

import sqlite3

from flask import Flask, Response, jsonify, render_template, request
from flask.globals import request_ctx
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException

from . import present
from .limits import retry_after
from .rules import RuleError
from .store import GameNotFound, StaleRevision
from .words import gettext, refusal_data, say


def _first_and_last(error: BaseException) -> str:
    """The error that started it, then the one raised: a failed COMMIT is followed by a
    ROLLBACK that fails too, and the real cause is the first."""
    chain = [error]
    while (earlier := chain[-1].__cause__ or chain[-1].__context__) and len(chain) < 10:
        chain.append(earlier)
    said = [" ".join(str(getattr(e, "orig", None) or e).split())[:300] for e in chain]
    first, last = said[-1], said[0]
    return first if first == last else f"{first} (then, while undoing it: {last})"


class StartupError(Exception):
    """The app cannot start: one sentence saying what is wrong and what to do. The error it
    came from is its ``__cause__``."""


def _page(title: str, message: str, code: int, rule: str | None = None) -> ResponseReturnValue:
    """The error page; plain text when the request's Host header is too malformed for any
    URL (the page's links) to be built on it."""
    if request_ctx.url_adapter is None:
        return Response(f"{title}\n\n{message}\n", code, mimetype="text/plain")
    return render_template("error.html", title=title, message=message, rule=rule), code


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def register(app: Flask) -> None:
    @app.errorhandler(RuleError)
    def refused(error: RuleError) -> ResponseReturnValue:
        if _wants_json():
            # R7a: a refusal the table may overrule says so; send the action again with
            # "confirm": true to record it anyway.
            body = {**refusal_data(error), "confirmable": error.confirmable}
            return jsonify({"error": body}), 422
        return _page(gettext("Not allowed"), say(error.message), 422, error.rule)

    @app.errorhandler(StaleRevision)
    def stale(error: StaleRevision) -> ResponseReturnValue:
        if not _wants_json():
            return _page(gettext("Already changed"), say(error.message), 409)
        body = {
            "error": {"code": "stale_seq", "rule": None, "message": say(error.message)},
            "state": present.game_data(error.current),
        }
        return jsonify(body), 409

    @app.errorhandler(GameNotFound)
    def missing(_error: GameNotFound) -> ResponseReturnValue:
        message = gettext("There is no game at this address. Check the link, or start a new game.")
        if _wants_json():
            return jsonify(
                {"error": {"code": "no_such_game", "rule": None, "message": message}}
            ), 404
        return _page(gettext("No such game"), message, 404)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        code = error.code or 500
        title, message = _http_words(code, error)
        if _wants_json():
            body = {
                "error": {
                    "code": error.name.lower().replace(" ", "_"),
                    "rule": None,
                    "message": message,
                }
            }
            answer: ResponseReturnValue = (jsonify(body), code)
        else:
            answer = _page(title, message, code)
        if code != 429:
            return answer
        response = app.make_response(answer)
        response.headers["Retry-After"] = retry_after()
        return response

    @app.errorhandler(OperationalError)
    @app.errorhandler(sqlite3.OperationalError)
    def unavailable(error: Exception) -> ResponseReturnValue:
        # The database went away or the disk filled: one line in the log, not a traceback.
        app.logger.error("database unavailable: %s", _first_and_last(error))
        message = gettext(
            "The game store is unavailable just now. Nothing was changed; try again soon."
        )
        if _wants_json():
            return jsonify(
                {"error": {"code": "unavailable", "rule": None, "message": message}}
            ), 503
        return _page(gettext("Try again soon"), message, 503)

    @app.errorhandler(Exception)
    def crashed(error: Exception) -> ResponseReturnValue:
        app.logger.exception("unhandled error", exc_info=error)
        message = gettext(
            "Something went wrong on our side. Nothing was changed; please try again."
        )
        if _wants_json():
            return jsonify(
                {"error": {"code": "server_error", "rule": None, "message": message}}
            ), 500
        return _page(gettext("Sorry"), message, 500)


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
