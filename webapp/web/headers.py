"""The headers every answer of the app carries, set in one pass after each request: what it
varies with (``Vary``), the security headers (``security.HEADERS``), that it is stored by
nobody (static files apart) and the reader's language (``Content-Language``).

They were set by three hooks, each reading ``Vary`` into a set and writing it back (werkzeug
lower-cases every header's name for each look-up): about as long as the rest of a "nothing
changed" answer. Here each header is looked up once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import request

from ..i18n.words import get_locale
from .security import HEADERS, HSTS, NO_STORE

if TYPE_CHECKING:
    from flask import Flask
    from flask.wrappers import Response
    from werkzeug.datastructures import Headers

# Any answer may come gzip or not (web/compress.py); htmx's regions and the whole page are two
# answers at one address (web/htmx.py); a page in another language, or another device's page
# (its cookie), another again.
VARY_STATIC = ("Accept-Encoding", "HX-Request")
VARY_PAGE = ("Accept-Encoding", "HX-Request", "Accept-Language", "Cookie")
_SECURE = tuple((name.lower(), name, value) for name, value in HEADERS.items())


def add_vary(headers: Headers, names: tuple[str, ...]) -> None:
    """``names`` added to ``Vary``, after any it names already (as ``response.vary`` would,
    without reading it into a set and writing it back for each)."""
    current = headers.get("Vary")
    if not current:
        headers["Vary"] = ", ".join(names)
        return
    named = {part.strip().lower() for part in current.split(",")}
    added = [name for name in names if name.lower() not in named]
    if added:
        headers["Vary"] = ", ".join((*(part.strip() for part in current.split(",")), *added))


def register(app: Flask) -> None:
    @app.after_request
    def answer_headers(response: Response) -> Response:
        static = request.endpoint == "static"
        headers = response.headers
        add_vary(headers, VARY_STATIC if static else VARY_PAGE)
        present = {name.lower() for name, _ in headers.items()}
        for lower, name, value in _SECURE:
            if lower not in present:
                headers.add(name, value)
        if not static and "cache-control" not in present:
            headers.add("Cache-Control", NO_STORE)  # a route may say otherwise (sw.js)
        if (request.is_secure or app.config["SESSION_COOKIE_SECURE"]) and (
            "strict-transport-security" not in present
        ):
            headers.add("Strict-Transport-Security", HSTS)  # HTTPS, or behind it
        if not static:
            headers["Content-Language"] = str(get_locale()).replace("_", "-")
        return response
