"""Which of the game screen's regions an action changed, for the phone that tapped it.

The phone's screen shows the game at the revision its form carried; the answer to its action
carries only what differs between that revision and the next, each piece swapped into place
out of band by its id: the board and the notice (always), the poll's region (``live``, the
revision: always), the scores side by side (a side's card when its points, its turn or the
tiles it holds changed), the controls only when their state did (Undo alone when only what it
takes back changed), and of the picker only the tiles that changed (a play: the one tile
played; with hints, the ones whose hint changed) and, after the lead, its name (what to tap).
The forms left in place are given the new revision by one element swapped into each of their
``seq`` fields.

Nothing is guessed: the regions compared are built by ``screen`` from the two snapshots, and
compared as frozen dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter

from ..ui.picker import PickerTile
from .regions import Controls, Picker, Scores, Screen, Side

ALWAYS = ("notice", "live")


@dataclass(frozen=True, slots=True)
class Delta:
    """What an answer sends: ``regions`` whole; and, each alone, the ``sides`` of the scores
    (by their number) and the ``tiles`` of the picker that changed in a region not sent."""

    regions: tuple[str, ...]
    sides: tuple[tuple[int, Side], ...] = ()
    tiles: tuple[PickerTile, ...] = ()
    undo: bool = False  # the Undo button alone: what it takes back changed
    prompt: bool = False  # the picker's name alone: what to tap changed (after the lead)


@dataclass(frozen=True, slots=True)
class Shown:
    """What the phone showed before its action, as far as it is compared: its scores, its
    controls and, when the action was a tap on it, its picker (``screen.shown``). The board
    is not: every action changes it (a tile, the boneyard, the last play marked)."""

    scores: Scores
    controls: Controls | None
    picker: Picker | None


def changed(before: Shown, after: Screen) -> Delta:
    """The regions of ``after`` that differ from ``before``. The picker is sent tile by tile
    only if the phone showed ``before.picker`` (the action was a tap on it, with the same
    hints); otherwise its place is sent whole (an end's question may be open there)."""
    regions = []
    sides = _sides(before.scores, after.scores)
    if sides is None:
        regions.append("scores")
    regions.append("board")
    tiles: tuple[PickerTile, ...] = ()
    old, new = before.picker, after.work
    prompt = False
    if isinstance(old, Picker) and isinstance(new, Picker):
        if (old.coaching, old.choice) != (new.coaching, new.choice):
            regions.append("work")
        else:
            pairs = zip(old.tiles, new.tiles, strict=True)
            # (without hints a tile unchanged is the very same object: ``picker._plain_tile``)
            tiles = tuple(tile for was, tile in pairs if was is not tile and was != tile)
            prompt = old.prompt != new.prompt
    else:
        regions.append("work")
    was, now = before.controls, after.controls
    undo = False
    if was is None or now is None:
        if was != now:
            regions.append("controls")
    elif _controls(was) != _controls(now):
        regions.append("controls")
    else:
        undo = (was.can_undo, was.undo_text) != (now.can_undo, now.undo_text)
    return Delta((*regions, *ALWAYS), sides or (), tiles, undo, prompt)


def _sides(before: Scores, after: Scores) -> tuple[tuple[int, Side], ...] | None:
    """The sides whose card changed (points, the turn, tiles held), or None when the scores
    must be sent whole (the target, or whether tiles held are shown, changed)."""
    if (before.goal, before.show_held, len(before.sides)) != (
        after.goal,
        after.show_held,
        len(after.sides),
    ):
        return None
    return tuple(
        (number, side)
        for number, (was, side) in enumerate(zip(before.sides, after.sides, strict=True))
        if was != side
    )


# The controls as compared for the whole region: Undo apart (sent alone when only it changed),
# and the clock's minutes left, drawn once and then counted down by the phone itself, are no
# change.
_controls = attrgetter(
    *(
        field.name
        for field in fields(Controls)
        if field.name not in ("can_undo", "undo_text", "clock_left")
    )
)
