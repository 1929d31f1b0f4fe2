"""The budget table that ``run_all.py`` prints and writes into the README: each row's verdict,
met or missed and by how much, its sizes under ``--quick``, and the README's block replaced
between its markers (no timing: the benchmarks themselves are not run)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.bench import run_all
from tests.bench.figures import (
    BEGIN,
    END,
    Check,
    Row,
    not_measured,
    percentile,
    replace_block,
    table,
)

README = Path(__file__).resolve().parents[2] / "README.md"


def test_a_ratio_within_its_budget_is_met_with_its_margin() -> None:
    row = Row("htmx play ÷ bare", "3.0× (0.60 ms against 200 µs)", "≤ 4×", (Check("ratio", 3, 4),))
    assert row.met is True
    assert row.verdict() == "met: ratio 3.0× ≤ 4.0×, 25% under"


def test_a_ratio_over_its_budget_is_missed_by_how_much() -> None:
    row = Row("htmx play ÷ bare", "12.0×", "≤ 4×", (Check("ratio", 12, 4),))
    assert row.met is False
    assert row.verdict() == "**missed**: ratio 12.0× > 4.0×, over by 8.0× (3.0× the budget)"


def test_a_row_is_missed_when_any_of_its_budgets_is() -> None:
    checks = (
        Check("served", 0.53, 0.95, "%", most=False),
        Check("errors and lost", 0, 0, ""),
        Check("play p99", 4700, 300, "ms"),
        Check("followers p99", 420, 1000, "ms"),
    )
    row = Row("1,000 tables × 4 phones", "…", "all served, …", checks)
    assert row.met is False
    assert row.verdict() == (
        "**missed**: served 53% < 95%, short by 42%; errors and lost 0; "
        "play p99 4,700 ms > 300 ms, over by 4,400 ms (15.7× the budget); "
        "followers p99 420 ms ≤ 1,000 ms, 58% under"
    )


def test_a_budget_missed_by_little_says_by_how_little() -> None:
    check = Check("bytes", 41_464, 40_000, "B")
    assert check.text() == "bytes 41,464 B > 40,000 B, over by 1,464 B (1.04× the budget)"


def test_something_lost_misses_a_budget_of_none() -> None:
    assert Check("missed", 0, 0, "").met
    check = Check("missed", 3, 0, "")
    assert not check.met and check.text() == "missed 3, not 0"


def test_a_budget_that_is_a_yes_or_a_no() -> None:
    assert Check.holds("connection kept", True).text() == "connection kept"
    kept = Check.holds("connection kept", False)
    assert not kept.met and kept.text() == "connection kept: no"


def test_a_figure_nothing_was_measured_for_never_meets_its_budget() -> None:
    heard = percentile([], 0.99)
    assert math.isnan(heard)
    check = Check("followers p99", heard, 1000, "ms")
    assert not check.met
    assert check.text().startswith("followers p99 ? > 1,000 ms")


def test_percentiles_are_by_nearest_rank() -> None:
    values = [float(n) for n in range(1, 101)]
    assert percentile(values, 0.99) == 99.0
    assert percentile(values, 0.5) == 50.0
    assert percentile([7.0], 0.99) == 7.0


def test_rows_print_their_quick_sizes_and_escape_bars() -> None:
    row = Row("a | b", "1", "≤ 2×", (Check("ratio", 1, 2),), run_all.QUICK.said("60 rounds"))
    assert row.line() == (
        "| a \\| b (`--quick`: 60 rounds) | 1 | ≤ 2× | met: ratio 1.0× ≤ 2.0×, 50% under |"
    )
    assert run_all.FULL.said("60 rounds") == ""
    assert run_all.ratio(0.006, 0.0035) == "1.7× (6.00 ms against 3.50 ms)"
    assert run_all.ratio(0.002, 0.000186, "µs") == "10.8× (2.00 ms against 186 µs)"
    lines = table([row, not_measured("first load", "≤ 40,000 B", "no script")]).splitlines()
    assert lines[0] == "| figure | measured | budget | met/missed |"
    assert lines[-1] == "| first load | not measured (no script) | ≤ 40,000 B | — |"


def test_a_benchmark_that_fails_leaves_its_rows_unmeasured_and_the_others_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(run: run_all.Run) -> list[Row]:
        raise OSError("no port")

    fine = Row("memory", "68 KiB", "≤ 100 KiB", (Check("held", 68, 100, "KiB"),))
    monkeypatch.setattr(
        run_all,
        "BENCHES",
        {"idle": (broken, (run_all.IDLE,)), "memory": (lambda run: [fine], (run_all.MEMORY,))},
    )
    rows = run_all.measure_all(run_all.Run(run_all.QUICK, Path(".")), ["idle", "memory"])
    assert rows == [not_measured(*run_all.IDLE, "failed: OSError"), fine]


def test_every_budget_row_of_the_issue_has_a_benchmark() -> None:
    figures = [figure for _, rows in run_all.BENCHES.values() for figure, _ in rows]
    assert len(figures) == 11  # ten rows, the load's on SQLite and on PostgreSQL
    for needs_postgres in ("cross",):
        rows = run_all.BENCHES[needs_postgres][0](run_all.Run(run_all.QUICK, Path(".")))
        assert rows[0].measured == "not measured (needs --postgres URL)"


def test_the_readme_table_is_replaced_between_its_markers_only() -> None:
    text = README.read_text()
    block = "From one run…\n\n| figure | measured | budget | met/missed |"
    written = replace_block(text, block)
    before, _, rest = text.partition(BEGIN)
    _, _, after = rest.partition(END)
    assert written == f"{before}{BEGIN}\n{block}\n{END}{after}"
    assert replace_block(written, "again") == f"{before}{BEGIN}\nagain\n{END}{after}"
    with pytest.raises(ValueError, match="markers"):
        replace_block("no markers here", "table")
