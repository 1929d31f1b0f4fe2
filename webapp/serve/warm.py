"""A new server process warmed before its first request: every template compiled, then a game
played on a scratch database through the app itself (a page in each language, the static files
it loads, a play as a phone's htmx sends it, one through the JSON API, a poll that finds nothing
changed and one that finds the play), so that the first phone served does not wait for what is
done once per process: compiling templates and static files, loading catalogs and locale data,
the first use of each statement.

The real database is not touched: the app's store is swapped for one on a temporary file for
the while, and the requests come from a documentation address (192.0.2.1), counted by no real
client's rate limits.
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..store import open_store
from ..web.security import HOSTS

if TYPE_CHECKING:
    from flask import Flask
    from flask.testing import FlaskClient

STORE = "allfives_store"
WARMING = "192.0.2.1"  # TEST-NET-1 (RFC 5737): never a real client
SCRATCH_CACHE = 1 << 20
SAME_SITE = {"Sec-Fetch-Site": "same-origin", "Accept-Encoding": "gzip"}
HX = {**SAME_SITE, "HX-Request": "true"}


def warm(app: Flask, threads: int = 8) -> list[int]:
    """Compile every template, then play on a scratch database; the statuses answered (each
    200 or 201 when all went well: a warm-up that fails only leaves the process colder).
    Templates are compiled once per language (``web/pages.py``): every one here in the default
    language, as a request without a language of its own reads them; the game screen's in
    each language by its page, below. The real store's connections are made for the server's
    ``threads``."""
    with app.test_request_context(headers={"Host": _host(app)}):
        for name in app.jinja_env.list_templates(extensions=["html"]):
            app.jinja_env.get_template(name)
    real = app.extensions[STORE]
    with tempfile.TemporaryDirectory(prefix="allfives-warm-") as folder:
        scratch = open_store(
            f"sqlite:///{Path(folder) / 'warm.sqlite3'}", cache_bytes=SCRATCH_CACHE
        )
        app.extensions[STORE] = scratch
        try:
            return _play(app)
        except Exception:  # warming is worth trying, never worth not starting
            return [500]
        finally:
            app.extensions[STORE] = real
            scratch.close()
            with contextlib.suppress(Exception):  # (else each is made at its first use)
                real.ready(threads)


def _play(app: Flask) -> list[int]:
    client = app.test_client()
    client.environ_base.update({"REMOTE_ADDR": WARMING, "HTTP_HOST": _host(app)})
    made = client.post("/api/games", json={"players": ["Ana", "Ben", "Cy"]}, headers=SAME_SITE)
    if made.status_code != 201:
        return [made.status_code]
    game = made.get_json()["id"]
    statuses = [made.status_code]
    start = {"seq": 0, "type": "start_hand", "leader": 0}
    statuses.append(client.post(f"/api/games/{game}/actions", json=start).status_code)
    for language in app.config["LANGUAGES"]:
        statuses.append(_get(client, f"/g/{game}", {**SAME_SITE, "Accept-Language": language}))
    for path in sorted(Path(str(app.static_folder)).iterdir()):  # each packed once per process
        statuses.append(_get(client, f"/static/{path.name}", SAME_SITE))  # (web/compress.py)
    play = {"seq": "1", "tile": "5-5", "hints": "0"}
    statuses.append(client.post(f"/g/{game}/play", data=play, headers=HX).status_code)
    statuses.append(_get(client, f"/g/{game}/poll?seq=2", HX))  # nothing changed
    statuses.append(_get(client, f"/g/{game}/poll?seq=1", HX))  # the play
    undo = {"seq": 2, "type": "undo"}
    statuses.append(client.post(f"/api/games/{game}/actions", json=undo).status_code)
    api_play = {"seq": 3, "type": "play", "tile": "5-5"}
    statuses.append(client.post(f"/api/games/{game}/actions", json=api_play).status_code)
    return statuses


def _get(client: FlaskClient, path: str, headers: dict[str, str]) -> int:
    with client.get(path, headers=headers) as response:  # a static file's: closed when read
        return response.status_code


def _host(app: Flask) -> str:
    """A Host the app answers to: the public address's, else the first allowed one."""
    public = urlsplit(str(app.config.get("PUBLIC_URL") or "")).netloc
    hosts: list[str] = app.extensions.get(HOSTS) or ["localhost"]
    return public or hosts[0].lstrip(".")
