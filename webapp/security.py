"""Who may change what: security headers on every response, CSRF checks on every form.

Pages carry no inline script or style, so the Content-Security-Policy can forbid both. Every
state-changing form carries a per-device token (htmx sends it as a header); the JSON API takes
only JSON bodies, which a cross-site form cannot send.
"""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, abort, request, session
from flask.wrappers import Response

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # game links must not leak to other sites
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def csrf_token() -> str:
    """This device's token, made on first use and kept in its signed session cookie."""
    token = session.get(CSRF_FIELD)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session[CSRF_FIELD] = token
    return token


def register(app: Flask) -> None:
    app.jinja_env.globals["csrf_token"] = csrf_token

    @app.before_request
    def check_csrf() -> None:
        if request.method not in UNSAFE_METHODS or request.path.startswith(("/api/", "/v/")):
            return  # the API takes only JSON; a watch link changes nothing and says so (403)
        if app.config.get("CSRF_DISABLED"):
            return
        sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD, "")
        expected = session.get(CSRF_FIELD)
        if not isinstance(expected, str) or not hmac.compare_digest(sent, expected):
            abort(
                400,
                "This page was out of date, so nothing was changed. "
                "Go back, reload the page and try again.",
            )

    @app.after_request
    def secure_headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response
