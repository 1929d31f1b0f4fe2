"""A real ``allfives serve`` as a public host meets it (README, "On a public host"): behind a
proxy, each player is known by the address the proxy reports; without one, those headers are
anyone's and ignored; and no one address can take every connection the server has."""

from __future__ import annotations

import socket
import time
from pathlib import Path

from webapp.serve.serving import PER_ADDRESS

from .conftest import Server, raise_fd_limit, request, sockets_held, start

GUESSES = "3 per minute"


def guesses(server: Server, forwarded: dict[str, str], count: int) -> list[int]:
    """What ``count`` looks-ups of games that do not exist are answered (each counts)."""
    return [request(server, "GET", f"/g/guess{n}", headers=forwarded)[0] for n in range(count)]


def test_behind_a_trusted_proxy_each_player_is_limited_alone_and_https_brings_hsts(
    started: list[Server], database_url: str, log: Path
) -> None:
    server = start(
        started,
        database_url,
        log,
        ALLFIVES_TRUSTED_PROXIES="1",
        ALLFIVES_RATE_LIMITS="on",
        ALLFIVES_RATE_LIMIT_LOOKUPS=GUESSES,
    )
    one = {"X-Forwarded-For": "203.0.113.1"}
    other = {"X-Forwarded-For": "203.0.113.2"}
    assert guesses(server, one, 4) == [404, 404, 404, 429]
    assert guesses(server, other, 1) == [404], "another player is not locked out"
    _, headers, _ = request(server, "GET", "/new", headers={**other, "X-Forwarded-Proto": "https"})
    assert headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Secure" in headers["Set-Cookie"]
    _, plain, _ = request(server, "GET", "/new", headers=other)
    assert "Strict-Transport-Security" not in plain


def test_without_trusted_proxies_forwarded_headers_are_anyones_and_ignored(
    started: list[Server], database_url: str, log: Path
) -> None:
    server = start(
        started, database_url, log, ALLFIVES_RATE_LIMITS="on", ALLFIVES_RATE_LIMIT_LOOKUPS=GUESSES
    )
    _, headers, _ = request(server, "GET", "/new", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" not in headers
    assert "Secure" not in headers["Set-Cookie"]
    made_up = [{"X-Forwarded-For": f"203.0.113.{n}"} for n in range(4)]
    answers = [request(server, "GET", "/g/guess", headers=each)[0] for each in made_up]
    assert answers == [404, 404, 404, 429], "a made-up address escapes no limit"


def test_one_address_holding_thousands_of_half_sent_requests_leaves_others_answered(
    started: list[Server], database_url: str, log: Path
) -> None:
    """4,100 half-sent requests from one address used to take all 4,000 connections."""
    flood_size = 4100
    raise_fd_limit(flood_size + 1000)
    server = start(started, database_url, log, files=1024)
    assert request(server, "GET", "/")[0] == 200
    flood = []
    try:
        for _ in range(flood_size):
            connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            connection.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 900\r\n\r\n{"
            )
            flood.append(connection)
        # The server takes waiting connections in the order they came: once the last is
        # answered (turned away: one over the cap), it has taken them all in.
        turned_away = flood[-1].recv(4096)
        assert turned_away.startswith(b"HTTP/1.1 503"), turned_away
        assert b"Retry-After: 5" in turned_away
        assert sockets_held(server) <= PER_ADDRESS + 5, "the flood holds only its share"
        began = time.monotonic()
        status, _, _ = request(server, "GET", "/", timeout=10, source="127.0.0.2")
        took = time.monotonic() - began
        assert status == 200
        assert took < 1.0, f"another client waited {took:.2f} s beside the flood"
    finally:
        for connection in flood:
            connection.close()
    assert "Traceback" not in log.read_text()
