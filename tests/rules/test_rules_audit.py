"""The audit of a finished hand against the tiles seen afterwards (R6, R7): certain, possible,
clean — and the replayed history it works from."""

from __future__ import annotations

import random

import pytest
from rules_table import Table, example_c, tiles

from tests.scripts import AUDITED_HAND
from webapp.rules import (
    Arm,
    Draw,
    EndHand,
    GameState,
    MoveKind,
    Options,
    Pass,
    Play,
    Report,
    StartHand,
    Status,
    Tile,
    Undo,
)
from webapp.rules.audit import Audit, Certainty, audit
from webapp.rules.history import hands, in_effect, replay

LEFT, RIGHT = Arm.LEFT, Arm.RIGHT
NAMES = ("Ana", "Ben")


def run(options: Options, *actions: object) -> GameState:
    state = GameState.new(options)
    for action in actions:
        state = state.apply(action)[0]  # type: ignore[arg-type]
    return state


def held(**by_seat: str) -> dict[int, Report]:
    """End-of-hand reports as tiles: ``held(ben="5-6 1-1 0-0")``."""
    seats = {name.casefold(): seat for seat, name in enumerate(NAMES)}
    return {seats[name]: Report.of_tiles(tiles(text)) for name, text in by_seat.items()}


# AUDITED_HAND's lead, and its plays from Ben's 4-1 on: its draw is each test's own.
LEAD, AFTER_THE_DRAW = AUDITED_HAND[:1], AUDITED_HAND[2:]


def short_hand(drawn: int) -> GameState:
    """AUDITED_HAND (tests/scripts.py), Ben drawing ``drawn`` tiles at move 2 (ends 5 and 4):
    two players, 5 tiles each; Ana goes out with her fifth tile at move 10 (R12)."""
    options = Options.make(NAMES, deal="5")
    state = run(options, StartHand(0), *LEAD.actions(), Draw(drawn), *AFTER_THE_DRAW.actions())
    assert state.status is Status.HAND_OVER and state.hand is not None
    assert state.hand.went_out == 0
    return state


def audited(state: GameState, reports: dict[int, Report]) -> Audit:
    assert state.hand is not None
    state.apply(EndHand.of(reports))  # the reports are possible (R14)
    return audit(state.hand, reports, NAMES)


# --- clean ------------------------------------------------------------------------------------


def test_clean_when_no_tile_held_at_the_end_fitted():
    state = short_hand(drawn=1)
    found = audited(state, held(ben="6-2 1-1"))
    assert found.breaches == ()
    assert (found.checked, found.known, found.unknown) == (1, (1,), ())
    assert found.summary(NAMES) == "No draw or pass broke R6 or R7 (1 draw or pass checked)."


def test_a_tile_played_right_after_drawing_accuses_no_one():
    # Ben drew one tile and played 4-1, which fitted when he drew: R6 says a drawn tile that
    # plays is played at once, so 4-1 was most likely the tile drawn.
    state = short_hand(drawn=1)
    found = audited(state, held(ben="1-1 0-0"))
    assert found.breaches == ()


def test_clean_example_c():
    table = example_c(Table.of("Ana", "Ben", "Cy"))
    found = audit(table.state.hand, table.reports().by_seat, ("Ana", "Ben", "Cy"))
    assert found.breaches == ()
    assert found.checked == 1  # Ben's draw at move 17, with 1-1 and 6-5 in hand: nothing fits


# --- certain ----------------------------------------------------------------------------------


def test_certain_a_pass_while_holding_a_tile_that_fitted():
    # Blocked at once: Ana leads 3-2, Ben draws the whole boneyard, all pass (R12). Cy still
    # holds 5-3, which fitted the left end (3) when Cy passed at move 4: nobody draws after a
    # pass (R7 allows it only with the boneyard empty), so Cy held it then.
    names = ("Ana", "Ben", "Cy")
    options = Options.make(names)
    yes = True  # Cy's pass is one the record disproves: the table confirms it (R7a)
    state = run(options, StartHand(0), Play(Tile(3, 2)), Draw(7), Pass(), Pass(confirm=yes), Pass())
    assert state.status is Status.HAND_OVER and state.hand is not None
    pool = [t for t in state.hand.unplayed if t not in tiles("5-3 1-0 1-1 4-0 6-6 5-5 6-5")]
    reports = {
        0: Report.of_tiles(pool[:6]),
        1: Report.of_tiles(pool[6:]),
        2: Report.of_tiles(tiles("5-3 1-0 1-1 4-0 6-6 5-5 6-5")),
    }
    state.apply(EndHand.of(reports))
    found = audit(state.hand, reports, names)
    cy = [b for b in found.breaches if b.seat == 2]
    assert len(cy) == 1
    (breach,) = cy
    assert (breach.move, breach.kind, breach.rule, breach.certainty) == (
        3,
        "pass",
        "R7",
        Certainty.CERTAIN,
    )
    assert [str(s.tile) for s in breach.tiles] == ["5-3"]
    assert breach.ends == ((LEFT, 3), (RIGHT, 2))
    assert breach.sentence == (
        "Cy passed at move 4 while holding 5-3, which fitted the left end (3): certain — R7"
    )


def test_certain_a_pass_then_the_same_tile_played_later_even_with_pips_only():
    # Ana leads 5-4; Ben draws the boneyard and plays 4-1; Ana passes; Ben plays 1-3; Ana plays
    # 3-0; Ben passes at move 7 (ends 5 and 0) and then plays 5-6 at move 9. After a pass nobody
    # draws, so Ben held 5-6 when he passed: certain, whatever the reports say.
    options = Options.make(NAMES, deal="5")
    state = run(
        options,
        StartHand(0),
        Play(Tile(5, 4)),
        Draw(18, confirm=True),  # 22 tiles without a 5 or 4 before the last: confirmed (R7a)
        Play(Tile(4, 1), RIGHT),
        Pass(),
        Play(Tile(1, 3), RIGHT),
        Play(Tile(3, 0), RIGHT),
        Pass(),
        Play(Tile(0, 2), RIGHT),
        Play(Tile(5, 6), LEFT),
    )
    assert state.hand is not None
    found = audit(state.hand, {}, NAMES)
    ben = [b for b in found.breaches if b.seat == 1]
    assert [(b.move, b.certainty) for b in ben] == [(6, Certainty.CERTAIN)]
    assert ben[0].tiles[0].played_at == 8
    assert ben[0].sentence.startswith(
        "Ben passed at move 7 while holding 5-6 (played at move 9), which fitted the left end (5)"
    )
    ana = [b for b in found.breaches if b.seat == 0]
    assert ana == []  # Ana's 3-0 and 0-2 fitted nothing when she passed (ends 5 and 1)


def test_certain_by_counting_one_draw_two_fitting_tiles():
    # Ben drew one tile at move 2 (ends 5, 4), played 4-1 at once, and still holds 5-6 at the
    # end: both fitted then, and one drawn tile can be only one of them.
    state = short_hand(drawn=1)
    found = audited(state, held(ben="5-6 0-0"))
    (breach,) = found.breaches
    assert (breach.move, breach.seat, breach.kind) == (1, 1, "draw")
    assert breach.kind is MoveKind.DRAW  # the move's own kind, not a string of its own
    assert breach.certainty is Certainty.CERTAIN
    assert breach.rule == "R6"
    assert {str(s.tile) for s in breach.tiles} == {"4-1", "5-6"}
    assert not any(s.certain for s in breach.tiles)  # neither tile alone is certain
    assert "Only 1 tile was drawn in between" in breach.sentence
    assert found.summary(NAMES) == "1 certain breach of R6 or R7."


def test_certain_example_c_when_ben_still_holds_3_0():
    table = example_c(Table.of("Ana", "Ben", "Cy"))
    reports = {1: Report.of_tiles(tiles("3-0 6-5")), 2: Report.of_tiles(tiles("3-4"))}
    found = audit(table.state.hand, reports, ("Ana", "Ben", "Cy"))
    (breach,) = found.breaches
    assert (breach.move + 1, breach.certainty) == (17, Certainty.CERTAIN)
    assert breach.sentence.startswith("Ben drew at move 17 while holding 4-5 or 3-0")


# --- possible ---------------------------------------------------------------------------------


def test_possible_when_the_draws_could_have_brought_every_fitting_tile():
    # Ben drew 2 tiles at move 2: they may have been 4-1 and 5-6 both.
    state = short_hand(drawn=2)
    found = audited(state, held(ben="5-6 0-0 1-1"))
    (breach,) = found.breaches
    assert breach.certainty is Certainty.POSSIBLE
    assert [(str(s.tile), s.played_at, s.draws) for s in breach.tiles] == [("5-6", None, (1,))]
    assert breach.sentence == (
        "Ben drew 2 tiles at move 2 and held 5-6 at the end, which fitted the left end (5) then"
        " — but Ben may have drawn it at move 2: possible — R6"
    )
    assert found.summary(NAMES) == "1 possible breach of R6 or R7."


def test_possible_lists_every_later_draw():
    # Two draws in a row at moves 2 and 3 (ends 5 and 4), then 4-1 played; 5-6 held at the end.
    # At move 3 one tile was drawn for two fitting tiles: certain. At move 2 both draws may
    # explain them: only possible, and the sentence names both draws.
    options = Options.make(NAMES, deal="5")
    state = run(options, StartHand(0), *LEAD.actions(), Draw(), Draw(), *AFTER_THE_DRAW.actions())
    found = audited(state, held(ben="5-6 0-0 1-1"))
    assert [(b.move, b.certainty) for b in found.breaches] == [
        (1, Certainty.POSSIBLE),
        (2, Certainty.CERTAIN),
    ]
    assert "may have drawn it at moves 2 or 3" in found.breaches[0].sentence


def test_tiles_reported_as_pips_are_unknown():
    state = short_hand(drawn=2)
    found = audited(state, {1: Report(12)})
    assert found.breaches == ()
    assert found.unknown == (1,)
    assert "Ben: tiles at the end entered as pips" in found.summary(NAMES)


def test_a_hand_without_draws_or_passes_has_nothing_to_check():
    state = run(Options.make(NAMES), StartHand(0), Play(Tile(5, 5)))
    assert state.hand is not None
    found = audit(state.hand, {}, NAMES)
    assert (found.checked, found.breaches) == (0, ())
    assert found.summary(NAMES).startswith("Nobody drew or passed")


# --- the history the audit works from -------------------------------------------------------


def test_in_effect_cancels_undone_actions_like_the_engine():
    actions = [StartHand(0), Play(Tile(5, 5)), Play(Tile(5, 3), LEFT), Undo(), Undo()]
    assert in_effect(actions) == [StartHand(0)]
    options = Options.make(NAMES)
    assert GameState.replay(options, actions) == GameState.replay(options, in_effect(actions))


def test_history_keeps_every_hand_with_its_reports_and_result():
    table = example_c(Table.of("Ana", "Ben", "Cy"))
    table.settle()
    table.apply(StartHand())
    table.apply(Play(Tile(6, 6)))
    history = replay(table.options, [*table.actions, Undo(), Play(Tile(5, 5))])
    first, second = history.hands
    assert first.result is not None and first.reports == table.actions[21]
    assert first.scores_before == (0, 0, 0)
    assert first.scores_at(len(first.hand.moves), table.options) == (15, 0, 15)
    assert first.scores_at(6, table.options) == (0, 0, 5)  # Cy's 1-5 at move 6
    assert second.scores_before == (15, -15, 10)
    assert [str(m.tile) for m in second.hand.moves] == ["5-5"]  # 6-6 was undone
    assert second.result is None
    assert [h.number for h in hands(table.options, table.actions)] == [1, 2]


@pytest.mark.parametrize("seed", range(5))
def test_history_of_random_games_matches_the_state(seed):
    rng = random.Random(seed)
    table = Table.of("Ana", "Ben", "Cy", target=60)
    while table.state.status is not Status.GAME_OVER:
        if table.state.status is Status.AWAITING_START:
            table.start_shuffled(rng)
        elif table.state.status is Status.HAND_OVER:
            table.settle()
        else:
            table.play_out(rng)
    history = replay(table.options, table.actions)
    assert history.state == table.state
    assert [h.result for h in history.hands if h.result] == list(table.state.results)
    for played in history.hands:
        if played.reports is not None:
            honest = audit(played.hand, played.reports.by_seat, table.options.players)
            assert honest.certain == ()  # the table only draws and passes when nothing fits


# --- soundness: a table that cheats now and then ------------------------------------------------


def cheating_hand(table: Table, rng: random.Random) -> list[list[Tile]]:
    """Play a hand where players sometimes draw or pass though a tile of theirs fits; return
    each mover's real tiles just before each move."""
    before: list[list[Tile]] = []
    cheated = False  # after a cheat, an honest move may be disproved by it (R7a): confirm all
    while table.state.status is Status.PLAYING:
        seat = table.turn
        before.append(list(table.hands[seat]))
        fitting = table.fitting()
        led = table.state.hand is not None and table.state.hand.layout.lead is not None
        cheat = led and bool(fitting) and rng.random() < 0.3
        cheated = cheated or cheat
        if fitting and not cheat:
            tile = rng.choice(fitting)
            table.play(tile, rng.choice(table.state.placements(tile)).arm)
        elif table.state.can_draw:
            table.apply(Draw(confirm=cheated))
            table.hands[seat].append(table.boneyard.pop(0))
        else:
            table.apply(Pass(confirm=cheated))
    return before


@pytest.mark.parametrize("seed", range(40))
def test_certain_breaches_are_real_and_every_cheating_pass_is_caught(seed):
    rng = random.Random(seed)
    names = ("Ana", "Ben", "Cy", "Di")[: 2 + seed % 3]
    table = Table.of(*names)
    table.start_shuffled(rng, leader=0)
    before = cheating_hand(table, rng)
    hand = table.state.hand
    assert hand is not None
    found = audit(hand, table.reports().by_seat, names)
    for breach in found.breaches:
        real = before[breach.move]
        if breach.certainty is Certainty.CERTAIN:
            assert any(s.tile in real for s in breach.tiles), breach.sentence
            assert all(s.tile in real for s in breach.tiles if s.certain), breach.sentence
    flagged = {b.move for b in found.certain}
    for index, move in enumerate(hand.moves):
        cheated = any(move.before.fits(tile) for tile in before[index])
        if move.kind == "pass" and cheated:
            assert index in flagged, f"the pass at move {index + 1} was not caught"
        if index in flagged:
            assert cheated, f"move {index + 1} was honest but reported as certain"
