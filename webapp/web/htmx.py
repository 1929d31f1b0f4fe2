"""htmx requests: told apart in one place, and every answer marked as varying with them.

An htmx request (``HX-Request: true``) gets only the regions that changed, swapped into
place out of band; a plain request (no JavaScript) gets the whole page, or a redirect after
a form. A cache must not give one the other's answer, hence ``Vary: HX-Request``.
"""

from __future__ import annotations

from flask import Flask, request
from flask.wrappers import Response


def is_htmx() -> bool:
    """The one place that tells an htmx request from a plain one."""
    return request.headers.get("HX-Request") == "true"


def register(app: Flask) -> None:
    @app.after_request
    def vary(response: Response) -> Response:
        response.vary.add("HX-Request")
        return response
