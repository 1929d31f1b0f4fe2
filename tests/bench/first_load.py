"""The bytes a phone downloads to open a game's screen for the first time (budget: 40,000).

:func:`first_load` starts a game through the JSON API of the client it is given, asks for its
screen as a phone's browser does (``Accept-Encoding: gzip``), then for every same-origin file
the screen makes the browser fetch as it opens: its stylesheets, its scripts and its icon
(``rel="icon"``). Each counts the bytes of its body as sent, gzip where the app sends gzip.
Not counted, because the first open does not wait for them: the home-screen icon
(``rel="apple-touch-icon"``, fetched when the page is added to a home screen), the manifest,
the service worker and what it keeps for later, and whatever a panel fetches when it is opened
(More, the share panel's QR codes).

Run it with ``python3 tests/bench/first_load.py``: it prints each file's bytes and the total.
It is not a test: pytest only imports it (``tests/web/test_compression.py`` holds the budget).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from webapp.i18n import COOKIE

BUDGET = 40_000
GZIP = {"Accept-Encoding": "gzip, deflate, br"}  # as a phone's browser asks


class _Loaded(HTMLParser):
    """The same-origin files a page's head makes the browser fetch as it opens."""

    def __init__(self) -> None:
        super().__init__()
        self.paths: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script":
            self._add(found.get("src"))
        elif tag == "link" and {"stylesheet", "icon"} & set((found.get("rel") or "").split()):
            self._add(found.get("href"))

    def _add(self, path: str | None) -> None:
        if path and path.startswith("/") and not path.startswith("//") and path not in self.paths:
            self.paths.append(path)


def _wire_bytes(client: FlaskClient, path: str) -> int:
    with client.get(path, headers=GZIP) as response:  # a file response: closed when read
        assert response.status_code == 200, (path, response.status_code)
        return len(response.get_data())


def first_load(
    client: FlaskClient, language: str | None = None, plays: Sequence[dict[str, Any]] = ()
) -> dict[str, int]:
    """The bytes on the wire of a freshly started game's screen and of each file it loads as it
    opens, path by path, the screen's path first.

    ``language`` is the one this device chose (its cookie; English if none); ``plays`` are
    actions entered through the JSON API after the hand starts (Ana leads), each as its body
    without ``seq``, e.g. ``{"type": "play", "player": "Ana", "tile": "5-5"}``: the screen is
    measured at that point of the hand."""
    if language is not None:
        client.set_cookie(COOKIE, language)
    created = client.post("/api/games", json={"players": ["Ana", "Ben", "Cy"]})
    assert created.status_code == 201, created.status_code
    game = created.json or {}
    seq = game["seq"]
    for action in ({"type": "start_hand", "starter": "Ana"}, *plays):
        answer = client.post(f"/api/games/{game['id']}/actions", json={"seq": seq, **action})
        assert answer.status_code == 200, (action, answer.status_code, answer.get_data()[:200])
        seq = (answer.json or {})["state"]["seq"]
    screen = f"/g/{game['id']}"
    sizes = {screen: _wire_bytes(client, screen)}
    loaded = _Loaded()
    loaded.feed(client.get(screen).get_data(as_text=True))
    for path in loaded.paths:
        sizes[path] = _wire_bytes(client, path)
    return sizes


def main() -> None:
    import tempfile

    from webapp import create_app

    with tempfile.TemporaryDirectory() as folder:
        config = {"DATABASE": f"sqlite:///{folder}/games.sqlite3", "SECRET_KEY": "first-load"}
        app = create_app(config)  # packed files kept in the instance folder, as served
        try:
            sizes = first_load(app.test_client())
        finally:
            app.extensions["allfives_store"].close()
    for path, size in sizes.items():
        print(f"{size:>8,}  {path}")
    total = sum(sizes.values())
    print(f"{total:>8,}  the game screen's first load, gzip (budget {BUDGET:,})")


if __name__ == "__main__":
    # Run as a script, this folder is on the path but not the repository.
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    main()
