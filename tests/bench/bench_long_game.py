"""What a long game's pages cost, and what eight clients loading them do to a play elsewhere.

1. CPU time of the game page, More, Rescore, Replay and Check of a 3-hand game and of a
   200-hand game, side by side, in one process (the budget: the long game within 2× the short
   one). Each page is timed three times: cold (nothing of either game kept: a restart, or a
   game the cache let go), the first view after the game moved on (a play undone and made
   again, untimed, so every piece kept per revision is worked out again) and the same view
   again (as kept). The short and the long game take turns, so whatever else the machine does
   slows both alike.
2. With ``--profile``: where the long game's pages spend their time (cProfile, cumulative).
3. A real ``allfives serve`` (1 process, 8 threads) on the same database: the latency of plays
   on another game, first quiet, then while 8 clients load the long game's heavy pages as fast
   as they are answered (each page loaded once first, as by a table that has the game open);
   rate limits off (what the pages cost) and on (as served). The budget: p99 under 500 ms on
   2 cores.

Run it with ``python3 tests/bench/bench_long_game.py [--quick] [--profile] [--no-pages]``
(``--no-pages``: the real server's load alone). It is not a test: pytest only imports it.
"""

from __future__ import annotations

import argparse
import cProfile
import http.client
import itertools
import json
import math
import pstats
import random
import re
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from pathlib import Path

from webapp import create_app
from webapp.rules import StartHand, Tile, Undo, recorded
from webapp.store import Store

# Run as a script, this folder is on the path but not the repository: the tests' scripts are.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.bench_server import Bench, config
from tests.bench.load import scripted_game, server_cpu, start_server
from tests.scripts import scripted_actions

clock = time.process_time
PAGES = ("game page", "More", "Rescore", "Replay", "Check")


def pages_config(database: Path) -> dict[str, object]:
    """The app as served, rate limits checked on every request, with room for the pages the
    benchmark asks."""
    room = "1000000 per hour"
    limits = ("RATE_LIMIT_HEAVY", "RATE_LIMIT_REPLAY", "RATE_LIMIT_PAGES")
    return {**config(database), **dict.fromkeys(limits, room)}


def game_of(store: Store, game_id: str, hands: int, seed: int = 7) -> None:
    """Real hands into ``game_id`` until hand ``hands`` is three actions in."""
    started = 0
    after = None
    for seq, action in enumerate(scripted_actions(random.Random(seed), 3, 60 * hands + 200)):
        store.apply(game_id, seq, action)
        started += isinstance(action, StartHand)
        if started == hands and after is None:
            after = seq + 3
        if seq == after:
            return
    raise AssertionError("the script ended first")


def paths(store: Store, game_id: str) -> dict[str, str]:
    state = store.get(game_id).state
    tile = next(t for t in map(Tile.parse, _all_tiles()) if state.placements(t))
    base = f"/g/{game_id}"
    return {
        "game page": base,
        "More": f"{base}/more",
        "Rescore": f"{base}/rescore?preset=pagat",
        "Replay": f"{base}/replay/{state.hand_number}/1",
        "Check": f"{base}/check?tile={tile}",
    }


def _all_tiles() -> list[str]:
    return [f"{high}-{low}" for high in range(7) for low in range(high + 1)]


def moved_on(bench: Bench, game_id: str) -> None:
    """The game's last action undone and made again: the same game, at a new revision."""
    seq = bench.store.revision(game_id)
    last = bench.store.log_since(game_id, seq - 1)[0][1]
    bench.store.apply(game_id, seq, Undo())
    bench.store.apply(game_id, seq + 1, recorded(last))


def view(bench: Bench, path: str) -> float:
    start = clock()
    response = bench.client.get(path)
    took = clock() - start
    assert response.status_code == 200, (path, response.status_code)
    return took


def measure_pages(
    bench: Bench, games: dict[str, str], rounds: int, pages: tuple[str, ...] = PAGES
) -> dict[str, dict]:
    """Per page and game: the median CPU seconds of a cold view, of a first view after a
    change, and of the same view again, by (game's name, "cold" | "first" | "again")."""
    urls = {name: paths(bench.store, game_id) for name, game_id in games.items()}
    found: dict[str, dict] = {page: {} for page in pages}
    for page in pages:
        samples: dict[tuple[str, str], list[float]] = {}
        for _ in range(rounds):
            for name, game_id in games.items():
                bench.store.cache.clear()
                samples.setdefault((name, "cold"), []).append(view(bench, urls[name][page]))
                moved_on(bench, game_id)
                first = view(bench, urls[name][page])
                again = view(bench, urls[name][page])
                samples.setdefault((name, "first"), []).append(first)
                samples.setdefault((name, "again"), []).append(again)
        for key, values in samples.items():
            found[page][key] = statistics.median(values)
    return found


def print_pages(found: dict[str, dict]) -> None:
    print("CPU per page (median), the 3-hand and the 200-hand game (budget: long ≤ 2× short):")
    print(f"  {'page':10} {'view':8} {'3 hands':>9} {'200 hands':>10} {'ratio':>7}")
    for page, times in found.items():
        for when in ("cold", "first", "again"):
            short, long = times[("short", when)], times[("long", when)]
            mark = "" if long <= 2 * short else "  over budget"
            print(
                f"  {page:10} {when:8} {short * 1e3:7.1f} ms {long * 1e3:8.1f} ms "
                f"{long / short:6.1f}×{mark}"
            )


def profile_pages(bench: Bench, game_id: str, rounds: int) -> None:
    urls = paths(bench.store, game_id)
    for page in PAGES:
        profile = cProfile.Profile()
        for _ in range(rounds):
            moved_on(bench, game_id)
            profile.enable()
            bench.client.get(urls[page])
            bench.client.get(urls[page])
            profile.disable()
        print(f"\n--- {page}, 200 hands: {rounds} × (first view, again), cumulative ---")
        stats = pstats.Stats(profile)
        stats.sort_stats("cumulative").print_stats(r"webapp/", 14)


# --- the real server ------------------------------------------------------------------------------


def _connection(port: int) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", port, timeout=120)


def heavy_client(port: int, urls: list[str], stop: threading.Event, statuses: Counter) -> None:
    """A client loading the long game's heavy pages, one after another, as fast as answered."""
    connection = _connection(port)
    for url in itertools.cycle(urls):
        if stop.is_set():
            break
        try:
            connection.request("GET", url, headers={"Accept-Encoding": "gzip"})
            response = connection.getresponse()
            response.read()
            statuses[response.status] += 1
        except (OSError, http.client.HTTPException):
            statuses["error"] += 1
            connection.close()
            connection = _connection(port)
    connection.close()


class Player:
    """A phone entering a real game's actions on another game, one every ``period`` seconds."""

    def __init__(self, port: int, period: float) -> None:
        self.port, self.period = port, period
        connection = _connection(port)
        connection.request("GET", "/new")
        response = connection.getresponse()
        page = response.read()
        self.cookie = (response.getheader("Set-Cookie") or "").split(";")[0]
        found = re.search(rb'name="csrf_token" value="([^"]+)"', page)
        assert found is not None
        self.token = found.group(1).decode()
        body = json.dumps({"players": ["Ana", "Ben", "Cy"], "rules": {"target": 10_000}})
        connection.request(
            "POST", "/api/games", body, {"Content-Type": "application/json", "Cookie": self.cookie}
        )
        self.game_id = json.loads(connection.getresponse().read())["id"]
        connection.close()
        self.script = scripted_game(random.Random(port), 3, 2000)
        self.seq = 0

    def play(self, seconds: float) -> tuple[list[float], Counter]:
        latencies: list[float] = []
        statuses: Counter = Counter()
        connection = _connection(self.port)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            form = dict(self.script[self.seq])
            path = f"/g/{self.game_id}/{form.pop('path')}"
            body = urllib.parse.urlencode(
                {**form, "seq": self.seq, "csrf_token": self.token}, doseq=True
            )
            headers = {
                "HX-Request": "true",
                "Sec-Fetch-Site": "same-origin",
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": self.cookie,
            }
            started = time.monotonic()
            connection.request("POST", path, body, headers)
            response = connection.getresponse()
            response.read()
            latencies.append(time.monotonic() - started)
            statuses[response.status] += 1
            if response.status == 200:
                self.seq += 1
            time.sleep(max(0.0, self.period - (time.monotonic() - started)))
        connection.close()
        return latencies, statuses


def _p99(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, math.ceil(len(ordered) * 0.99) - 1)]


def _percentiles(latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1e3
    p99 = _p99(ordered) * 1e3
    return f"p50 {p50:7.1f} ms, p99 {p99:7.1f} ms, max {ordered[-1] * 1e3:7.1f} ms"


def measure_load(
    database: Path, long_id: str, urls: list[str], seconds: float, limits: bool
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = start_server(database, port, threads=8, workers=1, limits=limits)
    try:
        player = Player(port, period=0.1)
        quiet, _ = player.play(min(5.0, seconds / 2))
        warm = _connection(port)  # the long game's pages once, as when a table has it open
        for url in urls:
            warm.request("GET", url)
            warm.getresponse().read()
        warm.close()
        stop = threading.Event()
        statuses: Counter = Counter()
        clients = [
            threading.Thread(target=heavy_client, args=(port, urls, stop, statuses))
            for _ in range(8)
        ]
        cpu = server_cpu(server.pid)
        for client in clients:
            client.start()
        time.sleep(1.0)
        loaded, played = player.play(seconds)
        stop.set()
        for client in clients:
            client.join()
        cpu = server_cpu(server.pid) - cpu
    finally:
        server.terminate()
        server.wait(timeout=30)
    said = "on" if limits else "off"
    print(f"\nallfives serve, 1 process, 8 threads, rate limits {said}:")
    print(f"  plays on another game, quiet:        {_percentiles(quiet)} ({len(quiet)} plays)")
    print(
        f"  while 8 clients load heavy pages:    {_percentiles(loaded)} ({len(loaded)} plays, "
        f"answers {dict(played)}; budget p99 < 500 ms)"
    )
    print(f"  p99 loaded ÷ p99 quiet (same run): {_p99(loaded) / _p99(quiet):.1f}×")
    pages = sum(v for k, v in statuses.items())
    print(
        f"  the heavy clients' answers: {dict(statuses)}, {pages / (seconds + 1):.0f}/s; "
        f"server CPU {cpu:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--quick", action="store_true", help="fewer rounds, shorter load")
    parser.add_argument("--profile", action="store_true", help="profile the long game's pages")
    parser.add_argument("--no-server", action="store_true", help="pages in-process only")
    parser.add_argument("--no-pages", action="store_true", help="the real server's load only")
    args = parser.parse_args()
    rounds, seconds = (3, 8.0) if args.quick else (args.rounds, args.seconds)
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "long.sqlite3"
        bench = Bench(create_app(pages_config(database)))
        games = {}
        for name, hands in (("short", 3), ("long", 200)):
            games[name] = bench.new_game(start=False)
            game_of(bench.store, games[name], hands)
        long_state = bench.store.get(games["long"])
        print(
            f"the long game: {long_state.seq:,} actions, hand {long_state.state.hand_number}; "
            f"the short one: {bench.store.revision(games['short'])} actions\n"
        )
        if not args.no_pages:
            print_pages(measure_pages(bench, games, rounds))
        if args.profile:
            profile_pages(bench, games["long"], 2)
        urls = [paths(bench.store, games["long"])[page] for page in PAGES]
        bench.store.close()
        if not args.no_server:
            for limits in (False, True):
                measure_load(database, games["long"], urls, seconds, limits)


if __name__ == "__main__":
    main()
