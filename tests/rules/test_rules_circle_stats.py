"""A circle's statistics (rules/circle_stats.py) over whole games played at random through the
rules, with undos and corrections, in partnerships and under each preset, equal a count written
here from each game's final state (R12–R16: the scores; R2: a partnership's win is both
partners'), not from the statistics' own code."""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.web.golden_games import random_game
from webapp.rules import Options, Play, StartHand, Tile, Undo
from webapp.rules.circle_stats import (
    GameSummary,
    PlayedGame,
    circle_stats,
    game_summary,
    person_key,
)
from webapp.rules.history import hands
from webapp.rules.progress import Status
from webapp.rules.scorebook import Scorebook

PEOPLE = {"Ana": 1, "Ben": 2, "Cy": 3, "Di": 4, "Eve": 5}
TABLES = [
    (["Ana", "Ben", "Cy", "Di"], True, "seed"),
    (["Ben", "Cy", "Ana"], False, "pagat"),
    (["Di", "Eve"], False, "muggins"),
    (["Eve", "Ana", "Ben", "Cy"], True, "five-up"),
    (["Cy", "Di", "Eve"], False, "seed"),
    (["Ana", "Eve"], False, "pagat"),
]


def played_games() -> list[tuple[Options, list[Any]]]:
    games = []
    for seed, (players, partnership, preset) in enumerate(TABLES):
        target = 31 if preset == "five-up" else 41
        options = Options.make(players, partnership, preset, target=target)
        games.append((options, random_game(options, seed + 3, 800)))
    return games


def independent_count(games: list[tuple[Options, list[Any]]]) -> dict[str, dict[str, int]]:
    """Each person's figures, counted from each game's final state and hands."""
    count: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for options, log in games:
        state = Scorebook.replay(options, log).state
        if state.status is not Status.GAME_OVER:
            continue
        played = hands(options, log)
        totals = [(0,) * options.side_count, *(r.scores for r in state.results)]
        if (
            state.hand is not None
            and state.results
            and state.results[-1].number != state.hand.number
        ) or (state.hand is not None and not state.results):
            totals.append(state.scores)
        for seat, name in enumerate(options.players):
            side = seat % 2 if options.partnership else seat
            mine = count[name]
            mine["games"] += 1
            mine["wins"] += 1 if side in state.winners else 0
            mine["points"] += state.scores[side]
            mine["hands"] += len(played)
            in_a_hand = [after[side] - before[side] for before, after in pairwise(totals)]
            mine["best_hand"] = max(mine["best_hand"], *in_a_hand, 0)
            counts = [m.points for h in played for m in h.moves if m.seat == seat and m.tile]
            mine["top_count"] = max(mine["top_count"], *counts, 0)
            mine["went_out"] += sum(1 for r in state.results if r.went_out == seat)
    return count


def test_a_circles_statistics_equal_an_independent_count_of_its_games() -> None:
    games = played_games()
    assert sum(Scorebook.replay(o, log).state.status is Status.GAME_OVER for o, log in games) >= 5
    assert any(isinstance(action, Undo) for _, log in games for action in log)
    summaries = [
        PlayedGame(
            game_summary(options, log), tuple(PEOPLE[n] for n in options.players), f"d{i:02}"
        )
        for i, (options, log) in enumerate(games)
    ]
    stats = circle_stats(summaries, {number: name for name, number in PEOPLE.items()})
    expected = independent_count(games)
    for person in stats.people:
        mine = expected[person.name]
        found = {
            "games": person.games,
            "wins": person.wins,
            "points": person.points,
            "hands": person.hands,
            "best_hand": person.best_hand,
            "top_count": person.top_count,
            "went_out": person.went_out,
        }
        assert found == {key: mine[key] for key in found}, person.name
        assert person.win_rate == pytest.approx(mine["wins"] / mine["games"])
        assert person.wins_over_time[-1] == person.wins
    assert [p.wins for p in stats.people] == sorted((p.wins for p in stats.people), reverse=True)
    assert stats.meetings
    for m in stats.meetings:  # head to head always adds up to the games played against each other
        assert m.first_ahead + m.second_ahead + m.tied == m.games


def test_a_partnership_win_counts_for_both_partners_and_head_to_head_only_across_the_table() -> (
    None
):
    options = Options.make(["Ana", "Ben", "Cy", "Di"], True, target=10)
    log = [StartHand(0), Play(Tile(5, 5))]  # Ana leads 5-5: 10, Ana & Cy win (R2, R15)
    summary = game_summary(options, log)
    stats = circle_stats([PlayedGame(summary, (1, 2, 3, 4), "2026-12-01")], {})
    wins = {p.name: p.wins for p in stats.people}
    assert wins == {"Ana": 1, "Cy": 1, "Ben": 0, "Di": 0}
    assert {p.name: p.points for p in stats.people} == {"Ana": 10, "Cy": 10, "Ben": 0, "Di": 0}
    pairs = {
        (m.first, m.second): (m.games, m.first_ahead, m.second_ahead, m.tied)
        for m in stats.meetings
    }
    assert (1, 3) not in pairs and (2, 4) not in pairs  # partners never meet
    assert pairs[(1, 2)] == (1, 1, 0, 0) and pairs[(2, 3)] == (1, 0, 1, 0)


def summary_of(players: tuple[str, ...], finals: tuple[int, ...]) -> GameSummary:
    """A finished game without partners, won by the highest of ``finals``."""
    seats = len(players)
    return GameSummary(
        players=players,
        sides=tuple(range(seats)),
        finals=finals,
        winners=(finals.index(max(finals)),),
        over=True,
        hands=1,
        best_hand=finals,
        top_count=(0,) * seats,
        went_out=(0,) * seats,
        preset="seed",
        partnership=False,
    )


def test_head_to_head_counts_who_finished_ahead_of_whom_and_adds_up_to_their_games() -> None:
    """Cy wins two of the three games Ana and Ben play against each other: between the two,
    Ana finished ahead once (5 to 0), they finished level once (0 to 0) and Ben ahead once
    (10 to 3, his win), so the three figures add up to the three games."""
    games = [
        PlayedGame(summary_of(("Ana", "Ben", "Cy"), (5, 0, 20)), (1, 2, 3), "2026-12-01"),
        PlayedGame(summary_of(("Ana", "Ben", "Cy"), (0, 0, 20)), (1, 2, 3), "2026-12-02"),
        PlayedGame(summary_of(("Ana", "Ben"), (3, 10)), (1, 2), "2026-12-03"),
    ]
    stats = circle_stats(games, {1: "Ana", 2: "Ben", 3: "Cy"})
    pairs = {
        (m.first, m.second): (m.games, m.first_ahead, m.second_ahead, m.tied)
        for m in stats.meetings
    }
    assert pairs == {(1, 2): (3, 1, 1, 1), (1, 3): (2, 0, 2, 0), (2, 3): (2, 0, 2, 0)}


def test_an_undone_play_and_a_game_still_played_count_for_nothing() -> None:
    options = Options.make(["Ana", "Ben"], target=10)
    undone = game_summary(options, [StartHand(0), Play(Tile(5, 5)), Undo(), Play(Tile(3, 2))])
    assert not undone.over and undone.top_count == (5, 0)
    stats = circle_stats([PlayedGame(undone, (1, 2), "2026-12-01")], {1: "Ana", 2: "Ben"})
    assert stats.finished == 0 and stats.people == ()  # nobody stands without a game counted


def test_a_person_whose_games_left_the_circle_is_not_in_its_standings() -> None:
    """Dee's only game went to another circle: she stays a name of this one, standing nowhere
    (R15: Ana's 5-5 reaches the target of 10)."""
    won = game_summary(Options.make(["Ana", "Ben"], target=10), [StartHand(0), Play(Tile(5, 5))])
    names = {1: "Ana", 2: "Ben", 3: "Dee"}
    stats = circle_stats([PlayedGame(won, (1, 2), "2026-12-01")], names)
    assert [(p.name, p.games, p.wins) for p in stats.people] == [("Ana", 1, 1), ("Ben", 1, 0)]


def test_a_summary_is_kept_and_read_back_and_a_damaged_one_is_refused() -> None:
    options = Options.make(["Ana", "Ben", "Cy"], preset="pagat")
    log = [StartHand(0), Play(Tile(5, 5)), Play(Tile(5, 0))]
    summary = game_summary(options, log)
    assert GameSummary.from_dict(summary.to_dict()) == summary
    for damaged in (
        {},
        {**summary.to_dict(), "format": "summary/0"},
        {**summary.to_dict(), "finals": None},
    ):
        with pytest.raises(ValueError):
            GameSummary.from_dict(damaged)
    assert summary.went_out == (0, 0, 0) and summary.hands == 1
    assert summary.preset == "pagat" and summary.finals[0] == summary.best_hand[0] > 0


@pytest.mark.parametrize(
    ("typed", "same"),
    [("  Cy ", "cy"), ("JOSE\u0301", "José"), ("Anne  Marie", "anne marie"), ("Straße", "STRASSE")],
)
def test_people_are_told_apart_by_their_name_in_one_spelling(typed: str, same: str) -> None:
    assert person_key(typed) == person_key(same)
    assert person_key("Cy") != person_key("Cyrus")


@given(st.text(max_size=40))
def test_a_name_in_its_one_spelling_is_already_in_it(name: str) -> None:
    assert person_key(person_key(name)) == person_key(name)
    assert person_key(f"  {name} ") == person_key(name)
