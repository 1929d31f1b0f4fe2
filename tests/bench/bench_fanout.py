"""Benchmark: one play written to 4,000 followers of one game, and 4,000 idle followers' cost.

A real ``allfives serve --workers 2`` (as on a 2-core machine: each worker takes up to 4,000
connections, so one alone would refuse the play once 4,000 streams are open) on its own SQLite
file, one game, ``--streams`` open streams from many loopback addresses as phones would come,
read by one selector; a play made in one worker reaches the other's followers through SQLite's
data_version (read every 150 ms). Then:

- **reference**: one round trip of a request on the same server, now, with the streams open
  (``GET /api/games/<id>`` on a fresh connection, the median of 30);
- **idle CPU**: the server's CPU time over ``--idle`` seconds while nobody plays, in cores (the
  budget: < 0.05 core for 4,000 followers); heartbeats every ``--beat`` seconds fall inside;
- **fan-out**: ``--plays`` plays through the JSON API, one after another; for each, the time
  from the play's request until each follower has read its change; p50 / p99 / max over every
  follower of every play, each as a ratio to the reference round trip; and the server's CPU
  time per play (its processes, from /proc: the play, its render, and the writes to every
  follower), which the benchmark's own reader does not blur.

``--against PATH`` measures another checkout of the app the same way in the same run (the
server started with that checkout first on its path), so a change is seen against the code
before it: ``python3 tests/bench/bench_fanout.py --against /path/to/main``. ``--quick``:
1,000 streams, 10 s idle. Run it with ``nice`` on a shared machine. Not a test: pytest only
imports it.
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
from tests.bench.bench_push import HELLO, Clients, Server, free_port  # noqa: E402


class App(Server):
    """``allfives serve --workers N`` of the checkout at ``code``."""

    def __init__(
        self, code: Path, folder: Path, name: str, beat: float, workers: int, database: str = ""
    ) -> None:
        """On ``database`` (a SQLAlchemy URL), or else a SQLite file of its own in ``folder``."""
        self.port = free_port()
        env = {**os.environ, "PYTHONPATH": str(code), "ALLFIVES_SECRET_KEY": "bench",
               "ALLFIVES_RATE_LIMITS": "off", "ALLFIVES_STREAM_HEARTBEAT": str(beat),
               "ALLFIVES_DATABASE": database or str(folder / f"{name}.sqlite3")}  # fmt: skip
        serve = [
            "-m",
            "webapp.serve.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--workers",
            str(workers),
        ]
        self.launch([sys.executable, *serve, "--port", str(self.port)], env, code, folder, name)


def round_trip(app: App, game: str) -> float:
    """One request's round trip on its own connection, the median of 30."""
    took = []
    for _ in range(30):
        start = time.perf_counter()
        with socket.create_connection(("127.0.0.1", app.port)) as sock:
            sock.settimeout(30)
            sock.sendall(
                f"GET /api/games/{game} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Connection: close\r\n\r\n".encode()
            )
            while sock.recv(65536):  # to the end of the answer, when the server closes
                pass
        took.append(time.perf_counter() - start)
    return statistics.median(took)


def measure(code: Path, folder: Path, name: str, args: argparse.Namespace) -> dict[str, float]:
    app = App(code, folder, name, args.beat, args.workers)
    try:
        _status, state = app.call("POST", "/api/games", {"players": ["Ana", "Ben"]})
        game = str(state["id"])
        app.call(
            "POST", f"/api/games/{game}/actions", {"seq": 0, "type": "start_hand", "starter": "Ana"}
        )
        # The first play after a start renders for the first time: made before the streams.
        app.call("POST", f"/api/games/{game}/actions", {"seq": 1, "type": "play", "tile": "5-5"})
        seq = 2
        request = f"GET /g/{game}/stream?seq={seq} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
        clients = Clients(app.port, args.streams, request)
        opened = len(clients.until(HELLO, 120))
        time.sleep(1)
        reference = round_trip(app, game)
        cpu = app.cpu()
        time.sleep(args.idle)
        cores = (app.cpu() - cpu) / args.idle
        heard: list[float] = []
        everyone: list[float] = []
        tiles = ["5-3", "3-3", "3-1", "1-1", "1-4", "4-4", "4-2", "2-2"]
        spent = 0.0
        for tile in tiles[: args.plays]:
            time.sleep(1)  # the last play's writes are over
            cpu = app.cpu()
            start = time.monotonic()
            status, _ = app.call(
                "POST", f"/api/games/{game}/actions", {"seq": seq, "type": "play", "tile": tile}
            )
            if status != 200:  # the deal did not allow it: a draw moves the game as well
                status, _ = app.call(
                    "POST", f"/api/games/{game}/actions", {"seq": seq, "type": "draw"}
                )
            assert status == 200, status
            seq += 1
            mark = f"id: {seq}\nevent: change".encode()
            times = sorted(at - start for at in clients.until(mark, 60))
            spent += app.cpu() - cpu
            heard.extend(times)
            everyone.append(times[-1] if len(times) == opened else float("inf"))
        clients.close()
        heard.sort()
        return {
            "opened": opened,
            "reference": reference,
            "cores": cores,
            "p50": statistics.median(heard),
            "p99": heard[min(len(heard) - 1, int(len(heard) * 0.99))],
            "max": heard[-1],
            "everyone": statistics.median(everyone),
            "heard": len(heard) / max(1, args.plays),
            "cpu_per_play": spent / max(1, args.plays),
        }
    finally:
        app.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, default=4000)
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of idle CPU measured")
    parser.add_argument("--plays", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--beat", type=float, default=20.0, help="seconds between heartbeats")
    parser.add_argument("--against", type=Path, help="another checkout, measured the same way")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.streams, args.idle = 1000, 10.0
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 3 * args.streams + 2000), hard))
    codes = [("this checkout", REPO)]
    if args.against:
        codes.append((f"{args.against}", args.against.resolve()))
    print(
        f"{args.streams} streams of one game on `allfives serve --workers {args.workers}`, "
        f"a beat every {args.beat:g} s, {args.plays} plays, idle CPU over {args.idle:g} s"
    )
    print("| code | streams open | one round trip | a play to each follower: p50 / p99 / max ÷ "
          "round trip | to the last follower (median of plays) | server CPU per play "
          "÷ round trip | idle CPU (cores) |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as temporary:
        for number, (label, code) in enumerate(codes):
            got = measure(code, Path(temporary), f"code{number}", args)
            trip = got["reference"]
            print(
                f"| {label} | {got['opened']:.0f} | {trip * 1000:.1f} ms | "
                f"{got['p50'] / trip:.1f}× / {got['p99'] / trip:.1f}× / {got['max'] / trip:.1f}× "
                f"({got['p50'] * 1000:.0f} / {got['p99'] * 1000:.0f} / {got['max'] * 1000:.0f} ms;"
                f" {got['heard']:.0f} heard each play) | {got['everyone'] * 1000:.0f} ms "
                f"({got['everyone'] / trip:.1f}×) | {got['cpu_per_play'] * 1000:.0f} ms "
                f"({got['cpu_per_play'] / trip:.1f}×) | {got['cores']:.4f} |"
            )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
