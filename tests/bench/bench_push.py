"""Benchmark: servers holding thousands of game screens' streams open on 2 cores.

Each candidate is a real server process on loopback, on its own SQLite file, with one game;
``--streams`` followers (4,000 by default) open its stream, from many loopback addresses as
phones would come (``allfives serve`` lets one address hold 100 connections). Then:

- **idle CPU**: the server's CPU time (every process of it, from /proc) over ``--idle``
  seconds while nobody plays, in cores; a heartbeat falls inside the window;
- **memory**: its resident memory with the streams open, less before they were opened, per
  stream;
- **fan-out**: a play is made through the JSON API (the second: the first after a start
  renders for the first time); the time from the play's answer until each follower has read
  the change, p50 / p99 / max over the followers.

The references are measured in the same run: the CPU and memory of ``allfives serve
--workers 2`` holding as many idle keep-alive connections (each one request answered, no
stream), and the round trip of a play itself. Candidates:

- ``held``: ``allfives serve --workers 2`` as shipped (a process per core; each holds up to
  4,000 connections): waitress, each stream held by its loop (``webapp/serve/held.py``), no
  thread per stream, a play in one worker heard by the other through SQLite's data_version;
- ``threads``: waitress as is, each stream a generator holding one of ``streams + 100``
  threads;
- ``gevent``: gunicorn with a gevent worker (``pip install gevent``), a greenlet per stream.

With ``--postgres URL`` it also measures the cost of the NOTIFY a play sends in its commit on
PostgreSQL (``webapp/store/feed.py``): the write with it ÷ the same write without it.

Run ``python3 tests/bench/bench_push.py`` (``--quick``: 1,000 streams, 10 s idle; run it with
``nice`` on a shared machine). Not a test: pytest only imports it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PER_ADDRESS = 90  # under allfives serve's 100 connections per address
HELLO = b"event: hello"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def command(candidate: str, port: int, streams: int) -> list[str]:
    if candidate in ("held", "reference"):  # each process holds up to 4,000 connections
        return [sys.executable, "-m", "webapp.serve.cli", "serve", "--host", "127.0.0.1",
                "--port", str(port), "--workers", "2"]  # fmt: skip
    if candidate == "threads":
        code = (
            "import waitress, select; from webapp import create_app; "
            f"waitress.serve(create_app(), host='127.0.0.1', port={port}, threads={streams + 100}, "
            f"connection_limit={streams + 500}, asyncore_use_poll=True, backlog=2048, "
            "clear_untrusted_proxy_headers=False)"
        )
        return [sys.executable, "-c", code]
    return [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1", "--worker-connections",
            str(streams + 500), "--backlog", "2048", "-b", f"127.0.0.1:{port}",
            "webapp:create_app()"]  # fmt: skip


class Server:
    def __init__(self, candidate: str, folder: Path, streams: int) -> None:
        self.port = free_port()
        env = {**os.environ, "PYTHONPATH": str(REPO), "ALLFIVES_SECRET_KEY": "bench",
               "ALLFIVES_RATE_LIMITS": "off",
               "ALLFIVES_DATABASE": str(folder / f"{candidate}.sqlite3")}  # fmt: skip
        self.launch(command(candidate, self.port, streams), env, REPO, folder, candidate)

    def launch(
        self, argv: list[str], env: dict[str, str], cwd: Path, folder: Path, name: str
    ) -> None:
        """Start the server (its log in ``folder``) and wait until it answers."""
        self.process = subprocess.Popen(
            argv,
            env=env,
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=open(folder / f"{name}.log", "wb"),  # noqa: SIM115
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                self.call("GET", "/api/games/none")
                break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"{name} did not start") from None
                time.sleep(0.2)

    def call(self, method: str, path: str, body: object = None) -> tuple[int, dict[str, object]]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, {}

    def pids(self) -> list[int]:
        found = [self.process.pid]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == self.process.pid:
                    found.append(int(entry.name))
        return found

    def cpu(self) -> float:
        """Seconds of CPU used so far by the server's processes."""
        total = 0
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")

    def rss(self) -> int:
        total = 0
        for pid in self.pids():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            except OSError:
                continue
        return total

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Clients:
    """``count`` connections, each sending ``request`` once, read by one selector."""

    def __init__(self, port: int, count: int, request: bytes) -> None:
        self.selector = selectors.DefaultSelector()
        self.read: dict[socket.socket, bytes] = {}
        for number in range(count):
            source = f"127.0.{1 + number // (PER_ADDRESS * 250)}.{2 + number // PER_ADDRESS % 250}"
            sock = socket.socket()
            sock.bind((source, 0))
            sock.connect(("127.0.0.1", port))
            sock.sendall(request)
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.read[sock] = b""

    def until(self, mark: bytes, seconds: float) -> list[float]:
        """Read until every connection has shown ``mark``; when each did (monotonic)."""
        seen: dict[socket.socket, float] = {s: 0.0 for s, got in self.read.items() if mark in got}
        deadline = time.monotonic() + seconds
        while len(seen) < len(self.read) and time.monotonic() < deadline:
            for key, _ in self.selector.select(timeout=0.5):
                sock = key.fileobj
                try:
                    chunk = sock.recv(65536)  # type: ignore[union-attr]
                except OSError:
                    chunk = b""
                if not chunk:
                    self.selector.unregister(sock)
                    continue
                self.read[sock] += chunk  # type: ignore[index]
                if sock not in seen and mark in self.read[sock]:  # type: ignore[index]
                    seen[sock] = time.monotonic()  # type: ignore[index]
        return list(seen.values())

    def close(self) -> None:
        for sock in self.read:
            sock.close()
        self.selector.close()


def measure(candidate: str, folder: Path, streams: int, idle: float) -> dict[str, float]:
    server = Server(candidate, folder, streams)
    try:
        _status, state = server.call("POST", "/api/games", {"players": ["Ana", "Ben"]})
        game = state["id"]
        server.call(
            "POST", f"/api/games/{game}/actions", {"seq": 0, "type": "start_hand", "starter": "Ana"}
        )
        time.sleep(1)
        before = server.rss()
        if candidate == "reference":
            request = f"GET /api/games/{game} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
            mark = b"}"
        else:
            request = f"GET /g/{game}/stream?seq=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
            mark = HELLO
        clients = Clients(server.port, streams, request)
        opened = len(clients.until(mark, 120))
        time.sleep(1)
        cpu = server.cpu()
        time.sleep(idle)
        cores = (server.cpu() - cpu) / idle
        memory = (server.rss() - before) / max(1, opened)
        result = {"opened": opened, "cores": cores, "per_stream": memory}
        # The first play after a start renders what no page asked for yet: measured on the next.
        for seq, tile in ((1, "5-5"), (2, "5-3")):
            start = time.monotonic()
            played, _ = server.call(
                "POST", f"/api/games/{game}/actions", {"seq": seq, "type": "play", "tile": tile}
            )
            assert played == 200, played
            answered = time.monotonic()
            result["play"] = answered - start
            if candidate == "reference":
                continue
            mark = f"id: {seq + 1}\nevent: change".encode()
            heard = sorted(at - answered for at in clients.until(mark, 60))
            result["heard"] = len(heard)
            if heard:
                result["p50"] = statistics.median(heard)
                result["p99"] = heard[min(len(heard) - 1, int(len(heard) * 0.99))]
                result["max"] = heard[-1]
        clients.close()
        return result
    finally:
        server.stop()


def notify_cost(url: str, plays: int) -> None:
    """A play's write on PostgreSQL (``Writer.append``: move the game, insert the event) with
    the NOTIFY sent in its commit ÷ the same write without it, interleaved."""
    from webapp.rules import Options
    from webapp.store import open_store
    from webapp.store.sql import Cursor

    store = open_store(url)
    game = store.create(Options.make(["Ana", "Ben"])).id
    writer = store._write
    run = Cursor.run
    silent = writer.driver.notify

    def quiet(self: Cursor, statement: object, **values: object) -> object:
        return self.raw if statement is silent else run(self, statement, **values)  # type: ignore[arg-type]

    took = {True: 0.0, False: 0.0}
    for seq in range(1, 2 * plays + 1):
        notify = seq % 2 == 0
        Cursor.run = run if notify else quiet  # type: ignore[method-assign]
        start = time.perf_counter()
        assert writer.append(game, seq, {"type": "pass"}, datetime.now(UTC))
        took[notify] += time.perf_counter() - start
    Cursor.run = run  # type: ignore[method-assign]
    store.close()
    print(f"PostgreSQL: a play's write with NOTIFY in its commit ÷ without: "
          f"{took[True] / took[False]:.2f}× ({took[True] / plays * 1e6:.0f} µs against "
          f"{took[False] / plays * 1e6:.0f} µs, {plays} each, interleaved)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, default=4000)
    parser.add_argument("--idle", type=float, default=25.0, help="seconds of idle CPU measured")
    parser.add_argument("--candidates", nargs="*", default=["held", "threads", "gevent"])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--postgres", help="a PostgreSQL URL: also measure NOTIFY's cost")
    args = parser.parse_args()
    if args.postgres:
        notify_cost(args.postgres, 300 if args.quick else 2000)
    if args.quick:
        args.streams, args.idle = 1000, 10.0
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 3 * args.streams + 2000), hard))
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        reference = measure("reference", folder, args.streams, args.idle)
        print(f"reference: {reference['opened']} idle keep-alive connections on `allfives serve`: "
              f"{reference['cores']:.4f} cores, {reference['per_stream'] / 1024:.1f} KiB each; "
              f"a play's round trip {reference['play'] * 1000:.1f} ms")  # fmt: skip
        print(
            "| server | streams open | idle CPU (cores) ÷ reference | memory per stream ÷ "
            "reference | a play to every follower: p50 / p99 / max ÷ a play's round trip |"
        )
        print("| --- | --- | --- | --- | --- |")
        for candidate in args.candidates:
            try:
                got = measure(candidate, folder, args.streams, args.idle)
            except Exception as error:  # a candidate that cannot run is a row that says so
                print(f"| {candidate} | failed: {type(error).__name__}: {error} | | | |")
                continue
            play = reference["play"]
            fan = (
                f"{got['p50'] / play:.1f}× / {got['p99'] / play:.1f}× / {got['max'] / play:.1f}× "
                f"({got['p50'] * 1000:.0f} / {got['p99'] * 1000:.0f} / {got['max'] * 1000:.0f} ms; "
                f"{got.get('heard', 0):.0f} heard)"
                if "p50" in got
                else f"none of {got['opened']:.0f} heard it"
            )
            print(
                f"| {candidate} | {got['opened']:.0f} of {args.streams} | {got['cores']:.4f} "
                f"({got['cores'] / max(reference['cores'], 1e-4):.1f}×) | "
                f"{got['per_stream'] / 1024:.1f} KiB "
                f"({got['per_stream'] / max(reference['per_stream'], 1):.1f}×) | {fan} |"
            )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
