"""The score sheet's page and its CSV, on the players' link and the watch link alike."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from flask import Response
from flask.typing import ResponseReturnValue
from flask_babel import format_date

from ..i18n.words import gettext, say
from ..rules.sheet import SheetRow, score_sheet
from ..ui.labels import sheet_end
from ..ui.race import Race, race, standing
from ..web.game import Table, both_links
from ..web.pages import render_page
from . import bp


@dataclass(frozen=True, slots=True)
class Cell:
    """A side in a hand: the points it made in the hand and its total after it."""

    points: int
    total: int
    scored: int
    settlement: int


@dataclass(frozen=True, slots=True)
class Row:
    number: int
    end: str  # who went out, blocked, or that it is still being played
    settled: bool
    cells: tuple[Cell, ...]  # per side


@dataclass(frozen=True, slots=True)
class SideHead:
    name: str  # a partnership's is its two players'
    total: int
    won: bool
    ahead: bool


@dataclass(frozen=True, slots=True)
class SheetPage:
    viewer: bool
    title: str
    rules: str
    date: str
    sides: tuple[SideHead, ...]
    rows: tuple[Row, ...]
    standing: str
    over: bool
    race: Race


def _rows(table: Table) -> tuple[Row, ...]:
    sheet = score_sheet(table.state)
    return tuple(
        Row(row.number, sheet_end(sheet.options, row, sheet.over), row.settled, _cells(row))
        for row in sheet.hands
    )


def _cells(row: SheetRow) -> tuple[Cell, ...]:
    return tuple(
        Cell(points, total, scored, settlement)
        for points, total, scored, settlement in zip(
            row.points, row.totals, row.scored, row.settlement, strict=True
        )
    )


@both_links(bp, "/sheet", endpoint="sheet")
def sheet_page(table: Table) -> ResponseReturnValue:
    """The score sheet: every hand, the totals, who is ahead, and the race as a chart."""
    state = table.state
    options = state.options
    sheet = score_sheet(state)
    sides = tuple(
        SideHead(
            name=options.side_name(side),
            total=state.scores[side],
            won=sheet.over and side in sheet.winners,
            ahead=not sheet.over and sheet.leaders == (side,),
        )
        for side in range(options.side_count)
    )
    page = SheetPage(
        viewer=table.viewer,
        title=" · ".join(options.players),
        rules=say(options.title),
        date=format_date(table.snapshot.created_at, format="long"),
        sides=sides,
        rows=_rows(table),
        standing=standing(sheet),
        over=sheet.over,
        race=race(sheet),
    )
    return render_page("sheet/sheet.html", page)


@both_links(bp, "/sheet.csv", endpoint="csv")
def sheet_csv(table: Table) -> ResponseReturnValue:
    """The sheet as CSV: a header row, then per hand its number and, per side, the points in
    the hand and the total after it; last, how the hand ended."""
    options = table.state.options
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    header = [gettext("Hand")]
    for side in range(options.side_count):
        name = _cell_text(options.side_name(side))
        header += [gettext("%(side)s: points", side=name), gettext("%(side)s: total", side=name)]
    writer.writerow([*header, gettext("End")])
    for row in _rows(table):
        cells = [value for cell in row.cells for value in (cell.points, cell.total)]
        writer.writerow([row.number, *cells, _cell_text(row.end)])
    response = Response(out.getvalue(), mimetype="text/csv")
    name = "allfives-sheet.csv"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _cell_text(text: str) -> str:
    """Text for a spreadsheet's cell: a name such as "=1+1" is not taken for a formula."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text
