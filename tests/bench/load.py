"""Load test: N tables at once, each entering an action every 2 seconds through the HTML
endpoints of a real ``allfives serve`` on loopback.

Each table's actions are a real game worked out in advance with the rules engine (tiles
dealt at random, each player plays the first tile that fits, draws or passes otherwise, hands
settled with the tiles really left). Every request is timed; at the end every table's game is
read back to check that every acknowledged action landed, and nothing else.

Throughput is the actions acknowledged divided by the time from the first request to the
last answer: requests still queued when the tables stop asking are drained and counted, and
so is the time they took. It is printed against what the tables asked for (one action per
table every 2 seconds), with the latencies and the server's CPU time per action.

With ``--followers K`` each table also has K phones following its game by the stream (the
playing phone among them, as on a real table: ``--followers 4`` is a table of four phones),
opened before the tables start, each from one of many loopback addresses as phones would come
(``allfives serve`` lets one address hold 100 connections), a table's phones at different
moments as at a real table (the first phone of every table, then the second...: opened
together, a table's streams would nearly all be taken by the same worker process); each
play's delay is measured from its request until each follower has read it (its change, or a
later one: a follower behind is sent the game as it then stands), p50 / p99 over every
follower of every play, and a play no change brought a follower is counted as missed.

Run it with ``python3 tests/bench/load.py --tables 100 300 1000 --seconds 30`` (``--quick``:
100 and 1,000 tables for 10 seconds); ``--parts`` also prints the server's CPU per action by
the part of its work: the request threads, the followers' thread (the changes rendered and
written), waitress's loop and the change feed. The server runs with
``ALLFIVES_RATE_LIMITS=off``: the tables' games are made from one address. It is not a test:
pytest only imports it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webapp.rules import Action, Draw, EndHand, Play, StartHand

# Run as a script, this folder is on the path but not the repository: the tests' scripts are.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.figures import percentile
from tests.scripts import scripted_actions

PERIOD = 2.0


def form_of(action: Action) -> dict[str, Any]:
    """The form a phone posts for ``action``, with the path it posts to."""
    if isinstance(action, StartHand):
        return {"path": "start", "leader": str(action.leader)}
    if isinstance(action, EndHand):
        form: dict[str, Any] = {"path": "settle", "step": "confirm"}
        for seat, report in action.reports:
            form[f"tiles_{seat}"] = [str(tile) for tile in report.tiles or ()]
        return form
    if isinstance(action, Play):
        end = action.arm.value if action.arm else ""
        return {"path": "play", "tile": str(action.tile), "end": end}
    if isinstance(action, Draw):
        return {"path": "draw", "count": str(action.count)}
    return {"path": "pass"}


def scripted_game(rng: random.Random, players: int, length: int) -> list[dict[str, Any]]:
    """Form fields for ``length`` legal actions of a real game, in order."""
    return [form_of(action) for action in scripted_actions(rng, players, length)]


@dataclass
class Table:
    game_id: str
    script: list[dict[str, str]]
    seq: int = 0
    acknowledged: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    answered_at: float = 0.0  # when its last answer came
    sent: dict[int, float] = field(default_factory=dict)  # the revision a play made: its request
    heard: list[dict[int, float]] = field(default_factory=list)  # per follower: when each came


PER_ADDRESS = 90  # connections per loopback address, under allfives serve's 100


def source(number: int) -> str:
    """The loopback address connection ``number`` comes from."""
    return f"127.0.{1 + number // (PER_ADDRESS * 250)}.{2 + number // PER_ADDRESS % 250}"


CHANGE = re.compile(rb"id: (\d+)\nevent: change")


async def follow(table: Table, host: str, port: int, local: str, opened: asyncio.Event) -> None:
    """One phone following ``table``'s game by its stream until it is cancelled: when it read
    each revision's change. It waits for the server's bytes and nothing else, as a phone does
    (a timeout around each read woke each of 4,000 phones every second: the load generator's
    own CPU, on the server's cores)."""
    heard: dict[int, float] = {}
    table.heard.append(heard)
    reader, writer = await asyncio.open_connection(host, port, local_addr=(local, 0))
    try:
        writer.write(
            f"GET /g/{table.game_id}/stream?seq={table.seq} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Cookie: language=en\r\n\r\n".encode()
        )
        tail = b""
        while chunk := await reader.read(65536):
            now = time.monotonic()
            if not opened.is_set() and b"event: hello" in tail + chunk:
                opened.set()
            for found in CHANGE.finditer(tail + chunk):
                heard.setdefault(int(found[1]), now)
            tail = (tail + chunk)[-40:]
    finally:
        writer.close()


async def request(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    host: str,
    path: str,
    body: bytes,
    cookie: str,
) -> tuple[int, bytes]:
    # As a phone's browser posts from the game screen (htmx, Fetch Metadata, gzip).
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nHX-Request: true\r\n"
        f"Sec-Fetch-Site: same-origin\r\nAccept-Encoding: gzip\r\nCookie: {cookie}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\nConnection: keep-alive\r\n\r\n"
    )
    writer.write(head.encode() + body)
    await writer.drain()
    status_line = await reader.readline()
    status = int(status_line.split()[1])
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    payload = await reader.readexactly(length) if length else b""
    return status, payload


async def run_table(
    table: Table,
    host: str,
    port: int,
    cookie: str,
    token: str,
    end: float,
    start_delay: float,
    local: str,
) -> None:
    await asyncio.sleep(start_delay)
    reader, writer = await asyncio.open_connection(host, port, local_addr=(local, 0))
    try:
        step = 0
        next_at = time.monotonic()
        while time.monotonic() < end and step < len(table.script):
            form = dict(table.script[step])
            path = f"/g/{table.game_id}/{form.pop('path')}"
            fields = {**form, "seq": str(table.seq), "csrf_token": token}
            body = urllib.parse.urlencode(fields, doseq=True).encode()
            started = time.monotonic()
            try:
                status, _ = await request(reader, writer, f"{host}:{port}", path, body, cookie)
            except (OSError, asyncio.IncompleteReadError, ValueError) as error:
                table.errors.append(f"connection: {error!r}")
                writer.close()
                reader, writer = await asyncio.open_connection(host, port, local_addr=(local, 0))
                status = 0
            table.answered_at = time.monotonic()
            table.latencies.append(table.answered_at - started)
            if status == 200:
                table.seq += 1
                table.sent[table.seq] = started
                table.acknowledged += 1
                step += 1
            elif status:
                table.errors.append(f"HTTP {status} on {path}")
            next_at += PERIOD
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
    finally:
        writer.close()


def call(base: str, method: str, path: str, body: object = None, headers: dict | None = None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=60) as response:
        return response.read(), response.headers


def server_cpu(pid: int) -> float:
    """CPU seconds used so far by the server process and its worker processes (Linux; else 0)."""
    total = 0.0
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        for each in [str(pid), *children]:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0
    return total


#: The server's threads by the name Python gives them, as the parts of its work they are.
PARTS = {"waitress": "loop", "allfives-push": "followers", "allfives-feed": "change feed"}


def part_of(name: str) -> str:
    """The part of the server's work a thread of ``name`` does (waitress-0, -1...: requests)."""
    return PARTS.get(name, "requests" if name.startswith("waitress-") else "other")


def thread_parts(pid: int) -> dict[str, str]:
    """Each thread of the server's worker processes (by id) and its part, named by ``py-spy
    dump`` (empty without py-spy, or on a system without /proc)."""
    spy = shutil.which("py-spy")
    parts: dict[str, str] = {}
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return parts
    for child in children if spy else ():
        dumped = subprocess.run(
            [spy, "dump", "--nonblocking", "-p", child], capture_output=True, text=True
        ).stdout
        for tid, name in re.findall(r'^Thread (\d+) \([^)]*\): "([^"]+)"', dumped, re.M):
            parts[tid] = part_of(name)
    return parts


def threads_cpu(pid: int) -> dict[str, float]:
    """CPU seconds used so far by each thread of the server's worker processes, by id."""
    used: dict[str, float] = {}
    try:
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            for task in Path(f"/proc/{child}/task").iterdir():
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                used[task.name] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        pass
    return used


def own_cpu() -> float:
    """CPU seconds this load generator used so far."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def start_server(
    db: Path | str, port: int, threads: int, workers: int, limits: bool = False
) -> subprocess.Popen[bytes]:
    """``allfives serve`` on ``db``; rate limits off unless ``limits``."""
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "webapp.serve.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            str(db),
            "--threads",
            str(threads),
            "--workers",
            str(workers),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "ALLFIVES_RATE_LIMITS": "on" if limits else "off"},
    )
    for _ in range(300):
        try:
            call(f"http://127.0.0.1:{port}", "GET", "/")
            return server
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("server did not start")


def run(
    count: int,
    seconds: float,
    port: int,
    threads: int,
    workers: int,
    db: str = "",
    followers: int = 0,
    parts: bool = False,
) -> dict[str, float]:
    """``count`` tables for ``seconds`` on a new server: prints the run's figures and returns
    them (actions/s served and asked, latencies and the followers' delays in ms, counts);
    ``parts``: also the server's CPU per action by the part of its work (``thread_parts``)."""
    rng = random.Random(count)
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(db or Path(folder) / "load.sqlite3", port, threads, workers)
        base = f"http://127.0.0.1:{port}"
        try:
            page, headers = call(base, "GET", "/new")
            cookie = headers["Set-Cookie"].split(";")[0]
            token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
            actions = int(seconds / PERIOD) + 2
            tables = []
            for i in range(count):
                players = 2 + i % 3
                body, _ = call(
                    base,
                    "POST",
                    "/api/games",
                    {"players": ["Ana", "Ben", "Cy", "Di"][:players], "rules": {"target": 10_000}},
                )
                tables.append(Table(json.loads(body)["id"], scripted_game(rng, players, actions)))
            cpu_before = client_before = 0.0
            started = end = 0.0
            named: dict[str, str] = {}  # the server's threads' parts (``parts``)
            threads_before: dict[str, float] = {}

            async def everyone() -> None:
                nonlocal cpu_before, client_before, started, end, named, threads_before
                phones: list[tuple[asyncio.Event, Any]] = []
                for _ in range(followers):
                    for table in tables:
                        opened = asyncio.Event()
                        local = source(len(phones) + count)
                        phones.append((opened, follow(table, "127.0.0.1", port, local, opened)))
                tasks = []
                for at in range(0, len(phones), 200):  # opened 200 at a time
                    some = phones[at : at + 200]
                    tasks += [asyncio.create_task(phone) for _, phone in some]
                    await asyncio.wait_for(asyncio.gather(*(o.wait() for o, _ in some)), 60)
                if phones:
                    print(f"   {len(phones)} streams open, each said hello")
                named = thread_parts(server.pid) if parts else {}
                threads_before = threads_cpu(server.pid)
                cpu_before, client_before = server_cpu(server.pid), own_cpu()
                started = time.monotonic()
                end = started + seconds
                await asyncio.gather(
                    *(
                        run_table(
                            t, "127.0.0.1", port, cookie, token, end, PERIOD * i / count, source(i)
                        )
                        for i, t in enumerate(tables)
                    )
                )
                await asyncio.sleep(3)  # the last answers' changes: 3 s more to come
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)

            asyncio.run(everyone())
            client = own_cpu() - client_before
            drained = max(t.answered_at for t in tables) - started  # the last answer's time
            cpu = server_cpu(server.pid) - cpu_before
            by_part: dict[str, float] = {}
            for tid, used in threads_cpu(server.pid).items():
                part = named.get(tid, "other")
                by_part[part] = by_part.get(part, 0.0) + used - threads_before.get(tid, 0.0)
            lost = 0
            for table in tables:
                body, _ = call(base, "GET", f"/api/games/{table.game_id}")
                if json.loads(body)["seq"] != table.acknowledged:
                    lost += 1
        finally:
            server.terminate()
            server.wait(timeout=30)
    latencies = sorted(x for t in tables for x in t.latencies)
    errors = [e for t in tables for e in t.errors]
    done = sum(t.acknowledged for t in tables)
    p50 = statistics.median(latencies) * 1e3
    p99 = percentile(latencies, 0.99) * 1e3
    asked = count / PERIOD
    served = done / drained
    print(
        f"{count:5} tables: {done:6} actions in {drained:.1f} s ({seconds:.0f} s asked, then "
        f"{max(0.0, drained - seconds):.1f} s draining the queue): {served:5.0f}/s served of "
        f"{asked:.0f}/s asked, p50 {p50:6.1f} ms, p99 {p99:7.1f} ms, errors {len(errors)}, "
        f"tables whose stored log differs from what was acknowledged: {lost}"
    )
    delays: list[float] = []
    missed = 0
    if followers:
        for table in tables:
            for heard in table.heard:
                # A follower behind is sent the game as it now stands: a play is seen with the
                # first revision heard at or after it.
                first = float("inf")
                for seq in sorted(table.sent, reverse=True):
                    first = min(first, heard.get(seq, first))
                    if first == float("inf"):
                        missed += 1
                    else:
                        delays.append(max(0.0, first - table.sent[seq]))
        d50 = percentile(delays, 0.5) * 1e3
        d99 = percentile(delays, 0.99) * 1e3
        print(
            f"   {followers} followers a table: a play seen by each, from its request: p50 "
            f"{d50:.0f} ms, p99 {d99:.0f} ms ({len(delays)} seen, {missed} missed)"
        )
        seen = (
            f"| a play seen by the table's {followers} followers, {count:,} tables | p50 "
            f"{_seconds(d50)}, p99 {_seconds(d99)}, {missed} missed | p99 < 1 s |"
        )
    per_action = cpu / max(done, 1) * 1e3
    if cpu > 0:
        print(f"   server CPU: {cpu:.1f} s, {per_action:.1f} ms per action; this load "
              f"generator's own: {client:.1f} s (on the same cores)")  # fmt: skip
    ROWS.append(
        f"| {count:,} tables, a play each 2 s, {workers} workers | {served:.0f} actions/s of "
        f"{asked:.0f} asked, p50 {_seconds(p50)}, p99 {_seconds(p99)}, {len(errors)} errors, "
        f"{lost} lost | all served, p99 < 150 ms |"
    )
    if followers:
        ROWS.append(seen)
    if cpu > 0:
        ROWS.append(f"| server CPU per action, {count:,} tables | {per_action:.1f} ms | 2 ms |")
    if named:
        shares = ", ".join(
            f"{part} {used / max(done, 1) * 1e3:.2f}"
            for part, used in sorted(by_part.items(), key=lambda item: -item[1])
        )
        print(f"   server CPU per action by part, ms: {shares}")
    if errors:
        print("   first errors:", errors[:3])
    return {
        "served": served,
        "asked": asked,
        "p50": p50,
        "p99": p99,
        "errors": len(errors),
        "lost": lost,
        "seen": len(delays),
        "missed": missed,
        "d50": percentile(delays, 0.5) * 1e3,
        "d99": percentile(delays, 0.99) * 1e3,
        "cpu_per_action": per_action,
    }


ROWS: list[str] = []  # the README's table rows of this run


def allow_open_files(wanted: int) -> None:
    """Let this process hold ``wanted`` open files (sockets), as far as the hard limit allows."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, wanted), hard))


def _seconds(milliseconds: float) -> str:
    return f"{milliseconds:.0f} ms" if milliseconds < 1000 else f"{milliseconds / 1000:.1f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 300, 1000])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--quick", action="store_true", help="100 and 1,000 tables, 10 s")
    parser.add_argument("--port", type=int, default=0, help="default: any free port")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--followers", type=int, default=0, help="phones a table following it")
    parser.add_argument(
        "--parts", action="store_true", help="the server's CPU by part of its work (py-spy)"
    )
    parser.add_argument(
        "--db", default="", help="a SQLAlchemy URL (e.g. PostgreSQL); default: a new SQLite file"
    )
    args = parser.parse_args()
    if args.quick:
        args.tables, args.seconds = [100, 1000], 10.0
    if not args.port:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            args.port = probe.getsockname()[1]
    print(f"allfives serve --workers {args.workers} --threads {args.threads}")
    if args.followers:
        allow_open_files(max(args.tables) * (args.followers + 1) + 1000)
    for count in args.tables:
        run(
            count,
            args.seconds,
            args.port,
            args.threads,
            args.workers,
            args.db,
            args.followers,
            args.parts,
        )
    print("\n| figure | measured | budget |\n| --- | --- | --- |")
    print("\n".join(ROWS))


if __name__ == "__main__":
    main()
