"""The players' housekeeping in the engine: renaming a player (a typo) and ending a game early,
each an action of the log that an undo takes back."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scripts import scripted_actions
from webapp.rules import (
    Action,
    ActionKind,
    EndGame,
    GameState,
    IllegalAction,
    Options,
    Play,
    Rename,
    RuleError,
    StartHand,
    Status,
    Tile,
    Undo,
    from_dict,
    to_dict,
)
from webapp.rules.history import replay
from webapp.rules.scorebook import Scorebook
from webapp.rules.sheet import score_sheet

T = Tile.parse
OPTIONS = Options.make(["Ana", "Ben", "Cy"])


def played(*actions: object) -> Scorebook:
    return Scorebook.replay(OPTIONS, [StartHand(0), *actions])  # type: ignore[list-item]


# --- renaming ---------------------------------------------------------------------------------


def test_a_rename_changes_the_name_everywhere_the_state_says_it() -> None:
    book = played(Play(T("5-5")))
    book, outcome = book.apply(Rename(0, "Anabel"))
    state = book.state
    assert outcome.kind is ActionKind.RENAME
    assert outcome.message == "Ana renamed to Anabel"
    assert state.options.players == ("Anabel", "Ben", "Cy")
    assert state.scores == (10, 0, 0)  # the score stays with the seat
    assert state.options.seat_named("anabel") == 0
    assert score_sheet(state).options.side_name(0) == "Anabel"
    book, _ = book.apply(Play(T("5-0"), None))
    assert book.state.done.startswith("Ben played 5-0")


def test_a_rename_round_trips_through_the_log() -> None:
    rename = Rename(2, "Cyrus")
    assert to_dict(rename) == {"type": "rename", "seat": 2, "name": "Cyrus"}
    assert from_dict(to_dict(rename)) == rename
    assert from_dict(to_dict(EndGame())) == EndGame()


def test_undo_right_after_a_rename_takes_it_back() -> None:
    book, _ = played(Play(T("5-5"))).apply(Rename(2, "Cyrus"))
    book, outcome = book.apply(Undo())
    assert outcome.message == "Undone: Cy renamed to Cyrus"
    assert book.state.options.players == ("Ana", "Ben", "Cy")
    assert book.state.scores == (10, 0, 0)


def test_a_rename_before_the_first_hand_can_be_undone() -> None:
    book = Scorebook.new(OPTIONS)
    assert not book.state.can_undo
    book, _ = book.apply(Rename(1, "Benny"))
    assert book.state.can_undo
    log = [Rename(1, "Benny")]
    book, _ = book.apply(Undo(), lambda undo: Scorebook.replay(OPTIONS, [*log, *undo]))
    assert book.state.options.players == ("Ana", "Ben", "Cy")
    assert not book.state.can_undo


@pytest.mark.parametrize(
    ("seat", "name", "code"),
    [
        (0, "", "player_name"),
        (0, "   ", "player_name"),
        (0, "x" * 31, "player_name"),
        (0, "Ana\x07", "player_name"),
        (0, "BEN", "duplicate_name"),  # any case (R2)
        (0, " ben ", "duplicate_name"),
        (0, "Ana", "same_name"),
        (5, "Eve", "bad_seat"),
    ],
)
def test_a_bad_name_is_refused_and_changes_nothing(seat: int, name: str, code: str) -> None:
    book = played(Play(T("5-5")))
    with pytest.raises(RuleError) as refused:
        book.apply(Rename(seat, name))
    assert refused.value.code == code
    assert str(refused.value)
    assert book.state.options.players == ("Ana", "Ben", "Cy")


def test_names_are_the_same_in_any_unicode_form() -> None:
    options = Options.make(["Zoë", "Ben"])  # composed ë
    book = Scorebook.replay(options, [StartHand(0)])
    with pytest.raises(IllegalAction, match="already plays"):
        book.apply(Rename(1, "ZOE\u0308"))  # decomposed, other case
    book, _ = book.apply(Rename(1, "Zoe"))  # no diaeresis: another name
    assert book.state.options.players == ("Zoë", "Zoe")


def test_a_case_only_rename_is_a_change() -> None:
    book, _ = played().apply(Rename(2, "CY"))
    assert book.state.options.players[2] == "CY"


def test_no_rename_once_the_game_is_over() -> None:
    book, _ = played(Play(T("5-5"))).apply(EndGame())
    with pytest.raises(IllegalAction) as refused:
        book.apply(Rename(0, "Anabel"))
    assert refused.value.code == "game_over"


def test_a_replay_from_the_first_names_says_who_was_renamed() -> None:
    """The game log and the replays fold the whole log from the names the game began with."""
    log = [StartHand(0), Play(T("5-5")), Rename(2, "Cyrus"), Play(T("5-0"), None)]
    history = replay(OPTIONS, log)
    assert history.options.players == ("Ana", "Ben", "Cyrus")
    book = Scorebook.replay(OPTIONS, log)
    said = [state.done for state in book.states[2:]]
    assert said[0] == "Cy renamed to Cyrus" and said[1].startswith("Ben played 5-0")


def test_a_hand_start_kept_as_data_keeps_the_names_then() -> None:
    book = Scorebook.replay(OPTIONS, [StartHand(0), Rename(2, "Cyrus"), Undo(), Rename(1, "B")])
    book, _ = book.apply(Play(T("6-6")))
    state = GameState.new(OPTIONS)
    state = book.state
    # a settled hand later, the next start's snapshot holds "B"
    dealt = state.dealt_again()
    kept = GameState.from_dict(OPTIONS, dealt.to_dict())
    assert kept.options.players == ("Ana", "B", "Cy")
    assert kept.renames == 1 and kept.can_undo


# --- ending a game early ----------------------------------------------------------------------


def test_ending_early_the_side_ahead_wins() -> None:
    book = played(Play(T("5-5")), Play(T("5-1"), None))
    book, outcome = book.apply(EndGame())
    state = book.state
    assert state.status is Status.GAME_OVER
    assert state.winners == (0,) and state.ended_early
    assert outcome.message == "Game ended early: Ana won with the scores as they stand"
    assert str(state.next_step()) == "Game over, ended early: Ana won"
    assert state.scores == (10, 0, 0)  # the hand in progress is not settled (as R30)


def test_ending_early_level_at_the_top_is_a_tie() -> None:
    book = played(Play(T("5-0")), Play(T("5-5"), None))
    book, _ = book.apply(Undo())
    book, _ = book.apply(EndGame())  # Ana 5, Ben 0, Cy 0: Ana wins
    assert book.state.winners == (0,)
    tied = played(Play(T("5-0")), Play(T("0-0"), None))  # Ana 5, Ben 5 (0-0 end: 5 + 0)
    tied, outcome = tied.apply(EndGame())
    assert tied.state.scores == (5, 5, 0)
    assert tied.state.winners == (0, 1)
    assert outcome.message == "Game ended early: Ana and Ben are level, a tie"
    assert str(tied.state.next_step()) == "Game over, ended early: Ana and Ben tie"


def test_undo_takes_an_early_end_back() -> None:
    book, _ = played(Play(T("5-5"))).apply(EndGame())
    book, outcome = book.apply(Undo())
    assert book.state.status is Status.PLAYING and not book.state.ended_early
    assert outcome.message.startswith("Undone: Game ended early")
    book, _ = book.apply(Play(T("5-0"), None))  # the game goes on


@pytest.mark.parametrize(
    ("log", "code"),
    [
        ([], "nothing_played"),
        ([StartHand(0), Play(T("5-5")), EndGame()], "game_over"),
    ],
)
def test_an_early_end_refused_changes_nothing(log: list[object], code: str) -> None:
    book = Scorebook.replay(OPTIONS, log)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction) as refused:
        book.apply(EndGame())
    assert refused.value.code == code
    assert book.state == Scorebook.replay(OPTIONS, log).state  # type: ignore[arg-type]


# --- renames anywhere in a real game --------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    length=st.integers(1, 120),
    where=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 3)), max_size=4),
    undone=st.booleans(),
)
def test_renames_anywhere_change_names_only(
    seed: int, players: int, length: int, where: list[tuple[float, int]], undone: bool
) -> None:
    """Renames put anywhere in a real game's log (and the last one perhaps undone) leave every
    score, hand and status as the log without them; the names are the last ones in effect, and
    a fold from a hand's start kept as data (as a fresh process does) agrees."""
    names = ["Ana", "Ben", "Cy", "Di"][:players]
    options = Options.make(names, target=10_000)
    plain = scripted_actions(random.Random(seed), players, length)
    log: list[Action] = list(plain)
    expected = list(names)
    for number, (at, seat) in enumerate(sorted(where, reverse=True)):
        seat %= players
        log.insert(int(at * len(log)), Rename(seat, f"P{number}"))
    renamed = list(names)
    book = Scorebook.new(options)
    for action in log:
        if isinstance(action, Rename):
            renamed[action.seat] = action.name
        book, _ = book.apply(action)
    expected = renamed
    if undone and any(isinstance(action, Rename) for action in log[-1:]):
        book, _ = book.apply(Undo(), lambda undo: Scorebook.replay(options, [*log, *undo]))
        expected = list(Scorebook.replay(options, log[:-1]).state.options.players)
    without = Scorebook.replay(options, plain).state
    state = book.state
    assert state.scores == without.scores and state.status == without.status
    assert state.results == without.results and state.hand == without.hand
    assert list(state.options.players) == expected
    mark = book.mark
    if mark.hand is not None and not mark.hand.moves and mark.status is Status.PLAYING:
        kept = GameState.from_dict(options, mark.to_dict())
        assert kept.options.players == mark.options.players
