"""The hands the tests play, each written once, and the one way to read them.

A script is a hand as a table calls it out, one move a string, in turn from the leader:

- ``"6-4"``: a tile placed where the rules put it (a lead, or a tile that fits one place);
- ``"6-4 right"``: a tile on a named end (``left``, ``right``, ``up``, ``down``, or a later
  spinner's end such as ``"6-6 up"``, R17), the first half written the one laid against it;
- ``"draw"``, ``"draw 10"``: the player to move draws one tile, or ten at once (R6);
- ``"pass"``: the player to move passes (R7).

Each test enters a script the way it talks to the app: :meth:`Script.actions` for the rules
engine, :meth:`Script.api` for the JSON API, ``Table.enter`` for the forms
(``tests/tables.py``), :meth:`Script.board` for the practice board's address, and
:attr:`Move.button` for the tile a phone taps. Which table plays it (the players, the rules,
who leads) is the test's to say; each script says the table it was written for.

>>> [str(move) for move in EXAMPLE_B[:3]]
['5-5', '5-3 left', '5-2 right']
>>> EXAMPLE_B[:3].api()[1]
{'type': 'play', 'tile': '5-3', 'end': 'left'}
>>> EXAMPLE_A[:4].board()
'3-2,2-2:right,2-6:right,2-4:up'
>>> FIX_KEPT[3].button  # the picker names each tile high half first
'2-1'
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, overload

from webapp.rules import (
    DOUBLE_SIX,
    Action,
    Arm,
    Draw,
    EndHand,
    GameState,
    Options,
    Pass,
    Play,
    StartHand,
    Tile,
)


@dataclass(frozen=True)
class Move:
    """One move of a script: ``kind`` is ``play``, ``draw`` or ``pass``."""

    kind: str
    tile: str = ""  # as laid: "1-2 right" puts the 1 against the right end
    end: str | None = None
    count: int = 1

    @classmethod
    def parse(cls, text: str) -> Move:
        word, _, rest = text.partition(" ")
        if word == "pass" and not rest:
            return cls("pass")
        if word == "draw":
            return cls("draw", count=int(rest or 1))
        Tile.parse(word)  # a typo in a script fails here, not as a refusal in a test
        return cls("play", word, rest or None)

    @classmethod
    def of(cls, action: Action) -> Move:
        """A play, draw or pass of the rules engine as a script's move."""
        if isinstance(action, Draw):
            return cls("draw", count=action.count)
        if isinstance(action, Pass):
            return cls("pass")
        assert isinstance(action, Play), action
        return cls("play", str(action.tile), None if action.arm is None else action.arm.value)

    def __str__(self) -> str:
        if self.kind == "draw":
            return "draw" if self.count == 1 else f"draw {self.count}"
        if self.kind == "pass":
            return "pass"
        return self.tile if self.end is None else f"{self.tile} {self.end}"

    @property
    def button(self) -> str:
        """The tile's name on the picker: the high half first, as every tile button is named."""
        tile = Tile.parse(self.tile)
        return str(tile if tile.a >= tile.b else tile.flipped())

    @property
    def arm(self) -> Arm | None:
        return None if self.end is None else Arm.parse(self.end)

    def action(self) -> Action:
        """The move as the rules engine takes it."""
        if self.kind == "draw":
            return Draw(self.count)
        if self.kind == "pass":
            return Pass()
        return Play(Tile.parse(self.tile), self.arm)

    def api(self) -> dict[str, Any]:
        """The move as a JSON API action (without its ``seq``)."""
        if self.kind == "draw":
            return {"type": "draw"} if self.count == 1 else {"type": "draw", "count": self.count}
        if self.kind == "pass":
            return {"type": "pass"}
        if self.end is None:
            return {"type": "play", "tile": self.tile}
        return {"type": "play", "tile": self.tile, "end": self.end}

    def form(self) -> tuple[str, dict[str, Any]]:
        """The action a phone posts to (``play``, ``draw``, ``pass``) and its fields."""
        if self.kind == "draw":
            return "draw", {"count": self.count}
        if self.kind == "pass":
            return "pass", {}
        fields = self.api()
        del fields["type"]
        return "play", fields

    def step(self) -> str:
        """The move on the practice board's address: ``2-4:up``."""
        assert self.kind == "play", "the practice board only lays tiles"
        return self.tile if self.end is None else f"{self.tile}:{self.end}"


class Script:
    """A named hand: its moves, and (its docstring, ``about``) the table it was written for,
    what it shows and the state it reaches. A slice is the script up to there."""

    def __init__(self, about: str, *moves: str | Move) -> None:
        self.about = about
        self.moves = tuple(m if isinstance(m, Move) else Move.parse(m) for m in moves)

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)

    def __len__(self) -> int:
        return len(self.moves)

    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> Script: ...
    def __getitem__(self, index: int | slice) -> Move | Script:
        if isinstance(index, slice):
            return Script(self.about, *self.moves[index])
        return self.moves[index]

    def __add__(self, more: Script) -> Script:
        return Script(self.about, *self.moves, *more.moves)

    def __repr__(self) -> str:
        return f"Script({', '.join(repr(str(move)) for move in self.moves)})"

    def actions(self) -> list[Action]:
        return [move.action() for move in self]

    def api(self) -> list[dict[str, Any]]:
        return [move.api() for move in self]

    def board(self) -> str:
        """The tiles on the practice board's address (``/practice?p=…``)."""
        return ",".join(move.step() for move in self)

    def played(self, start: GameState) -> GameState:
        """``start`` with every move applied by the rules engine."""
        for action in self.actions():
            start = start.apply(action)[0]
        return start


# --- the worked examples of RULES.md --------------------------------------------------------------

EXAMPLE_A = Script(
    """Worked example A: Ana, Ben and Cy; Ana leads 3-2 (5 points). 2-2 is the first double,
    so the spinner (R9); up and down open once both its sides are covered (R10); a double at
    the end of an arm counts both halves (R8, R11). After the ten plays the ends are 0, 4, up 4
    and down 5, the count 17; Ana has 5, Cy 25 (1-0 at play 9: 0 + [6|6] 12 + [4|4] 8 + 5).""",
    *("3-2", "2-2 right", "2-6 right", "2-4 up", "3-1 left"),
    *("6-6 right", "4-4 up", "2-5 down", "1-0 left", "6-4 right"),
)

EXAMPLE_B = Script(
    """Worked example B: Ana leads 5-5, a spinner lead worth 10 (R9, R11), then in turn 5-3
    left (13), 5-2 right (both sides covered: up and down open, 3 + 2 = 5, R10), 5-0 up (5),
    2-2 right (7) and 0-4 up (11). With two players, Ana 15 and Ben 5; with three, Ana 15,
    Ben 0, Cy 5.""",
    *("5-5", "5-3 left", "5-2 right", "5-0 up", "2-2 right", "0-4 up"),
)

# Example C's deal (R1: 7 tiles each for three players) and boneyard, top tile first.
EXAMPLE_C_DEAL = [
    "6-2 2-0 5-2 1-0 4-1 6-1 6-0",
    "1-1 6-5 3-2 3-1 5-0 4-2 2-1",
    "3-4 6-3 3-3 4-0 4-4 5-1 5-5",
]
EXAMPLE_C_BONEYARD = "5-4 3-0 6-4 6-6 0-0 2-2 5-3"
EXAMPLE_C = Script(
    """Worked example C, a whole hand: Ana, Ben and Cy dealt ``EXAMPLE_C_DEAL``; Ana leads 2-0
    and goes out with 5-2 at move 20 (domino, R12). Every move is legal with those hands: Cy's
    4-4 at move 12 is the first double, the spinner (R9); Ben draws at move 17 holding 1-1 and
    6-5, neither fitting (R6). Ben keeps 6-5 and 1-1 (13 pips), Cy 3-4 (7); six tiles stay in
    the boneyard; Ana and Cy scored 15 each during the hand.""",
    *("2-0", "3-2 left", "6-3 left", "6-2 left", "2-1 left", "5-1 left", "6-0 right"),
    *("5-0 left", "4-0 left", "6-1 right", "3-1 right", "4-4 left", "4-1 left", "4-2 down"),
    *("3-3 right", "1-0 left", "draw", "5-4 up", "5-5 up", "5-2 up"),
)

EXAMPLE_G = Script(
    """Worked example G, Muggins (R17: no spinner): Ana leads 4-4, which stays a line's tile
    with two ends all hand long; 6-3 left and 1-2 right score 5 each (3 + [1|1] 2, then
    3 + 2).""",
    *("4-4", "4-1 right", "4-6 left", "1-1 right", "6-3 left", "1-2 right"),
)

EXAMPLE_H = Script(
    """Worked example H, Five Up (R17: every double a spinner; R25: points in fives), Ana and
    Ben: 6-4 (10: 2), 4-4 the first spinner, 6-6 the second (15: 3) whose ends are named
    "6-6 up" and "6-6 down"; 2-1 right makes 10 (2). Ana 5, Ben 2, to 61.""",
    *("6-4", "4-4 right", "4-2 right", "4-1 up", "6-6 left", "6-3 left", "6-5 6-6 up"),
    "2-1 right",
)

EXAMPLE_L = Script(
    """Worked example L, Fives and Threes (R26–R29), Ana and Ben, 7 tiles each, Ana leading:
    the twelve plays of RULES.md with Ana knocking twice before the last two (R27: nobody
    draws), so Ben plays 2-2 and 0-6 in a row and goes out with his seventh tile. Counts
    score 2, 0, 1, 3, 0, 3, 8 (15: 3 + 5), 6 (18), 0, 0, 0 and 2 (10): Ana 11, Ben 14, and
    Ben's five for going out (R28) makes 15. Ana keeps two tiles with no 2 and no 0.""",
    *("5-5", "5-4 right", "5-1 left", "4-4 right", "1-6 left", "4-3 right", "6-6 left"),
    *("3-3 right", "6-2 left", "3-0 right", "pass", "2-2 left", "pass", "0-6 right"),
)

# --- hands of the app's own tests -----------------------------------------------------------------

FIX_KEPT = Script(
    """A hand with a tile entered wrongly, for fixing it: Ana, Ben and Cy; Ana leads 6-4 (10);
    Cy's 6-0 at move 3 was really 6-5. No doubles, so each count is the two open ends (R11);
    Cy's 3-5 at move 6 makes 0 + 5 (5). Fixed, every later move still fits: 3-5 then makes
    5 + 5 (10).""",
    *("6-4", "4-1 right", "6-0 left", "1-2 right", "2-3 right", "3-5 right"),
)

FIX_STOPPED = Script(
    """As :data:`FIX_KEPT` to move 4, then Ben's 0-3 on the left (3 + 2: 5) and Cy's 2-5 on
    the right: fixing move 3 to 6-5 leaves 5 on the left, so 0-3 no longer fits and it and
    the move after it are taken back (R5).""",
    *FIX_KEPT[:4],
    *("0-3 left", "2-5 right"),
)

AUDITED_HAND = Script(
    """Two players dealt 5 each (``deal="5"``), for the audit of draws (R6): Ana leads 5-4;
    Ben draws two tiles at move 2 (ends 5 and 4) and plays 4-1 on the right; Ana goes out
    with her fifth tile, 6-6, at move 10 (R12), Ben holding three. Reported as 5-6, 0-0 and
    1-1, his 5-6 fitted when he drew, but may have been one of the two drawn: a possible
    breach (one draw instead of two: a certain one).""",
    *("5-4", "draw 2", "4-1 right", "5-3 left", "1-2 right"),
    *("3-0 left", "2-2 right", "0-6 left", "2-3 right", "6-6 left"),
)

HAND_OF_FIVE = Script(
    """Two players dealt 5 each (R1 option ``deal="5"``), Ana leads, each time the first tile
    that fits (:func:`first_fit`): 6-6 is the spinner; Ben's 5-3 up makes 15; Ana goes out
    with her fifth tile, 5-2 (domino, R12). Ben holds one tile, 18 stay in the boneyard:
    the hand waits for the pips left in Ben's hand to be settled (R13).

    >>> options = Options.make(["Ana", "Ben"], deal="5")
    >>> state = GameState.new(options).apply(StartHand(0))[0]
    >>> moves = []
    >>> while state.turn is not None:
    ...     action = first_fit(state)
    ...     moves.append(action)
    ...     state = state.apply(action)[0]
    >>> moves == HAND_OF_FIVE.actions()
    True
    >>> state.status.value, state.scores, state.hand.held, state.hand.boneyard
    ('hand_over', (0, 15), (0, 1), 18)
    """,
    *("6-6", "6-5 left", "6-4 right", "6-3 up", "6-2 down"),
    *("5-5 left", "5-4 left", "5-3 up", "5-2 up"),
)


FOUR_OUT = Script(
    """Ana, Ben, Cy and Di (5 tiles each, 8 in the boneyard), Ana leading: 1-1 is the spinner on
    the right arm; Ana goes out with her fifth tile, 6-3 on the down end (4 + 3 + [0|0] 0 + 3:
    10). Ben, Cy and Di hold one tile each, whose pips can be 3, 12 and 3 (2-1, 6-6, 3-0). The
    partnership hand of ``tests/browser/test_table.py``, tapped there one tile at a time.""",
    *("6-4", "4-1", "1-1", "3-1", "6-2", "4-3", "5-1", "4-4", "6-5", "2-2"),
    *("6-1 down", "5-4", "6-0 up", "5-3", "4-2", "0-0", "6-3 down"),
)

LONG_HAND = Script(
    """Ana, Ben and Cy (7 tiles each, 7 in the boneyard), Ana leading: the longest first hand a
    scripted game (:func:`scripted_actions`, random deals, each player the first tile of theirs
    that fits) reaches while it is still played, 37 moves. 4-4 is the spinner on the left arm;
    the boneyard is drawn empty at move 27; from move 31 Ben and Cy pass while Ana plays 5-5 up
    and 5-0 up. 25 tiles on the table,
    in all four arms (left 11, right 7, up 4, down 2), ends 2, 2, 0 and 0; each player holds one
    tile; Ana 5, Ben 10, Cy 5.""",
    *("1-0", "3-1 left", "3-0 left", "6-0 left", "6-5 left", "5-2 left", "4-2 left", "2-0 right"),
    *("2-1 right", "4-4 left", "6-1 right", "6-3 right", "5-4 left", "draw", "draw", "4-3 right"),
    *("5-3 left", "draw", "draw", "draw", "6-4 right", "6-2 right", "3-2 left", "draw", "4-1 up"),
    *("2-2 left", "draw", "4-0 down", "5-1 up", "0-0 down", "pass", "5-5 up", "pass", "pass"),
    *("5-0 up", "pass", "pass"),
)

# --- hands worked out as they go ------------------------------------------------------------------


def first_fit(state: GameState) -> Action:
    """The move a scorer enters who taps the first tile on the picker that fits, on the first
    end it fits (a draw when none fits and the boneyard allows one, else a pass). A table of
    real hands could play it whenever nobody knows what the others hold."""
    for tile in DOUBLE_SIX:
        places = state.placements(tile)
        if places:
            return Play(tile, places[0].arm)
    return Draw() if state.can_draw else Pass()


def scripted_actions(rng: random.Random, players: int, length: int) -> list[Action]:
    """``length`` legal actions of a real game, in order: tiles dealt at random, each player
    plays the first tile that fits, draws or passes otherwise, hands settled with the tiles
    really left, hand after hand (target 10,000, so it never ends)."""
    state = GameState.new(Options.make(["Ana", "Ben", "Cy", "Di"][:players], target=10_000))
    actions: list[Action] = []
    hands: list[list[Tile]] = []
    boneyard: list[Tile] = []
    while len(actions) < length:
        action: Action
        if state.hand is None or state.status.value == "awaiting_start":
            leader = state.next_leader if state.next_leader is not None else 0
            action = StartHand(leader)
            tiles = list(DOUBLE_SIX)
            rng.shuffle(tiles)
            size = state.options.hand_size
            hands = [tiles[i * size : (i + 1) * size] for i in range(players)]
            boneyard = tiles[players * size :]
        elif state.status.value == "hand_over":
            action = EndHand.of({seat: list(hand) for seat, hand in enumerate(hands) if hand})
        else:
            seat = state.turn
            assert seat is not None
            hand = hands[seat]
            playable = [(tile, state.placements(tile)) for tile in hand if state.placements(tile)]
            if playable:
                tile, places = playable[0]
                hand.remove(tile)
                action = Play(tile, places[0].arm)
            elif boneyard:
                hand.append(boneyard.pop())
                action = Draw(1)
            else:
                action = Pass()
        state, _ = state.apply(action)
        actions.append(action)
    return actions


# The checks in the scripts' descriptions run with the module's doctests.
__test__ = {"HAND_OF_FIVE": HAND_OF_FIVE.about}
