"""The race drawn on the server: each side's total after every hand (and through the hand in
play) as a line from 0, with the target as a dashed line, in an SVG's coordinates.

The numbers are the sheet's (:func:`webapp.rules.sheet.score_sheet`); nothing here counts.
Sides are told apart by colour and by the mark on each point (a circle, square, triangle or
diamond), so the chart reads without colour too; its words are the summary below it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n.words import gettext, ngettext, say
from ..rules.messages import Items
from ..rules.sheet import Sheet

WIDTH = 320
HEIGHT = 180
LEFT = 34  # room for the score labels
RIGHT = 8
TOP = 10
BOTTOM = 24  # room for the hand numbers
MARKS = ("circle", "square", "triangle", "diamond")
FAR = 4  # the target line is drawn when it is at most this many times the highest total
STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000)


@dataclass(frozen=True, slots=True)
class Point:
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Line:
    side: int  # its colour and mark
    name: str
    mark: str
    path: str  # the polyline's points
    points: tuple[Point, ...]
    total: int


@dataclass(frozen=True, slots=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True, slots=True)
class Race:
    width: int
    height: int
    left: int
    right: float
    bottom: float
    target_y: float  # -1: the target is too far above to draw (the key still names it)
    goal: int
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]  # hand numbers
    y_ticks: tuple[Tick, ...]  # scores
    title: str
    summary: str


def race(sheet: Sheet) -> Race:
    """The chart of ``sheet``: a point per side before the first hand and after each hand."""
    options = sheet.options
    sides = options.side_count
    totals = [(0,) * sides, *(row.totals for row in sheet.hands)]
    least = min(0, *(min(t) for t in totals))
    top = max(0, *(max(t) for t in totals))
    shows_target = sheet.goal <= FAR * max(top, 5)  # a target far above would flatten the lines
    ceiling = max(top, 5, sheet.goal if shows_target else 0)
    step = _step(ceiling - least)
    low = step * (least // step)
    high = step * -(-ceiling // step)
    span = high - low
    steps = max(len(totals) - 1, 1)
    right = WIDTH - RIGHT
    bottom = HEIGHT - BOTTOM

    def x(index: int) -> float:
        return round(LEFT + (right - LEFT) * index / steps, 1)

    def y(score: int) -> float:
        return round(bottom - (bottom - TOP) * (score - low) / span, 1)

    lines = []
    for side in range(sides):
        points = tuple(Point(x(i), y(t[side])) for i, t in enumerate(totals))
        lines.append(
            Line(
                side=side,
                name=options.side_name(side),
                mark=MARKS[side % len(MARKS)],
                path=" ".join(f"{p.x},{p.y}" for p in points),
                points=points,
                total=totals[-1][side],
            )
        )
    every = max(1, -(-len(sheet.hands) // 8))  # at most about eight hand numbers
    x_ticks = tuple(
        Tick(x(i), str(row.number)) for i, row in enumerate(sheet.hands, start=1) if i % every == 0
    )
    y_ticks = tuple(Tick(y(score), str(score)) for score in range(low, high + 1, step))
    return Race(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=right,
        bottom=bottom,
        target_y=y(sheet.goal) if shows_target else -1,
        goal=sheet.goal,
        lines=tuple(lines),
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        title=gettext("The race to %(target)s, hand by hand", target=sheet.goal),
        summary=summary(sheet),
    )


def _step(span: int) -> int:
    """A round distance between grid lines: four or five lines over ``span``."""
    return next((step for step in STEPS if step * 4 >= span), STEPS[-1] * (span // 40_000 + 1))


def summary(sheet: Sheet) -> str:
    """The chart in a sentence: the totals now, and who won or is ahead."""
    options = sheet.options
    last = sheet.hands[-1].totals if sheet.hands else (0,) * options.side_count
    scores = say(Items(tuple(f"{options.side_name(s)} {t}" for s, t in enumerate(last)), "and"))
    hands = len(sheet.hands)
    said = ngettext(
        "After %(num)s hand: %(scores)s.", "After %(num)s hands: %(scores)s.", hands, scores=scores
    )
    return f"{said} {standing(sheet)}"


def standing(sheet: Sheet) -> str:
    """Who won, who is ahead, or that the sides are level."""
    options = sheet.options
    if sheet.over and sheet.winners:
        named = say(Items(tuple(options.side_name(s) for s in sheet.winners), "and"))
        return gettext("Winner: %(names)s.", names=named)
    if not sheet.hands or len(sheet.leaders) > 1:
        return gettext("Level at the top.")
    return gettext("Ahead: %(name)s.", name=options.side_name(sheet.leaders[0]))
