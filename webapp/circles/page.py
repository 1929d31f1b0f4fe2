"""The circle page's view model: standings, figures, head to head, the chart, recent games
and the filters, as words already said and numbers already counted."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from flask import request, url_for
from flask_babel import format_decimal, format_percent

from ..i18n.words import gettext, ngettext
from ..rules.circle_stats import CircleStats
from ..rules.options import PRESETS
from ..store import CircleRow, Filters, MemberGame
from ..ui.forms import PresetChoice, preset_choices
from ..ui.race import Race
from ..ui.wins import wins_chart
from ..web.game import store
from ..web.security import public_url
from ..web.sharing import ShareLink, share_link

RECENT = 12


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    name: str
    games: int
    wins: int
    win_rate: str
    points: int
    per_hand: str
    best_hand: int
    top_count: int
    went_out: int


@dataclass(frozen=True, slots=True)
class HeadToHead:
    said: str  # "Ana ahead in 4, Ben ahead in 5, tied 3 (12 games against each other)"


@dataclass(frozen=True, slots=True)
class Side:
    name: str
    score: int
    won: bool


@dataclass(frozen=True, slots=True)
class Recent:
    url: str
    sides: tuple[Side, ...]
    status: str
    day: str


@dataclass(frozen=True, slots=True)
class CirclePage:
    viewer: bool
    name: str
    counted: str  # how many games count, and how many are still being played
    standings: tuple[Standing, ...]
    meetings: tuple[HeadToHead, ...]
    chart: Race
    recent: tuple[Recent, ...]
    presets: tuple[PresetChoice, ...]
    preset: str  # the one chosen ("" for all)
    since: str
    until: str
    filtered: bool
    here: str  # this page without filters
    new_game: str  # "" on the watch link
    people: str  # "" on the watch link
    csv: str
    json: str
    share: tuple[ShareLink, ...]
    error: str  # what in the filters was wrong ("" if nothing)


def read_filters() -> tuple[Filters, str]:
    """The filters of the page's GET form; a date that is no date is left out, and said."""
    preset = request.args.get("preset", "")
    preset = preset if preset in PRESETS else ""
    days: list[date | None] = []
    wrong = ""
    for name in ("since", "until"):
        text = request.args.get(name, "").strip()[:10]
        try:
            days.append(date.fromisoformat(text) if text else None)
        except ValueError:
            days.append(None)
            wrong = gettext("A date is written as year-month-day, such as 2026-12-31.")
    return Filters(preset, days[0], days[1]), wrong


def circle_page(circle: CircleRow, viewer: bool, filters: Filters, error: str) -> CirclePage:
    stats, games, names = store().circles.stats(circle, filters)
    playing = sum(not game.summary.over for game in games)
    counted = ngettext(
        "%(num)s finished game counted.", "%(num)s finished games counted.", stats.finished
    )
    if playing:
        counted += " " + ngettext(
            "%(num)s game still being played.", "%(num)s games still being played.", playing
        )
    here = (
        url_for("circles.watch", circle_view=circle.view_id)
        if viewer
        else url_for("circles.page", circle_id=circle.id)
    )
    return CirclePage(
        viewer=viewer,
        name=circle.name,
        counted=counted,
        standings=_standings(stats),
        meetings=tuple(
            HeadToHead(
                ngettext(
                    "%(first)s ahead in %(first_ahead)s, %(second)s ahead in %(second_ahead)s,"
                    " tied %(tied)s (%(num)s game against each other)",
                    "%(first)s ahead in %(first_ahead)s, %(second)s ahead in %(second_ahead)s,"
                    " tied %(tied)s (%(num)s games against each other)",
                    m.games,
                    first=names.get(m.first, "?"),
                    second=names.get(m.second, "?"),
                    first_ahead=m.first_ahead,
                    second_ahead=m.second_ahead,
                    tied=m.tied,
                )
            )
            for m in stats.meetings[:20]
        ),
        chart=wins_chart(stats),
        recent=tuple(_recent(game, names, viewer) for game in games[:RECENT]),
        presets=preset_choices(),
        preset=filters.preset,
        since=filters.since.isoformat() if filters.since else "",
        until=filters.until.isoformat() if filters.until else "",
        filtered=filters != Filters(),
        here=here,
        new_game="" if viewer else url_for("home.new_game", circle=circle.id),
        people="" if viewer else url_for("circles.people", circle_id=circle.id),
        csv=url_for("api.circle_csv", key=circle.view_id if viewer else circle.id),
        json=url_for("api.circle_export", key=circle.view_id if viewer else circle.id),
        share=() if viewer else share_links(circle),
        error=error,
    )


def _standings(stats: CircleStats) -> tuple[Standing, ...]:
    return tuple(
        Standing(
            rank=rank,
            name=p.name,
            games=p.games,
            wins=p.wins,
            win_rate=format_percent(p.win_rate),
            points=p.points,
            per_hand=format_decimal(round(p.per_hand, 1)),
            best_hand=p.best_hand,
            top_count=p.top_count,
            went_out=p.went_out,
        )
        for rank, p in enumerate(stats.people, start=1)
    )


def _recent(game: MemberGame, names: dict[int, str], viewer: bool) -> Recent:
    summary = game.summary
    sides = []
    for side, score in enumerate(summary.finals):
        seats = [seat for seat, s in enumerate(summary.sides) if s == side]
        who = " & ".join(names.get(game.people[seat], summary.players[seat]) for seat in seats)
        sides.append(Side(who, score, side in summary.winners))
    status = gettext("Finished") if summary.over else gettext("Being played")
    url = (
        url_for("game.screen", view_id=game.view_id)
        if viewer
        else url_for("game.screen", game_id=game.id)
    )
    return Recent(url, tuple(sides), status, game.created_at.date().isoformat())


def share_links(circle: CircleRow) -> tuple[ShareLink, ...]:
    """The circle's players' link and watch link, each with its QR code."""
    links = (
        (
            gettext("Players' link"),
            gettext("Lets another phone start games in this circle and tidy its names."),
            public_url("circles.page", circle_id=circle.id),
        ),
        (
            gettext("Watch link"),
            gettext("Shows the standings, changes nothing."),
            public_url("circles.watch", circle_view=circle.view_id),
        ),
    )
    return tuple(share_link(*link) for link in links)
