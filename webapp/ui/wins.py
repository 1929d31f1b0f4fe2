"""A circle's wins over time drawn on the server: each of its leading people's wins, counted
after every finished game, as a line from 0 (the race chart's shape, so one macro draws both).

The numbers are the engine's (:func:`webapp.rules.circle_stats.circle_stats`); nothing here
counts. The summary below the chart says what it shows in words.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n.words import gettext, ngettext, say
from ..rules.circle_stats import CircleStats, PersonStats
from ..rules.messages import Items
from .race import BOTTOM, HEIGHT, LEFT, MARKS, RIGHT, TOP, WIDTH, Line, Point, Race, Tick, _step

LINES = len(MARKS)  # the leading people drawn: one colour and mark each


def wins_chart(stats: CircleStats) -> Race:
    """The wins of the first ``LINES`` people of the standings, after each finished game."""
    leaders = list(stats.people[:LINES])
    games = stats.finished
    top = max((person.wins for person in leaders), default=0)
    step = max(1, _step(max(top, 4)) // 5) if top <= 20 else _step(top)
    high = step * -(-max(top, 1) // step)
    right = WIDTH - RIGHT
    bottom = HEIGHT - BOTTOM

    def x(index: int) -> float:
        return round(LEFT + (right - LEFT) * index / max(games, 1), 1)

    def y(wins: int) -> float:
        return round(bottom - (bottom - TOP) * wins / high, 1)

    lines = []
    for side, person in enumerate(leaders):
        counts = [0, *person.wins_over_time]
        points = tuple(Point(x(i), y(wins)) for i, wins in enumerate(counts))
        if len(points) > 60:  # a long season: the line without a mark on every game
            points = (*points[:: -(-len(points) // 60)], points[-1])
        lines.append(
            Line(
                side=side,
                name=person.name,
                mark=MARKS[side],
                path=" ".join(f"{x(i)},{y(wins)}" for i, wins in enumerate(counts)),
                points=points,
                total=person.wins,
            )
        )
    every = max(1, -(-games // 8))
    x_ticks = tuple(Tick(x(i), str(i)) for i in range(1, games + 1) if i % every == 0)
    y_ticks = tuple(Tick(y(wins), str(wins)) for wins in range(0, high + 1, step))
    return Race(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=right,
        bottom=bottom,
        target_y=-1,
        goal=0,  # no target line
        lines=tuple(lines),
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        title=gettext("Wins over time, game by game"),
        summary=_summary(stats, leaders),
    )


def _summary(stats: CircleStats, leaders: Sequence[PersonStats]) -> str:
    if not leaders:
        return gettext("No finished game yet.")
    wins = say(
        Items(
            tuple(
                ngettext("%(name)s %(num)s win", "%(name)s %(num)s wins", p.wins, name=p.name)
                for p in leaders
            ),
            "and",
        )
    )
    return ngettext(
        "After %(num)s finished game: %(wins)s.",
        "After %(num)s finished games: %(wins)s.",
        stats.finished,
        wins=wins,
    )
