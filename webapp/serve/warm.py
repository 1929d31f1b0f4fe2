"""A new server process warmed before its first request: every template compiled, then a game
played on a scratch database through the app itself (a page in each language, the static files
it loads, a play as a phone's htmx sends it, one through the JSON API, a poll that finds nothing
changed and one that finds the play), so that the first phone served does not wait for what is
done once per process: compiling templates and static files, loading catalogs and locale data,
the first use of each statement.

The play never reaches the real database: the app's store is swapped for one on a temporary
file for the while, and the requests come from a documentation address (192.0.2.1), counted
by no real client's rate limits.

Then the real games changed in the last hour, the most recent first (``ALLFIVES_WARM_GAMES``,
100 by default; 0: none), are read into the cache, each drawn as a phone's poll finds it moved
on: a server that starts again mid-evening serves the tables at play their next play as fast
as any later one, not after reading and replaying their game and drawing its screen anew. It
writes no action (a game read for the first time since its hand began may have the hand's
snapshot written, as its first request would); it stops at half the cache's budget and half a
second after it starts looking, and a game it cannot read is left for its first request.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..store import Store, open_store
from ..store.recent import recently_changed
from ..web.security import HOSTS

if TYPE_CHECKING:
    from flask import Flask
    from flask.testing import FlaskClient

STORE = "allfives_store"
WARMING = "192.0.2.1"  # TEST-NET-1 (RFC 5737): never a real client
SCRATCH_CACHE = 1 << 20
SAME_SITE = {"Sec-Fetch-Site": "same-origin", "Accept-Encoding": "gzip"}
HX = {**SAME_SITE, "HX-Request": "true"}
#: Plays (each after an undo) on the scratch game: Python specializes a function's code once it
#: has run it about eight times, so the first real plays run the specialized code.
PLAYS = 8
RECENT = timedelta(hours=1)  # the games read into the cache: changed this recently,
GAMES_BUDGET = 0.5  # for at most this many seconds


def warm(app: Flask, threads: int = 8) -> list[int]:
    """Compile every template, then play on a scratch database; the statuses answered (each
    200 or 201 when all went well: a warm-up that fails only leaves the process colder).
    Templates are compiled once per language (``web/pages.py``): every one here in the default
    language, as a request without a language of its own reads them; the game screen's in
    each language by its page, below. The real store's connections are made for the server's
    ``threads``, and the games in play read into its cache (``warm_games``)."""
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
            warm_games(app, app.config["WARM_GAMES"])  # (its setting checked at start)


def _client(app: Flask) -> FlaskClient:
    client = app.test_client()
    client.environ_base.update({"REMOTE_ADDR": WARMING, "HTTP_HOST": _host(app)})
    return client


def _play(app: Flask) -> list[int]:
    client = _client(app)
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
    for seq in range(4, 4 + 2 * PLAYS, 2):
        statuses.append(client.post(f"/g/{game}/undo", data={"seq": seq}, headers=HX).status_code)
        play = {"seq": str(seq + 1), "tile": "5-5", "hints": "0"}
        statuses.append(client.post(f"/g/{game}/play", data=play, headers=HX).status_code)
    return statuses


def warm_games(app: Flask, most: int) -> list[str]:
    """Read the real games changed in the last ``RECENT`` (at most ``most``, the most recent
    first) into the cache, each drawn as a phone's poll from the revision before finds it (its
    screen's regions, in the default language: the game's addresses and its kept pieces are
    ready for its next answers); the ids of those read. Bounded by half the cache's budget and by
    ``GAMES_BUDGET`` seconds; a database that cannot be read leaves them all to their first
    requests."""
    store: Store = app.extensions[STORE]
    until = time.monotonic() + GAMES_BUDGET  # (the look for them counted: a large table)
    try:
        recent = recently_changed(store, RECENT, most)
    except Exception:  # a game is read at its first request all the same
        return []
    client = _client(app)
    done = []
    for game, seq in recent:
        if time.monotonic() > until or store.cache.used > store.cache.budget // 2:
            break
        try:
            if seq > 0:
                read = _get(client, f"/g/{game}/poll?seq={seq - 1}", HX) == 200
            else:
                read = store.get(game).seq == 0
        except Exception:  # this game is read at its first request instead
            read = False
        if read:
            done.append(game)
    return done


def _get(client: FlaskClient, path: str, headers: dict[str, str]) -> int:
    with client.get(path, headers=headers) as response:  # a static file's: closed when read
        return response.status_code


def _host(app: Flask) -> str:
    """A Host the app answers to: the public address's, else the first allowed one."""
    public = urlsplit(str(app.config.get("PUBLIC_URL") or "")).netloc
    hosts: list[str] = app.extensions.get(HOSTS) or ["localhost"]
    return public or hosts[0].lstrip(".")
