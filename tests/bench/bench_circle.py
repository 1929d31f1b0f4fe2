"""What a circle of 1,000 games costs to show, against one game's page.

A circle of 1,000 finished and unfinished games (real logs played at random through the rules,
with undos and corrections, two to four players, each stored as its own game) is built in a
temporary SQLite database. Then, in one process, CPU time of:

- the reference: a game's page (``/g/<id>``) of one of those games, as kept (warm);
- the circle's page (``/c/<id>``) as kept (the statistics kept per revision of the circle and
  of its games: one query of 1,000 revisions, no summary read, no log read);
- the circle's page after one of its games moved on (a play made: one summary worked out
  again, 999 read back from ``game_summaries``);
- the circle's page in a fresh process (nothing of the circle in memory, its templates
  compiled: 1,000 summaries read back, none worked out);
- the circle's page the first time ever (no summary kept: 1,000 logs replayed, which is what
  every view would cost without the summaries), once.

Each figure is printed as a ratio to the reference measured in the same run. Run it with
``nice python3 tests/bench/bench_circle.py [--quick]`` (``--quick``: 200 games). It is not a
test: pytest only imports it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from flask import Flask

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.tables import device
from tests.web.golden_games import random_game
from webapp import create_app
from webapp.rules import Options, to_dict
from webapp.store import Store

clock = time.process_time
PEOPLE = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]


def logs(count: int) -> list[tuple[Options, list[dict[str, Any]]]]:
    """``count`` distinct games, played at random (undos, corrections), most to their end."""
    found = []
    for seed in range(count):
        players = [PEOPLE[(seed + i) % len(PEOPLE)] for i in range(2 + seed % 3)]
        partnership = len(players) == 4 and seed % 2 == 0
        options = Options.make(
            players, partnership, ("seed", "pagat", "muggins")[seed % 3], target=61
        )
        log = random_game(options, seed, 400 if seed % 10 else 60)
        found.append((options, [to_dict(action) for action in log]))
    return found


def app_on(database: str) -> Flask:
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "bench"})


def timed(client: Any, url: str, times: int) -> float:
    """The median CPU seconds of ``times`` GETs of ``url``."""
    spent = []
    for _ in range(times):
        start = clock()
        answer = client.get(url)
        spent.append(clock() - start)
        assert answer.status_code == 200, (url, answer.status_code)
    return statistics.median(spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 games, not 1,000")
    games = 200 if parser.parse_args().quick else 1_000
    folder = tempfile.mkdtemp(prefix="bench-circle-")
    database = f"sqlite:///{folder}/circle.sqlite3"
    played = logs(40)
    app = app_on(database)
    store: Store = app.extensions["allfives_store"]
    circle = store.circles.create("Thursday club")
    ids = []
    for number in range(games):
        options, log = played[number % len(played)]
        snapshot = store.create(options, log)
        store.circles.add_game(circle.id, snapshot.id)
        ids.append(snapshot.id)
    client = device(app)
    game_url, circle_url = f"/g/{ids[0]}", f"/c/{circle.id}"

    first = clock()
    client.get(circle_url)  # no summary kept yet: every log replayed, the summaries kept
    first = clock() - first
    reference = timed(client, game_url, 9)
    warm = timed(client, circle_url, 9)

    moved = []
    for _ in range(5):  # a game moves on (a hand started and undone): its summary is stale
        state = client.get(f"/api/games/{ids[-1]}").json
        action = {"seq": state["seq"], "type": "undo"} if state["can_undo"] else None
        if action is not None:
            client.post(f"/api/games/{ids[-1]}/actions", json=action)
        start = clock()
        client.get(circle_url)
        moved.append(clock() - start)
    after_move = statistics.median(moved)

    tiny = store.circles.create("Warm-up")  # so that the fresh process has its templates
    store.close()
    fresh_app = app_on(database)  # a new process: nothing in memory
    fresh = device(fresh_app)
    fresh.get(f"/c/{tiny.id}")  # templates compiled: what is timed is the circle's own cost
    start = clock()
    fresh.get(circle_url)
    cold = clock() - start
    fresh_app.extensions["allfives_store"].close()

    rows = [
        ("a game's page (the reference)", reference),
        (f"circle page, {games} games, as kept", warm),
        (f"circle page, {games} games, after one game moved on", after_move),
        (f"circle page, {games} games, fresh process (summaries read back)", cold),
        (f"circle page, {games} games, first view ever (every log replayed)", first),
    ]
    print("| figure | CPU | ÷ a game's page |\n| --- | --- | --- |")
    for name, seconds in rows:
        print(f"| {name} | {seconds * 1000:.1f} ms | {seconds / reference:.1f}× |")


if __name__ == "__main__":
    main()
