"""How fast the rules engine is, through its public API.

Two numbers:

- random complete hands per second: deal real tiles, then start → plays, draws, passes (each
  player plays a random tile that fits, draws when none does, passes when the boneyard is
  empty) → end_hand with the tiles really left, for 2, 3 and 4 players in turn;
- the picker's hints: every one of the 28 tiles tried against a layout just made (nothing
  worked out on it yet), as each screen after a play does, through ``layout.placements``
  (arithmetic on the open ends), against the same answers got by building the layout after
  each placement with ``place``, in the same run: the ratio.

Run it with ``python3 tests/bench/bench_engine.py [--seconds 3]``. It is not a test: pytest
only imports it (``--doctest-modules``), which runs nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from webapp.rules import (
    DOUBLE_SIX,
    Draw,
    EndHand,
    GameState,
    Options,
    Pass,
    Placement,
    Play,
    StartHand,
    Status,
)

# Run as a script, this folder is on the path but not the repository: the tests' scripts are.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.scripts import EXAMPLE_A

NAMES = ("Ana", "Ben", "Cy", "Di")


def play_hand(options: Options, rng: random.Random) -> int:
    """One random hand from the deal to its settlement; the number of actions applied."""
    tiles = list(DOUBLE_SIX)
    rng.shuffle(tiles)
    size = options.hand_size
    hands = [tiles[seat * size : (seat + 1) * size] for seat in range(options.player_count)]
    boneyard = tiles[size * options.player_count :]
    state, _ = GameState.new(options).apply(StartHand(rng.randrange(options.player_count)))
    actions = 1
    while state.status is Status.PLAYING:
        hand = hands[state.hand.turn]  # type: ignore[union-attr]
        legal = [(tile, place) for tile in hand for place in state.placements(tile)]
        if legal:
            tile, place = rng.choice(legal)
            state, _ = state.apply(Play(tile, place.arm))
            hand.remove(tile)
        elif state.can_draw:
            hand.append(boneyard.pop())
            state, _ = state.apply(Draw())
        else:
            state, _ = state.apply(Pass())
        actions += 1
    if state.status is Status.HAND_OVER:
        state.apply(EndHand.of({seat: held for seat, held in enumerate(hands) if held}))
        actions += 1
    return actions


def mid_game() -> GameState:
    """Worked example A of RULES.md after seven plays: a spinner with all four arms open."""
    state, _ = GameState.new(Options.make(NAMES[:3])).apply(StartHand(0))
    return EXAMPLE_A[:7].played(state)


def rate(work: Callable[[], int], seconds: float) -> tuple[float, int]:
    """Units of ``work`` done per second of this process's CPU time (what other programs on
    the machine do slows the wall clock far more) over about ``seconds``, and the units done."""
    done = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        done += work()
    return done / elapsed, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each measure")
    seconds = parser.parse_args().seconds
    rng = random.Random(2024)
    tables = [Options.make(NAMES[:players]) for players in (2, 3, 4)]
    hands_done = 0
    actions_done = 0

    def one_hand() -> int:
        nonlocal hands_done, actions_done
        actions_done += play_hand(tables[hands_done % len(tables)], rng)
        hands_done += 1
        return 1

    per_second, hands = rate(one_hand, seconds)
    print(f"complete hands:        {per_second:10,.0f} per second  ({hands:,} hands)")
    print(f"  actions applied:     {actions_done / hands:10.1f} per hand")

    state = mid_game()
    layout = state.hand.layout  # type: ignore[union-attr]
    print(f"mid-game layout:       {layout.breakdown}")

    def by_arithmetic() -> int:
        fresh = dataclasses.replace(layout)  # equal, but with nothing worked out yet
        for tile in DOUBLE_SIX:
            fresh.placements(tile)
        return len(DOUBLE_SIX)

    def by_building() -> int:
        fresh = dataclasses.replace(layout)
        for tile in DOUBLE_SIX:
            for arm in fresh.fits(tile):
                after = fresh.place(tile, arm)
                Placement(after.arm(arm)[-1], arm, after.count, after.points, after.breakdown)
        return len(DOUBLE_SIX)

    built, _ = rate(by_building, seconds)
    counted, _ = rate(by_arithmetic, seconds)
    print(
        f"hints for a new layout:  {1e6 * len(DOUBLE_SIX) / counted:6.0f} µs per screen of 28 tiles"
        f" by arithmetic, {1e6 * len(DOUBLE_SIX) / built:6.0f} µs by building each layout:"
        f" {built / counted:4.2f}× the reference"
    )


if __name__ == "__main__":
    main()
