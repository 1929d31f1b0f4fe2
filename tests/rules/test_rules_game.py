"""Targets and the end of a game (R15, R16), and undo."""

from __future__ import annotations

import contextlib
import json
import pickle
from dataclasses import replace

import pytest
from rules_table import Table, example_c, hands_with, partners_hand

from tests.scripts import EXAMPLE_C, EXAMPLE_C_BONEYARD, EXAMPLE_C_DEAL
from webapp.rules import (
    Action,
    ActionKind,
    Arm,
    Draw,
    EndHand,
    Finish,
    GameState,
    HandEnd,
    IllegalAction,
    MoveKind,
    Options,
    Pass,
    Play,
    StartHand,
    Status,
    Tile,
    Undo,
)
from webapp.rules.game import BeyondTheMark
from webapp.rules.scorebook import Scorebook

T = Tile.parse
NAMES = ["Ana", "Ben", "Cy", "Di"]


def example_c_until_game_over(table: Table) -> int:
    """Play example C's moves until the game ends; the number of moves made."""
    table.start(EXAMPLE_C_DEAL, EXAMPLE_C_BONEYARD, leader=0)
    for made, move in enumerate(EXAMPLE_C, start=1):
        table.move(move)
        if table.state.status is Status.GAME_OVER:
            return made
    return len(EXAMPLE_C)


# --- R15: the target ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "partnership", "preset", "goal"),
    [
        (2, False, "seed", 250),
        (3, False, "seed", 200),
        (4, False, "seed", 200),
        (4, True, "seed", 200),
        (2, False, "pagat", 250),
        (3, False, "pagat", 200),
    ],
)
def test_r15_default_targets(players, partnership, preset, goal):
    options = Options.make(NAMES[:players], partnership=partnership, preset=preset)
    assert options.goal == goal
    assert options.rules_dict()["target"] == goal


@pytest.mark.parametrize(("target", "goal"), [(150, 150), ("300", 300), (5, 5), (10000, 10000)])
def test_r15_any_other_target(target, goal):
    assert Options.make(NAMES[:2], target=target).goal == goal


# --- R16: immediate finish ----------------------------------------------------------------------


def test_r16_immediate_the_game_ends_the_moment_a_score_reaches_the_target():
    state = GameState.new(Options.make(NAMES[:2], target=5)).apply(StartHand(0))[0]
    state, outcome = state.apply(Play(T("3-2")))
    assert (state.status, state.winner, state.scores) == (Status.GAME_OVER, 0, (5, 0))
    assert outcome.next == "Game over: Ana won"
    assert state.hand.end is None  # mid-hand: nothing more is played or settled
    assert state.results == ()
    assert state.turn is None
    assert (state.can_draw, state.can_pass) == (False, False)


def test_r16_immediate_mid_hand_in_example_c():
    table = Table.of("Ana", "Ben", "Cy", target=15)
    made = example_c_until_game_over(table)
    assert made == 9  # Cy's 4-0: 4 + 6 = 10, her second score
    assert (table.state.winner, table.state.scores) == (2, (0, 0, 15))
    with pytest.raises(IllegalAction) as refused:
        table.state.apply(Play(T("6-1"), Arm.RIGHT))
    assert refused.value.code == "game_over"


def test_r16_immediate_a_winning_domino_is_not_settled():
    table = Table.of(*NAMES, partnership=True, target=30)
    partners_hand(table)
    state = table.state
    assert (state.status, state.winner, state.scores) == (Status.GAME_OVER, 0, (30, 15))
    assert state.hand.end is HandEnd.DOMINO
    assert state.next_step() == "Game over: Ana & Cy won"
    with pytest.raises(IllegalAction) as refused:
        state.apply(table.reports())
    assert refused.value.code == "game_over"


# --- R16: end-of-hand finish --------------------------------------------------------------------


def test_r16_end_of_hand_the_hand_is_completed_and_the_highest_wins():
    table = Table.of("Ana", "Ben", "Cy", target=15, finish="end-of-hand")
    assert table.options.finish is Finish.END_OF_HAND
    assert example_c_until_game_over(table) == len(EXAMPLE_C)
    assert table.state.status is Status.HAND_OVER  # Cy reached 15 mid-hand: play went on
    outcome = table.settle()
    # Cy reached the target first, but after settling Ana 15, Ben -15, Cy 10: Ana is highest.
    assert table.state.scores == (15, -15, 10)
    assert (table.state.status, table.state.winner) == (Status.GAME_OVER, 0)
    assert outcome.next == "Game over: Ana won"


def test_r16_end_of_hand_settling_below_the_target_plays_on():
    table = Table.of(*NAMES, partnership=True, target=25, finish="end-of-hand")
    partners_hand(table)
    assert table.state.scores == (30, 15)  # Ana & Cy passed 25 during the hand
    table.settle()
    assert table.state.scores == (10, -5)
    assert (table.state.status, table.state.winner) == (Status.AWAITING_START, None)


def tied_at_55(finish: str) -> GameState:
    """Three players, winner-takes, target 50: a blocked hand leaves Ana and Ben on 55 each."""
    options = Options.make(NAMES[:3], preset="pagat", target=50, finish=finish)
    # Ana leads 5-0 (5), Ben plays 0-0 (5 + 0 = 5), Cy draws the boneyard; all pass.
    ok = True  # the record soon proves someone held a tile that fitted: the table confirms (R7a)
    moves = [Play(T("5-0")), Play(T("0-0"), Arm.RIGHT), Draw(7, confirm=ok)]
    moves += [Pass(confirm=ok), Pass(confirm=ok), Pass(confirm=ok)]
    state = GameState.replay(options, [StartHand(0), *moves])
    assert (state.scores, state.hand.end) == ((5, 5, 0), HandEnd.BLOCKED)
    state, outcome = state.apply(hands_with(state, {0: 30, 1: 30}))
    assert outcome.result.settled == (50, 50, 0)  # a tie for fewest: half of Cy's 103, rounded
    assert state.scores == (55, 55, 0)
    return state


@pytest.mark.parametrize("finish", ["immediate", "end-of-hand"])
def test_r16_several_reach_the_target_at_once_and_the_highest_wins(finish):
    # Three players, winner-takes, target 50. Ana leads 5-0 for 5; Ben plays 0-1 (6: nothing);
    # Cy draws the boneyard; all pass. Ana and Ben tie for fewest pips and each score half of
    # Cy's 103, rounded: 50 (R13p). Both reach 50 at the same moment; Ana, at 55, wins.
    options = Options.make(NAMES[:3], preset="pagat", target=50, finish=finish)
    ok = True  # the record soon proves someone held a tile that fitted: the table confirms (R7a)
    moves = [Play(T("5-0")), Play(T("0-1"), Arm.RIGHT), Draw(7, confirm=ok)]
    moves += [Pass(confirm=ok), Pass(confirm=ok), Pass(confirm=ok)]
    state = GameState.replay(options, [StartHand(0), *moves])
    assert state.scores == (5, 0, 0)
    state, outcome = state.apply(hands_with(state, {0: 30, 1: 30}))
    assert outcome.result.settled == (50, 50, 0)
    assert (state.scores, state.status, state.winner) == ((55, 50, 0), Status.GAME_OVER, 0)
    assert outcome.next == "Game over: Ana won"


def test_r16_immediate_after_a_tie_at_the_top_the_next_score_decides():
    state = tied_at_55("immediate")
    assert (state.status, state.winner) == (Status.AWAITING_START, None)
    state = state.apply(StartHand(2))[0]
    state, outcome = state.apply(Play(T("6-1")))  # Cy leads for nothing: nobody wins by it
    assert (outcome.points, state.status, state.winner) == (0, Status.PLAYING, None)
    state, outcome = state.apply(Play(T("1-4"), Arm.RIGHT))  # Ana: 6 + 4 = 10
    assert (outcome.points, state.scores) == (10, (65, 55, 0))
    assert (state.status, state.winner, outcome.next) == (Status.GAME_OVER, 0, "Game over: Ana won")


def test_r16_immediate_after_a_tie_a_score_for_someone_else_decides_nothing():
    state = tied_at_55("immediate").apply(StartHand(2))[0]
    state, outcome = state.apply(Play(T("4-1")))  # Cy leads for 5
    assert (outcome.points, state.scores, state.status) == (5, (55, 55, 5), Status.PLAYING)


def test_r16_end_of_hand_a_tie_at_the_top_plays_another_hand():
    state = tied_at_55("end-of-hand")
    assert (state.status, state.winner) == (Status.AWAITING_START, None)
    # The next hand decides: Ana leads 3-2 for 5 more, and the hand is blocked at once.
    state = state.apply(StartHand(0))[0].apply(Play(T("3-2")))[0]
    assert state.status is Status.PLAYING
    for entry in (Draw(7), Pass(), Pass(), Pass()):  # confirmed by the table (R7a)
        state = state.apply(replace(entry, confirm=True))[0]
    state = state.apply(hands_with(state, {0: 20, 2: 30}))[0]
    assert (state.status, state.winner) == (Status.GAME_OVER, 0)
    assert state.scores[0] > max(state.scores[1:])


# --- undo ---------------------------------------------------------------------------------------


@pytest.fixture
def led() -> Scorebook:
    book = Scorebook.new(Options.make(NAMES[:3])).apply(StartHand(0))[0]
    return book.apply(Play(T("3-2")))[0]


def test_undo_restores_the_exact_previous_state(led):
    after, _ = led.apply(Play(T("2-2"), Arm.RIGHT))
    back, outcome = after.apply(Undo())
    assert back == led
    assert back.state.hand.layout.tiles == (T("3-2"),)
    assert outcome.message == "Undone: Ben played 2-2 on the right end: 3 + [2|2] 4 = 7"
    assert outcome.next == "Ben to play"


def test_undo_twice_cancels_two_actions(led):
    book = led.apply(Draw())[0].apply(Play(T("2-2"), Arm.RIGHT))[0]
    back = book.apply(Undo())[0].apply(Undo())[0]
    assert back == led
    assert back.state.hand.boneyard == 7
    started = back.apply(Undo())[0]
    assert started.state.hand.moves == () and started.states == (started.mark,)
    log = [StartHand(0), Play(T("3-2")), Undo()]
    new = started.apply(Undo(), lambda undo: Scorebook.replay(led.options, [*log, *undo]))[0]
    assert new == Scorebook.new(led.options)
    assert not new.state.can_undo


def test_undo_takes_back_points(led):
    assert led.state.scores == (5, 0, 0)
    assert led.apply(Undo())[0].state.scores == (0, 0, 0)


def test_undo_after_a_settled_hand_restores_the_hand_over_state():
    table = example_c(Table.of("Ana", "Ben", "Cy"))
    over = table.state
    table.settle()
    assert table.state.status is Status.AWAITING_START
    back, outcome = table.book.apply(Undo())
    back = back.state
    assert back == over
    assert back.status is Status.HAND_OVER
    assert back.scores == (15, 0, 15)
    assert back.results == ()
    assert outcome.message == "Undone: Hand 1 settled: Ana +0, Ben -15, Cy -5"
    # A corrected report can then be entered.
    assert back.apply(EndHand.of({1: 13, 2: 12}))[1].result.settled == (0, -15, -10)


def test_undo_after_game_over_resumes_the_hand():
    book = Scorebook.new(Options.make(NAMES[:2], target=5)).apply(StartHand(0))[0]
    over = book.apply(Play(T("3-2")))[0]
    back = over.apply(Undo())[0]
    assert back == book
    assert back.state.status is Status.PLAYING


def test_undo_of_a_hand_start_goes_back_into_the_hand_before_from_the_log():
    table = example_c(Table.of("Ana", "Ben", "Cy"))
    table.settle()
    settled = table.state
    log = [*table.actions, StartHand(0)]
    started = Scorebook.replay(table.options, log).state
    fresh = Scorebook((started,))  # as a fresh process holds it, from the hand's snapshot
    back, outcome = fresh.apply(Undo(), lambda undo: Scorebook.replay(table.options, [*log, *undo]))
    assert back.state == settled and back.state.done == settled.done
    assert outcome.message == "Undone: Hand 2: Ana leads"
    assert back.apply(StartHand(0))[0].state == started
    with pytest.raises(BeyondTheMark):
        fresh.apply(Undo())


def test_the_last_action_says_the_same_read_back_from_the_log_as_when_it_was_entered():
    """A screen opened after an action shows what it did: the log folded from the start, or
    from the hand's snapshot as a fresh process folds it, says what applying it said, undos
    included (R11: Ana's lead 5-5 scores 10)."""
    options = Options.make(NAMES[:2])
    entered = [StartHand(0), Play(T("5-5")), Play(T("5-3"), Arm.LEFT), Undo(), Draw()]
    entered += [Play(T("5-3"), Arm.LEFT), Undo(), Undo(), Undo(), Play(T("5-5")), Undo(), Undo()]
    book = Scorebook.new(options)
    mark = GameState.from_dict(options, book.apply(StartHand(0))[0].state.to_dict())
    log: list[Action] = []
    for action in entered:
        book, outcome = book.apply(action, lambda undo: Scorebook.replay(options, [*log, *undo]))
        log.append(action)
        assert Scorebook.replay(options, log).last == outcome, log
        with contextlib.suppress(BeyondTheMark):  # unless an undo reached back past the mark
            assert Scorebook((mark,)).fold(log[1:]).last == outcome, log
    assert Scorebook.replay(options, log[:2]).last.points == 10
    assert book.last.message == "Undone: Hand 1: Ana leads"
    assert Scorebook.new(options).last is None


def test_a_state_at_the_start_of_a_hand_round_trips_through_its_data():
    table = example_c(Table.of("Ana", "Ben", "Cy"))
    table.settle()
    started = table.state.apply(StartHand(0))[0]
    data = json.loads(json.dumps(started.to_dict()))
    again = GameState.from_dict(table.options, data)
    assert again == started and again.done == started.done
    assert again.results == started.results
    with pytest.raises(ValueError, match="before the first play"):
        table.state.to_dict()
    for broken in ({**data, "scores": [1]}, {**data, "results": [{"number": 1}]}, {}):
        with pytest.raises(ValueError, match="not a state kept as data"):
            GameState.from_dict(table.options, broken)


def test_a_thousand_actions_pickle_with_no_chain_of_earlier_states():
    game = Table.of("Ana", "Ben", "Cy", target=10_000)
    while len(game.actions) < 1_000:
        game.play_out_hand()
    book = Scorebook.replay(game.options, game.actions)
    assert book.state.hand_number > 30
    assert len(book.states) < 80
    again = pickle.loads(pickle.dumps(book))
    assert again == book and again.state.done == book.state.done


def test_kinds_are_members_that_read_as_the_words_of_the_log_and_the_api(led):
    """Outcome and move kinds are enum members, yet equal, print and dump as the words the web
    pages, templates and JSON API have always used."""
    book, outcome = led.apply(Draw(2))
    moves = book.state.hand.moves
    assert outcome.kind is ActionKind.DRAW and outcome.kind == "draw"
    assert [move.kind for move in moves] == [MoveKind.PLAY, "draw"]
    assert book.apply(Undo())[1].kind is ActionKind.UNDO
    shown = {"type": outcome.kind, "moves": [move.kind for move in moves]}
    assert json.dumps(shown) == '{"type": "draw", "moves": ["play", "draw"]}'
    assert f"{outcome.kind} after {moves[0].kind}" == "draw after play"
    assert pickle.loads(pickle.dumps(book)) == book


def test_undo_is_an_action_a_replay_understands(led):
    actions = [StartHand(0), Play(T("3-2")), Draw(2), Undo(), Play(T("2-2"), Arm.RIGHT)]
    replayed = GameState.replay(led.options, actions)
    assert replayed == led.apply(Play(T("2-2"), Arm.RIGHT))[0].state
    assert replayed.hand.boneyard == 7


def test_replay_rebuilds_the_state():
    table = example_c(Table.of("Ana", "Ben", "Cy"))
    table.settle()
    assert table.replayed() == table.state
    assert Scorebook.replay(table.options, table.actions) == table.book
