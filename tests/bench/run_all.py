"""Every figure of the budget table (issue 23) from one run, printed as one table.

Each row is measured by the benchmark that owns it (imported from the scripts beside this one,
which still run on their own), as a ratio to its reference measured in the same run where it
has one, with the absolute numbers, its budget, and whether the budget was met or missed and
by how much:

- ``server``: an htmx play, a JSON API play and a "nothing changed" poll in-process ÷ a bare
  Flask endpoint (``bench_server.py``), and the poll's connection kept by a real server;
- ``load``: 1,000 tables of 4 phones, a play per table every 2 s, on a real server
  (``load.py --followers 4``), on SQLite and, with ``--postgres``, on PostgreSQL;
- ``idle``: 4,000 open game screens, nobody playing: the server's CPU (``bench_push.py``);
- ``long``: a 40-hand game's pages ÷ a 1-hand game's, first view after a play
  (``bench_long_game.py``);
- ``cross``: a play heard on another app server on PostgreSQL, p99 over 300 plays
  (``bench_cross.py``; needs ``--postgres``);
- ``memory``: what a cached 1,000-action game holds (``bench_server.py``);
- ``restart``: the first play after a restart, hand 40 ÷ the next play (``bench_server.py``);
- ``bytes``: the game screen's first load, gzip (``first_load.py``).

Run ``nice python3 tests/bench/run_all.py [--quick] [--postgres URL] [--only NAME ...]
[--write-readme]``. ``--quick`` measures smaller sizes (each row says which) for a check in a
few minutes; ``--write-readme`` writes the table, with the date, into README.md between its
two marker comments. Not a test: pytest only imports it.
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import tempfile
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
from tests.bench import bench_cross, bench_push, load  # noqa: E402
from tests.bench.bench_long_game import game_of, measure_pages, pages_config  # noqa: E402
from tests.bench.bench_server import (  # noqa: E402
    Bench,
    config,
    measure_memory,
    measure_play,
    measure_restart,
)
from tests.bench.figures import Check, Row, not_measured, replace_block, table  # noqa: E402
from tests.bench.first_load import first_load  # noqa: E402
from webapp import create_app  # noqa: E402

HTMX = ("htmx play, a lead, in-process ÷ a bare Flask endpoint", "≤ 4×")
API = ("JSON API play ÷ a bare Flask endpoint", "≤ 3×")
POLL = ('"nothing changed" poll ÷ a bare Flask endpoint; connection kept', "≤ 1.5×, kept")
LOAD = "1,000 tables × 4 phones, a play per table each 2 s (`--workers 2`), {}"
LOAD_BUDGET = "all served, play p99 < 300 ms, followers p99 < 1 s"
IDLE = ("4,000 open game screens, nobody playing (`--workers 2`)", "< 0.05 core")
LONG = ("a 40-hand game's pages ÷ a 1-hand game's, first view after a play (CPU)", "≤ 2×")
CROSS = ("a play heard by a screen on another app server, PostgreSQL", "< 1 s p99")
MEMORY = ("memory held by a cached 1,000-action game, as served (tracemalloc)", "≤ 100 KiB")
RESTART = ("first play after a restart, hand 40 ÷ the next play", "≤ 2×")
BYTES = ("game screen's first load, gzip", "≤ 40,000 B")


@dataclass(frozen=True)
class Sizes:
    """What a run measures: the budget's sizes, or smaller ones with ``--quick``."""

    quick: bool
    rounds: int = 300
    tables: int = 1000
    seconds: float = 20.0
    streams: int = 4000
    idle: float = 25.0
    page_rounds: int = 9
    plays: int = 300
    restarts: int = 5

    def said(self, what: str) -> str:
        """A row's note of the sizes it was measured at, in a ``--quick`` run."""
        return f"`--quick`: {what}" if self.quick else ""


FULL = Sizes(quick=False)
QUICK = Sizes(quick=True, rounds=60, tables=100, seconds=10.0, streams=1000, idle=10.0,
              page_rounds=3, restarts=3)  # fmt: skip


@dataclass(frozen=True)
class Run:
    sizes: Sizes
    folder: Path
    postgres: str = ""


def ratio(took: float, against: float, unit: str = "ms") -> str:
    """``took`` ÷ ``against`` with both (seconds) in ``unit``: ``2.0× (0.40 ms against 200 µs)``."""
    reference = f"{against * 1e3:.2f} ms" if unit == "ms" else f"{against * 1e6:.0f} µs"
    return f"{took / against:.1f}× ({took * 1e3:.2f} ms against {reference})"


def poll_kept(folder: Path) -> bool:
    """Whether a real server keeps a phone's connection through polls that find nothing."""
    port = bench_push.free_port()
    server = load.start_server(folder / "poll.sqlite3", port, threads=4, workers=1)
    try:
        base = f"http://127.0.0.1:{port}"
        game = json.loads(load.call(base, "POST", "/api/games", {"players": ["Ana", "Ben"]})[0])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        kept, first = True, None
        for _ in range(3):
            connection.request("GET", f"/v/{game['view_id']}/poll?seq={game['seq']}")
            response = connection.getresponse()
            kept &= response.read() == b"" and not response.will_close
            first = first or connection.sock
            kept &= connection.sock is first
        connection.close()
        return kept
    finally:
        server.terminate()
        server.wait(timeout=30)


def server_rows(run: Run) -> list[Row]:
    bench = Bench(create_app(config(run.folder / "server.sqlite3")))
    got = measure_play(bench, run.sizes.rounds)
    bench.store.close()
    said = run.sizes.said(f"{run.sizes.rounds} rounds")
    rows = []
    for (name, budget), kind, most in ((HTMX, "htmx play, a lead", 4), (API, "JSON API play", 3)):
        took, bare = got[kind]
        check = Check("ratio", took / bare, most)
        rows.append(Row(name, ratio(took, bare, "µs"), budget, (check,), said))
    took, bare = got['"nothing changed" poll']
    kept = poll_kept(run.folder)
    measured = f"{ratio(took, bare, 'µs')}; connection {'kept' if kept else 'not kept'}"
    checks = (Check("ratio", took / bare, 1.5), Check.holds("connection kept", kept))
    return [*rows, Row(POLL[0], measured, POLL[1], checks, said)]


def load_rows(run: Run) -> list[Row]:
    sizes = run.sizes
    said = sizes.said(f"{sizes.tables:,} tables, {sizes.seconds:g} s")
    load.allow_open_files(sizes.tables * 5 + 1000)
    rows = []
    for name, database in (("SQLite", ""), ("PostgreSQL", run.postgres)):
        figure = LOAD.format(name)
        if name == "PostgreSQL" and not database:
            rows.append(not_measured(figure, LOAD_BUDGET, "needs --postgres URL", said))
            continue
        port = bench_push.free_port()
        got = load.run(sizes.tables, sizes.seconds, port, 8, 2, database, followers=4)
        measured = (
            f"{got['served']:.0f} actions/s of {got['asked']:.0f} asked; plays p50 "
            f"{got['p50']:,.0f} ms, p99 {got['p99']:,.0f} ms; followers p50 {got['d50']:,.0f} ms,"
            f" p99 {got['d99']:,.0f} ms ({got['seen']:,.0f} seen, {got['missed']:,.0f} missed); "
            f"{got['errors']:.0f} errors, {got['lost']:.0f} lost; server CPU "
            f"{got['cpu_per_action']:.1f} ms per action"
        )
        checks = (
            Check("served", got["served"] / got["asked"], 0.95, "%", most=False),
            Check("errors and lost", got["errors"] + got["lost"], 0, ""),
            Check("play p99", got["p99"], 300, "ms"),
            Check("followers p99", got["d99"], 1000, "ms"),
            Check("missed", got["missed"], 0, ""),
        )
        rows.append(Row(figure, measured, LOAD_BUDGET, checks, said))
    return rows


def idle_rows(run: Run) -> list[Row]:
    sizes = run.sizes
    load.allow_open_files(3 * sizes.streams + 2000)
    args = (run.folder, sizes.streams, sizes.idle)
    reference = bench_push.measure("reference", *args)
    got = bench_push.measure("held", *args)
    cores, against = got["cores"], reference["cores"]
    measured = (
        f"{cores:.3f} cores over {sizes.idle:g} s, {cores / max(against, 1e-4):.1f}× as many idle "
        f"keep-alive connections ({against:.3f}); {got['per_stream'] / 1024:.1f} KiB each; "
        f"{got['opened']:,.0f} of {sizes.streams:,} open"
    )
    checks = (
        Check("CPU", cores, 0.05, "cores"),
        Check("streams open", got["opened"], sizes.streams, "", most=False),
    )
    said = sizes.said(f"{sizes.streams:,} screens, {sizes.idle:g} s")
    return [Row(IDLE[0], measured, IDLE[1], checks, said)]


def long_rows(run: Run) -> list[Row]:
    bench = Bench(create_app(pages_config(run.folder / "long.sqlite3")))
    games = {}
    for name, hands in (("short", 1), ("long", 40)):
        games[name] = bench.new_game(start=False)
        game_of(bench.store, games[name], hands)
    found = measure_pages(bench, games, run.sizes.page_rounds)
    bench.store.close()
    each = {
        page: times[("long", "first")] / times[("short", "first")] for page, times in found.items()
    }
    worst = max(each, key=each.__getitem__)
    long, short = (found[worst][(name, "first")] * 1e3 for name in ("long", "short"))
    measured = ", ".join(f"{name} {times:.1f}×" for name, times in each.items())
    measured += f" (the worst, {worst}: {long:.1f} ms against {short:.1f} ms)"
    said = run.sizes.said(f"{run.sizes.page_rounds} rounds")
    check = Check(f"worst ({worst})", each[worst], 2)
    return [Row(LONG[0], measured, LONG[1], (check,), said)]


def cross_rows(run: Run) -> list[Row]:
    said = run.sizes.said(f"{run.sizes.plays} plays")
    if not run.postgres:
        return [not_measured(*CROSS, "needs --postgres URL", said)]
    got = bench_cross.measure(run.postgres, run.sizes.plays)
    trip = got["trip"]
    measured = (
        f"p50 {got['p50'] * 1e3:.0f} ms ({got['p50'] / trip:.1f}× a play's round trip), "
        f"p99 {got['p99'] * 1e3:.0f} ms ({got['p99'] / trip:.1f}×), max {got['max'] * 1e3:.0f} "
        f"ms; a play's round trip {trip * 1e3:.1f} ms; {got['plays']:.0f} plays, "
        f"{got['missed']:.0f} missed"
    )
    checks = (Check("p99", got["p99"] * 1e3, 1000, "ms"), Check("missed", got["missed"], 0, ""))
    return [Row(CROSS[0], measured, CROSS[1], checks, said)]


def memory_rows(run: Run) -> list[Row]:
    each = measure_memory(run.folder / "memory.sqlite3") / 1024
    measured = f"{each:,.0f} KiB"
    check = Check("held", each, 100, "KiB")
    return [Row(MEMORY[0], measured, MEMORY[1], (check,), run.sizes.said("the same sizes"))]


def restart_rows(run: Run) -> list[Row]:
    database = run.folder / "restart.sqlite3"
    bench = Bench(create_app(config(database)))
    long = bench.long_game(1000)
    hand, first, warm, new_first = measure_restart(bench, database, long, run.sizes.restarts)
    bench.store.close()
    measured = (
        f"hand {hand}: {ratio(first, warm)}; {first / new_first:.1f}× a new game's first play "
        f"after a restart ({new_first * 1e3:.1f} ms)"
    )
    said = run.sizes.said(f"{run.sizes.restarts} restarts")
    return [Row(RESTART[0], measured, RESTART[1], (Check("ratio", first / warm, 2),), said)]


def bytes_rows(run: Run) -> list[Row]:
    bench = Bench(create_app(config(run.folder / "bytes.sqlite3")))
    sizes: dict[str, int] = first_load(bench.client)
    bench.store.close()
    total = sum(sizes.values())
    names = ["the page", *(Path(path).name for path in list(sizes)[1:])]  # the page first
    parts = ", ".join(f"{name} {size:,}" for name, size in zip(names, sizes.values(), strict=True))
    check = Check("bytes", total, 40_000, "B")
    return [Row(BYTES[0], f"{total:,} B ({parts})", BYTES[1], (check,))]


#: Each benchmark by name (``--only``): what it measures, and the rows it stands for.
BENCHES: dict[str, tuple[Callable[[Run], list[Row]], tuple[tuple[str, str], ...]]] = {
    "server": (server_rows, (HTMX, API, POLL)),
    "load": (load_rows, tuple((LOAD.format(db), LOAD_BUDGET) for db in ("SQLite", "PostgreSQL"))),
    "idle": (idle_rows, (IDLE,)),
    "long": (long_rows, (LONG,)),
    "cross": (cross_rows, (CROSS,)),
    "memory": (memory_rows, (MEMORY,)),
    "restart": (restart_rows, (RESTART,)),
    "bytes": (bytes_rows, (BYTES,)),
}


def measure_all(run: Run, names: list[str]) -> list[Row]:
    """The rows of the benchmarks ``names``, in the table's order; a benchmark that fails
    gives its rows as not measured, with the error, and the others still run."""
    rows: list[Row] = []
    for name in names:
        measure, figures = BENCHES[name]
        print(f"\n=== {name} ===", flush=True)
        try:
            rows += measure(run)
        except Exception as error:
            print(f"{name} failed: {error!r}", flush=True)
            rows += [not_measured(*each, f"failed: {type(error).__name__}") for each in figures]
    return rows


def described(sizes: Sizes, postgres: bool, when: datetime) -> str:
    """The sentence over the README's table: how and when it was measured."""
    flags = "".join((" --quick" if sizes.quick else "", " --postgres URL" if postgres else ""))
    quick = " (`--quick`: smaller sizes, as each row says)" if sizes.quick else ""
    return textwrap.fill(
        f"From one run of `python3 tests/bench/run_all.py{flags}`{quick} on "
        f"{when:%-d %B %Y, %H:%M} UTC, on the 2-core development machine shared with other "
        "work; every ratio is against a reference measured in the same run:",
        width=100,
        break_on_hyphens=False,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, a few minutes")
    parser.add_argument("--postgres", default="", help="a PostgreSQL URL: its rows too")
    names = ", ".join(BENCHES)
    parser.add_argument("--only", action="append", choices=list(BENCHES), metavar="NAME",
                        help=f"only this benchmark (again for more): {names}")  # fmt: skip
    parser.add_argument("--write-readme", action="store_true", help="the table into README.md")
    args = parser.parse_args()
    if args.write_readme and args.only:
        parser.error("--write-readme writes the whole table: run every benchmark")
    sizes = QUICK if args.quick else FULL
    with tempfile.TemporaryDirectory() as folder:
        run = Run(sizes, Path(folder), args.postgres)
        rows = measure_all(run, [name for name in BENCHES if name in (args.only or BENCHES)])
    when = datetime.now(UTC)
    block = f"{described(sizes, bool(args.postgres), when)}\n\n{table(rows)}"
    print(f"\n{block}")
    missed = sum(row.met is False for row in rows)
    print(f"\n{len(rows)} rows: {sum(row.met is True for row in rows)} met, {missed} missed, "
          f"{sum(row.met is None for row in rows)} not measured")  # fmt: skip
    if args.write_readme:
        readme = REPO / "README.md"
        readme.write_text(replace_block(readme.read_text(), block))
        print(f"written into {readme}")


if __name__ == "__main__":
    main()
