"""Server-side cost of a play, the cost of a long game, and the bytes a phone downloads.

Prints:

1. server time for one play through the WSGI app in-process (the htmx form post and the JSON
   API), against a bare Flask endpoint returning a short string in the same process: the ratio;
2. the same play in a game whose log already holds 1,000 actions, against the first plays of a
   new game: the ratio (warm: the replayed state is cached; cold: every request replays);
3. bytes over the wire, gzip-compressed: the game screen's first load (HTML, CSS, JS, SVG)
   and the response to a play;
4. a play in the middle of a hand (the seventh of a hand): the server time and the bytes of
   its htmx response, raw and gzip (the regions it changed, swapped out of band).

Run it with ``python3 tests/bench/bench_server.py``. It is not a test: pytest only imports it.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from flask import Flask
from load import scripted_actions

from webapp import create_app
from webapp.rules import Arm, Play, StartHand, Tile, Undo
from webapp.store import Store

HX = {"HX-Request": "true"}
GZIP = {"Accept-Encoding": "gzip"}


def timed(action: Callable[[], float | None], rounds: int) -> float:
    """Median seconds per call over ``rounds`` calls (after a warm-up); an action that returns
    a duration is timed by that (to leave out its untimed set-up)."""
    for _ in range(min(20, rounds)):
        action()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        own = action()
        samples.append(own if own is not None else time.perf_counter() - start)
    return statistics.median(samples)


class Bench:
    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client = app.test_client()
        self.client.get("/new")  # a session, as a phone has
        with self.client.session_transaction() as session:
            session["csrf_token"] = "bench"
        self.store: Store = app.extensions["allfives_store"]

    def new_game(self, start: bool = True) -> str:
        body = {"players": ["Ana", "Ben", "Cy"], "rules": {"target": 10_000}}
        game_id = self.client.post("/api/games", json=body).json["id"]
        if start:
            self.store.apply(game_id, 0, StartHand(0))
        return game_id

    def lead_and_undo(self, game_id: str, path: str) -> float:
        """One play request, timed, and the undo that takes it back, so the next is the same."""
        seq = self.store.revision(game_id)
        start = time.perf_counter()
        if path == "api":
            response = self.client.post(
                f"/api/games/{game_id}/actions", json={"seq": seq, "type": "play", "tile": "5-5"}
            )
        else:
            data = {"seq": seq, "tile": "5-5", "csrf_token": "bench"}
            response = self.client.post(f"/g/{game_id}/play", data=data, headers=HX)
        assert response.status_code == 200, response.status_code
        elapsed = time.perf_counter() - start
        self.store.apply(game_id, seq + 1, Undo())
        return elapsed

    def long_game(self, actions: int) -> str:
        """A game of real hands whose log holds about ``actions`` actions, stopped as its next
        hand starts, so that its next play is a lead, as in a new game."""
        game_id = self.new_game(start=False)
        for seq, action in enumerate(scripted_actions(random.Random(7), 3, actions + 200)):
            self.store.apply(game_id, seq, action)
            if seq + 1 >= actions and isinstance(action, StartHand):
                break
        return game_id


def measure_play(bench: Bench, rounds: int) -> None:
    bare = Flask("bare")
    bare.add_url_rule("/", "bare", lambda: "ok")
    bare_client = bare.test_client()
    bare_time = timed(lambda: _none(bare_client.get("/")), rounds)
    print(f"bare Flask endpoint:            {bare_time * 1e6:8.0f} µs")
    for path in ("htmx", "api"):
        game_id = bench.new_game()
        # Each round is a play and its undo; the undo goes straight to the store (untimed).
        play = timed(lambda g=game_id, p=path: bench.lead_and_undo(g, p), rounds)
        print(
            f"play through the {path:4} endpoint: {play * 1e6:8.0f} µs"
            f"   ratio to bare: {play / bare_time:5.1f}× (budget 5×)"
        )


def _none(_result: object) -> None:
    return None


def measure_long_game(bench: Bench, rounds: int) -> None:
    fresh = bench.new_game()
    long = bench.long_game(1000)
    hand = bench.store.get(long).state.hand_number
    print(f"a game with {bench.store.revision(long)} actions in its log, in hand {hand}:")
    for cold in (False, True):

        def play(game_id: str, cold: bool = cold) -> float:
            if cold:
                bench.store.cache.clear()
            return bench.lead_and_undo(game_id, "htmx")

        new_time = timed(lambda: play(fresh), rounds)
        long_time = timed(lambda: play(long), rounds)
        label = "cold (replayed each time)" if cold else "warm (state cached)      "
        print(
            f"  {label}: new {new_time * 1e3:6.2f} ms, 1,000-action {long_time * 1e3:6.2f} ms"
            f"   ratio {long_time / new_time:4.2f}× (budget 1.2×)"
        )


def measure_bytes(bench: Bench) -> None:
    game_id = bench.new_game()
    page = bench.client.get(f"/g/{game_id}", headers=GZIP)
    total = len(page.get_data())
    parts = [f"HTML {len(page.get_data()):,}"]
    html = bench.client.get(f"/g/{game_id}").get_data(as_text=True)
    for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', html):
        size = len(bench.client.get(asset, headers=GZIP).get_data())
        parts.append(f"{Path(asset).name} {size:,}")
        total += size
    print(f"first load of the game screen: {total:,} bytes gzip ({', '.join(parts)}); budget 40 KB")
    seq = bench.store.revision(game_id)
    data = {"seq": seq, "tile": "5-5", "csrf_token": "bench"}
    play = bench.client.post(f"/g/{game_id}/play", data=data, headers={**HX, **GZIP})
    raw = bench.client.get(f"/g/{game_id}", headers=HX)
    print(
        f"response to a play (htmx):     {len(play.get_data()):,} bytes gzip "
        f"({len(raw.get_data()):,} raw); budget 8 KB"
    )


MID_HAND = [("3-2", None), ("2-2", "right"), ("2-6", "right"), ("2-4", "up"), ("3-1", "left")]


def measure_mid_hand(bench: Bench, rounds: int) -> None:
    """Worked example A's first plays, then 6-6 on the right: timed with its undo, as a phone
    posts it, and its response weighed."""
    game_id = bench.new_game()
    for seq, (tile, end) in enumerate(MID_HAND, start=1):
        bench.store.apply(game_id, seq, Play(Tile.parse(tile), Arm.parse(end) if end else None))
    data = {"tile": "6-6", "end": "right", "csrf_token": "bench"}

    def play() -> float:
        seq = bench.store.revision(game_id)
        start = time.perf_counter()
        response = bench.client.post(f"/g/{game_id}/play", data={**data, "seq": seq}, headers=HX)
        elapsed = time.perf_counter() - start
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "bench.sqlite3"), "SECRET_KEY": "b"})
        bench = Bench(app)
        measure_play(bench, args.rounds)
        measure_long_game(bench, max(50, args.rounds // 3))
        measure_bytes(bench)
        measure_mid_hand(bench, args.rounds)
        bench.store.close()


if __name__ == "__main__":
    main()
