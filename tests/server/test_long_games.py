"""A long game through a real ``allfives serve`` (issue 19, item 2): a client looping on its
heavy pages over eight connections meets its limit, answered 429 with Retry-After, while
plays on another game are applied each once and another client still reads the long game.
What each page costs is counted in ``tests/web/test_long_games.py`` and measured, as ratios,
by ``tests/bench/bench_long_game.py``; here only what a real server changes is checked: the
client known by its address across connections and threads."""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path

from tests.scripts import HAND_OF_FIVE
from tests.tables import HttpApi

from .conftest import Server, request, start

FLOODER, READER = "127.0.0.2", "127.0.0.3"


def flood(server: Server, paths: list[str], stop: threading.Event, seen: Counter[str]) -> None:
    """One of the flooding client's connections: its pages in turn until told to stop."""
    while not stop.is_set():
        for path in paths:
            status, headers, _ = request(server, "GET", path, source=FLOODER)
            seen[str(status)] += 1
            if status == 429 and "Retry-After" not in headers:
                seen["429 without Retry-After"] += 1


def test_a_client_looping_on_a_long_game_s_heavy_pages_is_limited_and_plays_go_on(
    started: list[Server], database_url: str, log: Path
) -> None:
    server = start(
        started,
        database_url,
        log,
        ALLFIVES_RATE_LIMITS="on",
        ALLFIVES_RATE_LIMIT_HEAVY="20 per 10 seconds; 120 per minute",
    )
    api = HttpApi(server.url)
    long = api.long_game(30)
    hand = len(api.state(long)["hands"]) + 1  # the hand being played: 30
    paths = [
        f"/g/{long}/more",
        f"/g/{long}/rescore?preset=pagat",
        f"/g/{long}/replay/{hand}/1",
        f"/g/{long}/replay/3/2",
        f"/g/{long}/check?tile=6-6",
    ]
    stop = threading.Event()
    seen: Counter[str] = Counter()
    clients = [threading.Thread(target=flood, args=(server, paths, stop, seen)) for _ in range(8)]
    for client in clients:
        client.start()
    try:
        other = api.new_game(["Ana", "Ben"], deal="5")
        api.act(other, "start_hand", starter="Ana")
        state = api.enter(other, HAND_OF_FIVE)  # each a play acknowledged, or an exception
    finally:
        stop.set()
        for client in clients:
            client.join(60)
    assert state["seq"] == 1 + len(HAND_OF_FIVE), "every play on the other game applied once"
    assert seen["429"] > 0 and not seen["429 without Retry-After"], seen
    assert seen["200"] <= 20 * 2, seen  # at most a window or two of the limit, not the flood
    assert not set(seen) - {"200", "429"}, seen  # no error, no dropped connection
    for path in paths:  # another client reads the long game meanwhile
        assert request(server, "GET", path, source=READER)[0] == 200, path


HTMX = {"HX-Request": "true"}
TABLE = "127.0.0.4"  # four phones behind one NAT


def test_a_client_reloading_a_game_screen_in_a_loop_is_limited_never_a_table_or_htmx(
    started: list[Server], database_url: str, log: Path
) -> None:
    """Whole game screens are limited per client (``ALLFIVES_RATE_LIMIT_PAGES``, its default
    here): a table of four phones behind one address, each loading the game and reloading it
    twice, is never refused; a client reloading it in a loop is answered 429 with Retry-After
    and the page that says so, while its htmx regions and polls (each phone's following of the
    game) are still answered, and so is the table."""
    server = start(started, database_url, log, ALLFIVES_RATE_LIMITS="on")
    api = HttpApi(server.url)
    game = api.long_game(3)
    screen, seq = f"/g/{game}", api.state(game)["seq"]
    watch = f"/v/{api.state(game)['view_id']}"
    for _ in range(3):  # four phones, one address: a load and two reloads each
        for phone in (screen, screen, screen, watch):
            assert request(server, "GET", phone, source=TABLE)[0] == 200
    seen: Counter[int] = Counter()
    refused: tuple[dict[str, str], bytes] | None = None
    for _ in range(45):
        status, headers, body = request(server, "GET", screen, source=FLOODER)
        seen[status] += 1
        if status == 429:
            refused = headers, body
    assert seen[200] == 30 and seen[429] == 15, seen  # 30 in 10 seconds, then refused
    assert refused is not None
    headers, body = refused
    assert int(headers["Retry-After"]) >= 1
    assert b"Too many requests from this device" in body
    # The same client's htmx requests are never refused by it: the regions and the poll.
    assert request(server, "GET", screen, headers=HTMX, source=FLOODER)[0] == 200
    for poll in (f"{screen}/poll?seq={seq}", f"{screen}/poll?seq=0"):
        assert request(server, "GET", poll, headers=HTMX, source=FLOODER)[0] in (200, 204)
    assert request(server, "GET", screen, source=TABLE)[0] == 200  # the table, meanwhile
