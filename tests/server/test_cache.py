"""The one cache of games' pieces: what a long game costs in it, and its budget in bytes."""

from __future__ import annotations

import pickle
import random
import tracemalloc

import pytest
from flask import Flask

from tests.conftest import AppMaker
from tests.scripts import scripted_actions
from webapp.config import StartupError
from webapp.game.more import _log
from webapp.rules import Options
from webapp.store import Store
from webapp.web.game import Table

BUDGET = 100 * 1024  # bytes a game of 1,000 actions may hold in the cache


def long_game(store: Store, actions: int = 1_000, seed: int = 1) -> str:
    snapshot = store.create(Options.make(["Ana", "Ben", "Cy"], target=10_000))
    for action in scripted_actions(random.Random(seed), 3, actions):
        snapshot, _ = store.apply(snapshot.id, snapshot.seq, action)
    return snapshot.id


def held(store: Store, game_id: str) -> int:
    """The bytes the cache's pieces of the game take, as tracemalloc counts a copy of them
    (shared parts, such as the rules object all of a game's pieces refer to, once)."""
    pieces = [piece.value for (game, _), piece in store.cache._pieces.items() if game == game_id]
    assert pieces, "nothing kept"
    data = pickle.dumps(pieces)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        copy = pickle.loads(data)
        found = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    del copy
    return found


def test_a_game_of_a_thousand_actions_holds_under_100_kib_in_the_cache(app: Flask) -> None:
    store: Store = app.extensions["allfives_store"]
    game_id = long_game(store)
    measured = held(store, game_id)
    print(f"\n1,000 actions, as the store keeps them: {measured:,} bytes (tracemalloc)")
    assert measured < BUDGET
    # The cache's own estimate, which its budget counts, is within a factor of two of it.
    assert measured / 2 < store.cache.footprint(game_id) < measured * 2
    # Its game screen, with the More sheet's log and audits, adds their pieces.
    client = app.test_client()
    assert client.get(f"/g/{game_id}").status_code == 200
    served = held(store, game_id)
    print(f"1,000 actions, once its game screen is served: {served:,} bytes (tracemalloc)")
    assert served < BUDGET
    assert served / 2 < store.cache.footprint(game_id) < served * 2


def test_the_cache_lets_the_least_recently_used_games_go_past_its_budget(
    make_app: AppMaker,
) -> None:
    store: Store = make_app(CACHE_BYTES="300000").extensions["allfives_store"]
    games = [long_game(store, 300, seed) for seed in range(8)]
    total = sum(store.cache.footprint(game_id) for game_id in games)
    assert total <= 300_000
    assert store.cache.footprint(games[-1]) > 0  # the last one played is kept
    assert store.cache.footprint(games[0]) == 0  # the first went
    first = store.get(games[0])  # and is rebuilt from its snapshot when asked for
    assert first.seq == 300 and first.state.hand_number > 5


@pytest.mark.parametrize("value", ["lots", "0", "-5", "1.5"])
def test_a_cache_budget_that_is_no_size_stops_the_start_with_a_sentence(
    make_app: AppMaker, value: str
) -> None:
    with pytest.raises(StartupError, match="ALLFIVES_CACHE_BYTES must be a whole number"):
        make_app(CACHE_BYTES=value)


def test_the_game_log_after_a_restart_lists_the_last_two_hands_as_before(
    make_app: AppMaker,
) -> None:
    first = make_app()
    game_id = long_game(first.extensions["allfives_store"], 400)
    with first.app_context():
        warm = _log(Table(game_id, viewer=False))
    first.extensions["allfives_store"].close()
    second = make_app()  # holds the current hand only, from its snapshot
    store: Store = second.extensions["allfives_store"]
    with second.app_context():
        snapshot = store.get(game_id)
        assert len(snapshot.book.states) == len(snapshot.state.hand.moves) + 1
        assert _log(Table(game_id, viewer=False)) == warm
    assert [bool(hand.entries) for hand in warm][:3] == [True, True, False]
