"""Fixing an earlier move of the current hand (``Correct``): the later moves that still fit
stay, the first that no longer fits stops the fold and says why (R5, R6, R7, R11, R12).

The hands here are three players (R1: 7 tiles each, 7 in the boneyard), no doubles, so each
count is simply the two open ends (R11).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_table import Table

from tests.conftest import examples
from webapp.rules import (
    DOUBLE_SIX,
    Arm,
    Correct,
    Draw,
    GameState,
    IllegalAction,
    Options,
    Pass,
    Play,
    RuleError,
    StartHand,
    Status,
    Tile,
    Undo,
    from_dict,
    to_dict,
)
from webapp.rules.audit import audit
from webapp.rules.correction import entered
from webapp.rules.history import in_effect, replay
from webapp.rules.scorebook import Scorebook

T = Tile.parse
LEFT, RIGHT = Arm.LEFT, Arm.RIGHT
THREE = Options.make(["Ana", "Ben", "Cy"])

# Ana leads 6-4 (count 10, +10); the rest counts 7, 1, 2, 3 and 5 (+5 for Cy).
KEPT_HAND = [
    Play(T("6-4")),
    Play(T("4-1"), RIGHT),
    Play(T("6-0"), LEFT),  # move 3: really 6-5
    Play(T("1-2"), RIGHT),
    Play(T("2-3"), RIGHT),
    Play(T("3-5"), RIGHT),
]
# The same start; move 5 (Ben's 0-3 on the left) needs the 0 that move 3 left open.
STOPPED_HAND = [
    Play(T("6-4")),
    Play(T("4-1"), RIGHT),
    Play(T("6-0"), LEFT),  # move 3: really 6-5
    Play(T("1-2"), RIGHT),
    Play(T("0-3"), LEFT),
    Play(T("2-5"), RIGHT),
]


def played(actions: list[Play | Draw | Pass], options: Options = THREE) -> GameState:
    state = GameState.new(options).apply(StartHand(0))[0]
    for action in actions:
        state = state.apply(action)[0]
    return state


def tiles_of(state: GameState) -> list[str]:
    assert state.hand is not None
    return [str(move.tile) if move.kind == "play" else move.kind for move in state.hand.moves]


# --- the later moves still fit ------------------------------------------------------------------


def test_fixing_a_tile_three_moves_back_keeps_the_later_moves_and_recounts_them_R11() -> None:
    before = played(KEPT_HAND)
    assert before.scores == (10, 0, 5)  # Cy's 3-5 made 0 + 5

    after, outcome = before.apply(Correct(3, (Play(T("6-5"), LEFT),)))

    # Left shows 5 from move 3 on: counts 6, 7, 8 and then 5 + 5 = 10 for Cy's 3-5.
    assert tiles_of(after) == ["6-4", "4-1", "6-5", "1-2", "2-3", "3-5"]
    assert after.scores == (10, 0, 10)
    assert after.hand is not None and after.hand.layout.count == 10
    assert after.turn == 0 and after.status is Status.PLAYING
    assert outcome.kind == "correct" and outcome.count == 10
    assert outcome.message == (
        "Fixed move 3: Cy played 6-5 on the left end, not 6-0; moves 4–6 kept"
    )
    assert outcome.fixed is not None
    assert (outcome.fixed.kept, outcome.fixed.dropped, outcome.fixed.stopped) == (3, (), None)
    assert after.done == outcome.message


def test_fixing_which_end_a_tile_went_on_moves_it_there_R5() -> None:
    before = played([*KEPT_HAND[:2], Play(T("6-1"), LEFT)])  # 6-1 fits both the 6 and the 1
    after, outcome = before.apply(Correct(3, (Play(T("6-1"), RIGHT),)))
    assert before.hand is not None and after.hand is not None
    assert dict(before.hand.layout.open_ends) == {LEFT: 1, RIGHT: 1}
    assert dict(after.hand.layout.open_ends) == {LEFT: 6, RIGHT: 6}
    assert outcome.message == "Fixed move 3: Cy played 6-1 on the right end, not on the left end"


def test_fixing_the_number_of_tiles_drawn_changes_the_hand_and_the_boneyard_R6() -> None:
    before = played([Play(T("6-4")), Draw(1), Play(T("4-1"), RIGHT)])
    assert before.hand is not None and before.hand.held == (6, 7, 7)
    after, outcome = before.apply(Correct(2, (Draw(3),)))
    assert after.hand is not None
    assert (after.hand.held, after.hand.boneyard) == ((6, 9, 7), 4)
    assert outcome.message == "Fixed move 2: Ben drew 3 tiles, not 1; move 3 kept"


def test_a_move_that_never_happened_is_removed_and_the_turn_follows_R5() -> None:
    before = played([Play(T("6-4")), Draw(1), Play(T("4-1"), RIGHT)])
    after, outcome = before.apply(Correct(2, ()))
    assert after.hand is not None
    # Ben's draw is gone; his 4-1 is still his, and Cy is to play.
    assert [(m.kind, m.seat) for m in after.hand.moves] == [("play", 0), ("play", 1)]
    assert after.hand.boneyard == 7 and after.turn == 2
    assert outcome.message == "Removed move 2 (Ben drew a tile); move 3 kept"


def test_it_was_the_next_player_a_pass_then_the_play_moves_the_later_turns_on_R7() -> None:
    # Two players: Ben draws the whole boneyard (10 tiles, R1), so passing is allowed (R7).
    two = Options.make(["Ana", "Ben"])
    # Ben's ten tiles at once are the table's word (R7a: a tile should have fitted sooner).
    moves = [Play(T("6-4")), Draw(10, confirm=True), Play(T("4-1"), RIGHT), Play(T("6-3"), LEFT)]
    before = played(moves, two)
    after, outcome = before.apply(Correct(3, (Pass(), Play(T("4-1"), RIGHT))))
    assert after.hand is not None
    # Ben passed, Ana played 4-1, and the 6-3 entered next was Ben's.
    seats = [(m.kind, m.seat) for m in after.hand.moves]
    assert seats == [("play", 0), ("draw", 1), ("pass", 1), ("play", 0), ("play", 1)]
    assert after.hand.held == (7, 18)
    assert outcome.message == (
        "Fixed move 3: Ben passed; then Ana played 4-1 on the right end "
        "(entered as: Ben played 4-1 on the right end); move 4 kept, the turns moved on "
        "(move 4 is now Ben's)"
    )


# --- a later move no longer fits ----------------------------------------------------------------


def test_the_first_later_move_that_no_longer_fits_stops_the_fold_and_says_why_R5() -> None:
    before = played(STOPPED_HAND)
    assert before.scores == (10, 5, 0)  # Ben's 0-3 made 3 + 2 = 5

    after, outcome = before.apply(Correct(3, (Play(T("6-5"), LEFT),)))

    # Moves 1–4 stand (Ana's 1-2 still fits the right end); Ben's 0-3 and all after are gone.
    assert tiles_of(after) == ["6-4", "4-1", "6-5", "1-2"]
    assert after.scores == (10, 0, 0)
    assert after.turn == 1  # Ben, whose play no longer fits, is to play again
    assert after.hand is not None and after.hand.held == (5, 6, 6)
    fixed = outcome.fixed
    assert fixed is not None and fixed.kept == 1 and fixed.stopped == 5
    assert [str(m.tile) for m in fixed.dropped] == ["0-3", "2-5"]
    assert fixed.refusal is not None
    assert (fixed.refusal.code, fixed.refusal.rule) == ("no_match", "R5")
    assert outcome.message == (
        "Fixed move 3: Cy played 6-5 on the left end, not 6-0; move 4 kept; "
        "move 5 (Ben played 3-0 on the left end) no longer fits: the left end shows 5, "
        "and 0-3 has no 5 — moves from there on taken back (R5)"
    )


def test_fixing_away_the_last_play_of_a_hand_that_went_out_reopens_the_hand_R12() -> None:
    seed = next(n for n in range(50) if _random_hand(n, 60).status is Status.HAND_OVER)
    state = _random_hand(seed, 60)
    assert state.hand is not None and state.hand.went_out is not None
    out, last = state.hand.went_out, len(state.hand.moves)
    after, outcome = state.apply(Correct(last, ()))
    assert after.status is Status.PLAYING and after.hand is not None
    assert (after.hand.end, after.hand.went_out, after.turn) == (None, None, out)
    assert after.hand.held[out] == 1
    assert outcome.next == f"{THREE.players[out]} to play"


# --- refused corrections change nothing ---------------------------------------------------------


@pytest.mark.parametrize(
    ("fix", "code", "rule", "message"),
    [
        (
            Correct(3, (Play(T("1-2"), LEFT),)),
            "no_match",
            "R5",
            "move 3 cannot be fixed that way: the left end shows 6, and 1-2 has no 6",
        ),
        (
            Correct(3, (Play(T("4-1"), LEFT),)),
            "already_played",
            "R1",
            "move 3 cannot be fixed that way: 4-1 was already played",
        ),
        (
            Correct(3, (Pass(),)),
            "must_draw",
            "R7",
            "move 3 cannot be fixed that way: the boneyard still has 7 tiles, so Cy must draw, "
            "not pass",
        ),
        (
            Correct(1, (Draw(1),)),
            "lead_first",
            "R4",
            "move 1 cannot be fixed that way: Ana leads, and any tile can be led: nobody draws "
            "(R4)",
        ),
        (Correct(7, ()), "bad_entry", None, "hand 1 has 6 moves: there is no move 7 to fix"),
    ],
    ids=["R5-no-fit", "R1-already-played", "R7-pass-with-boneyard", "R4-draw-for-a-lead", "input"],
)
def test_a_correction_the_rules_refuse_changes_nothing(
    fix: Correct, code: str, rule: str | None, message: str
) -> None:
    before = played(KEPT_HAND)
    with pytest.raises(IllegalAction) as refused:
        before.apply(fix)
    assert (refused.value.code, refused.value.rule, refused.value.message) == (code, rule, message)
    assert before == played(KEPT_HAND)


def test_only_the_hand_being_played_can_be_fixed_R12() -> None:
    with pytest.raises(IllegalAction, match="no hand has been played yet") as refused:
        GameState.new(THREE).apply(Correct(1, ()))
    assert refused.value.code == "no_hand_to_fix"
    table = Table.of("Ana", "Ben", "Cy")
    table.start_shuffled(random.Random(3), leader=0)
    table.play_out(random.Random(3))
    table.settle()
    with pytest.raises(IllegalAction, match="undo the settlement first"):
        table.state.apply(Correct(1, ()))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "correct", "with": []}, "say which move to fix: its number, 1 to 200"),
        ({"type": "correct", "entry": True}, "say which move to fix: its number, 1 to 200"),
        ({"type": "correct", "entry": 10**9}, "say which move to fix: its number, 1 to 200"),
        ({"type": "correct", "entry": 2, "with": {"type": "pass"}}, "a list of at most 8"),
        ({"type": "correct", "entry": 2, "with": [{"type": "undo"}]}, "not 'undo'"),
        (
            {"type": "correct", "entry": 2, "with": [{"type": "correct", "entry": 1}]},
            "fix a move with plays, draws and passes, not 'correct'",
        ),
        ({"type": "correct", "entry": 2, "with": [{"type": "pass"}] * 9}, "at most 8 actions"),
    ],
)
def test_a_malformed_correction_is_refused_with_a_sentence(data: dict, message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        from_dict(data)


# --- undo, the log and the replay --------------------------------------------------------------


def test_undoing_a_correction_brings_back_the_hand_as_it_was() -> None:
    before = played(STOPPED_HAND)
    fixed, _ = Scorebook((before,)).apply(Correct(3, (Play(T("6-5"), LEFT),)))
    back, outcome = fixed.apply(Undo())
    back = back.state
    assert back == before and tiles_of(back) == [str(a.tile) for a in STOPPED_HAND]
    assert outcome.message.startswith("Undone: Fixed move 3: Cy played 6-5")


def test_a_correction_round_trips_through_its_stored_form_and_the_log_replays_as_corrected() -> (
    None
):
    fix = Correct(3, (Pass(), Play(T("6-5"), LEFT), Draw(2)))
    stored = to_dict(fix)
    assert stored == {
        "type": "correct",
        "entry": 3,
        "with": [
            {"type": "pass"},
            {"type": "play", "tile": "6-5", "end": "left"},
            {"type": "draw", "count": 2},
        ],
    }
    assert from_dict(stored) == fix

    log = [StartHand(0), *STOPPED_HAND, Correct(3, (Play(T("6-5"), LEFT),))]
    state = played(STOPPED_HAND).apply(log[-1])[0]
    assert GameState.replay(THREE, [from_dict(to_dict(a)) for a in log]) == state
    history = replay(THREE, log)
    (hand,) = history.hands
    assert [str(m.tile) for m in hand.hand.moves] == ["6-4", "4-1", "6-5", "1-2"]
    assert [fix.entry for fix in hand.fixes] == [3]
    assert hand.scores_at(4, THREE) == (10, 0, 0)
    # An undo cancels the correction, and only it (R12's hand as entered comes back).
    undone = [*log, Undo()]
    assert in_effect(undone) == [StartHand(0), *STOPPED_HAND]
    assert replay(THREE, undone).hands[0].fixes == ()


def test_a_corrected_hand_rescored_under_other_rules_is_rescored_as_corrected_R13p() -> None:
    log = [StartHand(0), *STOPPED_HAND, Correct(3, (Play(T("6-5"), LEFT),))]
    pagat = Options.make(["Ana", "Ben", "Cy"], preset="pagat")
    (hand,) = replay(pagat, log).hands
    assert [str(m.tile) for m in hand.hand.moves] == ["6-4", "4-1", "6-5", "1-2"]
    assert hand.scores_at(4, pagat) == (10, 0, 0)


def test_the_audit_of_a_corrected_hand_reads_the_corrected_moves_R6() -> None:
    # Ben drew one tile at move 2, then played 4-1 and 4-2, which both fitted the 4 showing
    # then: one drawn tile cannot explain two, a certain breach of R6 (by counting) — until the
    # table fixes the draw: he drew two.
    moves = [Play(T("6-4")), Draw(1), Play(T("4-1"), RIGHT), Play(T("6-0"), LEFT)]
    state = played([*moves, Play(T("1-2"), RIGHT), Play(T("2-4"), RIGHT)])
    assert state.hand is not None
    found = audit(state.hand, {}, THREE.players)
    assert [(b.move + 1, b.rule, b.certainty.value) for b in found.breaches] == [
        (2, "R6", "certain")
    ]
    after = state.apply(Correct(2, (Draw(2),)))[0]
    assert after.hand is not None and len(after.hand.moves) == 6
    assert audit(after.hand, {}, THREE.players).breaches == ()


# --- properties --------------------------------------------------------------------------------


def _random_hand(seed: int, steps: int) -> GameState:
    """A hand of a real table played ``steps`` moves (or until it ends), as Hypothesis picks."""
    table = Table.of("Ana", "Ben", "Cy")
    rng = random.Random(seed)
    table.start_shuffled(rng, leader=seed % 3)
    for _ in range(steps):
        if table.state.status is not Status.PLAYING:
            break
        fitting = table.fitting()
        if fitting:
            tile = rng.choice(fitting)
            table.play(tile, rng.choice(table.state.placements(tile)).arm)
        elif table.state.can_draw:
            table.draw()
        else:
            table.pass_turn()
    return table.state


REPLACEMENTS = st.one_of(
    st.builds(
        Play,
        st.sampled_from(DOUBLE_SIX),
        st.one_of(st.none(), st.sampled_from(list(Arm))),
    ),
    st.builds(Draw, st.integers(1, 3)),
    st.just(Pass()),
)


# Each example deals and plays a random hand of up to 30 moves before fixing one of them: 60% of
# the profile's examples keeps this among the quick tests.
@settings(max_examples=examples(0.6))
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 30), pick=st.integers(0, 100))
def test_fixing_a_move_with_what_was_entered_changes_nothing(
    seed: int, steps: int, pick: int
) -> None:
    state = _random_hand(seed, steps)
    assert state.hand is not None
    moves = state.hand.moves
    entry = 1 + pick % len(moves)
    after, outcome = state.apply(Correct(entry, (entered(moves[entry - 1]),)))
    assert after == state
    assert outcome.fixed is not None and outcome.fixed.dropped == ()
    assert outcome.message.startswith(f"Move {entry} already reads:")


# As above, plus up to three replacements folded and undone: 80% of the profile's examples.
@settings(max_examples=examples(0.8))
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(1, 30),
    pick=st.integers(0, 100),
    instead=st.lists(REPLACEMENTS, max_size=3),
)
def test_a_correction_keeps_the_moves_before_it_and_undo_restores_the_hand(
    seed: int, steps: int, pick: int, instead: list[Play | Draw | Pass]
) -> None:
    state = _random_hand(seed, steps)
    assert state.hand is not None
    moves = state.hand.moves
    entry = 1 + pick % len(moves)
    fix = Correct(entry, tuple(instead))
    try:
        after, outcome = state.apply(fix)
    except RuleError:
        return  # refused: states are immutable, so nothing changed
    assert after.hand is not None and outcome.fixed is not None
    fixed = outcome.fixed
    # The moves before stand as they were; the later ones kept are re-entered in order.
    assert after.hand.moves[: entry - 1] == moves[: entry - 1]
    assert len(after.hand.moves) == entry - 1 + len(fixed.now) + fixed.kept
    assert fixed.kept + len(fixed.dropped) == len(moves) - entry
    assert (fixed.refusal is None) == (not fixed.dropped)
    kept = after.hand.moves[entry - 1 + len(fixed.now) :]
    again = moves[entry : entry + fixed.kept]  # (a play may have become the lead: no end then)
    assert [(m.kind, m.tile, m.drawn) for m in kept] == [(m.kind, m.tile, m.drawn) for m in again]
    # R11: the scores are what the hand as corrected scored.
    per_seat = after.hand.scored()
    assert after.scores == per_seat
    assert from_dict(to_dict(fix)) == fix
    assert Scorebook((state,)).apply(fix)[0].apply(Undo())[0].state == state
