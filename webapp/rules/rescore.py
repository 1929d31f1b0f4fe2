"""What a game would have scored under other rules: the same log, other options (R13–R30).

A dispute about the rules ("we play winner-takes!") is settled by replaying the very same
actions under the other options and comparing, hand by hand. Any house rule may change, or the
preset that sets them, except what happened at the table and not how it scored: the deal (R1),
the drawing (R19, R27), who led each hand (R29) and the clock (R30) stay as played — so any
finished game can be rescored as Fives and Threes, its draws and leads kept. When
another rule makes an action of the log illegal (a 6-6 played up under ``five-up``, rescored as
``seed``), the replay stops there and says which action and why, instead of inventing a result.

Under other options a game may end earlier — ``finish = "immediate"`` ends it the moment a score
reaches the target, even mid-hand — and then the rest of the log never happens (``left``). It
may also not be over yet where the log ends: the game would go on.

A blocked hand (R12): Ana leads 3-2 for 5, Ben draws the boneyard, all pass (the table confirms
Cy's pass, which the record disproves, R7a). Ana holds the fewest pips, so under ``pagat`` she
scores everyone else's (R13p); under ``seed`` each loses their own (R13).

>>> from .actions import Draw, EndHand, Pass, Play, StartHand
>>> from .tiles import Tile
>>> options = Options.make(["Ana", "Ben", "Cy"])
>>> log = [StartHand(0), Play(Tile(3, 2)), Draw(7), Pass(), Pass(confirm=True), Pass()]
>>> log.append(EndHand.of({0: 11, 1: 118, 2: 34}))
>>> found = rescore(options, log, preset="pagat")
>>> found.other.options.settlement.value
'winner-takes'
>>> [(r.settled, r.scores) for r in (found.played.results[0], found.other.hands[0].result)]
[((-10, -120, -35), (-5, -120, -35)), ((150, 0, 0), (155, 0, 0))]

The game as played is not replayed: its state holds every settled hand's result and the hand
being played, which is all its side of the rescore shows. Only the other rules replay the log:
they may change what any move counts, what any settlement adds or takes, and so the scores each
later hand starts from and when the game ends, so no hand's outcome under them can be taken from
the game as played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .actions import Action, Draw, EndHand, Pass, Play, StartHand
from .errors import BadOptions
from .game import GameState
from .history import History, PlayedHand, replay
from .layout import arm_name
from .messages import N_, NP_, Items, Message
from .options import PRESETS, SPECS, Options, default_target
from .progress import HandResult, Status

#: What happened at the table: kept as played, whatever the other rules say.
AS_PLAYED: Final = ("deal", "draw", "next_lead", "time_limit")
CHANGEABLE: Final = ("preset", "target", *(name for name in SPECS if name not in AS_PLAYED))


def changed(options: Options, **changes: object) -> Options:
    """``options`` with some changed. A new preset brings its own rules unless they are given.

    >>> seed = Options.make(["Ana", "Ben"], target=150)
    >>> pagat = changed(seed, preset="pagat")
    >>> pagat.preset, pagat.settlement.value, pagat.target
    ('pagat', 'winner-takes', 150)
    >>> changed(pagat, preset="seed").settlement.value
    'subtract-own'
    >>> threes = changed(Options.make(["Ana", "Ben"]), preset="fives-and-threes")
    >>> threes.count.value, threes.draw.value, threes.next_lead.value, threes.target
    ('fives-and-threes', 'when-stuck', 'went-out', 61)
    """
    for name in changes:
        if name not in CHANGEABLE:
            raise BadOptions(
                "rescore_option",
                N_(
                    "%(shown)s cannot change after the game: rescore with %(options)s",
                    shown=repr(name),
                    options=Items(tuple(CHANGEABLE)),
                ),
            )
    given = {name: value for name, value in changes.items() if value not in (None, "")}
    rules = {name: value for name, value in options.rules_dict().items() if name != "preset"}
    preset = str(given.pop("preset", options.preset))
    if preset != options.preset:
        # Rules as the old preset had them give way to the new preset; rules chosen apart stay.
        implied = Options.make(options.players, options.partnership, options.preset).rules_dict()
        governed = {name for preset_of in PRESETS.values() for name in preset_of.rules}
        for name in governed - set(AS_PLAYED):
            if rules.get(name) == implied[name]:
                del rules[name]
    if options.target == default_target(options.player_count, options.points):
        del rules["target"]  # the default target follows the points of the other rules (R25)
    rules.update(given)
    return Options.make(options.players, options.partnership, preset, **rules)


def current_hand(state: GameState) -> PlayedHand | None:
    """The hand being played in ``state`` (dealt, not settled), with the scores before it; None
    between hands. What a replay of the log keeps of it, taken from the state alone.

    >>> from .actions import Play, StartHand
    >>> from .tiles import Tile
    >>> log = [StartHand(0), Play(Tile(5, 5)), Play(Tile(5, 0))]
    >>> played = replay(Options.make(["Ana", "Ben"]), log)
    >>> current_hand(played.state) == played.hands[-1]
    True
    """
    hand = state.hand
    if hand is None or (state.results and state.results[-1].number == hand.number):
        return None
    made = [0] * state.options.side_count
    for move in hand.moves:
        made[state.options.side_of(move.seat)] += move.points
    before = tuple(score - points for score, points in zip(state.scores, made, strict=True))
    return PlayedHand(hand, before)


@dataclass(frozen=True, slots=True)
class Rescore:
    """The game as played and as it would have gone under other options, side by side: as
    played, its state (every settled hand's result, the hand being played); under the others,
    the log replayed."""

    played: GameState
    other: History

    @property
    def current(self) -> PlayedHand | None:
        """The hand being played as played (not settled yet), or None."""
        return current_hand(self.played)

    @property
    def played_hands(self) -> tuple[HandResult | PlayedHand, ...]:
        """Every hand as played: the settled ones' results, then the hand being played."""
        current = self.current
        return (*self.played.results, *((current,) if current is not None else ()))

    @property
    def hands(self) -> int:
        """How many hands either way of scoring played: the rows are hands 1 to this."""
        return max(len(self.played_hands), len(self.other.hands))

    def rows(
        self, numbers: Sequence[int] | None = None
    ) -> list[tuple[int, HandResult | PlayedHand | None, PlayedHand | None]]:
        """Hand by hand (every hand, or those ``numbers``, in their order): (number, as played
        (its result once settled), under the other options); None: not played."""
        played = {h.number: h for h in self.played_hands}
        other = {h.number: h for h in self.other.hands}
        if numbers is None:
            numbers = sorted(played.keys() | other.keys())
        return [(n, played.get(n), other.get(n)) for n in numbers if n in played or n in other]

    @property
    def same(self) -> bool:
        """Whether the other options change any score at all."""
        as_played = [h if isinstance(h, HandResult) else None for h in self.played_hands]
        return (
            self.played.scores == self.other.state.scores
            and self.played.winner == self.other.state.winner
            and as_played == [h.result for h in self.other.hands]
        )

    def ending_as_played(self) -> Message:
        """How the game as played ends (or not), in a sentence (R15, R16)."""
        last = self.current
        return self._ending(self.played, (), last.number if last else self.played.hand_number)

    def ending(self, history: History) -> Message:
        """How the game ends (or not) under ``history``'s options, in a sentence (R15, R16)."""
        if history.refusal is not None:
            return self.refused(history)
        last = history.hands[-1] if history.hands else None
        if history.left and last is not None and last.result is None:  # ended mid-hand
            return self._ending(history.state, history.left, last.number, len(last.hand.moves))
        return self._ending(history.state, history.left, last.number if last else 0)

    def _ending(
        self, state: GameState, left: Sequence[Action], last: int, mid: int | None = None
    ) -> Message:
        """How a game ends in ``state`` with the actions ``left`` never applied; ``last``: the
        last hand played, ``mid``: the moves it had when the game ended in it (R16)."""
        options = state.options
        if state.status is Status.GAME_OVER:
            assert state.winner is not None
            won = N_(
                "%(side)s reaches %(goal)s and wins",
                side=options.side_name(state.winner),
                goal=options.goal,
            )
            if not left:
                return N_("%(won)s.", won=won)
            later = NP_(
                "the %(num)s action after it would",
                "the %(num)s actions after it would",
                len(left),
            )
            if mid is not None:
                return N_(
                    "%(won)s during hand %(hand)s, at move %(move)s (R16): the game ends there; "
                    "%(later)s never happen.",
                    won=won,
                    hand=last,
                    move=mid,
                    later=later,
                )
            return N_(
                "%(won)s when hand %(hand)s is settled (R16); %(later)s never happen.",
                won=won,
                hand=last,
                later=later,
            )
        if state.status is Status.PLAYING and self.played.status is Status.GAME_OVER:
            return N_(
                "Nobody has won when the table stopped in hand %(hand)s: under these rules that "
                "hand would be played on and settled. The scores are as they stood.",
                hand=last,
            )
        if state.status is Status.PLAYING:
            return N_("Hand %(hand)s is still being played.", hand=last)
        if state.status is Status.HAND_OVER:
            return N_("Hand %(hand)s is over but not settled yet.", hand=last)
        return N_("Nobody has reached %(goal)s yet: the game goes on.", goal=options.goal)

    def refused(self, history: History) -> Message:
        """Which action of the log these rules refuse, and why: the replay stops there."""
        assert history.refusal is not None and history.left
        refusal = history.refusal
        what = _what(history.left[0], history.state)
        later = len(history.left) - 1
        if refusal.rule and f"({refusal.rule})" not in refusal.message:
            said = N_(
                "Under these rules %(what)s is not allowed: %(why)s (%(rule)s)",
                what=what,
                why=refusal.message,
                rule=refusal.rule,
            )
        else:
            said = N_(
                "Under these rules %(what)s is not allowed: %(why)s", what=what, why=refusal.message
            )
        if later == 1:
            said = N_("%(refused)s; the action after it is not scored", refused=said)
        elif later > 1:
            said = N_(
                "%(refused)s; the %(later)s later actions are not scored", refused=said, later=later
            )
        return N_("%(refused)s.", refused=said)


def _what(action: Action, state: GameState) -> Message:
    """The refused action in words, where it stood in the game."""
    hand = state.hand
    who = state.name(hand.turn) if hand and state.status is Status.PLAYING else ""
    if isinstance(action, Play | Draw | Pass):
        if isinstance(action, Play):
            what = N_("%(who)s’s play of %(tile)s", who=who, tile=str(action.tile))
            if action.arm is not None:
                what = N_(
                    "%(who)s’s play of %(tile)s on the %(end)s end",
                    who=who,
                    tile=str(action.tile),
                    end=arm_name(action.arm),
                )
        elif isinstance(action, Draw):
            what = N_("%(who)s’s draw", who=who)
        else:
            what = N_("%(who)s’s pass", who=who)
        if not hand:
            return what
        return N_(
            "%(what)s in hand %(hand)s, move %(move)s",
            what=what,
            hand=hand.number,
            move=len(hand.moves) + 1,
        )
    if isinstance(action, StartHand):
        return N_("the start of hand %(hand)s", hand=state.hand_number + 1)
    if isinstance(action, EndHand):
        if hand:
            return N_("the settlement of hand %(hand)s", hand=hand.number)
        return N_("a settlement")
    return N_("an action of the log")


def rescore(options: Options, actions: Sequence[Action], **changes: object) -> Rescore:
    """Replay ``actions`` under ``options`` and under ``changed(options, **changes)``."""
    return Rescore(replay(options, actions).state, replay(changed(options, **changes), actions))
