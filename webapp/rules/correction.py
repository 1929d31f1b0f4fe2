"""Fixing an earlier move of the hand, as a pencil would: :class:`Correct`.

Undo takes back only the last action, so a tile entered wrongly three moves ago would mean
undoing four and entering them again. A correction names a move of the current hand by its
number and says what it really was: another tile or end, a draw of another count, a pass —
or several actions (``Pass``, then the play: it was the next player), or none (it never
happened). The log stays append-only: the correction is one more action, and undoing it brings
back the hand as it was before it.

**How it works.** The moves of a hand are its actions. The hand is dealt again from its start
(the same ``StartHand``, on the scores the last settlement left), the moves before the fixed
one are applied again, then the correction's own actions — a refusal there refuses the whole
correction and changes nothing — then the later moves in order, each as it was entered on the
picker: the tile and its end, the number of tiles drawn, a pass (the player is whoever's turn it
is, as when it was entered). At the first later move the rules refuse, the fold stops: that move
and every one after it are no longer in effect, and :class:`Fixed` says which move and why.
Nothing here decides a rule: every step goes through ``GameState.apply``.

>>> from .game import GameState
>>> from .options import Options
>>> from .actions import Play, StartHand
>>> from .layout import Arm
>>> from .tiles import Tile
>>> game = GameState.new(Options.make(["Ana", "Ben", "Cy"]))
>>> for action in (StartHand(0), Play(Tile(5, 5)), Play(Tile(5, 2), Arm.LEFT),
...                Play(Tile(5, 1), Arm.RIGHT), Play(Tile(2, 2), Arm.LEFT)):
...     game, _ = game.apply(action)
>>> game, outcome = game.apply(Correct(2, (Play(Tile(5, 3), Arm.LEFT),)))
>>> print(outcome.message)
Fixed move 2: Ben played 5-3 on the left end, not 5-2; move 3 kept; move 4 (Ana played 2-2 on \
the left end) no longer fits: the left end shows 3, and 2-2 has no 3 — moves from there on \
taken back (R5)
>>> [str(move.tile) for move in game.hand.moves], game.scores
(['5-5', '5-3', '5-1'], (10, 0, 0))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Protocol, Self, TypeVar

from .actions import Action, Correct, Draw, Pass, Play
from .errors import IllegalAction, RuleError
from .hand import Hand, Move, MoveKind
from .layout import arm_name
from .messages import N_, NP_, Message
from .options import Options
from .progress import HandResult
from .tiles import Tile

_UNSAID: Final = Message("", {})


class Fixable(Protocol):
    """What fixing a move asks of a game's state (a :class:`~.game.GameState`): its hand and the
    hands settled, its players, the state just after that hand was dealt, and the fold itself.
    Fixing a move decides no rule: every step goes through ``apply``."""

    @property
    def hand(self) -> Hand | None: ...

    @property
    def results(self) -> tuple[HandResult, ...]: ...

    @property
    def options(self) -> Options: ...

    def dealt_again(self) -> Self: ...

    def apply(self, action: Action) -> tuple[Self, object]: ...


State = TypeVar("State", bound=Fixable)


@dataclass(frozen=True, slots=True)
class Fixed:
    """What a correction did to the hand's record (moves numbered from 1, as entered)."""

    entry: int  # the move fixed
    was: Move  # that move as it was entered
    now: tuple[Move, ...]  # the moves that stand in its place (none: it never happened)
    kept: int  # the later moves that still fit and stay in effect, the first ones
    dropped: tuple[Move, ...]  # the later moves no longer in effect, as they were entered
    refusal: RuleError | None  # why the first of those no longer fits
    turned: tuple[int, int] | None = None  # the first kept move now another's: (number, seat)
    message: Message = _UNSAID  # set by ``correct``

    @property
    def stopped(self) -> int | None:
        """The number (as entered) of the first later move that no longer fits, if any."""
        return self.entry + 1 + self.kept if self.dropped else None


def correct(state: State, action: Correct) -> tuple[State, Fixed]:
    """The state with move ``action.entry`` of the current hand fixed, and what that did."""
    hand = state.hand
    if hand is None or not can_fix(state):
        raise IllegalAction(
            "no_hand_to_fix",
            N_(
                "only the moves of a hand still being played can be fixed: this one is settled "
                "(undo the settlement first)"
            )
            if hand
            else N_("no hand has been played yet: there is no move to fix"),
            "R12",
        )
    moves = hand.moves
    if not 1 <= action.entry <= len(moves):
        if moves:
            said = NP_(
                "hand %(hand)s has %(num)s move: there is no move %(entry)s to fix",
                "hand %(hand)s has %(num)s moves: there is no move %(entry)s to fix",
                len(moves),
                hand=hand.number,
                entry=action.entry,
            )
        else:
            said = N_(
                "hand %(hand)s has no moves yet: there is no move %(entry)s to fix",
                hand=hand.number,
                entry=action.entry,
            )
        raise IllegalAction("bad_entry", said)
    index = action.entry - 1
    again = state.dealt_again()
    for move in moves[:index]:
        again, _ = again.apply(entered(move))
    at = len(again.hand.moves) if again.hand else 0
    for step in action.actions:
        try:
            again, _ = again.apply(_as_said(step))
        except RuleError as wrong:
            raise type(wrong)(
                wrong.code,
                N_(
                    "move %(entry)s cannot be fixed that way: %(refusal)s",
                    entry=action.entry,
                    refusal=wrong.message,
                ),
                wrong.rule,
            ) from None
    assert again.hand is not None
    now = again.hand.moves[at:]
    kept, refusal = 0, None
    for move in moves[index + 1 :]:
        try:
            again, _ = again.apply(entered(move))
        except RuleError as refused:
            refusal = refused  # the first later move that no longer fits: the fold stops
            break
        kept += 1
    dropped = moves[index + 1 + kept :]
    again_kept = again.hand.moves[at + len(now) :] if again.hand else ()
    turned = next(
        (
            (action.entry + 1 + j, new.seat)
            for j, (old, new) in enumerate(zip(moves[index + 1 :], again_kept, strict=False))
            if old.seat != new.seat
        ),
        None,
    )
    fixed = Fixed(action.entry, moves[index], now, kept, dropped, refusal, turned)
    return again, replace(fixed, message=_message(fixed, state.options.players))


def can_fix(state: Fixable) -> bool:
    """Whether the state has a hand whose moves can be fixed: one not yet settled (R12–R14)."""
    hand = state.hand
    return hand is not None and all(result.number != hand.number for result in state.results)


def _as_said(action: Play | Draw | Pass) -> Play | Draw | Pass:
    """What the table says a move really was stands as its word (R7a), as a confirmed entry."""
    return replace(action, confirm=True) if isinstance(action, Draw | Pass) else action


def entered(move: Move) -> Play | Draw | Pass:
    """A move of the record as the action that entered it: what the picker sends again. A
    draw or pass was accepted when it was entered, so it stands as the table's word (R7a)."""
    if move.kind == MoveKind.PLAY:
        assert move.tile is not None
        return Play(move.tile, move.arm)
    if move.kind == MoveKind.DRAW:
        return Draw(move.drawn, confirm=True)
    return Pass(confirm=True)


def words(move: Move, names: tuple[str, ...] | list[str]) -> Message:
    """A move in words, the tile named as on the picker (high half first).

    >>> from .layout import Layout
    >>> words(Move(MoveKind.DRAW, 1, Layout(), drawn=2), ["Ana", "Ben"])
    'Ben drew 2 tiles'
    """
    name = names[move.seat]
    if move.kind == MoveKind.PLAY and move.tile is not None:
        if move.arm is None:
            return N_("%(name)s led %(tile)s", name=name, tile=str(move.tile))
        return N_(
            "%(name)s played %(tile)s on the %(end)s end",
            name=name,
            tile=str(Tile(*move.tile.key)),
            end=arm_name(move.arm),
        )
    if move.kind == MoveKind.DRAW:
        drawn = NP_("a tile", "%(num)s tiles", move.drawn)
        return N_("%(name)s drew %(drawn)s", name=name, drawn=drawn)
    return N_("%(name)s passed", name=name)


def _message(fixed: Fixed, names: tuple[str, ...]) -> Message:
    was = fixed.was
    entry = fixed.entry
    if not fixed.now:
        text = N_("Removed move %(entry)s (%(was)s)", entry=entry, was=words(was, names))
    elif fixed.now == (was,):
        text = N_(
            "Move %(entry)s already reads: %(was)s; nothing changed",
            entry=entry,
            was=words(was, names),
        )
    else:
        now = words(fixed.now[0], names)
        for move in fixed.now[1:]:
            now = N_("%(before)s; then %(after)s", before=now, after=words(move, names))
        text = N_(
            "Fixed move %(entry)s: %(now)s%(instead)s",
            entry=entry,
            now=now,
            instead=_instead(was, fixed.now, names),
        )
    if fixed.kept:
        first, last = entry + 1, entry + fixed.kept
        if first == last:
            text = N_("%(fixed)s; move %(first)s kept", fixed=text, first=first)
        else:
            text = N_(
                "%(fixed)s; moves %(first)s–%(last)s kept", fixed=text, first=first, last=last
            )
        if fixed.turned is not None:  # the turn moved on: later tiles are the next players'
            number, seat = fixed.turned
            text = N_(
                "%(fixed)s, the turns moved on (move %(move)s is now %(name)s's)",
                fixed=text,
                move=number,
                name=names[seat],
            )
    if fixed.dropped and fixed.refusal is not None:
        refusal = fixed.refusal
        text = N_(
            "%(fixed)s; move %(move)s (%(was)s) no longer fits: %(refusal)s — moves from there "
            "on taken back",
            fixed=text,
            move=fixed.stopped or 0,
            was=words(fixed.dropped[0], names),
            refusal=refusal.message,
        )
        if refusal.rule:
            text = N_("%(fixed)s (%(rule)s)", fixed=text, rule=refusal.rule)
    return text


def _instead(was: Move, now: tuple[Move, ...], names: tuple[str, ...]) -> Message:
    """How the fixed move differs from what was entered, in the fewest words."""
    only = now[0] if len(now) == 1 else None
    if only is not None and only.seat == was.seat and only.kind == was.kind == MoveKind.PLAY:
        assert only.tile is not None and was.tile is not None
        if was.arm is None:  # a lead: the tile, or which way round it was laid (R4)
            return N_(", not %(tile)s", tile=str(was.tile))
        if only.tile == was.tile:
            return N_(", not on the %(end)s end", end=arm_name(was.arm))
        if only.arm == was.arm:
            return N_(", not %(tile)s", tile=str(Tile(*was.tile.key)))
        return N_(
            ", not %(tile)s on the %(end)s end",
            tile=str(Tile(*was.tile.key)),
            end=arm_name(was.arm),
        )
    if only is not None and only.seat == was.seat and only.kind == was.kind == MoveKind.DRAW:
        return N_(", not %(drawn)s", drawn=was.drawn)
    return N_(" (entered as: %(was)s)", was=words(was, names))
