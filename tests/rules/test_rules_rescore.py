"""Rescoring a game's log under other options (R13, R13p, R15, R16)."""

from __future__ import annotations

import pytest
from rules_table import Table, example_c

from tests.scripts import EXAMPLE_C, EXAMPLE_C_BONEYARD, EXAMPLE_C_DEAL
from webapp.rules import (
    BadOptions,
    Finish,
    Options,
    Play,
    Settlement,
    StartHand,
    Status,
    Tile,
    Undo,
)
from webapp.rules.rescore import changed, rescore

NAMES = ("Ana", "Ben", "Cy")


def settled_c(**rules: object) -> Table:
    table = example_c(Table.of(*NAMES, **rules))
    table.settle()
    return table


# --- worked examples C and D ------------------------------------------------------------------


def test_example_c_rescored_under_pagat_is_example_d():
    table = settled_c()
    found = rescore(table.options, table.actions, preset="pagat")
    played, other = found.played.results[0], found.other.hands[0].result
    assert played is not None and other is not None
    assert played.settled == (0, -15, -5)  # C: Ana −0, Ben −15, Cy −5
    assert other.settled == (20, 0, 0)  # D: Ana scores round(13 + 7) = 20
    assert played.scored == other.scored == (15, 0, 15)  # the plays score the same
    assert found.played.scores == (15, -15, 10)
    assert found.other.state.scores == (35, 0, 15)
    assert found.other.options.settlement is Settlement.WINNER_TAKES
    assert not found.same


def test_example_d_rescored_under_seed_is_example_c():
    table = settled_c(preset="pagat")
    found = rescore(table.options, table.actions, preset="seed")
    assert found.played.results[0].settled == (20, 0, 0)
    assert found.other.hands[0].result.settled == (0, -15, -5)
    assert found.other.options.preset == "seed"


def test_the_played_side_is_the_game_itself():
    table = settled_c()
    found = rescore(table.options, table.actions, settlement="winner-takes")
    assert found.played == table.state
    assert found.other.hands[0].result.settled == (20, 0, 0)


def test_the_same_rules_change_nothing():
    table = settled_c()
    found = rescore(table.options, table.actions, preset="seed")
    assert found.same
    assert found.ending(found.other) == "Nobody has reached 200 yet: the game goes on."


# --- R16: a game may end earlier, or not be over -------------------------------------------------


def test_immediate_finish_ends_the_game_mid_hand_and_drops_the_rest():
    # Finish "end-of-hand" to 10: example C completes and Ana wins after settling. Under
    # "immediate", Cy reaches 10 (5 + 10 = 15) with 0-4 at move 9 and wins there.
    table = settled_c(target=10, finish="end-of-hand")
    assert table.state.status is Status.GAME_OVER and table.state.winner == 0
    found = rescore(table.options, table.actions, finish="immediate")
    other = found.other
    assert other.state.status is Status.GAME_OVER and other.state.winner == 2
    assert len(other.hands[0].hand.moves) == 9
    assert other.hands[0].result is None
    assert len(other.left) == 12  # 11 more moves and the settlement never happen
    assert found.ending(other) == (
        "Cy reaches 10 and wins during hand 1, at move 9 (R16): the game ends there; "
        "the 12 actions after it would never happen."
    )
    assert found.ending_as_played() == "Ana reaches 10 and wins."


def test_end_of_hand_finish_when_the_table_stopped_mid_hand():
    table = Table.of(*NAMES, target=10)
    table.start(EXAMPLE_C_DEAL, EXAMPLE_C_BONEYARD, leader=0)
    for move in EXAMPLE_C[:9]:
        table.move(move)
    assert table.state.status is Status.GAME_OVER
    found = rescore(table.options, table.actions, finish="end-of-hand")
    assert found.other.state.status is Status.PLAYING
    assert found.ending(found.other).startswith("Nobody has won when the table stopped in hand 1")


def test_a_higher_target_lets_the_game_go_on():
    table = settled_c(target=10, finish="end-of-hand")
    found = rescore(table.options, table.actions, target=500)
    assert found.other.state.status is Status.AWAITING_START
    assert found.other.state.winner is None
    assert found.ending(found.other) == "Nobody has reached 500 yet: the game goes on."


def test_a_settled_game_ends_when_the_hand_is_settled_with_actions_left():
    # Pagat to 30: Ana's 15 + 20 reaches 30 when hand 1 is settled; a second hand was begun.
    table = settled_c(target=30, finish="end-of-hand")
    table.apply(table.state.resolve(StartHand()))
    table.apply(Play(Tile(6, 6)))
    found = rescore(table.options, table.actions, preset="pagat")
    assert found.other.state.winner == 0
    assert found.ending(found.other) == (
        "Ana reaches 30 and wins when hand 1 is settled (R16); "
        "the 2 actions after it would never happen."
    )
    rows = found.rows()
    assert [(n, a is not None, b is not None) for n, a, b in rows] == [
        (1, True, True),
        (2, True, False),
    ]


def test_undone_actions_stay_undone_under_other_rules():
    table = settled_c()
    log = [*table.actions[:5], Play(Tile(6, 6)), Undo(), *table.actions[5:]]
    found = rescore(table.options, log, preset="pagat")
    assert found.other.hands[0].result.settled == (20, 0, 0)


# --- which options may change ---------------------------------------------------------------------


def test_a_new_preset_brings_its_settlement_and_keeps_the_rest():
    options = Options.make(NAMES, target=150, finish="end-of-hand")
    pagat = changed(options, preset="pagat")
    assert (pagat.preset, pagat.settlement, pagat.target, pagat.finish) == (
        "pagat",
        Settlement.WINNER_TAKES,
        150,
        Finish.END_OF_HAND,
    )
    assert changed(pagat, preset="seed").settlement is Settlement.SUBTRACT_OWN


def test_an_option_chosen_apart_from_the_preset_stays():
    options = Options.make(NAMES, settlement="winner-takes")  # seed, but winner-takes
    assert changed(options, preset="pagat").settlement is Settlement.WINNER_TAKES
    assert changed(options, settlement="subtract-own").settlement is Settlement.SUBTRACT_OWN


def test_blank_changes_keep_what_was_played():
    options = Options.make(NAMES, target=150)
    assert changed(options, preset="", settlement="", finish=None, target="") == options


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"deal": "5"}, "rescore_option"),
        ({"players": "x"}, "rescore_option"),
        ({"preset": "sniff"}, "preset"),
        ({"target": "3"}, "target"),
        ({"settlement": "half"}, "settlement"),
    ],
)
def test_options_that_cannot_change_are_refused(changes, code):
    with pytest.raises(BadOptions) as refused:
        changed(Options.make(NAMES), **changes)
    assert refused.value.code == code


# --- under any house rules (R17–R25) ------------------------------------------------------------


def _example_h_log() -> list:
    from webapp.rules import Arm, Play, StartHand, Tile

    rows = [("6-4", None), ("4-4", "right"), ("4-2", "right"), ("4-1", "up"), ("6-6", "left")]
    rows += [("6-3", "left"), ("6-5", "6-6 up"), ("2-1", "right")]
    return [StartHand(0)] + [
        Play(Tile.parse(t), None if e is None else Arm.parse(e)) for t, e in rows
    ]


def test_a_play_another_rule_refuses_is_named_with_the_reason():
    """Example H under five-up, rescored as seed: step 7 (6-5 on 6-6 up) is refused (R9)."""
    five_up = Options.make(["Ana", "Ben"], preset="five-up")
    found = rescore(five_up, _example_h_log(), preset="seed")
    other = found.other
    assert other.refusal is not None and other.refusal.rule == "R9"
    assert found.ending(other) == (
        "Under these rules Ana’s play of 6-5 on the 6-6 up end in hand 1, move 7 is not "
        "allowed: 6-6 is not a spinner: only the first double played, 4-4, spins (R9), so "
        "there is no 6-6 up end; the action after it is not scored."
    )
    # The deal stays as dealt (R1): seed keeps five-up's 5 tiles each; points are in pips.
    assert other.options.hand_size == 5 and other.options.points == "pips"
    assert other.options.goal == 250  # five-up's default 61 gave way to seed's default


def test_rescoring_under_muggins_refuses_the_first_play_on_up():
    found = rescore(
        Options.make(["Ana", "Ben"], preset="five-up"), _example_h_log(), spinner="none"
    )
    assert found.other.refusal.code == "no_spinner"
    assert "play of 4-1 on the up end in hand 1, move 4" in found.ending(found.other)


def test_rescoring_five_up_as_points_in_pips_keeps_every_play_and_scales_the_scores():
    played = Options.make(["Ana", "Ben"], preset="five-up")
    found = rescore(played, _example_h_log(), points="pips")
    assert found.other.refusal is None
    assert found.played.scores == (5, 2)
    assert found.other.state.scores == (25, 10)


@pytest.mark.parametrize("name", ["spinner", "doubles", "rounding", "floor", "points", "reserve"])
def test_every_house_rule_but_the_deal_may_be_disputed(name):
    from webapp.rules.options import SPECS

    spec = SPECS[name]
    value = spec.values[-1]
    other = changed(Options.make(NAMES), **{name: value})
    assert other.value(name) == value
