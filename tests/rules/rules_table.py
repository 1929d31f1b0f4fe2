"""A table of real tiles kept in step with the rules engine, for the rules tests.

The engine only counts the tiles each player holds (the app cannot see them). A :class:`Table`
also knows *which* tiles, so a test makes only the moves a real table could make — a play from
the hand of the player to move, a draw only when nothing in that hand fits (R6), a pass only
when the boneyard is empty too (R7) — and settles with the tiles really left (R14).

>>> table = Table.of("Ana", "Ben")
>>> table.start_shuffled(random.Random(1), leader=0).message
'Hand 1: Ana leads'
>>> [len(hand) for hand in table.hands], len(table.boneyard)
([9, 9], 10)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from tests.scripts import EXAMPLE_C, EXAMPLE_C_BONEYARD, EXAMPLE_C_DEAL, Move
from webapp.rules import (
    DOUBLE_SIX,
    Action,
    Arm,
    Draw,
    EndHand,
    GameState,
    Options,
    Outcome,
    Pass,
    Play,
    StartHand,
    Status,
    Tile,
    Undo,
)
from webapp.rules.scorebook import Scorebook


def tiles(text: str) -> list[Tile]:
    """``"6-5 1-1"`` as tiles, in the order written."""
    return [Tile.parse(word) for word in text.split()]


class Table:
    """Real hands and a real boneyard beside the engine's state, and the actions in effect."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.book = Scorebook.new(options)
        self.actions: list[Action] = []
        self.hands: list[list[Tile]] = [[] for _ in options.players]
        self.boneyard: list[Tile] = []
        self._before: list[tuple[GameState, list[list[Tile]], list[Tile]]] = []

    @classmethod
    def of(cls, *players: str, partnership: bool = False, **rules: object) -> Table:
        return cls(Options.make(players, partnership=partnership, **rules))

    # --- the engine ----------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.book.state

    def apply(self, action: Action) -> Outcome:
        """Apply ``action`` to the engine and record it; callers move the real tiles."""
        if isinstance(action, Undo):
            return self.undo()
        book, outcome = self.book.apply(action)
        self._before.append((self.state, [list(hand) for hand in self.hands], list(self.boneyard)))
        self.actions.append(action)
        self.book = book
        return outcome

    def undo(self) -> Outcome:
        """Undo the last action in the engine and on the table."""
        book, outcome = self.book.apply(Undo(), self.rebuild)
        before, self.hands, self.boneyard = self._before.pop()
        self.actions.pop()
        assert book.state == before, "undo must restore the exact previous state"
        assert book.state.done == before.done
        self.book = book
        return outcome

    def rebuild(self, log: Sequence[Action]) -> Scorebook:
        """The scorebook of the actions in effect with ``log`` after them (undo's, from the
        log, when it goes back before the hand the scorebook holds)."""
        return Scorebook.replay(self.options, [*self.actions, *log])

    def play_out_hand(self, rng: random.Random | None = None) -> None:
        """Start a hand, play it out at random and settle it."""
        rng = rng or random.Random(len(self.actions))
        self.start_shuffled(rng, self.state.next_leader)
        self.play_out(rng)
        if self.state.status is Status.HAND_OVER:
            self.settle()

    def replayed(self) -> GameState:
        """The state rebuilt from the options and the actions in effect."""
        return GameState.replay(self.options, self.actions)

    # --- a hand at a real table ----------------------------------------------------------------

    @property
    def turn(self) -> int:
        seat = self.state.turn
        assert seat is not None, f"nobody is to move: the game is {self.state.status.value}"
        return seat

    def start(
        self,
        hands: Sequence[str | Sequence[Tile]],
        boneyard: str | Sequence[Tile],
        leader: int | None = None,
        no_double: bool = False,
    ) -> Outcome:
        """Deal the given hands (R1) and start the hand with ``leader`` (None: R3 decides;
        ``no_double``: nobody holds a double, R21)."""
        dealt = [tiles(hand) if isinstance(hand, str) else list(hand) for hand in hands]
        rest = tiles(boneyard) if isinstance(boneyard, str) else list(boneyard)
        assert all(len(hand) == self.options.hand_size for hand in dealt), "R1: hand sizes"
        assert sorted([*rest, *(tile for hand in dealt for tile in hand)]) == sorted(DOUBLE_SIX)
        outcome = self.apply(self.state.resolve(StartHand(leader, no_double)))
        self.hands, self.boneyard = dealt, rest
        return outcome

    def start_shuffled(self, rng: random.Random, leader: int | None = None) -> Outcome:
        """Shuffle the 28 tiles face down and deal them (R1)."""
        shuffled = [rng.choice((tile, tile.flipped())) for tile in DOUBLE_SIX]
        rng.shuffle(shuffled)
        size = self.options.hand_size
        hands = [shuffled[seat * size : (seat + 1) * size] for seat in range(len(self.hands))]
        return self.start(hands, shuffled[size * len(self.hands) :], leader)

    def fitting(self, seat: int | None = None) -> list[Tile]:
        """The tiles in the hand of ``seat`` (default: the player to move) that can be played."""
        hand = self.hands[self.turn if seat is None else seat]
        return [tile for tile in hand if self.state.placements(tile)]

    def play(self, text: str | Tile, arm: str | Arm | None = None) -> Outcome:
        """The player to move plays a tile from their hand."""
        tile = Tile.parse(text) if isinstance(text, str) else text
        seat = self.turn
        assert tile in self.hands[seat], f"{self.state.name(seat)} does not hold {tile}"
        end = Arm.parse(arm) if isinstance(arm, str) else arm
        outcome = self.apply(Play(tile, end))
        self.hands[seat].remove(tile)
        return outcome

    def draw(self, count: int = 1) -> list[Tile]:
        """R6: the player to move, who cannot play, draws ``count`` tiles from the boneyard
        (R19: under ``draw = "any-time"`` they may draw though a tile fits)."""
        seat = self.turn
        if self.options.draw == "when-stuck":
            assert not self.fitting(seat), f"R6: {self.state.name(seat)} can play, may not draw"
        self.apply(Draw(count))
        drawn, self.boneyard = self.boneyard[:count], self.boneyard[count:]
        self.hands[seat].extend(drawn)
        return drawn

    def pass_turn(self) -> Outcome:
        """R7: the player to move cannot play and the boneyard is empty."""
        assert not self.fitting(), f"R7: {self.state.name(self.turn)} can play, so may not pass"
        return self.apply(Pass())

    def reports(self) -> EndHand:
        """What each player really holds, as tiles (R14)."""
        return EndHand.of({seat: hand for seat, hand in enumerate(self.hands) if hand})

    def settle(self) -> Outcome:
        assert self.state.status is Status.HAND_OVER
        return self.apply(self.reports())

    def replay_hand(
        self,
        hands: Sequence[str],
        boneyard: str,
        moves: Iterable[str | Move],
        leader: int,
    ) -> Table:
        """Deal ``hands`` and make ``moves`` in turn (a script of ``tests/scripts.py``, or its
        moves: ``"6-4 right"``, ``"6-4"``, ``"draw"``)."""
        self.start(hands, boneyard, leader)
        for move in moves:
            self.move(move)
        return self

    def move(self, move: str | Move) -> None:
        """The player to move makes ``move`` of a script, from their real hand."""
        made = Move.parse(move) if isinstance(move, str) else move
        if made.kind == "draw":
            self.draw(made.count)
        elif made.kind == "pass":
            self.pass_turn()
        else:
            self.play(made.tile, made.end)

    def play_out(self, rng: random.Random) -> None:
        """Play on at random, as a table would, until the hand is over."""
        while self.state.status is Status.PLAYING:
            fitting = self.fitting()
            if fitting:
                tile = rng.choice(fitting)
                self.play(tile, rng.choice(self.state.placements(tile)).arm)
            elif self.state.can_draw:
                self.draw()
            else:
                self.pass_turn()


def example_c(table: Table) -> Table:
    """Worked example C of RULES.md: Ana leads and goes out; Ben keeps 6-5 and 1-1, Cy 3-4."""
    return table.replay_hand(EXAMPLE_C_DEAL, EXAMPLE_C_BONEYARD, EXAMPLE_C, leader=0)


# Four players in partnership (deal 5 each); Ana leads and goes out with her fifth tile.
PARTNERS_DEAL = [
    "3-3 2-1 2-2 6-3 0-5",
    "0-0 1-6 3-1 2-6 4-6",
    "6-5 2-5 5-4 4-4 0-6",
    "6-6 5-3 1-1 2-3 3-0",
]
PARTNERS_BONEYARD = "5-1 0-1 4-0 2-4 4-3 0-2 5-5 1-4"
PARTNERS_MOVES = [
    *("2-2", "2-6 right", "6-0 right", "0-3 right", "3-6 right", "6-4 right", "4-5 right"),
    *("5-3 right", "3-3 right", "3-1 right", "2-5 left", "2-3 up", "5-0 left", "0-0 left"),
    *("draw", "1-5 right", "draw", "0-1 left", "2-1 down"),
]


def partners_hand(table: Table) -> Table:
    """Ana & Cy against Ben & Di: Ana goes out; Ben keeps 1-6, Cy 6-5 4-4, Di 6-6 1-1."""
    return table.replay_hand(PARTNERS_DEAL, PARTNERS_BONEYARD, PARTNERS_MOVES, leader=0)


def blocked_at_once(options: Options, lead: str, leader: int = 0) -> GameState:
    """A hand blocked at once (R12): ``lead`` is led, the next player draws the whole boneyard,
    then everyone passes in turn; the test then says what each player holds. The record soon
    proves that someone held a tile that fitted, so the table confirms each entry (R7a).
    """
    state = GameState.new(options).apply(StartHand(leader))[0]
    state = state.apply(Play(Tile.parse(lead)))[0]
    assert state.hand is not None
    state = state.apply(Draw(state.hand.boneyard, confirm=True))[0]
    for _ in options.players:
        state = state.apply(Pass(confirm=True))[0]
    assert state.status is Status.HAND_OVER
    return state


def hands_with(state: GameState, pips: Mapping[int, int]) -> EndHand:
    """Tiles the players could really hold, with the pip totals asked for by seat.

    After a block (boneyard empty) one seat may be left out: it holds the rest. Fails if no
    such hands are found: reports built here are true, not merely accepted by R14's checks.
    """
    hand = state.hand
    assert hand is not None
    rest = [seat for seat, count in enumerate(hand.held) if count and seat not in pips]
    assert not rest or (len(rest) == 1 and hand.boneyard == 0), "say what each player holds"
    for attempt in range(200):  # seat by seat, each time from a different shuffle
        pool = list(hand.unplayed)
        random.Random(attempt).shuffle(pool)
        hands: dict[int, list[Tile]] = {}
        for seat, total in pips.items():
            chosen = _pick(pool, hand.held[seat], total)
            if chosen is None:
                break
            hands[seat] = chosen
            pool = [tile for tile in pool if tile not in chosen]
        else:
            if rest:
                hands[rest[0]] = pool
            return EndHand.of(hands)
    raise AssertionError(f"found no hands holding {dict(pips)} pips")


def _pick(pool: Sequence[Tile], count: int, total: int) -> list[Tile] | None:
    """``count`` distinct tiles of ``pool`` whose pips add up to ``total``, if any."""
    chosen: dict[tuple[int, int], tuple[Tile, ...]] = {(0, 0): ()}
    for tile in pool:
        for (k, pips), tiles_so_far in list(chosen.items()):
            if k < count:
                chosen.setdefault((k + 1, pips + tile.pips), (*tiles_so_far, tile))
    found = chosen.get((count, total))
    return None if found is None else list(found)
