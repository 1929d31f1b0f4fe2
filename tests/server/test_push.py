"""Streams against real ``allfives serve`` processes: held by waitress's loop (dozens of open
screens on 8 threads, and a request still answered at once), and a play made in one process
reaching screens held by another: worker processes on one SQLite file (its change feed:
``PRAGMA data_version``), or two app servers on one PostgreSQL with no shared memory
(``LISTEN/NOTIFY``; the CI's PostgreSQL run, ALLFIVES_TEST_POSTGRES)."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import Server, request

SECOND = 1.0


class Stream:
    """A game screen's stream on its own connection, read as it comes."""

    def __init__(self, server: Server, path: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        self.data = b""
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        try:
            while chunk := self.sock.recv(65536):
                self.data += chunk
        except OSError:
            return

    def heard(self, what: bytes) -> bool:
        return what in self.data

    def close(self) -> None:
        self.sock.close()


def wait(until: object, seconds: float) -> float:
    """Seconds until ``until()`` holds; fails after ``seconds``."""
    start = time.monotonic()
    while not until():  # type: ignore[operator]
        assert time.monotonic() - start < seconds, f"not within {seconds} s"
        time.sleep(0.005)
    return time.monotonic() - start


@pytest.fixture
def streams() -> Iterator[list[Stream]]:
    opened: list[Stream] = []
    yield opened
    for stream in opened:
        stream.close()


def new_game(server: Server) -> str:
    status, state = server.call("POST", "/api/games", {"players": ["Ana", "Ben"]})
    assert status == 201
    game = str(state["id"])
    assert (
        server.call(
            "POST", f"/api/games/{game}/actions", {"seq": 0, "type": "start_hand", "starter": "Ana"}
        )[0]
        == 200
    )
    return game


def play(server: Server, game: str, seq: int, tile: str) -> None:
    status, _ = server.call(
        "POST", f"/api/games/{game}/actions", {"seq": seq, "type": "play", "tile": tile}
    )
    assert status == 200


def test_open_screens_hold_no_thread_and_each_hears_a_play_within_a_second(
    server: Server, streams: list[Stream]
) -> None:
    """40 screens follow one game on a server of 8 threads: were each held by a thread, nobody
    else would be answered. A request is answered at once, and Ana's 5-5 (R7) reaches all 40."""
    game = new_game(server)
    for _ in range(40):
        streams.append(Stream(server, f"/g/{game}/stream?seq=1"))
    for stream in streams:
        wait(lambda stream=stream: stream.heard(b"event: hello"), 10)
    head = streams[0].data.split(b"\r\n\r\n", 1)[0].lower()
    assert b"content-type: text/event-stream" in head
    assert b"x-accel-buffering: no" in head and b"no-cache" in head
    status, _, _ = request(server, "GET", f"/api/games/{game}", timeout=5)
    assert status == 200

    play(server, game, 1, "5-5")
    took = max(wait(lambda s=s: s.heard(b"id: 2\nevent: change"), 5) for s in streams)
    assert took < SECOND
    assert all(stream.data.count(b"event: change") == 1 for stream in streams)


def test_among_quiet_connections_each_tap_and_each_change_goes_out_at_once(
    server: Server, streams: list[Stream]
) -> None:
    """The loop asks only connections that may have changed (``webapp/serve/loop.py``) and
    sweeps the rest once a second: among 60 open screens and 20 phones kept alive between taps,
    a phone's taps on its kept-alive connection are each answered at once, and every play
    reaches every screen at once, not at the next sweep."""
    game = new_game(server)
    for _ in range(60):
        streams.append(Stream(server, f"/g/{game}/stream?seq=1"))
    for stream in streams:
        wait(lambda stream=stream: stream.heard(b"event: hello"), 10)
    idle = [http.client.HTTPConnection("127.0.0.1", server.port, timeout=10) for _ in range(20)]
    phone = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        for connection in [*idle, phone]:  # each kept alive after one answer
            connection.request("GET", f"/api/games/{game}")
            connection.getresponse().read()
        slowest = 0.0
        for seq, tile in enumerate(("5-5", "5-3", "3-3", "3-1"), start=1):
            time.sleep(0.3)  # the phone's connection waits quietly between taps
            started = time.monotonic()
            body = json.dumps({"seq": seq, "type": "play", "tile": tile})
            headers = {"Content-Type": "application/json"}
            phone.request("POST", f"/api/games/{game}/actions", body, headers)
            assert phone.getresponse().read() and time.monotonic() - started < 0.5
            mark = f"id: {seq + 1}\nevent: change".encode()
            heard = max(wait(lambda s=s, m=mark: s.heard(m), 5) for s in streams)
            slowest = max(slowest, time.monotonic() - started, heard)
        assert slowest < 0.5
    finally:
        for connection in [*idle, phone]:
            connection.close()


def test_a_play_made_on_one_app_server_reaches_screens_held_by_another(
    database_url: str, streams: list[Stream]
) -> None:
    """Two app servers on one database, sharing nothing else (on PostgreSQL, as the README's
    "Deploying on PostgreSQL" runs them; on SQLite, two processes on one file): a screen
    following the game on the first hears a play made on the second within a second, and
    reconnecting with the last revision it heard, it misses nothing."""
    first, second = Server(database_url), Server(database_url)
    first.start()
    second.start()
    try:
        game = new_game(second)
        streams.append(Stream(first, f"/g/{game}/stream?seq=1"))
        wait(lambda: streams[0].heard(b"event: hello"), 10)

        play(second, game, 1, "5-5")
        assert wait(lambda: streams[0].heard(b"id: 2\nevent: change"), 5) < SECOND
        play(second, game, 2, "5-3")
        assert wait(lambda: streams[0].heard(b"id: 3\nevent: change"), 5) < SECOND
        assert b"3 + [5|5] 10 = 13" in streams[0].data
    finally:
        first.stop()
        second.stop()


def test_worker_processes_on_one_sqlite_file_hear_each_others_plays(
    tmp_path: object, streams: list[Stream]
) -> None:
    """``--workers 2``: the screens land on either worker, the plays on either; every screen
    hears every play within a second (each worker reads SQLite's data_version every 150 ms).
    The workers' shared renders (``web/rendered.py``) leave no folder behind once stopped."""
    import glob
    import tempfile

    server = Server(f"sqlite:///{tmp_path}/workers.sqlite3", workers=2)
    server.start()
    assert server.process is not None
    # (named by its master process: other servers on the machine may come and go meanwhile)
    places = ("/dev/shm", tempfile.gettempdir())
    folders = [f"{place}/allfives-rendered-{server.process.pid}-*" for place in places]
    try:
        game = new_game(server)
        for _ in range(12):
            streams.append(Stream(server, f"/g/{game}/stream?seq=1"))
        for stream in streams:
            wait(lambda stream=stream: stream.heard(b"event: hello"), 10)
        for seq, tile in ((1, "5-5"), (2, "5-3")):
            play(server, game, seq, tile)
            mark = f"id: {seq + 1}\nevent: change".encode()
            took = max(wait(lambda s=s, m=mark: s.heard(m), 5) for s in streams)
            assert took < SECOND
        assert len([found for pattern in folders for found in glob.glob(pattern)]) == 1
    finally:
        server.stop()
    assert [found for pattern in folders for found in glob.glob(pattern)] == []


def test_a_quiet_stream_hears_a_beat_as_often_as_its_hello_says(
    tmp_path: Path, streams: list[Stream]
) -> None:
    """Nobody plays: the stream still carries a ``beat`` event every ``STREAM_HEARTBEAT``
    seconds (0.3 here), which a proxy sees as traffic and the page as a sign of life; its hello
    said the interval, so the page knows how long a silence means the stream is lost."""
    server = Server(
        f"sqlite:///{tmp_path / 'beat.sqlite3'}", env={"ALLFIVES_STREAM_HEARTBEAT": "0.3"}
    )
    server.start()
    try:
        game = new_game(server)
        streams.append(Stream(server, f"/g/{game}/stream?seq=1"))
        stream = streams[0]
        wait(lambda: stream.heard(b"event: hello"), 10)
        assert b'data: {"seq":1,"beat":0.3}' in stream.data
        opened = time.monotonic()
        wait(lambda: stream.data.count(b"event: beat\n") >= 3, 5)
        assert time.monotonic() - opened < 3 * 0.3 + 0.5
        assert b"id: " not in stream.data.split(b"event: hello", 1)[1]  # a beat moves no revision

        play(server, game, 1, "5-5")  # and a change still comes between the beats
        wait(lambda: stream.heard(b"id: 2\nevent: change"), 5)
    finally:
        server.stop()
