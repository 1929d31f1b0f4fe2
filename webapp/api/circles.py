"""The JSON API of circles: make one, read its games and its people's figures, put a game in
it, rename and merge its people by name, and move its games as JSON (export, import) or CSV.

A circle's URL here takes either of its ids, as a game's does: by the watch id the answer
names games by their watch ids too, and nothing can be changed."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Response, abort, jsonify, request
from flask.typing import ResponseReturnValue

from ..config import IMPORT_BODY_LIMIT
from ..i18n.words import gettext
from ..rules import BadOptions, Options, RuleError
from ..rules.circle_stats import person_key
from ..rules.messages import N_
from ..rules.scorebook import Scorebook
from ..store import ANYWHERE, EXPORT_FORMAT, CircleNotFound, CircleRefused, CircleRow, Person
from ..web.game import remember_circle, store
from ..web.limits import creating, importing
from ..web.security import public_url
from . import bp
from .shapes import circle_json

CIRCLE_FORMAT = "allfives-circle/1"
MOST_IMPORTED = 1_000


def _body() -> dict[str, Any]:
    from . import _body as body

    return body()


def _circle(key: str) -> tuple[CircleRow, bool]:
    """The circle by its id, or by its watch id (then ``True``: read only)."""
    try:
        return store().circles.get(key), False
    except CircleNotFound:
        return store().circles.get(key, by_view=True), True


def _editable(key: str) -> CircleRow:
    circle, viewer = _circle(key)
    if viewer:
        abort(403, gettext("this is a view-only link: it cannot change the circle"))
    return circle


def _urls(circle: CircleRow) -> dict[str, str]:
    return {
        "url": public_url("circles.page", circle_id=circle.id),
        "watch_url": public_url("circles.watch", circle_view=circle.view_id),
    }


@bp.post("/circles")
@creating
def create_circle() -> ResponseReturnValue:
    circle = store().circles.create(_body().get("name"))
    remember_circle(circle.id)
    return jsonify(
        {"id": circle.id, "view_id": circle.view_id, "name": circle.name, **_urls(circle)}
    ), 201


@bp.get("/circles/<key>")
def show_circle(key: str) -> ResponseReturnValue:
    return jsonify(_shown(*_circle(key)))


def _shown(circle: CircleRow, viewer: bool = False) -> dict[str, Any]:
    stats, games, names = store().circles.stats(circle)
    shown = circle_json(circle, viewer, stats, games, names)
    urls = _urls(circle)
    shown["url"] = urls["watch_url"] if viewer else urls["url"]
    return shown


@bp.post("/circles/<key>/games")
def add_game(key: str) -> ResponseReturnValue:
    """Move a game (by its players' id) into the circle; with ``"from"`` (the id of the circle
    it was seen in, or null for none), only if it is still there: else refused
    (``in_another_circle``, naming where it is now), nothing changed."""
    circle = _editable(key)
    body = _body()
    game, was = body.get("game"), body.get("from", ANYWHERE)
    if not isinstance(game, str):
        raise CircleRefused("game", N_("name the game by its id"))
    if was is not None and not isinstance(was, str):
        raise CircleRefused("from", N_("name the circle it was in by its id, or null"))
    store().circles.add_game(circle.id, game, was)
    return jsonify(_shown(circle))


def _named(circle: CircleRow, name: object) -> Person:
    wanted = person_key(name) if isinstance(name, str) else None
    for person in store().circles.people(circle.id):
        if person_key(person.name) == wanted:
            return person
    raise CircleRefused(
        "no_such_person",
        N_("there is no such person in this circle: %(name)s", name=str(name)[:40]),
    )


@bp.post("/circles/<key>/rename")
def rename_person(key: str) -> ResponseReturnValue:
    """``{"from": "Cy", "to": "Cyrus"}``: a person named anew."""
    circle = _editable(key)
    body = _body()
    store().circles.rename(circle.id, _named(circle, body.get("from")).id, body.get("to"))
    return jsonify(_shown(circle))


@bp.post("/circles/<key>/merge")
def merge_people(key: str) -> ResponseReturnValue:
    """``{"from": "Cy", "into": "Cyrus"}``: one person's games become the other's."""
    circle = _editable(key)
    body = _body()
    source, into = _named(circle, body.get("from")), _named(circle, body.get("into"))
    store().circles.merge(circle.id, source.id, into.id)
    return jsonify(_shown(circle))


@bp.get("/circles/<key>/export")
def circle_export(key: str) -> ResponseReturnValue:
    """The circle's games as a game's export each, oldest first."""
    circle, _viewer = _circle(key)
    games = [store().export(game.id) for game in reversed(store().circles.games(circle.id))]
    response = jsonify({"format": CIRCLE_FORMAT, "name": circle.name, "games": games})
    response.headers["Content-Disposition"] = 'attachment; filename="allfives-circle.json"'
    return response


@bp.post("/circles/import")
@importing
def circle_import() -> ResponseReturnValue:
    """A new circle holding a copy of each game of an export: every game judged first, so a
    refused one changes nothing."""
    request.max_content_length = IMPORT_BODY_LIMIT
    body = _body()
    games = body.get("games")
    if body.get("format") != CIRCLE_FORMAT or not isinstance(games, list):
        raise BadOptions(
            "import_format",
            N_("not an exported circle: format must be %(format)s", format=repr(CIRCLE_FORMAT)),
        )
    if len(games) > MOST_IMPORTED:
        raise BadOptions(
            "import_games", N_("a circle holds at most %(most)s games", most=MOST_IMPORTED)
        )
    checked = []
    for number, game in enumerate(games, start=1):
        try:
            checked.append(_checked(game))
        except RuleError as refusal:
            raise BadOptions(
                refusal.code, N_("game %(number)s: %(why)s", number=number, why=refusal.message)
            ) from None
    circle = store().circles.create(body.get("name"))
    for options, actions in checked:
        snapshot = store().create(options, actions)
        store().circles.add_game(circle.id, snapshot.id)
    remember_circle(circle.id)
    return jsonify(_shown(circle)), 201


def _checked(game: object) -> tuple[Options, list[Any]]:
    """A game of an export, its options and actions judged as an import's."""
    if not isinstance(game, dict) or game.get("format") != EXPORT_FORMAT:
        raise BadOptions(
            "import_format",
            N_("not an exported game: format must be %(format)s", format=repr(EXPORT_FORMAT)),
        )
    options = Options.parse(
        game.get("players"), game.get("partnership", False), game.get("rules", {})
    )
    actions = game.get("actions", [])
    if not isinstance(actions, list):
        raise BadOptions("import_actions", N_("actions must be a list"))
    Scorebook.entered(options, actions)
    return options, actions


@bp.get("/circles/<key>/games.csv")
def circle_csv(key: str) -> ResponseReturnValue:
    """A row per game, newest first: its day, id, rules, each seat's player and side's score,
    and the winners."""
    circle, viewer = _circle(key)
    names = {person.id: person.name for person in store().circles.people(circle.id)}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    header = [gettext("Date"), gettext("Game"), gettext("Rules"), gettext("Finished")]
    for seat in range(1, 5):
        header += [
            gettext("Player %(number)s", number=seat),
            gettext("Score %(number)s", number=seat),
        ]
    writer.writerow([*header, gettext("Winners")])
    for game in store().circles.games(circle.id):
        summary = game.summary
        cells: list[object] = []
        for seat, name in enumerate(summary.players):
            cells += [
                _cell(names.get(game.people[seat], name)),
                summary.finals[summary.sides[seat]],
            ]
        cells += ["", ""] * (4 - len(summary.players))
        winners = [
            _cell(names.get(game.people[seat], name))
            for seat, name in enumerate(summary.players)
            if summary.sides[seat] in summary.winners
        ]
        writer.writerow(
            [
                game.created_at.date().isoformat(),
                game.view_id if viewer else game.id,
                summary.preset,
                "1" if summary.over else "0",
                *cells,
                " & ".join(winners),
            ]
        )
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = 'attachment; filename="allfives-circle.csv"'
    return response


def _cell(text: str) -> str:
    """A name such as "=1+1" is not taken for a spreadsheet's formula."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text
