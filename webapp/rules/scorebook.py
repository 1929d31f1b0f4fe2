"""A game as its log leaves it, holding what undo needs and nothing older.

An :class:`~.actions.Undo` cancels the last action still in effect (see ``actions.in_effect``),
so undo needs the state before that action. A :class:`GameState` keeps no earlier states; a
:class:`Scorebook` keeps the states since the start of the current hand, one per action in
effect: the first of them, its *mark*, sums up every hand settled before in its scores and
results, with the hand just dealt. An undo drops the last of them. Undoing the mark itself goes
back into the hand before, which the scorebook does not hold: it is rebuilt from the log
(``rebuild``), as a fresh process rebuilds a game from its last snapshot (``GameState.to_dict``).

>>> from .actions import Play, StartHand
>>> from .layout import Arm
>>> from .tiles import Tile
>>> options = Options.make(["Ana", "Ben"])
>>> log = [StartHand(0), Play(Tile(5, 5)), Play(Tile(5, 0), Arm.RIGHT), Undo()]
>>> book = Scorebook.replay(options, log)
>>> book.state.scores, len(book.states)
((10, 0), 2)
>>> book, outcome = book.apply(Undo())
>>> outcome.kind, book.state.hand.moves, book.state.can_undo
(<ActionKind.UNDO: 'undo'>, (), True)
>>> log.append(Undo())
>>> book, outcome = book.apply(Undo(), lambda undo: Scorebook.replay(options, [*log, *undo]))
>>> book.state.hand_number, book.state.can_undo
(0, False)
>>> book.apply(Undo())
Traceback (most recent call last):
...
webapp.rules.errors.IllegalAction: there is nothing to undo
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, ActionKind, StartHand, Undo, from_dict, recorded, to_dict
from .errors import RuleError
from .game import BeyondTheMark, GameState, Outcome, nothing_to_undo
from .history import standing_after
from .messages import N_
from .options import Options
from .records import replace


@dataclass(frozen=True, slots=True)
class Scorebook:
    """The states of a game since the start of its current hand (or of the ``hands`` last
    hands): the first at a hand boundary (the mark), then one per action in effect, the last
    the state now."""

    states: tuple[GameState, ...]
    hands: int = 1
    outcome: Outcome | None = field(default=None, compare=False)  # see ``last``

    @classmethod
    def new(cls, options: Options) -> Scorebook:
        return cls((GameState.new(options),))

    @classmethod
    def replay(cls, options: Options, log: Sequence[Action]) -> Scorebook:
        """The scorebook of a whole log, undos included (each already resolved)."""
        return cls.new(options).fold(log)

    @classmethod
    def entered(
        cls, options: Options, stored: Sequence[Mapping[str, Any]]
    ) -> tuple[Scorebook, tuple[Action, ...], tuple[tuple[int, GameState], ...]]:
        """A log in its storage form (an imported game's) entered action by action, each read
        as a log reads it (``recorded``: a draw or pass is the table's word, R7a), then
        resolved and applied exactly as if the table entered it now: whatever the table would
        be refused (an undo with nothing to undo, a play out of turn) is refused, saying which
        action. The scorebook of the current hand, the actions to store (as given, a leader
        drawn at random filled in), and the start of every hand in effect: the number of the
        action that dealt it (from 1) and the state it left.

        >>> Scorebook.entered(Options.make(["Ana", "Ben"]), [{"type": "undo"}])
        Traceback (most recent call last):
        ...
        webapp.rules.errors.RuleError: action 1: there is nothing to undo
        """
        book = cls((GameState.new(options),), hands=len(stored) + 1)  # undo never rebuilds
        actions = []
        for number, data in enumerate(stored, start=1):
            try:
                action = book.state.resolve(from_dict(data))
                book, _ = book.apply(recorded(to_dict(action)))
            except RuleError as refusal:
                said = N_("action %(number)s: %(why)s", number=number, why=refusal.message)
                raise RuleError(refusal.code, said, refusal.rule) from refusal
            actions.append(action)
        hand = book.state.hand_number
        first = next(i for i, state in enumerate(book.states) if state.hand_number >= hand)
        standing = standing_after((), actions, 0)  # one state after each, undo never rebuilt
        starts = tuple(
            (index + 1, state)
            for index, state in zip(standing, book.states[1:], strict=True)
            if isinstance(actions[index], StartHand)
        )
        return cls(book.states[first:]), tuple(actions), starts

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @property
    def last(self) -> Outcome | None:
        """What the last action of the log did (an undo included), as it was answered when it
        was entered, for a screen opened after it; ``None`` before any.

        >>> from webapp.rules import Play, Tile
        >>> options = Options.make(["Ana", "Ben"])
        >>> Scorebook.replay(options, [StartHand(0), Play(Tile(5, 5))]).last.points
        10
        >>> Scorebook.replay(options, [StartHand(0), Play(Tile(5, 5)), Undo()]).last.message
        'Undone: Ana led 5-5: [5|5] 10 = 10, scores 10'
        """
        if self.outcome is not None:
            return self.outcome
        state = self.state
        hand = state.hand
        if len(self.states) == 1 and hand is not None and not hand.moves and state.done:
            # a scorebook folded from a hand just dealt, with nothing since: that hand's start
            return Outcome(
                ActionKind.START_HAND, hand.leader, message=state.done, next=state.next_step()
            )
        return None

    @property
    def mark(self) -> GameState:
        return self.states[0]

    @property
    def options(self) -> Options:
        return self.mark.options

    def reaches(self, number: int) -> bool:
        """Whether the states of hand ``number`` on are all here, from its start (a scorebook
        folded from an earlier mark holds the hands since)."""
        return self.mark.hand_number <= number

    def fold(self, log: Sequence[Action]) -> Scorebook:
        """This scorebook with ``log`` (the actions stored after it, undos included) folded in.

        Raises :class:`BeyondTheMark` if an undo of ``log`` cancels the mark or an action
        before it: only the states since the mark are known here."""
        standing: list[Action] = []  # the log's own actions still in effect
        dropped = 0  # the states here that its undos cancel
        undone: Action | GameState | None = None  # what the log's last action undid, if any
        for action in log:
            undone = None
            if not isinstance(action, Undo):
                standing.append(action)
            elif standing:
                undone = standing.pop()
            elif dropped < len(self.states) - 1:
                dropped += 1
                undone = self.states[len(self.states) - dropped]
            elif self.mark.can_undo:
                raise BeyondTheMark(action)
        book = Scorebook(self.states[: len(self.states) - dropped], self.hands, self.outcome)
        for action in standing:
            book, _ = book._apply(action)
        if isinstance(undone, GameState):
            return book._undone(undone.done)
        if undone is not None:  # an action of this log, never applied: said as it was
            return book._undone(book.state.apply(undone)[0].done)
        return book

    def apply(
        self,
        action: Action,
        rebuild: Callable[[Sequence[Action]], Scorebook] | None = None,
    ) -> tuple[Scorebook, Outcome]:
        """The scorebook after ``action`` and what it did, or a :class:`~.errors.RuleError`.

        An undo of the mark needs the hand before: ``rebuild`` is given ``[Undo()]`` and
        returns the scorebook of the whole log with that undo at its end."""
        if not isinstance(action, Undo):
            return self._apply(action)
        state = self.state
        if len(self.states) > 1:
            back = Scorebook(self.states[:-1], self.hands)
        elif not state.can_undo:
            refusal = nothing_to_undo()
            refusal.still = state.next_step()
            raise refusal
        elif rebuild is None:
            raise BeyondTheMark(action)
        else:
            back = rebuild([action])
        back = back._undone(state.done)
        assert back.outcome is not None
        return back, back.outcome

    def _undone(self, done: str) -> Scorebook:
        """This scorebook, once an undo took back the action that did ``done``."""
        message = N_("Undone: %(done)s", done=done)
        undo = Outcome(ActionKind.UNDO, message=message, next=self.state.next_step())
        return replace(self, outcome=undo)

    def _apply(self, action: Action) -> tuple[Scorebook, Outcome]:
        state, outcome = self.state.apply(action)
        states = (*self.states, state)
        if isinstance(action, StartHand):  # the hands before the last ``hands`` are let go
            oldest = state.hand_number - self.hands + 1
            first = next(i for i, kept in enumerate(states) if kept.hand_number >= oldest)
            states = states[first:]
        return Scorebook(states, self.hands, outcome), outcome
