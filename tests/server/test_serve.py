"""What ``allfives serve`` does to a process before it takes its first request, and what it
says once it listens."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from flask import Flask

from tests.tables import Table
from webapp.serve.cli import announcement


def test_a_served_process_compiles_every_template_before_its_first_request(app: Flask) -> None:
    """Compiled on demand, templates made each new worker's first plays wait 0.2 to 0.6 s."""
    from webapp.serve.cli import _warm

    names = app.jinja_env.list_templates(extensions=["html"])
    assert "game/_regions.html" in names and "game/_work.html" in names
    _warm(app)
    # Compiled once per language (web/pages.py): every one in the default language, as a
    # request without a language of its own reads them, and the game screen's in each.
    for language in app.config["LANGUAGES"]:
        cache = app.jinja_env.languages[language].cache
        assert cache is not None
        compiled = {key[1] for key in cache}  # keyed by (loader, name)
        if language == app.config["BABEL_DEFAULT_LOCALE"]:
            assert set(names) <= compiled
        assert {"game/game.html", "game/_regions.html", "game/_work.html"} <= compiled


def test_the_warm_up_plays_and_polls_on_a_scratch_database_not_the_real_one(
    app: Flask, table: Table
) -> None:
    """Before its first request a process plays a game through the app (a page in every
    language, each static file, an htmx play, polls, a play through the API), on a database of
    its own."""
    from webapp.serve.warm import warm

    table.create("Ana", "Ben")
    store = app.extensions["allfives_store"]
    before = store.revision(table.game_id)
    statuses = warm(app)
    files = len(list(Path(str(app.static_folder)).iterdir()))
    assert len(statuses) == 7 + len(app.config["LANGUAGES"]) + files
    assert set(statuses) <= {200, 201}, statuses
    assert app.extensions["allfives_store"] is store  # the real one again, and untouched
    assert store.revision(table.game_id) == before
    assert table.page().status_code == 200


def test_the_warm_up_makes_the_connections_the_servers_threads_read_with(
    app: Flask, table: Table
) -> None:
    """A new server's first requests, each on a thread of its own, read the game without
    waiting for a connection to be made: the warm-up made one for each of its threads."""
    from sqlalchemy import event

    from webapp.serve.warm import warm

    store = app.extensions["allfives_store"]
    if store.engine.dialect.name != "sqlite":
        pytest.skip(
            "threads read on connections of their own from a SQLite file; PostgreSQL's "
            "come from SQLAlchemy's pool"
        )
    table.create("Ana", "Ben")
    warm(app, threads=3)
    made: list[object] = []
    event.listen(store.engine, "connect", lambda connection, _record: made.append(connection))
    seen: list[int] = []

    def first_read() -> None:
        thread = threading.Thread(target=lambda: seen.append(store.revision(table.game_id)))
        thread.start()
        thread.join()

    for _ in range(3):
        first_read()
    assert seen == [0, 0, 0]
    assert made == [], "a thread's first read waited for a connection to be made"
    first_read()
    assert len(made) == 1  # (a thread more than the server has makes its own)


# --- what it says once it listens -----------------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost", "127.0.1.1"])
def test_on_loopback_it_says_this_machine_only_never_to_open_it_on_a_phone(host: str) -> None:
    """A phone's 127.0.0.1 is the phone itself: no phone, no QR code of a loopback address."""
    said = announcement(host, 8000)
    assert "on this machine only" in said
    assert "Open" not in said and "▀" not in said and "█" not in said


def test_on_every_interface_it_gives_the_network_address_to_open_on_a_phone() -> None:
    said = announcement("0.0.0.0", 8000, lan="192.168.1.20")
    assert said.startswith("All Fives is running. Open http://192.168.1.20:8000/ on a phone")
    assert said.count("\n") > 5  # the QR code of it
    no_network = announcement("0.0.0.0", 8000, lan="127.0.0.1")
    assert "no network address a phone could reach" in no_network and "▀" not in no_network


def test_behind_a_proxy_it_gives_the_public_address() -> None:
    said = announcement("127.0.0.1", 8000, public="https://fives.example.org")
    assert "players open https://fives.example.org" in said
    assert "127.0.0.1:8000" in said


def test_allfives_serve_on_loopback_prints_no_phone_address(tmp_path: Path) -> None:
    """The real command, as the README's public host runs it."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "webapp.serve.cli", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--db", str(tmp_path / "games.sqlite3")]
    env = {**os.environ, "ALLFIVES_SECRET_KEY": "test", "ALLFIVES_PUBLIC_URL": ""}
    with subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True) as server:
        stop = threading.Timer(60, server.kill)  # a server that never says anything fails
        stop.start()
        try:
            assert server.stdout is not None
            banner = server.stdout.readline()
        finally:
            stop.cancel()
            server.terminate()
    assert banner.startswith(f"All Fives is running at http://127.0.0.1:{port}/, on this machine")
    assert "phone on the same network" not in banner
