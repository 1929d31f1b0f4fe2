"""The rules page: RULES.md in plain words, with drawn examples (each a small board played by
the rules engine, with a link to try it on the practice board) and its tables of rounding."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from markupsafe import Markup, escape

from ..i18n.words import say
from ..rules import Options
from ..rules.practice import Board
from ..rules.settlement import round_to_five
from ..ui.forms import PresetChoice, preset_choices
from ..ui.layouts import Picture
from ..web.pages import render_page
from . import bp
from .practice import practice_url

#: R13's table: pips held, each rounded to the nearest five.
HELD_PIPS = (2, 3, 7, 8, 12, 13)
#: R22's table: 7 pips rounded each way, in the order of the table's columns.
ROUNDINGS = ("nearest", "up", "down", "none")


@dataclass(frozen=True, slots=True)
class Diagram:
    """A drawn example of the rules page: the layout, the points of its last play, and where
    to try it on the practice board."""

    picture: Picture
    points: int
    practice_url: str | None


@dataclass(frozen=True, slots=True)
class Rounded:
    """Pips held at the end of a hand and what they round to (R13)."""

    pips: int
    lost: int


@dataclass(frozen=True, slots=True)
class RulesPage:
    presets: tuple[PresetChoice, ...]
    rounded: tuple[Rounded, ...]  # R13's table
    seven_rounded: tuple[int, ...]  # R22's table: 7 pips rounded each of the ``ROUNDINGS``


@bp.get("/rules")
def rules() -> ResponseReturnValue:
    page = RulesPage(
        presets=preset_choices(),
        rounded=tuple(Rounded(pips=pips, lost=round_to_five(pips)) for pips in HELD_PIPS),
        seven_rounded=tuple(round_to_five(7, how) for how in ROUNDINGS),
    )
    return render_page("teaching/rules.html", page)


@lru_cache(maxsize=64)  # the rules page draws 16
def diagram(notation: str, preset: str = "seed", **rules: str) -> Diagram:
    """A small drawn example for the rules page, from a board written like the practice URL
    and played by a preset's rules (R17, R18): the layout, its count, the points of its last
    play, and a link to try it on the practice board (which plays presets, not single rules)."""
    variant = Options.make(["Ana", "Ben"], False, preset, **rules).variant
    board = Board.parse(notation, variant)
    last = board.last
    return Diagram(
        Picture.of(board.layout, last.tile if last else None),
        last.points if last else 0,
        None if rules else practice_url(board, preset),
    )


_TILE_NAME = re.compile(r"\b(\d-\d)\b")


def tile_names(text: str) -> Markup:
    """Text with each tile name (``6-4``) kept on one line: a name split at its hyphen misreads."""
    return Markup(_TILE_NAME.sub(r'<span class="tile-name">\1</span>', str(escape(say(text)))))


def _register(state: BlueprintSetupState) -> None:
    state.app.jinja_env.globals.update(diagram=diagram)
    state.app.jinja_env.filters["tile_names"] = tile_names


bp.record_once(_register)
