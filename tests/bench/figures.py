"""The benchmarks' figures as rows of one table: what was measured, against which budget, and
whether it was met or missed, by how much. Shared by the scripts under ``tests/bench/`` and by
``run_all.py``, which writes the table into the README between two marker comments.

>>> row = Row("htmx play ÷ a bare endpoint", "3.0× (0.6 ms against 200 µs)", "≤ 4×",
...           (Check("ratio", 3.0, 4.0),))
>>> row.verdict()
'met: ratio 3.0× ≤ 4.0×, 25% under'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

BEGIN = "<!-- run_all.py: budget table begins -->"
END = "<!-- run_all.py: budget table ends -->"
HEADER = "| figure | measured | budget | met/missed |\n| --- | --- | --- | --- |"
#: How a number is written, by its unit.
FORMATS = {
    "×": "{:.1f}×",
    "ms": "{:,.0f} ms",
    "cores": "{:.3f} cores",
    "KiB": "{:,.0f} KiB",
    "B": "{:,.0f} B",
    "%": "{:.0%}",
    "": "{:,.0f}",
}


def amount(value: float, unit: str) -> str:
    """``value`` written with its unit: ``amount(1234, "B") == "1,234 B"``."""
    if math.isnan(value):
        return "?"
    return FORMATS[unit].format(value)


@dataclass(frozen=True)
class Check:
    """One part of a budget: ``value`` at most ``limit`` (or, with ``most=False``, at least)."""

    what: str
    value: float
    limit: float
    unit: str = "×"
    most: bool = True

    @classmethod
    def holds(cls, what: str, true: bool) -> Check:
        """A budget that is a yes or a no (``connection kept``)."""
        return cls(what, 1.0 if true else 0.0, 1.0, unit="yes", most=False)

    @property
    def met(self) -> bool:
        if math.isnan(self.value):
            return False
        return self.value <= self.limit if self.most else self.value >= self.limit

    def text(self) -> str:
        """The value against the limit, and the margin or the shortfall."""
        if self.unit == "yes":
            return self.what if self.met else f"{self.what}: no"
        value, limit = amount(self.value, self.unit), amount(self.limit, self.unit)
        if self.most and not self.limit:  # none at all
            return f"{self.what} {value}" if self.met else f"{self.what} {value}, not {limit}"
        if self.most:
            if self.met:
                under = 1 - self.value / self.limit
                return f"{self.what} {value} ≤ {limit}, {under:.0%} under"
            over = amount(self.value - self.limit, self.unit)
            times = self.value / self.limit
            said = f"{times:.2f}×" if times < 2 else f"{times:.1f}×"  # 1.04×, not 1.0×
            return f"{self.what} {value} > {limit}, over by {over} ({said} the budget)"
        if self.met:
            return f"{self.what} {value} ≥ {limit}"
        short = amount(self.limit - self.value, self.unit)
        return f"{self.what} {value} < {limit}, short by {short}"


@dataclass(frozen=True)
class Row:
    """A figure of the table. ``sizes``: what the run measured when it is smaller than the
    budget's (``--quick``); a row with no checks is a figure with no budget to meet."""

    figure: str
    measured: str
    budget: str = "—"
    checks: tuple[Check, ...] = ()
    sizes: str = ""

    @property
    def met(self) -> bool | None:
        return all(check.met for check in self.checks) if self.checks else None

    def verdict(self) -> str:
        if self.met is None:
            return "—"
        said = "; ".join(check.text() for check in self.checks)
        return f"met: {said}" if self.met else f"**missed**: {said}"

    def line(self) -> str:
        """The row in Markdown (a ``|`` in a cell escaped)."""
        name = f"{self.figure} ({self.sizes})" if self.sizes else self.figure
        cells = (name, self.measured, self.budget, self.verdict())
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def not_measured(figure: str, budget: str, why: str, sizes: str = "") -> Row:
    """A row whose figure this run could not measure, saying why."""
    return Row(figure, f"not measured ({why})", budget, sizes=sizes)


def table(rows: list[Row]) -> str:
    return "\n".join([HEADER, *(row.line() for row in rows)])


def legacy_table(rows: list[tuple[str, str, str]]) -> str:
    """Rows of (figure, measured, budget) with no verdict, as the single scripts print them."""
    return table([Row(name, measured, budget or "—") for name, measured, budget in rows])


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile of ``values`` (nearest rank); NaN for none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(len(ordered) * share) - 1))]


def replace_block(text: str, block: str) -> str:
    """``text`` with what stands between the markers replaced by ``block``; the markers must be
    there, once each, in order."""
    pattern = re.compile(re.escape(BEGIN) + r"\n.*?" + re.escape(END), re.S)
    if len(pattern.findall(text)) != 1:
        raise ValueError(f"the markers {BEGIN!r} and {END!r} are not there once, in order")
    return pattern.sub(lambda _: f"{BEGIN}\n{block.strip()}\n{END}", text)
