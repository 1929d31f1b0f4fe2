"""Errors as players and programs should see them: never a stack trace."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from . import present
from .rules import RuleError
from .store import GameNotFound, StaleRevision


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def register(app: Flask) -> None:
    @app.errorhandler(RuleError)
    def refused(error: RuleError) -> ResponseReturnValue:
        if _wants_json():
            # R7a: a refusal the table may overrule says so; send the action again with
            # "confirm": true to record it anyway.
            body = {**error.as_dict(), "confirmable": error.confirmable}
            return jsonify({"error": body}), 422
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

    @app.errorhandler(Exception)
    def crashed(error: Exception) -> ResponseReturnValue:
        app.logger.exception("unhandled error", exc_info=error)
        message = "Something went wrong on our side. Nothing was changed; please try again."
        if _wants_json():
            return jsonify(
                {"error": {"code": "server_error", "rule": None, "message": message}}
            ), 500
        return render_template("error.html", title="Sorry", message=message), 500
