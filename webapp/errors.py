"""Errors as players and programs should see them: never a stack trace."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, SecurityError

from . import present
from .rules import RuleError
from .store import GameNotFound, StaleRevision


class StartupError(Exception):
    """The app cannot start: one sentence saying what is wrong and what to do. The error it
    came from is its ``__cause__``."""


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def register(app: Flask) -> None:
    @app.errorhandler(RuleError)
    def refused(error: RuleError) -> ResponseReturnValue:
        if _wants_json():
            return jsonify({"error": error.as_dict()}), 422
        return render_template(
            "error.html", title="Not allowed", message=error.message, rule=error.rule
        ), 422

    @app.errorhandler(StaleRevision)
    def stale(error: StaleRevision) -> ResponseReturnValue:
        if not _wants_json():
            return render_template(
                "error.html", title="Already changed", message=error.message
            ), 409
        body = {
            "error": {"code": "stale_seq", "rule": None, "message": error.message},
            "state": present.game_data(error.current),
        }
        return jsonify(body), 409

    @app.errorhandler(GameNotFound)
    def missing(_error: GameNotFound) -> ResponseReturnValue:
        message = "There is no game at this address. Check the link, or start a new game."
        if _wants_json():
            return jsonify(
                {"error": {"code": "no_such_game", "rule": None, "message": message}}
            ), 404
        return render_template("error.html", title="No such game", message=message), 404

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        code = error.code or 500
        message = error.description or error.name
        if code == 413:
            message = "That request is too large."
        elif code == 429:
            message = (
                "Too many requests from this device in a short time. Nothing was changed: "
                "wait a minute, then try again."
            )
        elif isinstance(error, SecurityError):
            message = (
                "This server does not answer to that address. Use the address the players' "
                "link gives, or set ALLFIVES_PUBLIC_URL or ALLFIVES_ALLOWED_HOSTS on the server."
            )
        if _wants_json():
            body = {
                "error": {
                    "code": error.name.lower().replace(" ", "_"),
                    "rule": None,
                    "message": message,
                }
            }
            return jsonify(body), code
        return render_template("error.html", title=error.name, message=message), code

    @app.errorhandler(OperationalError)
    def unavailable(error: OperationalError) -> ResponseReturnValue:
        # The database went away or the disk filled: one line in the log, not a traceback.
        app.logger.error("database unavailable: %s", " ".join(str(error.orig).split()))
        message = "The game store is unavailable just now. Nothing was changed; try again soon."
        if _wants_json():
            return jsonify(
                {"error": {"code": "unavailable", "rule": None, "message": message}}
            ), 503
        return render_template("error.html", title="Try again soon", message=message), 503

    @app.errorhandler(Exception)
    def crashed(error: Exception) -> ResponseReturnValue:
        app.logger.exception("unhandled error", exc_info=error)
        message = "Something went wrong on our side. Nothing was changed; please try again."
        if _wants_json():
            return jsonify(
                {"error": {"code": "server_error", "rule": None, "message": message}}
            ), 500
        return render_template("error.html", title="Sorry", message=message), 500
