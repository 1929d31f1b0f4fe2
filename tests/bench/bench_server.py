"""Server-side cost of a play, of a long game and of a restart, and the bytes a phone downloads.

Every figure is printed with the reference it is a ratio to, measured in the same run, as
CPU time of the process that serves the request:

1. one play through the WSGI app in-process — the htmx form post as a phone's browser sends
   it, hints off (as a table starts) and on, and the JSON API — against a bare Flask endpoint
   returning a short string in the same process;
2. a play in hand 41 of a game whose log holds 1,000 actions of real hands: with its state
   cached, against a really new game's (its first hand, nothing before it); and the first play
   after a restart (a new process, its templates compiled as ``allfives serve`` does), against
   the next play of the same game in that process, and against a really new game's first play
   after a restart;
3. memory per cached game of 1,000 actions as served (its page, a play and an undo), measured
   with tracemalloc over two such games after a first one has warmed everything shared;
4. bytes over the wire, gzip: the game screen's first load and the response to a play;
5. where an htmx play's time goes (cProfile, each function's own time by the part of the
   server it belongs to; the test client's own work left out).

It ends with the figures as rows of the README's table. Run it with
``python3 tests/bench/bench_server.py [--quick]``. It is not a test: pytest only imports it.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import defaultdict
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from flask import Flask
from werkzeug.local import LocalProxy

from webapp import create_app
from webapp.rules import Play, StartHand, Tile, Undo
from webapp.serve.cli import _warm
from webapp.store import Store
from webapp.store.cache import BUDGET as CACHE_BUDGET

# Run as a script, this folder is on the path but not the repository: the tests' scripts are.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.figures import legacy_table
from tests.scripts import EXAMPLE_A, scripted_actions
from webapp.web.security import signed

HX = {"HX-Request": "true", "Sec-Fetch-Site": "same-origin"}
GZIP = {"Accept-Encoding": "gzip"}
PHONE = {**HX, **GZIP}  # what a phone's browser sends with an htmx post from the game screen
SECRET = "bench"
# The device's token as the server issued it (signed), so a page prints back the one its form
# sent, as for a real phone, without reading the session.
TOKEN = signed("bench-device", SECRET)
FIGURES: list[tuple[str, str, str]] = []  # (figure, measured, budget): the README's rows
# The CPU time of this process, which serves every request in it: what other programs on the
# machine do slows the wall clock by as much as a third from run to run, and this far less.
clock = time.process_time


def timed(action: Callable[[], float | None], rounds: int) -> float:
    """Median seconds per call over ``rounds`` calls (after a warm-up); an action that returns
    a duration is timed by that (to leave out its untimed set-up)."""
    for _ in range(min(20, rounds)):
        action()
    samples = []
    for _ in range(rounds):
        start = clock()
        own = action()
        samples.append(own if own is not None else clock() - start)
    return statistics.median(samples)


def config(database: Path | str) -> dict[str, object]:
    """The app as served, on ``database``: rate limits on (every request is checked against
    them), but room for the hundreds of games the benchmarks make."""
    return {
        "DATABASE": str(database),
        "SECRET_KEY": SECRET,
        "RATELIMIT_ENABLED": True,
        "RATE_LIMIT_CREATE": "1000000 per hour",
    }


def figure(name: str, measured: str, budget: str = "") -> None:
    FIGURES.append((name, measured, budget))


class Bench:
    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client = app.test_client()
        self.client.get("/new")  # a session, as a phone has
        with self.client.session_transaction() as session:
            session["csrf_token"] = TOKEN
        self.store: Store = app.extensions["allfives_store"]

    def new_game(self, start: bool = True, hints: bool = False) -> str:
        body = {"players": ["Ana", "Ben", "Cy"], "rules": {"target": 10_000}}
        game_id = self.client.post("/api/games", json=body).json["id"]
        if start:
            self.store.apply(game_id, 0, StartHand(0))
        if hints:
            self.store.set_screen(game_id, "coaching", True)
        return game_id

    def lead_and_undo(self, game_id: str, path: str) -> float:
        """One play request, timed, and the undo that takes it back, so the next is the same."""
        seq = self.store.revision(game_id)
        start = clock()
        if path == "api":
            response = self.client.post(
                f"/api/games/{game_id}/actions", json={"seq": seq, "type": "play", "tile": "5-5"}
            )
        else:
            # As the picker's form sends it: the tile, and whether it showed the hints.
            hints = "1" if self.store.get(game_id).coaching else "0"
            data = {"seq": seq, "tile": "5-5", "hints": hints, "csrf_token": TOKEN}
            start = clock()
            response = self.client.post(f"/g/{game_id}/play", data=data, headers=PHONE)
        assert response.status_code == 200, response.status_code
        elapsed = clock() - start
        self.store.apply(game_id, seq + 1, Undo())
        return elapsed

    def play_and_undo(self, game_id: str, tile: str) -> float:
        """A tap on ``tile`` in the picker (it fits one end), timed, and its undo."""
        seq = self.store.revision(game_id)
        data = {"seq": seq, "tile": tile, "hints": "0", "csrf_token": TOKEN}
        start = clock()
        response = self.client.post(f"/g/{game_id}/play", data=data, headers=PHONE)
        elapsed = clock() - start
        assert response.status_code == 200, response.status_code
        self.store.apply(game_id, seq + 1, Undo())
        return elapsed

    def long_game(self, actions: int, seed: int = 7) -> str:
        """A game of real hands whose log holds about ``actions`` actions, stopped as its next
        hand starts, so that its next play is a lead, as in a new game."""
        game_id = self.new_game(start=False)
        for seq, action in enumerate(scripted_actions(random.Random(seed), 3, actions + 200)):
            self.store.apply(game_id, seq, action)
            if seq + 1 >= actions and isinstance(action, StartHand):
                break
        return game_id

    def serve(self, game_id: str) -> None:
        """The game as a phone is served it: its page and its More sheet, then a play and its
        undo."""
        assert self.client.get(f"/g/{game_id}").status_code == 200
        assert self.client.get(f"/g/{game_id}/more", headers=HX).status_code == 200
        self.lead_and_undo(game_id, "htmx")


def measure_play(bench: Bench, rounds: int) -> dict[str, tuple[float, float]]:
    """Round after round, the bare endpoint then each kind of request, so that whatever else
    the machine does slows the reference as much as what is measured against it: a lead (it
    changes the picker's name and the controls too), a play mid-hand (3-2 led, then 2-2, which
    fits one end and scores nothing), each with its undo; a play through the API; and a poll
    that finds nothing changed, as a following screen sends every 2 s. Returns each kind's
    median seconds with the bare endpoint's, by name."""
    bare = Flask("bare")
    bare.add_url_rule("/", "bare", lambda: "ok")
    bare_client = bare.test_client()
    lead, hints, api, mid, watched = (bench.new_game(hints=on) for on in (0, 1, 0, 0, 0))
    bench.store.apply(mid, 1, Play(Tile.parse("3-2")))
    poll = f"/v/{bench.store.get(watched).view_id}/poll?seq={bench.store.revision(watched)}"

    def polled() -> float:
        start = clock()
        response = bench.client.get(poll, headers=PHONE)
        assert response.status_code == 200 and response.get_data() == b""
        return clock() - start

    kinds: tuple[tuple[str, Callable[[], float], int | float], ...] = (
        ("htmx play, a lead", lambda: bench.lead_and_undo(lead, "htmx"), 4),
        ("htmx play, a lead, hints on", lambda: bench.lead_and_undo(hints, "htmx"), 4),
        ("htmx play, mid-hand", lambda: bench.play_and_undo(mid, "2-2"), 4),
        ("JSON API play", lambda: bench.lead_and_undo(api, "api"), 3),
        ('"nothing changed" poll', polled, 1.5),
    )
    samples: list[list[float]] = [[] for _ in range(len(kinds) + 1)]
    for round_number in range(rounds + 20):
        start = clock()
        bare_client.get("/")
        times = [clock() - start, *(measure() for _, measure, _ in kinds)]
        if round_number >= 20:  # the first rounds warm up
            for sample, took in zip(samples, times, strict=True):
                sample.append(took)
    bare_time, *taken = (statistics.median(sample) for sample in samples)
    print(f"bare Flask endpoint (the reference):   {bare_time * 1e6:8.0f} µs")
    for took, (name, _, budget) in zip(taken, kinds, strict=True):
        ratio = took / bare_time
        print(f"{name + ':':38} {took * 1e6:8.0f} µs   {ratio:5.1f}× bare (budget {budget}×)")
        figure(
            f"{name} ÷ a bare Flask endpoint",
            f"{ratio:.1f}× ({took * 1e3:.2f} ms against {bare_time * 1e6:.0f} µs)",
            f"{budget}×",
        )
    return {name: (took, bare_time) for took, (name, _, _) in zip(taken, kinds, strict=True)}


def _none(_result: object) -> None:
    return None


def measure_long_game(bench: Bench, database: Path, rounds: int, restarts: int) -> None:
    long = bench.long_game(1000)
    hand = bench.store.get(long).state.hand_number
    print(f"a game with {bench.store.revision(long)} actions in its log, in hand {hand}:")
    new_times, long_times = [], []
    for _ in range(rounds):  # alternately: the same load on the machine slows both alike
        new_times.append(bench.lead_and_undo(bench.new_game(), "htmx"))
        long_times.append(bench.lead_and_undo(long, "htmx"))
    new_time, long_time = statistics.median(new_times), statistics.median(long_times)
    print(
        f"  state cached: {long_time * 1e3:6.2f} ms, a really new game's first hand "
        f"{new_time * 1e3:6.2f} ms: {long_time / new_time:4.2f}× (budget 1.2×)"
    )
    figure(
        f"a play in hand {hand} of a 1,000-action game, state cached ÷ a new game's",
        f"{long_time / new_time:.2f}×",
        "1.2×",
    )
    measure_restart(bench, database, long, restarts)


def measure_restart(
    bench: Bench, database: Path, long: str, restarts: int
) -> tuple[int, float, float, float]:
    """The first play of the game ``long`` after a restart against the next (warm) play in that
    process, and a really new game's first play after a restart, each the median of
    ``restarts`` new processes: its hand, then the three times. The game was played just
    before, so the warm-up reads it (``serve/warm.py``); also printed, its first play in a
    process whose warm-up read no game (as for a game not played in the last hour)."""
    hand = bench.store.get(long).state.hand_number
    cold_long = [first_play(bench, database, long) for _ in range(restarts)]
    cold_new = [first_play(bench, database, bench.new_game()) for _ in range(restarts)]
    unread = [first_play(bench, database, long, warm_games=0) for _ in range(restarts)]
    first, warm = (statistics.median(run[i] for run in cold_long) for i in (0, 1))
    new_first = statistics.median(run[0] for run in cold_new)
    unread_first, unread_warm = (statistics.median(run[i] for run in unread) for i in (0, 1))
    print(
        f"  first play after a restart: {first * 1e3:6.1f} ms, {first / warm:5.1f}× the next "
        f"play in that process ({warm * 1e3:.2f} ms; budget 2×), {first / new_first:5.1f}× a "
        f"really new game's first play after a restart ({new_first * 1e3:.1f} ms)\n"
        f"  the same, its game not read by the warm-up (not played in the last hour): "
        f"{unread_first * 1e3:6.1f} ms, {unread_first / unread_warm:5.1f}× the next play"
    )
    figure(
        f"first play after a restart, hand {hand} of a game ÷ a warm play",
        f"{first / warm:.1f}× ({first * 1e3:.0f} ms against {warm * 1e3:.1f} ms); "
        f"{first / new_first:.1f}× a new game's first play after a restart",
        "2×",
    )
    return hand, first, warm, new_first


def first_play(
    bench: Bench, database: Path, game_id: str, warm_games: int = 100
) -> tuple[float, float]:
    """In a new process on ``database``, as a restarted server (its warm-up reading at most
    ``warm_games`` games in play): the seconds of its first play of ``game_id``, then of the
    next one. The game's revision and hints are read here, as the phone knows them."""
    seq, hints = bench.store.revision(game_id), bench.store.get(game_id).coaching
    with tempfile.TemporaryDirectory(prefix="restart-") as folder:
        # A copy each: the plays and undos of one process do not lengthen the next one's hand.
        copy = Path(folder) / database.name
        with closing(sqlite3.connect(database)) as source, closing(sqlite3.connect(copy)) as to:
            source.backup(to)
        script = (
            f"import json, sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
            "import bench_server as b; "
            f"print(json.dumps(b.plays_after_start({str(copy)!r}, {game_id!r}, {seq}, "
            f"{hints}, {warm_games})))"
        )
        out = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        ).stdout
    first, warm = json.loads(out.splitlines()[-1])
    return first, warm


def plays_after_start(
    database: str, game_id: str, seq: int, hints: bool, warm_games: int
) -> tuple[float, float]:
    """The first play as the phone sends it, knowing the game's revision and hints from its page
    (the new process has not read the game before), then the next plays'."""
    bench = Bench(_warm(create_app({**config(database), "WARM_GAMES": warm_games})))
    data = {"seq": seq, "tile": "5-5", "hints": "1" if hints else "0", "csrf_token": TOKEN}
    start = clock()
    response = bench.client.post(f"/g/{game_id}/play", data=data, headers=PHONE)
    first = clock() - start
    assert response.status_code == 200, response.status_code
    bench.store.apply(game_id, seq + 1, Undo())
    warm = timed(lambda: bench.lead_and_undo(game_id, "htmx"), 20)
    bench.store.close()
    return first, warm


def measure_memory(database: Path) -> float:
    """The bytes a cached game of 1,000 actions holds once served, in a fresh app: after a
    first game has warmed what every game shares, the growth from serving two more, halved."""
    bench = Bench(create_app(config(database)))
    games = [bench.long_game(1000, seed) for seed in (11, 12, 13)]
    bench.store.close()
    bench = Bench(_warm(create_app(config(database))))
    tracemalloc.start()
    bench.serve(games[0])
    gc.collect()
    before = tracemalloc.take_snapshot()
    for game_id in games[1:]:
        bench.serve(game_id)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    each = grown / (len(games) - 1)
    print(f"memory per cached game of 1,000 actions, as served: {each / 1024:,.0f} KiB")
    figure(
        "memory per cached game, 1,000 actions as served",
        f"{each / 1024:,.0f} KiB (the default {CACHE_BUDGET / 2**20:.0f} MiB cache per worker "
        f"holds about {CACHE_BUDGET / each:,.0f} such games)",
        "100 KiB",
    )
    measure_process_caches()
    bench.store.close()
    return each


def measure_process_caches() -> None:
    """What the process keeps outside the games' byte budget, each cache bounded: the rules'
    record of the hands being played (R7a), and every function's cache, by its entries."""
    from webapp.rules import evidence
    from webapp.store.cache import size_of

    recent = size_of(evidence._RECENT)
    print(
        f"per-process caches outside the byte budget: the hands' records (R7a) "
        f"{len(evidence._RECENT)} of {evidence._RECENT_SIZE} entries, {recent / 1024:,.0f} KiB"
    )
    found = []
    for name, module in sorted(sys.modules.items()):
        if not name.startswith("webapp."):
            continue
        for attribute, value in vars(module).items():
            if not callable(value) or isinstance(value, LocalProxy):
                continue
            info = getattr(value, "cache_info", None)
            if callable(info) and getattr(value, "__module__", "") == name:
                used = info()
                found.append(f"{name.removeprefix('webapp.')}.{attribute} {used.currsize}")
                found[-1] += f"/{used.maxsize}"
    print(f"  functions' caches (entries/most): {', '.join(found)}")
    figure(
        "per-process caches outside the byte budget (after the memory run)",
        f"the hands' records {recent / 1024:,.0f} KiB in {len(evidence._RECENT)} of "
        f"{evidence._RECENT_SIZE} entries; every function's cache bounded",
        "bounded",
    )


def measure_bytes(bench: Bench) -> None:
    game_id = bench.new_game()
    page = bench.client.get(f"/g/{game_id}", headers=GZIP)
    total = len(page.get_data())
    parts = [f"HTML {len(page.get_data()):,}"]
    html = bench.client.get(f"/g/{game_id}").get_data(as_text=True)
    # What the browser downloads to show the page: its stylesheet and scripts (the home-screen
    # icon, rel="apple-touch-icon", is fetched only when the page is added to a home screen).
    loaded = r'<(?:script src|link rel="stylesheet" href)="(/static/[^"]+)"'
    for asset in re.findall(loaded, html):
        with bench.client.get(asset, headers=GZIP) as response:
            size = len(response.get_data())
        parts.append(f"{Path(asset).name} {size:,}")
        total += size
    print(f"first load of the game screen: {total:,} bytes gzip ({', '.join(parts)}); budget 40 KB")
    figure("game screen's first load, gzip", f"{total:,} bytes", "40 KB")
    seq = bench.store.revision(game_id)
    data = {"seq": seq, "tile": "5-5", "hints": "0", "csrf_token": TOKEN}
    play = bench.client.post(f"/g/{game_id}/play", data=data, headers={**HX, **GZIP})
    bench.store.apply(game_id, seq + 1, Undo())
    data["seq"] = seq + 2
    raw = bench.client.post(f"/g/{game_id}/play", data=data, headers=HX)
    print(
        f"response to a play (htmx):     {len(play.get_data()):,} bytes gzip "
        f"({len(raw.get_data()):,} raw); budget 8 KB"
    )
    figure(
        "response to a play, gzip",
        f"{len(play.get_data()):,} bytes ({len(raw.get_data()):,} raw)",
        "8 KB",
    )


def measure_mid_hand(bench: Bench, rounds: int) -> None:
    """Worked example A's first five plays, then its sixth, 6-6 on the right: timed with its
    undo, as a phone posts it, and its response weighed."""
    game_id = bench.new_game()
    for seq, action in enumerate(EXAMPLE_A[:5].actions(), start=1):
        bench.store.apply(game_id, seq, action)
    _, sixth = EXAMPLE_A[5].form()
    data = {**sixth, "hints": "0", "csrf_token": TOKEN}

    def play() -> float:
        seq = bench.store.revision(game_id)
        start = clock()
        response = bench.client.post(f"/g/{game_id}/play", data={**data, "seq": seq}, headers=PHONE)
        elapsed = clock() - start
        assert response.status_code == 200, response.status_code
        bench.store.apply(game_id, seq + 1, Undo())
        return elapsed

    took = timed(play, rounds)
    seq = bench.store.revision(game_id)
    raw = bench.client.post(f"/g/{game_id}/play", data={**data, "seq": seq}, headers=HX)
    bench.store.apply(game_id, seq + 1, Undo())
    gz = bench.client.post(
        f"/g/{game_id}/play", data={**data, "seq": seq + 2}, headers={**HX, **GZIP}
    )
    print(
        f"a mid-hand play (htmx):        {took * 1e6:6.0f} µs, response "
        f"{len(raw.get_data()):,} bytes raw, {len(gz.get_data()):,} gzip"
    )


# The part of the server each function's own time belongs to, by where it is defined.
PARTS = (
    ("the test client (left out)", ("werkzeug/test.py", "flask/testing.py", "bench_server.py")),
    ("rules engine", ("webapp/rules/",)),
    ("templates", ("jinja2/", "markupsafe/", "templates/")),
    (
        "template context (view models)",
        ("webapp/game/screen.py", "webapp/game/regions.py", "webapp/ui/"),
    ),
    ("store: read and write", ("webapp/store/", "sqlalchemy/", "sqlite")),
    ("session cookie", ("flask/sessions.py", "itsdangerous/")),
    ("gzip", ("gzip.py", "zlib", "webapp/web/compress.py")),
    ("rate limits", ("flask_limiter/", "limits/")),
    ("Flask/Werkzeug", ("flask/", "werkzeug/", "blinker/")),
    ("views, CSRF and headers", ("webapp/",)),
)


def _part(where: str) -> str:
    for name, places in PARTS:
        if any(place in where for place in places):
            return name
    return "other"


def measure_profile(bench: Bench, rounds: int, hints: bool) -> None:
    """Each function's own time during htmx plays, summed by the part it belongs to; the
    standard library's and built-ins' go to the parts that called them."""
    game_id = bench.new_game(hints=hints)
    for _ in range(20):
        bench.lead_and_undo(game_id, "htmx")
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(rounds):
        bench.lead_and_undo(game_id, "htmx")
    profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    spent: dict[str, float] = defaultdict(float)
    for function, (_, _, own, _, _) in stats.items():
        for name, share in _parts_of(function, stats, set()).items():
            spent[name] += own * share
    spent.pop(PARTS[0][0], None)
    total = sum(spent.values())
    label = "with hints on" if hints else "hints off"
    print(f"where an htmx play's server time goes ({label}; cProfile, {rounds} plays):")
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"  {name:32} {100 * seconds / total:5.1f}%")


def _parts_of(function: tuple[str, int, str], stats: dict, seen: set) -> dict[str, float]:
    """The parts a function's time belongs to, as fractions: its own, or else its callers'."""
    filename = function[0]
    name = _part(filename) if filename != "~" else "other"
    callers = stats[function][4]
    if name != "other" or not callers or function in seen:
        return {name: 1.0}
    seen = seen | {function}
    calls = sum(counts[1] for counts in callers.values()) or 1
    found: dict[str, float] = defaultdict(float)
    for caller, counts in callers.items():
        for part, share in _parts_of(caller, stats, seen).items():
            found[part] += share * counts[1] / calls
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--restarts", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="fewer rounds and restarts")
    args = parser.parse_args()
    rounds, restarts = (60, 3) if args.quick else (args.rounds, args.restarts)
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.sqlite3"
        app = create_app(config(database))
        bench = Bench(app)
        measure_play(bench, rounds)
        measure_long_game(bench, database, max(30, rounds // 3), restarts)
        measure_bytes(bench)
        measure_mid_hand(bench, rounds)
        for hints in (False, True):
            measure_profile(bench, rounds, hints)
        bench.store.close()
        measure_memory(Path(folder) / "memory.sqlite3")
    print(f"\n{legacy_table(FIGURES)}")


if __name__ == "__main__":
    main()
