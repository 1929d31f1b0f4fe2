"""The game screen's regions as view models: one frozen dataclass per region.

The views build them (``screen.py``); the templates only print them. The regions, each its own
partial with its own ``id``: ``scores``, ``board``, ``notice`` (what the last tap did,
``notice.py``), ``work`` (the picker, or the start, settlement or game-over panel),
``controls`` (Draw, Pass, Undo) and ``live`` (the poll, with the revision shown).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from markupsafe import Markup

from ..i18n.words import ngettext
from ..ui.labels import Held, Why
from ..ui.layouts import Drawing
from ..ui.picker import PickerTile
from ..ui.race import Race
from .notice import Notice


class Work(enum.StrEnum):
    """What the work panel holds: the picker, or the start, settlement or game-over panel."""

    PICKER = "picker"
    START = "start"
    SETTLE = "settle"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    held: int | None
    turn: bool


@dataclass(frozen=True, slots=True)
class Side:
    name: str
    score: int
    progress: int
    turn: bool
    won: bool
    players: tuple[Seat, ...]

    @property
    def held(self) -> str:
        """Tiles in hand, as a card shows it: ``5 tiles``, or per partner in a team."""
        if any(p.held is None for p in self.players):
            return ""
        if len(self.players) > 1:
            return " · ".join(f"{p.name} {p.held}" for p in self.players)
        held = self.players[0].held
        assert held is not None
        return ngettext("%(num)s tile", "%(num)s tiles", held)


@dataclass(frozen=True, slots=True)
class Scores:
    sides: tuple[Side, ...]
    goal: int
    show_held: bool
    said: str = ""  # the scores in a sentence, read aloud on demand (key s) and after a play
    needs: str = ""  # what each side needs to win, read aloud on demand (key n)


@dataclass(frozen=True, slots=True)
class Board:
    facts: tuple[tuple[str, str], ...]  # (label, value): hand, target, boneyard
    drawing: Drawing | None
    title: str  # the layout in words, for screen readers
    count: int | None
    breakdown: str
    empty: str = ""  # the sentence shown on an empty table
    empty_hint: str = ""
    turned: bool = False
    ends: str = ""  # the open ends and the count in a sentence, read aloud on demand (key o)


@dataclass(frozen=True, slots=True)
class ChoicePlace:
    end: str  # the form value
    label: str
    points: int
    breakdown: str


@dataclass(frozen=True, slots=True)
class Choice:
    tile: str
    places: tuple[ChoicePlace, ...]


@dataclass(frozen=True, slots=True)
class Picker:
    kind: ClassVar[Work] = Work.PICKER

    prompt: str
    tiles: tuple[PickerTile, ...]
    coaching: bool
    choice: Choice | None = None


@dataclass(frozen=True, slots=True)
class Start:
    kind: ClassVar[Work] = Work.START

    leader: str | None  # the rules' leader, or None for a pick by lot
    first: bool
    number: int
    players: tuple[str, ...]
    by_double: bool = False  # R21: the holder of the highest double leads it


@dataclass(frozen=True, slots=True)
class Report:
    """One player still holding tiles at the end of a hand, as the settlement form shows them."""

    seat: int
    name: str
    held: int
    pips: str
    tiles: tuple[str, ...]
    deduced: bool = False


@dataclass(frozen=True, slots=True)
class SideChange:
    """A side's score before a settlement, its change, and after."""

    name: str
    before: int
    change: int
    after: int


@dataclass(frozen=True, slots=True)
class Entry:
    """What was entered at settlement for one player: pips typed, or tiles tapped; or the pips
    the rules worked out (R14)."""

    pips: str = ""
    tiles: tuple[str, ...] = ()
    deduced: bool = False

    @property
    def given(self) -> bool:
        return bool(self.pips or self.tiles)


@dataclass(frozen=True, slots=True)
class Preview:
    players: tuple[Held, ...]
    sides: tuple[SideChange, ...]
    next: str
    over: bool
    why: tuple[Why, ...] = ()


@dataclass(frozen=True, slots=True)
class Settle:
    kind: ClassVar[Work] = Work.SETTLE

    heading: str
    hint: str
    number: int
    reports: tuple[Report, ...]
    unplayed: tuple[str, ...]
    preview: Preview | None = None
    storage_key: str = ""  # where the phone keeps what was typed, per game and revision
    counts_pips: bool = True  # R28: False when the tiles left count nothing (the hint stays)


@dataclass(frozen=True, slots=True)
class HandCell:
    """A side in a settled hand: its score after it, the points made in it, the settlement."""

    score: int
    scored: int
    settled: int


@dataclass(frozen=True, slots=True)
class HandRow:
    number: int
    ended: str  # who went out, or "blocked"
    cells: tuple[HandCell, ...]  # per side


@dataclass(frozen=True, slots=True)
class InCircle:
    """The circle a finished game is kept in: its name and its page (the watch page for an
    onlooker)."""

    name: str
    url: str


@dataclass(frozen=True, slots=True)
class Over:
    kind: ClassVar[Work] = Work.OVER

    winner: str
    sides: tuple[Side, ...]
    side_names: tuple[str, ...]
    hands: tuple[HandRow, ...]
    unsettled: int | None  # a hand the target was reached in
    race: Race | None = None  # each side's total after every hand, drawn
    ended_early: bool = False  # the table ended it with the scores as they stood
    tied: str = ""  # ended early level at the top: the sides that tie, in words
    circle: InCircle | None = None  # the circle the game is in, if any


@dataclass(frozen=True, slots=True)
class Controls:
    playing: bool
    can_draw: bool
    can_pass: bool
    can_undo: bool
    undo_text: str
    boneyard: int
    draw_max: int
    knocks: bool = False  # R27: nobody draws; who cannot play knocks
    clock_ends: str = ""  # R30: when time is up, ISO 8601 in UTC ("" without a clock)
    clock_left: str = ""  # the minutes and seconds left when the page was drawn ("12:05")
    can_call_time: bool = False  # R30: the "Time" control
    overtime: str = ""  # R30: who plays on after time, in words

    @property
    def draw_options(self) -> Markup:
        """The choices of how many tiles to draw: 1 to ``draw_max``."""
        return count_options(self.draw_max)


@lru_cache(maxsize=32)
def count_options(most: int) -> Markup:
    """A select's options 1 to ``most``, made once per number: the controls sent with nearly
    every play list them (at most 28: the tiles of a set). Each option's text is its value."""
    return Markup("".join(f"<option>{n}</option>" for n in range(1, most + 1)))


@dataclass(frozen=True, slots=True)
class Screen:
    viewer: bool
    public_id: str
    seq: int
    status: str
    next_step: str  # what happens next, shown without a notice (a notice says it itself)
    scores: Scores
    board: Board
    notice: Notice | None
    work: Picker | Start | Settle | Over | None
    controls: Controls | None
    learning: bool
    coaching: bool
    turned: bool
    title: str = ""
    rules: str = ""  # the rules in force, as the table chose them ("Muggins, rounding up")
