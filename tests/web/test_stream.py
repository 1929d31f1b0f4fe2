"""A game screen followed live (``/g/<id>/stream``, Server-Sent Events): every play reaches every
open screen as the regions that changed, rendered once per look of the page and shared; a page
that was behind is caught up at once. Here under the test client, whose streams wait on a queue
as under any WSGI server; a real server that holds them without a thread is tests/server/
test_push.py's."""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.exc import OperationalError

from tests.conftest import AppMaker
from tests.tables import CSRF_TOKEN, Table, device
from webapp.config import StartupError
from webapp.web.followers import BEAT, Followers, event, opening

EVENT = re.compile(r"id: (\d+)\nevent: (\w+)\n((?:data: .*\n)+)\n")


class Stream:
    """One open stream, read by a thread of its own as the server writes it."""

    def __init__(self, client: FlaskClient, path: str, **headers: str) -> None:
        self.response = client.get(path, headers=headers, buffered=False)
        self.read = ""
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for chunk in self.response.response:
            self.read += chunk.decode()

    def events(self) -> list[tuple[int, str, str]]:
        found = EVENT.findall(self.read)
        return [
            (int(seq), name, re.sub(r"^data: ", "", data, flags=re.M)) for seq, name, data in found
        ]

    def changes(self) -> list[tuple[int, str]]:
        return [(seq, data) for seq, name, data in self.events() if name == "change"]

    def wait(self, until: Callable[[], object], seconds: float = 5.0) -> None:
        deadline = time.monotonic() + seconds
        while not until():
            assert time.monotonic() < deadline, f"not heard within {seconds} s: {self.read[-300:]}"
            time.sleep(0.02)


def followers(app: Flask) -> Followers:
    found: Followers = app.extensions["allfives_followers"]
    return found


@pytest.fixture
def streams(app: Flask) -> Iterator[list[Stream]]:
    """Streams a test opens; each closed at its end as a phone leaving would close it."""
    opened: list[Stream] = []
    yield opened
    hub = app.extensions.get("allfives_followers")
    if hub is not None:
        for each in [f for game in list(hub.games.values()) for f in game]:
            each.sink.close()
    for stream in opened:
        stream.reader.join(timeout=5)


def playing(table: Table) -> None:
    table.create("Ana", "Ben")
    table.start(leader="0")
    assert table.seq == 1


def test_an_event_is_the_revision_and_the_html_line_by_line() -> None:
    assert event(7, "<p>\n<b>5</b>") == b"id: 7\nevent: change\ndata: <p>\ndata: <b>5</b>\n\n"
    hello = b'retry: 3000\nid: 3\nevent: hello\ndata: {"seq":3,"beat":20.0}\n\n'
    assert opening(3, 20.0) == hello


def test_a_play_reaches_every_follower_once_rendered_for_each_look(
    app: Flask, client: FlaskClient, table: Table, streams: list[Stream]
) -> None:
    """R7: Ana leads 5-5, 10 points. Three screens follow the game: two in English (one render
    shared) and one in Romanian (its own); each hears the play once, with its own form token."""
    playing(table)
    seq = table.seq
    other = device(app)
    romanian = device(app)
    romanian.set_cookie("language", "ro")
    for phone in (client, other, romanian):
        streams.append(Stream(phone, f"{table.url}/stream?seq={seq}"))
    for stream in streams:
        stream.wait(lambda stream=stream: "event: hello" in stream.read)
    assert stream.response.headers["Content-Type"].startswith("text/event-stream")
    assert stream.response.headers["X-Accel-Buffering"] == "no"
    assert "no-cache" in stream.response.headers["Cache-Control"]
    before = followers(app).renders

    table.play("5-5")

    for stream in streams:
        stream.wait(lambda stream=stream: stream.changes())
        [(revision, html)] = stream.changes()
        assert revision == seq + 1
        assert 'id="board"' in html and "hx-swap-oob" in html
        assert CSRF_TOKEN in html or 'name="csrf_token"' not in html
        assert followers(app).mark not in html
    assert "[5|5] 10 = 10" in streams[0].changes()[0][1]
    assert followers(app).renders - before == 2  # English once, Romanian once


def test_a_screen_behind_the_game_is_caught_up_at_once(
    client: FlaskClient, table: Table, streams: list[Stream]
) -> None:
    """A phone that reconnects says the last revision it heard (Last-Event-ID); the plays it
    missed meanwhile come at once as the game now stands."""
    playing(table)
    heard = table.seq
    table.play("5-5")
    table.play("5-3")
    streams.append(Stream(client, f"{table.url}/stream?seq=0", **{"Last-Event-ID": str(heard)}))
    stream = streams[0]
    stream.wait(stream.changes)
    [(revision, html)] = stream.changes()
    assert revision == heard + 2
    assert "3 + [5|5] 10 = 13" in html


def test_the_watch_link_follows_too_and_is_never_shown_the_players_link(
    app: Flask, client: FlaskClient, table: Table, streams: list[Stream]
) -> None:
    playing(table)
    view_id = table.store.get(table.game_id).view_id
    streams.append(Stream(device(app), f"/v/{view_id}/stream?seq={table.seq}"))
    stream = streams[0]
    stream.wait(lambda: "event: hello" in stream.read)
    table.play("5-5")
    stream.wait(stream.changes)
    html = stream.changes()[0][1]
    assert "[5|5] 10 = 10" in html
    assert table.game_id not in html
    assert f"/v/{view_id}" in html


def test_a_stream_of_no_game_is_a_404_and_follows_nothing(app: Flask, client: FlaskClient) -> None:
    response = client.get("/g/no-such-game/stream")
    assert response.status_code == 404
    assert "allfives_followers" not in app.extensions or len(followers(app)) == 0


def test_a_stream_opened_while_the_database_goes_away_is_a_503_and_follows_nothing(
    app: Flask, client: FlaskClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game read, then the store out as the stream joins: the page gets a 503 (its
    browser opens the stream again later and is caught up) and no follower is left behind."""
    playing(table)
    store = app.extensions["allfives_store"]

    def out(*args: object, **kwargs: object) -> int:
        raise OperationalError("SELECT seq", {}, sqlite3.OperationalError("disk I/O error"))

    monkeypatch.setattr(store, "revision", out)
    response = client.get(f"{table.url}/stream?seq={table.seq}")
    assert response.status_code == 503
    assert len(followers(app)) == 0


def test_a_follower_that_left_is_dropped_at_the_next_heartbeat(
    app: Flask, client: FlaskClient, table: Table, streams: list[Stream]
) -> None:
    playing(table)
    streams.append(Stream(client, f"{table.url}/stream?seq={table.seq}"))
    stream = streams[0]
    stream.wait(lambda: "event: hello" in stream.read)
    hub = followers(app)
    assert len(hub) == 1
    [follower] = [f for game in hub.games.values() for f in game]
    follower.sink.close()  # the phone went away: its server-side end says so
    stream.reader.join(timeout=5)
    hub._beat()
    assert len(hub) == 0
    assert BEAT.startswith(b"event: beat\n")  # an event the page hears, without an id
    assert b"id:" not in BEAT


def test_a_game_deleted_tells_its_screens_to_look_again_and_ends_their_streams(
    app: Flask, client: FlaskClient, table: Table, streams: list[Stream]
) -> None:
    """Deleting changes no revision, yet every screen following the game must learn of it (the
    page it loads again says so, with the way back); the stream then ends."""
    playing(table)
    streams.append(Stream(client, f"{table.url}/stream?seq={table.seq}"))
    stream = streams[0]
    stream.wait(lambda: "event: hello" in stream.read)
    assert client.delete(f"/api/games/{table.game_id}").status_code == 200
    stream.wait(lambda: any(name == "gone" for _, name, _ in stream.events()))
    stream.reader.join(timeout=5)
    assert not stream.reader.is_alive()  # the server ended the stream
    assert len(followers(app)) == 0


@pytest.mark.parametrize("value", ["often", "0", "-1", "600"])
def test_a_heartbeat_that_is_no_usable_interval_stops_the_start_with_a_sentence(
    make_app: AppMaker, value: str
) -> None:
    """A beat of 0 would flood every stream; one over a minute outlives the server's own idle
    timeout (120 s) and many proxies'."""
    with pytest.raises(StartupError, match="ALLFIVES_STREAM_HEARTBEAT must be a number"):
        make_app(STREAM_HEARTBEAT=value)


def test_the_hello_says_the_apps_heartbeat_and_a_beat_follows(
    make_app: AppMaker, streams: list[Stream]
) -> None:
    app = make_app(STREAM_HEARTBEAT=0.2)
    table = Table(app, device(app))
    playing(table)
    streams.append(Stream(table.client, f"{table.url}/stream?seq={table.seq}"))
    stream = streams[0]
    try:
        stream.wait(lambda: "event: beat\n" in stream.read, 3)
        hello = [data for _, name, data in stream.events() if name == "hello"]
        assert hello == ['{"seq":1,"beat":0.2}\n']
    finally:
        for each in [f for game in followers(app).games.values() for f in game]:
            each.sink.close()
