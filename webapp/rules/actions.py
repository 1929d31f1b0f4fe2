"""Actions as data: what a table does, as small immutable values (R3–R7, R12–R14).

Every action has a plain-dict form for storage and the JSON API that round-trips:

>>> play = Play(Tile(6, 4), Arm.RIGHT)
>>> to_dict(play)
{'type': 'play', 'tile': '6-4', 'end': 'right'}
>>> from_dict(to_dict(play)) == play
True
>>> to_dict(Pass(confirm=True))
{'type': 'pass', 'confirm': True}
>>> from_dict({"type": "end_hand", "remaining": {"1": 13, "2": ["3-4"]}})
EndHand(reports=((1, Report(pips=13, tiles=None)), (2, Report(pips=7, tiles=(Tile(3, 4),)))))
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from .errors import IllegalAction, ImpossibleReport
from .layout import Arm
from .messages import N_
from .numbers import whole_number
from .records import replace
from .settlement import Report
from .tiles import Tile

MAX_DRAW = 28


class ActionKind(enum.StrEnum):
    """What an action is: its ``type`` in the plain-dict form, and the ``kind`` of the outcome
    it has. A ``str``: ``kind == "play"`` holds."""

    START_HAND = "start_hand"
    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    END_HAND = "end_hand"
    UNDO = "undo"
    CORRECT = "correct"
    CALL_TIME = "call_time"
    RENAME = "rename"
    END_GAME = "end_game"


def bad_draw() -> IllegalAction:
    """R6: the refusal of a draw whose count is no whole number of tiles, 1 or more."""
    return IllegalAction("bad_draw", N_("draw a whole number of tiles, 1 or more"), "R6")


def not_a_seat(shown: str) -> IllegalAction:
    """The refusal of a seat given as something that is no seat number (``shown`` as typed)."""
    return IllegalAction("bad_seat", N_("%(shown)s is not a seat at this table", shown=shown))


@dataclass(frozen=True, slots=True)
class StartHand:
    """Start the next hand; ``leader`` is a seat, or ``None`` to let R3 decide.

    ``no_double``: under ``first_lead = "highest-double"`` (R21), the table says nobody holds
    a double, so the leader it names (the heaviest tile) may lead any tile."""

    leader: int | None = None
    no_double: bool = False

    @classmethod
    def parse(cls, leader: str, no_double: bool = False) -> StartHand:
        """A start as a form says it: ``leader`` is ``""`` or ``"random"`` for R3's random
        pick, else a seat number from 0 as typed; anything else is the ``bad_seat`` refusal.
        Whether that seat is at this table is the game's to say when the start is applied.

        >>> StartHand.parse(" 2 "), StartHand.parse("random", no_double=True)
        (StartHand(leader=2, no_double=False), StartHand(leader=None, no_double=True))
        >>> StartHand.parse("Ana")
        Traceback (most recent call last):
        ...
        webapp.rules.errors.IllegalAction: 'Ana' is not a seat at this table
        """
        if not isinstance(leader, str):
            raise not_a_seat(repr(leader)[:20])
        text = leader.strip()
        if text in ("", "random"):
            return cls(None, no_double)
        seat = whole_number(text, 4)
        if seat is None:
            raise not_a_seat(repr(text[:20]))
        return cls(seat, no_double)


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``tile`` on ``arm`` (``None`` for a lead, or when it fits only one end)."""

    tile: Tile
    arm: Arm | None = None
    seat: int | None = None  # who plays, when the caller wants the turn checked


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw ``count`` tiles from the boneyard (R6); ``confirm``: the table insists (R7a)."""

    count: int = 1
    seat: int | None = None
    confirm: bool = False

    @classmethod
    def parse(cls, text: str, confirm: bool = False) -> Draw:
        """A draw as a form says it: its count as typed, 1 to 99 in ASCII digits, or the
        ``bad_draw`` refusal (R6). How many the boneyard still has is the game's to say.

        >>> Draw.parse(" 3 "), Draw.parse("1", confirm=True).confirm
        (Draw(count=3, seat=None, confirm=False), True)
        >>> Draw.parse("0")
        Traceback (most recent call last):
        ...
        webapp.rules.errors.IllegalAction: draw a whole number of tiles, 1 or more
        """
        count = whole_number(text, 2)
        if not count:
            raise bad_draw()
        return cls(count, confirm=confirm)


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass with the boneyard empty (R7); ``confirm``: the table insists (R7a)."""

    seat: int | None = None
    confirm: bool = False


@dataclass(frozen=True, slots=True)
class EndHand:
    """Settle a finished hand with what each player still holds (R13, R14)."""

    reports: tuple[tuple[int, Report], ...] = ()

    @classmethod
    def of(cls, reports: Mapping[int, Report | int | list[Tile] | tuple[Tile, ...]]) -> EndHand:
        return cls(tuple(sorted((seat, _report(value)) for seat, value in reports.items())))

    @classmethod
    def parse(
        cls, entered: Mapping[int, tuple[str, Sequence[str]]], names: Sequence[str]
    ) -> EndHand:
        """A settlement as a form says it: for each seat, the pips typed and the tiles tapped
        (tiles win); a seat with neither is left out. Pips that are no whole number are the
        ``report_pips`` refusal (R14), naming the player.

        >>> EndHand.parse({1: ("12", []), 2: ("", ["6-6", "1-0"])}, ["Ana", "Ben", "Cy"]).by_seat
        {1: Report(pips=12, tiles=None), 2: Report(pips=13, tiles=(Tile(6, 6), Tile(1, 0)))}
        >>> EndHand.parse({1: ("a dozen", [])}, ["Ana", "Ben"])
        Traceback (most recent call last):
        ...
        webapp.rules.errors.ImpossibleReport: Ben's pips must be a whole number, 0 or more
        """
        reports: dict[int, Report | int | list[Tile]] = {}
        for seat, (pips, tiles) in entered.items():
            if tiles:
                reports[seat] = [Tile.parse(text) for text in tiles]
            elif (count := whole_number(pips, 4)) is not None:
                reports[seat] = count
            elif pips:
                raise ImpossibleReport(
                    "report_pips",
                    N_("%(name)s's pips must be a whole number, 0 or more", name=names[seat]),
                    "R14",
                )
        return cls.of(reports)

    @property
    def by_seat(self) -> dict[int, Report]:
        return dict(self.reports)


@dataclass(frozen=True, slots=True)
class Undo:
    """Cancel the last action still in effect; undo twice cancels two."""


@dataclass(frozen=True, slots=True)
class Correct:
    """Fix move ``entry`` of the current hand (numbered from 1, as the log shows it): it was
    really ``actions`` (none: it never happened). The later moves stay while they still fit;
    see :mod:`webapp.rules.correction`."""

    entry: int
    actions: tuple[Play | Draw | Pass, ...] = ()

    @classmethod
    def parse(
        cls, entry: int, what: str, tile: str = "", end: str = "", count: str = ""
    ) -> Correct:
        """A correction as the fix page's form says it: move ``entry`` was really a ``play`` of
        ``tile`` (on ``end``), a ``draw`` of ``count``, a ``pass``, a ``pass_play`` (the tile was
        the next player's: the one entered passed first), or ``remove`` (it never happened).

        >>> Correct.parse(3, "pass_play", "6-5", "left").actions
        (Pass(seat=None, confirm=False), Play(tile=Tile(6, 5), arm=Arm('left'), seat=None))
        >>> Correct.parse(3, "draw", count="2").actions, Correct.parse(3, "remove").actions
        ((Draw(count=2, seat=None, confirm=False),), ())
        """
        if what in ("play", "pass_play"):
            played = Play(Tile.parse(tile), Arm.parse(end) if end.strip() else None)
            return cls(entry, (played,) if what == "play" else (Pass(), played))
        if what == "draw":
            return cls(entry, (Draw.parse(count),))
        if what == "pass":
            return cls(entry, (Pass(),))
        if what == "remove":
            return cls(entry, ())
        raise IllegalAction(
            "bad_correction", N_("say what the move really was: a tile, a draw or a pass")
        )


@dataclass(frozen=True, slots=True)
class CallTime:
    """The table or the director calls time (R30): the game ends, or goes to overtime."""


@dataclass(frozen=True, slots=True)
class Rename:
    """The player at ``seat`` is really called ``name`` (a typo fixed): the log keeps it, so
    every screen shows the new name from then on, and an undo takes it back."""

    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class EndGame:
    """The table stops before the target: the game ends with the scores as they stand."""


MAX_CORRECTION = 8  # actions standing for one entry: a pass or a draw or two, then the play
MAX_ENTRY = 200  # more moves than a hand can have (28 plays, 19 tiles drawn, passes between)

Action: TypeAlias = (
    StartHand | Play | Draw | Pass | EndHand | Undo | Correct | CallTime | Rename | EndGame
)


def in_effect(actions: Sequence[Action]) -> list[Action]:
    """The actions a log leaves in effect: each :class:`Undo` cancels the last one standing.

    >>> in_effect([Draw(), Pass(), Undo(), Undo(), Pass()])
    [Pass(seat=None, confirm=False)]
    """
    standing: list[Action] = []
    for action in actions:
        if isinstance(action, Undo):
            if standing:
                standing.pop()
        else:
            standing.append(action)
    return standing


def _report(value: Report | int | list[Tile] | tuple[Tile, ...]) -> Report:
    if isinstance(value, Report):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Report(value)
    if isinstance(value, list | tuple) and all(isinstance(tile, Tile) for tile in value):
        return Report.of_tiles(value)
    raise ImpossibleReport(
        "report_pips",
        N_(
            "%(shown)s is not a report: give a number of pips or a list of tiles",
            shown=repr(value),
        ),
        "R14",
    )


def to_dict(action: Action) -> dict[str, Any]:
    """The storage form of an action (seats as numbers from 0)."""
    match action:
        case StartHand(leader, no_double):
            started: dict[str, Any] = {"type": ActionKind.START_HAND.value, "leader": leader}
            if no_double:
                started["no_double"] = True
            return started
        case Play(tile, arm, seat):
            found: dict[str, Any] = {"type": ActionKind.PLAY.value, "tile": str(tile)}
            if arm is not None:
                found["end"] = arm.value
            if seat is not None:
                found["seat"] = seat
            return found
        case Draw(count, seat, confirm):
            return _confirmed(
                _with_seat({"type": ActionKind.DRAW.value, "count": count}, seat), confirm
            )
        case Pass(seat, confirm):
            return _confirmed(_with_seat({"type": ActionKind.PASS.value}, seat), confirm)
        case EndHand(reports):
            return {
                "type": ActionKind.END_HAND.value,
                "remaining": {
                    str(seat): (
                        report.pips if report.tiles is None else [str(t) for t in report.tiles]
                    )
                    for seat, report in reports
                },
            }
        case Undo():
            return {"type": ActionKind.UNDO.value}
        case CallTime():
            return {"type": ActionKind.CALL_TIME.value}
        case Rename(seat, name):
            return {"type": ActionKind.RENAME.value, "seat": seat, "name": name}
        case EndGame():
            return {"type": ActionKind.END_GAME.value}
        case Correct(entry, actions):
            return {
                "type": ActionKind.CORRECT.value,
                "entry": entry,
                "with": [to_dict(a) for a in actions],
            }
    raise TypeError(f"not an action: {action!r}")


def from_dict(data: Mapping[str, Any]) -> Action:
    """Read the storage form back; refuse malformed input with :class:`IllegalAction`."""
    kind = data.get("type") if isinstance(data, Mapping) else None
    seat = _seat(data.get("seat")) if isinstance(data, Mapping) else None
    if kind == ActionKind.START_HAND:
        no_double = data.get("no_double", False)
        if not isinstance(no_double, bool):
            raise IllegalAction("bad_no_double", N_("no_double is true or false"), "R21")
        return StartHand(_seat(data.get("leader")), no_double)
    if kind == ActionKind.PLAY:
        end = data.get("end")
        tile = Tile.parse(str(data.get("tile", "")))
        return Play(tile, None if end in (None, "") else Arm.parse(str(end)), seat)
    if kind == ActionKind.DRAW:
        count = data.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_DRAW:
            raise bad_draw()
        return Draw(count, seat, _confirm(data.get("confirm")))
    if kind == ActionKind.PASS:
        return Pass(seat, _confirm(data.get("confirm")))
    if kind == ActionKind.END_HAND:
        remaining = data.get("remaining")
        if not isinstance(remaining, Mapping):
            raise ImpossibleReport(
                "report_missing", N_("say what each player still holding tiles holds"), "R14"
            )
        reports: dict[int, Report | int | list[Tile]] = {}
        for key, value in remaining.items():
            position = _seat(_key_number(key) if isinstance(key, str) else key)
            if position is None:
                raise ImpossibleReport(
                    "report_player", N_("%(shown)s is not a seat", shown=repr(key)), "R14"
                )
            if isinstance(value, list):
                reports[position] = [Tile.parse(text) for text in value]
            else:
                reports[position] = value
        return EndHand.of(reports)
    if kind == ActionKind.UNDO:
        return Undo()
    if kind == ActionKind.CORRECT:
        return _correct(data)
    if kind == ActionKind.CALL_TIME:
        return CallTime()
    if kind == ActionKind.RENAME:
        return _rename(data, seat)
    if kind == ActionKind.END_GAME:
        return EndGame()
    raise IllegalAction(
        "bad_action",
        N_(
            "%(shown)s is not an action: use start_hand, play, draw, pass, end_hand, undo, "
            "correct, call_time, rename or end_game",
            shown=repr(kind),
        ),
    )


def _correct(data: Mapping[str, Any]) -> Correct:
    """``{"type": "correct", "entry": 3, "with": [{"type": "play", ...}]}`` as a :class:`Correct`.

    >>> _correct({"entry": 3, "with": [{"type": "pass"}, {"type": "play", "tile": "5-3"}]}).actions
    (Pass(seat=None, confirm=False), Play(tile=Tile(5, 3), arm=None, seat=None))
    >>> _correct({"entry": 3, "with": [{"type": "undo"}]})
    Traceback (most recent call last):
    ...
    webapp.rules.errors.IllegalAction: fix a move with plays, draws and passes, not 'undo'
    """
    entry = data.get("entry")
    if not isinstance(entry, int) or isinstance(entry, bool) or not 1 <= entry <= MAX_ENTRY:
        raise IllegalAction(
            "bad_entry", N_("say which move to fix: its number, 1 to %(most)s", most=MAX_ENTRY)
        )
    replacing = data.get("with", [])
    if not isinstance(replacing, list) or len(replacing) > MAX_CORRECTION:
        raise IllegalAction(
            "bad_correction",
            N_(
                "say what move %(entry)s really was: a list of at most %(most)s actions",
                entry=entry,
                most=MAX_CORRECTION,
            ),
        )
    actions: list[Play | Draw | Pass] = []
    for item in replacing:
        kind = item.get("type") if isinstance(item, Mapping) else item
        action = (
            from_dict(item) if kind in (ActionKind.PLAY, ActionKind.DRAW, ActionKind.PASS) else None
        )
        if not isinstance(action, Play | Draw | Pass):
            shown = repr(kind) if len(repr(kind)) <= 24 else repr(kind)[:20] + "…"
            raise IllegalAction(
                "bad_correction",
                N_("fix a move with plays, draws and passes, not %(shown)s", shown=shown),
            )
        actions.append(action)
    return Correct(entry, tuple(actions))


def _rename(data: Mapping[str, Any], seat: int | None) -> Rename:
    """``{"type": "rename", "seat": 2, "name": "Cyrus"}`` as a :class:`Rename`; whether the
    name may be used is the game's to say (as at its creation).

    >>> _rename({"name": "Cyrus"}, 2)
    Rename(seat=2, name='Cyrus')
    >>> _rename({"name": "Cyrus"}, None)
    Traceback (most recent call last):
    ...
    webapp.rules.errors.IllegalAction: say whose name to change
    """
    if seat is None:
        raise IllegalAction("bad_player", N_("say whose name to change"))
    name = data.get("name")
    return Rename(seat, name if isinstance(name, str) else "")


def same_entry(sent: dict[str, Any], stored: dict[str, Any]) -> bool:
    """Whether ``stored`` is the entry ``sent`` asks for: of its kind, and the same in all it
    says; what it leaves to the rules (a play's end, a leader drawn at random, the pips of a
    settlement the rules work out) may be anything.

    >>> same_entry({"type": "play", "tile": "6-4"}, {"type": "play", "tile": "6-4", "end": "left"})
    True
    >>> settled = {"type": "end_hand", "remaining": {"1": 5, "2": ["6-6"]}}
    >>> same_entry({"type": "end_hand", "remaining": {"1": 4}}, settled)
    False
    """
    for key, value in sent.items():
        if value is None:
            continue
        mine = stored.get(key)
        if key == "remaining" and isinstance(value, dict) and isinstance(mine, dict):
            if not value or any(mine.get(seat) != said for seat, said in value.items()):
                return False
        elif mine != value:
            return False
    return True


def recorded(data: Mapping[str, Any]) -> Action:
    """An action read back from a game's log (:func:`from_dict`). It was accepted when it was
    entered, so a draw or pass stands as the table's word (R7a): a log kept before R7a, or one
    the table confirmed, replays exactly as it was played."""
    action = from_dict(data)
    if isinstance(action, Draw | Pass) and not action.confirm:
        return replace(action, confirm=True)
    return action


def _key_number(key: str) -> int | str:
    """A JSON object's key as the seat number it names, else as written (to be refused)."""
    number = whole_number(key, 2)
    return key if number is None else number


def _seat(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 4:
        return value
    raise not_a_seat(repr(value) if len(repr(value)) <= 24 else repr(value)[:20] + "…")


def _confirm(value: object) -> bool:
    """R7a: ``"confirm": true`` records a draw or pass the record seems to disprove."""
    if value is None or isinstance(value, bool):
        return bool(value)
    raise IllegalAction(
        "bad_confirm",
        N_("confirm is true or false, not %(shown)s", shown=repr(str(value)[:20])),
        "R7a",
    )


def _confirmed(found: dict[str, Any], confirm: bool) -> dict[str, Any]:
    if confirm:
        found["confirm"] = True
    return found


def _with_seat(found: dict[str, Any], seat: int | None) -> dict[str, Any]:
    if seat is not None:
        found["seat"] = seat
    return found
