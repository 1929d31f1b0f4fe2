"""The circle's pages: the circle (players' link and watch link), its people, a new circle,
and a game moved into one."""

from __future__ import annotations

from dataclasses import dataclass

from flask import redirect, request, url_for
from flask.typing import ResponseReturnValue

from ..i18n.words import say
from ..store import ANYWHERE, CircleRefused, CircleRow, Person
from ..web.game import Table, recent_circles, remember_circle, store
from ..web.limits import creating
from ..web.pages import render_page
from . import bp
from .page import circle_page, read_filters


@bp.get("/c/<circle_id>")
def page(circle_id: str) -> ResponseReturnValue:
    """The circle on its players' link: the device keeps it in its list."""
    circle = store().circles.get(circle_id)
    remember_circle(circle.id)
    return _page(circle, viewer=False)


@bp.get("/cw/<circle_view>")
def watch(circle_view: str) -> ResponseReturnValue:
    return _page(store().circles.get(circle_view, by_view=True), viewer=True)


def _page(circle: CircleRow, viewer: bool) -> ResponseReturnValue:
    filters, wrong = read_filters()
    page = render_page("circles/circle.html", circle_page(circle, viewer, filters, wrong))
    return (page, 422) if wrong else page


# --- a new circle, and a game moved into one -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choice:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class NewCircle:
    name: str
    game: str  # the game to keep in it ("" for none)
    circles: tuple[Choice, ...]  # this device's circles the game may move into
    error: str
    action: str
    now: str = ""  # the name of the circle the game is in ("" for none): it is moved out of it
    was: str = ""  # that circle's id, sent back: a move by another phone meanwhile is said


@bp.get("/circles/new")
def new_circle() -> ResponseReturnValue:
    return _new_page("", "")


@bp.post("/circles/new")
@creating
def create() -> ResponseReturnValue:
    name = request.form.get("name", "")[:200]
    try:
        circle = store().circles.create(name)
    except CircleRefused as refusal:
        return _new_page(name, "", say(refusal.message))
    remember_circle(circle.id)
    return redirect(url_for(".page", circle_id=circle.id), 303)


@bp.route("/g/<game_id>/circle", methods=["GET", "POST"])
def keep_game(table: Table) -> ResponseReturnValue:
    """Keep this table's games together: a new circle named here, or one of this device's,
    takes the game (and the games played again after it)."""
    game = table.snapshot.id
    if request.method == "GET":
        return _new_page("", game)
    chosen = request.form.get("circle", "")
    name = request.form.get("name", "")[:200]
    was = request.form.get("was", ANYWHERE) or None  # where the page showed the game ("": none)
    try:
        if chosen:
            circle = store().circles.get(chosen)
            store().circles.add_game(circle.id, game, was)
        else:
            circle = store().circles.create(name, game, was)
    except CircleRefused as refusal:
        return _new_page(name, game, say(refusal.message))
    remember_circle(circle.id)
    return redirect(url_for(".page", circle_id=circle.id), 303)


def _new_page(name: str, game: str, error: str = "") -> ResponseReturnValue:
    now = store().circles.circle_of(game) if game else None
    mine = recent_circles() if game else []
    circles = tuple(Choice(c.id, c.name) for c in mine if now is None or c.id != now.id)
    action = url_for(".keep_game") if game else url_for(".create")
    shown = NewCircle(name, game, circles, error, action, *((now.name, now.id) if now else ()))
    page = render_page("circles/new.html", shown)
    return (page, 422) if error else page


# --- the people ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PersonRow:
    id: int
    name: str
    games: int


@dataclass(frozen=True, slots=True)
class PeoplePage:
    name: str
    back: str
    people: tuple[PersonRow, ...]
    rename: str
    merge: str
    error: str
    done: str


@bp.get("/c/<circle_id>/people")
def people(circle_id: str) -> ResponseReturnValue:
    return _people(store().circles.get(circle_id))


@bp.post("/c/<circle_id>/people/rename")
def rename(circle_id: str) -> ResponseReturnValue:
    circle = store().circles.get(circle_id)
    form = request.form
    try:
        person = store().circles.rename(circle.id, form.get("person"), form.get("name", "")[:200])
    except CircleRefused as refusal:
        return _people(circle, say(refusal.message))
    return redirect(url_for(".people", circle_id=circle.id, done=person.name), 303)


@bp.post("/c/<circle_id>/people/merge")
def merge(circle_id: str) -> ResponseReturnValue:
    circle = store().circles.get(circle_id)
    form = request.form
    try:
        person = store().circles.merge(circle.id, form.get("source"), form.get("into"))
    except CircleRefused as refusal:
        return _people(circle, say(refusal.message))
    return redirect(url_for(".people", circle_id=circle.id, done=person.name), 303)


def _people(circle: CircleRow, error: str = "") -> ResponseReturnValue:
    found: list[Person] = store().circles.people(circle.id)
    page = PeoplePage(
        name=circle.name,
        back=url_for(".page", circle_id=circle.id),
        people=tuple(PersonRow(p.id, p.name, p.games) for p in found),
        rename=url_for(".rename", circle_id=circle.id),
        merge=url_for(".merge", circle_id=circle.id),
        error=error,
        done="" if error else request.args.get("done", "")[:40],
    )
    answer = render_page("circles/people.html", page)
    return (answer, 422) if error else answer
