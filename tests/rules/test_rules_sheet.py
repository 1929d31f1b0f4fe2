"""The score sheet (``webapp.rules.sheet``) over random games under any rules, checked after
every action: each hand's points are its plays plus its settlement, and the points of the
hands so far add up to the running totals and to the scores."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st
from test_rules_random_games import game_options

from tests.web.golden_games import random_game
from webapp.rules import Action, GameState, Options, Scorebook, StartHand, Status
from webapp.rules.sheet import score_sheet


def check(state: GameState) -> None:
    sheet = score_sheet(state)
    before = (0,) * state.options.side_count
    numbers = []
    for row in sheet.hands:
        added = tuple(a + b for a, b in zip(row.scored, row.settlement, strict=True))
        assert row.points == added
        assert row.totals == tuple(b + p for b, p in zip(before, row.points, strict=True))
        before = row.totals
        numbers.append(row.number)
    assert before == state.scores
    assert numbers == list(range(1, state.hand_number + 1))
    assert all(row.settled for row in sheet.hands[: len(state.results)])
    assert len(sheet.hands) - len(state.results) in (0, 1)
    assert sheet.over == (state.status is Status.GAME_OVER)
    top = max(state.scores)
    assert all(state.scores[side] == top for side in sheet.leaders)


@given(options=game_options(), seed=st.integers(0, 2**16))
def test_the_sheet_adds_up_after_every_action(options: Options, seed: int) -> None:
    log = random_game(options, seed, 160)
    book = Scorebook.new(options)
    check(book.state)
    for done, action in enumerate(log):
        before = log[:done]
        book, _ = book.apply(action, lambda undo, before=before: rebuilt(options, before, undo))
        check(book.state)


def rebuilt(options: Options, log: list[Action], undo: Sequence[Action]) -> Scorebook:
    """The scorebook of ``log`` with ``undo`` after it (an undo back past the hand's start)."""
    return Scorebook.replay(options, [*log, *undo])


def test_a_new_game_has_an_empty_sheet_with_every_side_level() -> None:
    state = GameState.new(Options.make(["Ana", "Ben", "Cy"]))
    sheet = score_sheet(state)
    assert sheet.hands == () and sheet.leaders == (0, 1, 2) and not sheet.over
    started, _ = state.apply(StartHand(0))
    row = score_sheet(started).hands[0]
    assert (row.number, row.points, row.settled, row.end) == (1, (0, 0, 0), False, None)
