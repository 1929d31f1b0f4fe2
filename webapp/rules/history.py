"""A game's past, hand by hand, rebuilt from its action log (replay, audit, rescore).

The current :class:`GameState` holds only the hand being played; a settled hand is gone from it.
:func:`replay` folds the log again and keeps every hand as it was last played — with the score
before it, the end-of-hand reports and the settlement — so a table can step through any hand and
check it. The log may hold :class:`Undo` actions: :func:`in_effect` cancels them first, exactly
as the engine does (an undo cancels the last action still in effect). A :class:`Correct` is an
action in effect like any other (an undo cancels it, and only it): the hand replays as corrected,
and its :class:`PlayedHand` keeps what each correction did (``fixes``).

>>> from .actions import Play, StartHand, Undo
>>> from .layout import Arm
>>> from .tiles import Tile
>>> options = Options.make(["Ana", "Ben"])
>>> left = Arm.LEFT
>>> log = [StartHand(0), Play(Tile(5, 5)), Play(Tile(5, 3), left), Undo(), Play(Tile(5, 0), left)]
>>> [str(move.tile) for move in hands(options, log)[0].moves]
['5-5', '5-0']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action, Correct, EndHand, StartHand, Undo, in_effect
from .correction import Fixed
from .errors import RuleError
from .game import GameState
from .hand import Hand
from .options import Options
from .progress import HandResult, Status
from .records import replace


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One hand as last played: its moves, the scores before it, and how it was settled."""

    hand: Hand
    scores_before: tuple[int, ...]  # per side, when the hand started
    reports: EndHand | None = None  # what each player said they still held (R14)
    result: HandResult | None = None  # None while unsettled, or if the game ended mid-hand
    fixes: tuple[Fixed, ...] = ()  # the corrections of its moves still in effect, in order

    @property
    def number(self) -> int:
        return self.hand.number

    def scores_at(self, step: int, options: Options) -> tuple[int, ...]:
        """Each side's score after the first ``step`` moves: the points of R11, not settled."""
        scores = list(self.scores_before)
        for move in self.hand.moves[:step]:
            scores[options.side_of(move.seat)] += move.points
        return tuple(scores)


@dataclass(frozen=True, slots=True)
class History:
    """A log folded through the rules: every hand, where the fold stopped, and what was left."""

    options: Options
    state: GameState  # the state after the last action applied
    hands: tuple[PlayedHand, ...]
    left: tuple[Action, ...] = ()  # actions in effect never applied: the game was already over
    refusal: RuleError | None = None  # why the fold stopped early, if the rules refused an action

    def hand(self, number: int) -> PlayedHand | None:
        for played in self.hands:
            if played.number == number:
                return played
        return None


def settled_prefix(actions: Sequence[Action]) -> int:
    """How many actions of the log lead up to the last settlement still in effect (0: none).

    The hands settled by then never change unless that settlement is undone, so their replay
    and audit can be kept while later actions come in.

    >>> from .actions import Draw, Pass
    >>> settled_prefix([Draw(), EndHand(), Pass(), EndHand(), Pass()])
    4
    >>> settled_prefix([Draw(), EndHand(), Pass(), EndHand(), Undo(), Pass()])
    2
    >>> settled_prefix([EndHand(), Undo(), Pass()])
    0
    """
    found = settled_after((), actions, 0)
    return found[-1] if found else 0


def standing_after(standing: Sequence[int], actions: Sequence[Action], start: int) -> list[int]:
    """The indexes of the actions still in effect once ``actions[start:]`` are folded in on
    top of ``standing`` (those in effect among the first ``start``): a log read so far need
    not be walked again when it grows.

    >>> from .actions import Draw, Pass
    >>> log = [Draw(), EndHand(), Pass()]
    >>> standing_after(standing_after([], log, 0), log + [Undo(), Draw()], 3)
    [0, 1, 4]
    """
    found = list(standing)
    for index in range(start, len(actions)):
        if isinstance(actions[index], Undo):
            if found:
                found.pop()
        else:
            found.append(index)
    return found


def settled_after(prefixes: Sequence[int], actions: Sequence[Action], first: int) -> list[int]:
    """For each action in effect, the settled prefix as of it, once ``actions`` (the log's
    from index ``first`` on) are folded in on top of ``prefixes`` (those of the actions in
    effect before them): the last is ``settled_prefix`` of the whole log. A log read so far
    need not be kept, nor walked again, when it grows.

    >>> from .actions import Draw, Pass
    >>> settled_after(settled_after([], [Draw(), EndHand(), Pass()], 0), [Undo(), Draw()], 3)
    [0, 2, 2]
    >>> settled_after([0, 2, 2], [Undo(), Undo(), Pass()], 3)
    [0, 0]
    """
    found = list(prefixes)
    for index, action in enumerate(actions, start=first):
        if isinstance(action, Undo):
            if found:
                found.pop()
        else:
            found.append(index + 1 if isinstance(action, EndHand) else found[-1] if found else 0)
    return found


def replay(options: Options, actions: Sequence[Action], start: History | None = None) -> History:
    """Fold ``actions`` (undos included) under ``options``, keeping every hand; after
    ``start`` (the history of the log before them) when given, so that hands already replayed
    are not replayed again. No undo of ``actions`` may reach back into ``start`` (see
    :func:`undoes_before`).

    Under options other than the game's own (see ``rescore``), the game may be over before the
    log is: the fold stops there and the rest is ``left``, never applied.
    """
    standing = in_effect(actions)
    if start is not None and (start.refusal is not None or start.left):  # the fold had stopped
        return replace(start, left=(*start.left, *standing))
    state = start.state if start is not None else GameState.new(options)
    hands: list[PlayedHand] = list(start.hands) if start is not None else []
    for index, action in enumerate(standing):
        if state.status is Status.GAME_OVER:
            return History(state.options, state, tuple(hands), tuple(standing[index:]))
        before = state
        try:
            state, outcome = state.apply(action)
        except RuleError as refusal:
            return History(state.options, state, tuple(hands), tuple(standing[index:]), refusal)
        if isinstance(action, StartHand):
            assert state.hand is not None
            hands.append(PlayedHand(state.hand, before.scores))
        elif isinstance(action, EndHand):
            hands[-1] = replace(hands[-1], reports=action, result=outcome.result)
        elif isinstance(action, Correct) and state.hand is not None and outcome.fixed:
            fixes = (*hands[-1].fixes, outcome.fixed)
            hands[-1] = replace(hands[-1], hand=state.hand, fixes=fixes)
        elif state.hand is not None and hands:
            hands[-1] = replace(hands[-1], hand=state.hand)
    return History(state.options, state, tuple(hands))


def undoes_before(actions: Sequence[Action]) -> bool:
    """Whether an undo among ``actions`` cancels an action made before them.

    >>> from .actions import Draw
    >>> undoes_before([Draw(), Undo()]), undoes_before([Draw(), Undo(), Undo()])
    (False, True)
    """
    depth = 0
    for action in actions:
        if not isinstance(action, Undo):
            depth += 1
        elif depth == 0:
            return True
        else:
            depth -= 1
    return False


def hands(options: Options, actions: Sequence[Action]) -> list[Hand]:
    """Every hand of the game as last played, the first hand first."""
    return [played.hand for played in replay(options, actions).hands]
