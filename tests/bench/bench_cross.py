"""Benchmark: plays made on one app server, heard by a screen following the game on another.

Two ``allfives serve`` processes on one PostgreSQL, sharing nothing else (as the README's
"Deploying on PostgreSQL" runs them: a play reaches the other server by the NOTIFY sent in its
commit, ``webapp/store/feed.py``). One game of three players; a screen follows it by the stream
on the first server; ``--plays`` actions of a real game (300 by default: plays, draws, passes,
hands started and settled) are made one after another through the JSON API of the second, each
once the last was heard. For each, the delay from its request until the follower has read its
change, p50 / p99 / max, as a ratio to a play's own round trip (its request until its answer,
the median, measured on the same plays in the same run). The budget: p99 under 1 s.

Run ``python3 tests/bench/bench_cross.py --postgres URL [--plays 300]``. Not a test: pytest only
imports it.
"""

from __future__ import annotations

import argparse
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
from tests.bench.bench_fanout import App  # noqa: E402
from tests.bench.figures import percentile  # noqa: E402
from tests.bench.load import CHANGE  # noqa: E402
from tests.scripts import scripted_actions  # noqa: E402
from webapp.rules import Action, to_dict  # noqa: E402


class Follower:
    """A game screen's stream on its own connection, read by a thread: when each revision's
    change was read (monotonic)."""

    def __init__(self, port: int, path: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        self.hello = threading.Event()
        self.heard: dict[int, float] = {}
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        tail = b""
        try:
            while chunk := self.sock.recv(65536):
                now = time.monotonic()
                if b"event: hello" in tail + chunk:
                    self.hello.set()
                for found in CHANGE.finditer(tail + chunk):
                    self.heard.setdefault(int(found[1]), now)
                tail = (tail + chunk)[-40:]
        except OSError:
            return

    def when(self, seq: int, seconds: float) -> float | None:
        """When revision ``seq`` was read (or a later one: a follower behind is sent the game
        as it stands); None if not within ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = [at for heard, at in list(self.heard.items()) if heard >= seq]
            if found:
                return min(found)
            time.sleep(0.001)
        return None

    def close(self) -> None:
        self.sock.close()


PLAYERS = ["Ana", "Ben", "Cy"]


def api_action(action: Action) -> dict[str, object]:
    """``action`` as the JSON API takes it: its players named, not seated."""
    data = to_dict(action)
    if isinstance(data.get("remaining"), dict):
        data["remaining"] = {PLAYERS[int(seat)]: left for seat, left in data["remaining"].items()}
    return data


def measure(url: str, plays: int) -> dict[str, float]:
    """The delays (seconds) of ``plays`` actions made on one server and heard on the other."""
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        servers = [App(REPO, folder, name, 20.0, 1, database=url) for name in ("first", "second")]
        try:
            following, playing = servers
            body = {"players": PLAYERS, "rules": {"target": 10_000}}
            _status, state = playing.call("POST", "/api/games", body)
            game = str(state["id"])
            follower = Follower(following.port, f"/g/{game}/stream?seq=0")
            if not follower.hello.wait(30):
                raise RuntimeError("the stream said no hello")
            time.sleep(0.5)
            delays, trips = [], []
            missed = 0
            script = scripted_actions(random.Random(plays), 3, plays)
            for seq, action in enumerate(script):
                start = time.monotonic()
                status, _ = playing.call(
                    "POST", f"/api/games/{game}/actions", {"seq": seq, **api_action(action)}
                )
                trips.append(time.monotonic() - start)
                assert status == 200, (status, seq, api_action(action))
                heard = follower.when(seq + 1, 5.0)
                if heard is None:
                    missed += 1
                else:
                    delays.append(heard - start)
            follower.close()
        finally:
            for server in servers:
                server.stop()
    return {
        "plays": len(trips),
        "heard": len(delays),
        "missed": missed,
        "p50": percentile(delays, 0.5),
        "p99": percentile(delays, 0.99),
        "max": max(delays, default=float("nan")),
        "trip": statistics.median(trips),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", required=True, help="a SQLAlchemy URL of a PostgreSQL")
    parser.add_argument("--plays", type=int, default=300)
    args = parser.parse_args()
    got = measure(args.postgres, args.plays)
    trip = got["trip"]
    print(
        f"{got['plays']:.0f} plays on one app server, heard on another: p50 "
        f"{got['p50'] * 1e3:.0f} ms ({got['p50'] / trip:.1f}× a play's round trip), p99 "
        f"{got['p99'] * 1e3:.0f} ms ({got['p99'] / trip:.1f}×), max {got['max'] * 1e3:.0f} ms; "
        f"a play's round trip {trip * 1e3:.1f} ms; {got['missed']:.0f} missed (budget p99 < 1 s)"
    )


if __name__ == "__main__":
    main()
