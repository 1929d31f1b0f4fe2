"""Which of the game screen's regions an action changed, for the phone that tapped it.

The phone's screen shows the game at the revision its form carried; the answer to its action
carries only the regions whose view model differs between that revision and the next, each
swapped into place out of band: the board and the notice, the scores only where they changed,
the controls only when their state did (Undo alone when only what it takes back
changed), and of the picker
only the tiles that changed (a play: the one tile played; with hints, the ones whose hint
changed). The poll's region (``live``, the revision) and the notice are always sent. The
forms left in place are given the new revision by one element swapped into each of their
``seq`` fields.

Nothing is guessed: both screens are built by ``screen.build`` from the two snapshots, and
compared as frozen dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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


def changed(before: Screen, after: Screen, picker_shown: bool) -> Delta:
    """The regions of ``after`` that differ from ``before``. ``picker_shown``: the phone showed
    ``before``'s picker as built (the action was a tap on it, with the same hints): only then
    can the picker be sent tile by tile; otherwise its place is sent whole (an end's question
    may be open there)."""
    regions = []
    sides = _sides(before.scores, after.scores)
    if sides is None:
        regions.append("scores")
    if (before.board, before.rules) != (after.board, after.rules):
        regions.append("board")
    tiles: tuple[PickerTile, ...] = ()
    old, new = before.work, after.work
    if picker_shown and isinstance(old, Picker) and isinstance(new, Picker):
        if (old.prompt, old.coaching, old.choice) != (new.prompt, new.coaching, new.choice):
            regions.append("work")
        else:
            pairs = zip(old.tiles, new.tiles, strict=True)
            tiles = tuple(tile for was, tile in pairs if was != tile)
    else:
        regions.append("work")
    was, now = _controls(before.controls), _controls(after.controls)
    undo = False
    if was is None or now is None:
        if was != now:
            regions.append("controls")
    elif replace(was, can_undo=True, undo_text="") != replace(now, can_undo=True, undo_text=""):
        regions.append("controls")
    else:
        undo = (was.can_undo, was.undo_text) != (now.can_undo, now.undo_text)
    return Delta((*regions, *ALWAYS), sides or (), tiles, undo)


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


def _controls(controls: Controls | None) -> Controls | None:
    """The controls as compared: the clock's minutes left are drawn once, then counted down
    by the phone itself, so they are no change."""
    return None if controls is None else replace(controls, clock_left="")
