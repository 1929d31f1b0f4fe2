"""A real ``allfives serve`` as an attacker on the open internet meets it (loopback only):
floods of idle connections, a killed worker, huge bodies, long imports, malformed input,
forged Host headers, rate limits, and a server that cannot start."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from tests.scripts import scripted_actions
from webapp.rules import Options, to_dict
from webapp.store import EXPORT_FORMAT, options_to_dict

from .conftest import Server, children_of, free_port, raise_fd_limit, request, sockets_held, start


# The single process is flooded past select()'s 1,024 descriptors, the workers with 3,000.
@pytest.mark.parametrize(("workers", "idle"), [(1, 1100), (2, 3000)])
def test_thousands_of_idle_or_slow_connections_then_a_request_is_served_within_a_second(
    started: list[Server], database_url: str, log: Path, workers: int, idle: int
) -> None:
    raise_fd_limit(idle + 1000)
    # Started with the common soft limit of 1,024 open files, which the server raises itself.
    server = start(started, database_url, log, workers=workers, files=1024)
    assert request(server, "GET", "/")[0] == 200  # every worker up before the flood
    # From many addresses, as many players would: one address may hold PER_ADDRESS only.
    flood = [
        socket.create_connection(
            ("127.0.0.1", server.port), timeout=30, source_address=(f"127.0.1.{1 + n // 90}", 0)
        )
        for n in range(idle)
    ]
    for slow in flood[::3]:  # a third are slow: half a request, then nothing
        slow.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 900\r\n\r\n{")
    try:
        # Waitress takes one waiting connection per turn of its loop: wait until it holds
        # them all (about 2 s for 3,000 on an idle machine), then ask.
        deadline = time.monotonic() + 60
        while sockets_held(server) < idle and time.monotonic() < deadline:
            time.sleep(0.2)
        assert sockets_held(server) >= idle
        began = time.monotonic()
        status, _, _ = request(server, "GET", "/", timeout=10)
        took = time.monotonic() - began
        assert status == 200
        assert took < 1.0, f"a request beside {idle} idle connections took {took:.2f} s"
        assert server.process is not None and server.process.poll() is None
    finally:
        for connection in flood:
            connection.close()
    assert "Traceback" not in log.read_text()


def test_a_killed_worker_is_replaced_and_the_server_goes_on_serving(
    started: list[Server], database_url: str, log: Path
) -> None:
    server = start(started, database_url, log, workers=2)
    assert server.process is not None
    status, _, body = request(
        server,
        "POST",
        "/api/games",
        b'{"players": ["Ana", "Ben"]}',
        {"Content-Type": "application/json"},
    )
    assert status == 201
    game_id = json.loads(body)["id"]
    deadline = time.monotonic() + 20
    while len(workers := children_of(server.process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(workers) == 2
    victim = min(workers)
    os.kill(victim, signal.SIGKILL)
    while time.monotonic() < deadline:
        now = children_of(server.process.pid)
        if victim not in now and len(now) == 2:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"no worker replaced the killed one: workers now {now}")
    for _ in range(10):  # whichever worker answers
        assert request(server, "GET", f"/api/games/{game_id}")[0] == 200
    assert server.process.poll() is None


def test_a_100_mb_body_is_refused_before_any_of_it_is_read(
    started: list[Server], database_url: str, log: Path, tmp_path: Path
) -> None:
    spool = tmp_path / "spool"
    spool.mkdir()
    server = start(started, database_url, log, TMPDIR=str(spool))
    assert server.process is not None
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as connection:
        connection.sendall(
            b"POST /api/games/import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 104857600\r\n\r\n" + b"[" * 65536
        )
        answer = connection.recv(4096)  # answered with 64 KB of the 100 MB sent
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
    assert list(spool.iterdir()) == []
    fds = Path(f"/proc/{server.process.pid}/fd")
    assert not [fd for fd in fds.iterdir() if str(spool) in os.readlink(fd)]
    status, _, _ = request(server, "GET", "/")
    assert status == 200


def exported_game(actions: int) -> dict[str, Any]:
    """What export gives for a real game of ``actions`` actions (R1–R25 followed throughout)."""
    options = Options.make(["Ana", "Ben", "Cy", "Di"], target=10_000)
    script = scripted_actions(random.Random(5), 4, actions)
    return {
        "format": EXPORT_FORMAT,
        **options_to_dict(options),
        "created_at": "2026-01-01T20:00:00Z",
        "actions": [to_dict(action) for action in script],
    }


def test_an_exported_5000_action_game_imports_back_identically(
    started: list[Server], database_url: str, log: Path
) -> None:
    server = start(started, database_url, log)
    game = exported_game(5000)
    first = server.call("POST", "/api/games/import", game)
    assert first[0] == 201, first[1]
    status, exported = server.call("GET", f"/api/games/{first[1]['id']}/export")
    assert status == 200
    assert len(json.dumps(exported)) > 64 * 1024, "longer than the usual body limit"
    assert exported["actions"] == game["actions"]
    second = server.call("POST", "/api/games/import", exported)
    assert second[0] == 201, second[1]
    _, again = server.call("GET", f"/api/games/{second[1]['id']}/export")
    assert {k: v for k, v in again.items() if k != "created_at"} == {
        k: v for k, v in exported.items() if k != "created_at"
    }
    assert second[1]["seq"] == 5000
    assert {k: v for k, v in second[1].items() if k not in ("id", "view_id")} == {
        k: v for k, v in first[1].items() if k not in ("id", "view_id")
    }


def test_nested_json_and_a_non_ascii_token_are_400s_with_no_traceback_logged(
    started: list[Server], database_url: str, log: Path
) -> None:
    server = start(started, database_url, log)
    nested = b'{"players": ' + b"[" * 1000 + b"]" * 1000 + b"}"
    for path in ("/api/games", "/api/games/import"):
        status, _, body = request(
            server, "POST", path, nested, {"Content-Type": "application/json"}
        )
        assert status == 400
        assert "nested too deeply" in json.loads(body)["error"]["message"]
    _, headers, _ = request(server, "GET", "/new")
    cookie = headers["Set-Cookie"].split(";", 1)[0]
    form = urllib.parse.urlencode({"csrf_token": "tökén", "name": ["Ana", "Ben"]}, doseq=True)
    status, _, body = request(
        server,
        "POST",
        "/new",
        form.encode(),
        {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie},
    )
    assert status == 400
    assert b"nothing was changed" in body
    raw_header = "tökén".encode().decode("latin-1")
    status, _, _ = request(
        server, "POST", "/new", b"", {"X-CSRF-Token": raw_header, "Cookie": cookie}
    )
    assert status == 400
    assert "Traceback" not in log.read_text()


def test_a_forged_host_header_never_reaches_a_share_link(
    started: list[Server], database_url: str, log: Path
) -> None:
    public = start(started, database_url, log, ALLFIVES_PUBLIC_URL="https://fives.example.org")
    _, created = public.call("POST", "/api/games", {"players": ["Ana", "Ben"]})
    status, _, page = request(  # the share panel: in More
        public, "GET", f"/g/{created['id']}/more", headers={"Host": "evil.example"}
    )
    assert status == 200
    assert b"evil.example" not in page
    assert f"https://fives.example.org/g/{created['id']}".encode() in page
    public.stop()
    plain = start(started, database_url, log)
    status, _, page = request(plain, "GET", f"/g/{created['id']}", headers={"Host": "evil.example"})
    assert status == 400
    assert b"evil.example" not in page
    assert request(plain, "GET", f"/g/{created['id']}")[0] == 200


def test_rate_limits_answer_429_on_creating_and_on_guessing(
    started: list[Server], database_url: str, log: Path
) -> None:
    server = start(
        started,
        database_url,
        log,
        ALLFIVES_RATE_LIMITS="on",
        ALLFIVES_RATE_LIMIT_CREATE="3 per minute",
        ALLFIVES_RATE_LIMIT_LOOKUPS="4 per minute",
    )
    answers = [server.call("POST", "/api/games", {"players": ["Ana", "Ben"]}) for _ in range(4)]
    assert [status for status, _ in answers] == [201, 201, 201, 429]
    assert "wait a minute" in answers[3][1]["error"]["message"]
    guesses = [request(server, "GET", f"/g/guess{n}")[0] for n in range(5)]
    assert guesses == [404, 404, 404, 404, 429]
    assert request(server, "GET", f"/g/{answers[0][1]['id']}")[0] == 429


def pre_migration_database(folder: Path) -> str:
    path = folder / "old.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE games (id TEXT PRIMARY KEY)")
    connection.close()
    return str(path)


def corrupt_database(folder: Path) -> str:
    path = folder / "corrupt.sqlite3"
    path.write_bytes(b"not a database " * 500)
    return str(path)


def secret_key_that_cannot_be_written(folder: Path) -> str:
    (folder / "instance" / "secret_key").mkdir(parents=True)  # a folder where the file goes
    return str(folder / "games.sqlite3")


FAILURES = {
    "missing folder": (lambda folder: "/nonexistent/folder/games.sqlite3", {}, "cannot write to"),
    "read-only folder": (lambda folder: "/proc/games.sqlite3", {}, "cannot write to"),
    "corrupt database": (corrupt_database, {}, "is not an All Fives database"),
    "database from before migrations": (pre_migration_database, {}, "no migration history"),
    "PostgreSQL down": (
        lambda folder: f"postgresql+psycopg://allfives@127.0.0.1:{free_port()}/allfives",
        {},
        "cannot connect to the database",
    ),
    "unwritable secret key": (
        secret_key_that_cannot_be_written,
        {"ALLFIVES_SECRET_KEY": "", "ALLFIVES_INSTANCE": "instance"},
        "cannot read or write the signing key",
    ),
    "rate-limit store without its client": (
        lambda folder: str(folder / "games.sqlite3"),
        {"ALLFIVES_RATE_LIMIT_STORAGE": "nonsense://:hunter2@127.0.0.1:1"},
        "ALLFIVES_RATE_LIMIT_STORAGE (nonsense:…) cannot be used",
    ),
    "unwritable instance folder": (
        lambda folder: "",
        {"ALLFIVES_SECRET_KEY": "", "ALLFIVES_INSTANCE": "/proc/allfives"},
        "cannot write to /proc/allfives",
    ),
}


@pytest.mark.parametrize("failure", list(FAILURES))
def test_each_start_up_failure_prints_one_clear_line_and_exits_non_zero(
    tmp_path: Path, failure: str
) -> None:
    make_db, env, sentence = FAILURES[failure]
    db = make_db(tmp_path)
    command = [sys.executable, "-m", "webapp.serve.cli", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(free_port())] + (["--db", db] if db else [])
    done = subprocess.run(
        command,
        env={**os.environ, "ALLFIVES_SECRET_KEY": "test", "ALLFIVES_DATABASE": "", **env},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("allfives: ") and sentence in lines[0], lines[0]
    assert "Traceback" not in done.stderr
    assert "hunter2" not in done.stderr, "no password is printed"


HOSTILE = [
    b"GET /%ff%fe HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET /g/{game}/poll?seq=%ff HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET /g/{game}/poll?seq=99999999999999999999999 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: session=forged.forged.forged\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: session=\xff\xfe\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1:99999\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: \xff\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
    b"GET http://evil.example/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"POST /new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded"
    b"\r\nContent-Length: 9\r\n\r\nname=%ff%",
    b"POST /new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x"
    b"\r\nContent-Length: 10\r\n\r\n--x\r\nbroke",
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
    b"\r\nContent-Length: 4\r\n\r\n\xff\xfe\xfd\xfc",
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
    b'\r\nContent-Length: 25\r\n\r\n{"players": [1e999, NaN]}',
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
    b'\r\nContent-Length: 28\r\n\r\n{"players": ["\\ud800", "B"]}',
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
    b'\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n0\r\n\r\n',
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n"
    b"Content-Length: 6\r\n\r\n",
    b"GARBAGE\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 300_000 + b"\r\n\r\n",
    b"POST /g/{game}/play HTTP/1.1\r\nHost: 127.0.0.1\r\nX-CSRF-Token: \xe9\xe9\r\n"
    b"Content-Length: 0\r\n\r\n",
    b"GET /static/%2e%2e/README.md HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET /static/app.css HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=99999999-\r\n\r\n",
]


def test_hostile_raw_requests_get_no_5xx_and_leave_no_traceback(
    started: list[Server], database_url: str, log: Path
) -> None:
    server = start(started, database_url, log)
    _, created = server.call("POST", "/api/games", {"players": ["Ana", "Ben"]})
    for hostile in HOSTILE:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as connection:
            connection.sendall(hostile.replace(b"{game}", created["id"].encode()))
            connection.shutdown(socket.SHUT_WR)  # whatever is missing will not come
            answer = b""
            with contextlib.suppress(ConnectionResetError):  # the server may drop the rest
                while chunk := connection.recv(65536):  # the whole answer, as clients read it
                    answer += chunk
        if answer:  # a request cut short may be dropped without an answer
            status = int(answer.split(b" ", 2)[1])
            assert 200 <= status < 500, (hostile[:80], answer)
    _, after = server.call("GET", f"/api/games/{created['id']}")
    assert after["seq"] == 0
    assert "Traceback" not in log.read_text()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_port_in_use_is_one_line_and_no_running_banner(tmp_path: Path, workers: int) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "webapp.serve.cli", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(port), "--workers", str(workers)]
        command += ["--db", str(tmp_path / "games.sqlite3")]
        done = subprocess.run(
            command,
            env={**os.environ, "ALLFIVES_SECRET_KEY": "test"},
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "is running" not in done.stdout
