"""What ``allfives serve`` does to a process before it takes its first request, and what it
says once it listens."""

from __future__ import annotations

import gc
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import text

from tests.tables import Table
from webapp.config import StartupError
from webapp.serve.cli import announcement
from webapp.store.schema import utcnow


def test_a_served_process_compiles_every_template_before_its_first_request(app: Flask) -> None:
    """Compiled on demand, templates made each new worker's first plays wait 0.2 to 0.6 s."""
    from webapp.serve.cli import _warm

    names = app.jinja_env.list_templates(extensions=["html"])
    assert "game/_regions.html" in names and "game/_work.html" in names
    try:
        _warm(app)
        # What the start made is out of the collector's sight: a full collection, which
        # walked it all (about 60 ms) in the middle of a request, now walks what requests made.
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()
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
    from webapp.serve.warm import PLAYS, warm

    table.create("Ana", "Ben")
    store = app.extensions["allfives_store"]
    before = store.revision(table.game_id)
    statuses = warm(app)
    files = len(list(Path(str(app.static_folder)).iterdir()))
    assert len(statuses) == 7 + len(app.config["LANGUAGES"]) + files + 2 * PLAYS
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


# --- the games in play, read before the first request -----------------------------------------


def _played(app: Flask, table: Table, plays: int = 2) -> str:
    """A game of Ana, Ben and Cy with its first hand started and ``plays`` leads and undos."""
    table.create("Ana", "Ben", "Cy")
    table.start(0)
    for _ in range(plays):
        assert table.play("5-5").status_code in (200, 303)
        table.undo()
    return table.game_id


def test_a_game_played_just_before_a_restart_is_in_the_new_servers_cache(
    make_app: Callable[..., Flask], app: Flask, table: Table
) -> None:
    """A server that starts again mid-evening has read the tables' games before its first
    request: the next play of each finds its game kept at the revision it is at, not read
    and replayed from the log; an older or deleted game is left to its first request."""
    from webapp.serve.warm import warm
    from webapp.store import Part

    played = _played(app, table)
    seq = app.extensions["allfives_store"].revision(played)
    other = Table(app, table.client)
    other.create("Di", "Ed")
    gone = Table(app, table.client)
    gone.create("Fe", "Gi")
    app.extensions["allfives_store"].delete(gone.game_id)
    with app.extensions["allfives_store"].engine.begin() as db:  # played two hours ago
        db.execute(
            text("UPDATE games SET updated_at = :then WHERE id = :id"),
            {"then": utcnow() - timedelta(hours=2), "id": other.game_id},
        )

    restarted = make_app()
    cache = restarted.extensions["allfives_store"].cache
    assert cache.get(played, Part.BOOK) is None
    warm(restarted)
    assert cache.at(played, Part.BOOK, seq) is not None
    assert cache.get(other.game_id, Part.BOOK) is None
    assert cache.get(gone.game_id, Part.BOOK) is None
    assert restarted.extensions["allfives_store"].revision(played) == seq  # nothing written


def test_the_warm_up_leaves_every_row_of_the_real_database_as_it_was(
    make_app: Callable[..., Flask], app: Flask, table: Table
) -> None:
    """However much of the real database a new server reads before it serves, it leaves every
    game, event and snapshot as it found them."""
    from webapp.serve.warm import warm
    from webapp.store.schema import Base

    _played(app, table)
    Table(app, table.client).create("Di", "Ed")

    def rows() -> dict[str, list[tuple[object, ...]]]:
        engine = app.extensions["allfives_store"].engine
        with engine.connect() as db:
            return {
                name: sorted(map(tuple, db.execute(each.select())), key=repr)
                for name, each in Base.metadata.tables.items()
            }

    before = rows()
    restarted = make_app()
    warm(restarted)
    restarted.extensions["allfives_store"].close()
    assert rows() == before


def test_the_games_read_before_serving_are_bounded_by_their_setting(
    make_app: Callable[..., Flask], app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ALLFIVES_WARM_GAMES`` bounds how many games are read, the most recent first (0: none);
    and however many there are, the reading stops after its time."""
    from webapp.serve import warm
    from webapp.store import Part

    games = []
    for names in (("Ana", "Ben"), ("Cy", "Di"), ("Ed", "Fe")):
        made = Table(app, table.client)
        made.create(*names)
        made.start(0)
        games.append(made.game_id)
    newest = games[-1]
    restarted = make_app(WARM_GAMES="1")
    assert restarted.config["WARM_GAMES"] == 1
    assert warm.warm_games(restarted, 1) == [newest]
    assert warm.warm_games(make_app(), 0) == []
    monkeypatch.setattr(warm, "GAMES_BUDGET", -1.0)  # its time is up before the first
    later = make_app()
    assert warm.warm_games(later, 100) == []
    assert later.extensions["allfives_store"].cache.get(newest, Part.BOOK) is None
    with pytest.raises(StartupError, match="ALLFIVES_WARM_GAMES must be a whole number"):
        make_app(WARM_GAMES="lots")


def test_a_game_that_cannot_be_read_or_a_database_that_cannot_does_not_stop_the_start(
    make_app: Callable[..., Flask], app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game whose log cannot be read is left to its first request (which says what is
    wrong) and the others are read all the same; a database that cannot be asked which games
    are in play leaves them all to their first requests: either way the server starts."""
    from webapp.serve import warm

    broken = _played(app, table, plays=0)
    good = Table(app, table.client)
    good.create("Di", "Ed")
    good.start(0)
    with app.extensions["allfives_store"].engine.begin() as db:  # a log no rules can read
        db.execute(
            text("UPDATE events SET action = :bad WHERE game_id = :id"),
            {"bad": '{"type": "nonsense"}', "id": broken},
        )
        db.execute(text("DELETE FROM snapshots WHERE game_id = :id"), {"id": broken})
    restarted = make_app()
    restarted.config["PROPAGATE_EXCEPTIONS"] = False  # as served: an error is a 500
    assert warm.warm_games(restarted, 100) == [good.game_id]

    def unreadable(*_args: object) -> list[tuple[str, int]]:
        raise OSError("disk I/O error")

    monkeypatch.setattr(warm, "recently_changed", unreadable)
    statuses = warm.warm(make_app())
    assert set(statuses) <= {200, 201}


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
