"""The installable app: web app manifest, service worker (from the site root) and offline page.

The service worker (templates/sw.js) keeps the app's shell and static files so the game screen
opens when the network is slow or gone; its cache is named after a hash of the static files, so
a deploy that changes any of them replaces the cache. Plays made offline are not its business:
app.js keeps and re-sends them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Blueprint, Flask, current_app, jsonify, render_template, url_for
from flask.typing import ResponseReturnValue

from ..i18n.words import get_locale, gettext

bp = Blueprint("shell", __name__)

NAME = "All Fives"
FELT = "#17432f"
PAPER = "#f3f0e8"
SHELL_FILES = (
    "app.css",
    "pages.css",
    "app.js",
    "theme.js",
    "htmx-2.0.11.min.js",
    "htmx-ext-sse-2.2.4.min.js",
    "icon-192.png",
    "icon.svg",
)


def static_version(folder: str) -> str:
    """A short hash of every static file: it changes when any of them does."""
    digest = hashlib.sha256()
    for path in sorted(Path(folder).rglob("*")):
        if path.is_file():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@bp.get("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    icons = [
        {
            "src": url_for("static", filename=f"icon-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "any maskable",
        }
        for size in (192, 512)
    ]
    body = {
        "id": url_for("home.home"),
        "name": NAME,
        "short_name": NAME,
        "description": gettext("Score-keeping for All Fives dominoes, one phone at the table."),
        "start_url": url_for("home.home"),
        "scope": url_for("home.home"),
        "display": "standalone",
        "background_color": PAPER,
        "theme_color": FELT,
        "icons": icons,
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/sw.js")
def worker() -> ResponseReturnValue:
    version = current_app.extensions["allfives_static_version"]
    shell = {
        "static": [url_for("static", filename=name) for name in SHELL_FILES],
        "pages": [url_for("home.home"), url_for(".offline")],
    }
    static_prefix = url_for("static", filename="")
    body = render_template(
        "home/sw.js",
        version=version,
        shell=shell,
        offline_url=url_for(".offline"),
        static_prefix=static_prefix,
        # Pages are kept per language: base.html names the worker with the page's language,
        # so a device that switches gets a new worker whose page cache starts afresh.
        language=str(get_locale()),
    )
    # Always checked with the server, so a new version is seen on the next visit.
    headers = {"Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache"}
    return body, 200, headers


@bp.get("/offline")
def offline() -> ResponseReturnValue:
    return render_template("home/offline.html", title=gettext("Offline"))


def register(app: Flask) -> None:
    app.extensions["allfives_static_version"] = static_version(app.static_folder or "static")
    app.register_blueprint(bp)
