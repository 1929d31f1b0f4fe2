"""A long game's pages cost about what a short one's do (issue 19, item 2).

Not timed: the engine's work is counted. Every state the rules fold (``GameState.apply``) and
every hand replayed is counted while a page of a 3-hand game and of a 60-hand game is served,
each as a fresh process would serve it (nothing kept) and as it is served after a play; a
page whose work grows with the game's length fails. Any hand is replayed from the snapshot of
its start, so that replay must be the very hand the whole log replays, undos past a hand's
start and imports included; and a piece of a game missing for several requests at once is
made once.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from flask import Flask

from tests.conftest import AppMaker
from tests.scripts import scripted_actions
from tests.tables import Table, device
from webapp.rules import GameState, StartHand, Tile, Undo, recorded
from webapp.rules.history import replay
from webapp.store import Store, played_hand
from webapp.store.cache import GameCache, Part
from webapp.store.hands import REPLAYED
from webapp.store.snapshot import Snapshot


def long_game(table: Table, hands: int, seed: int = 7) -> str:
    """A game of ``hands`` real hands, the last three actions in."""
    table.create("Ana", "Ben", "Cy", target="10000")
    started, after = 0, None
    for seq, action in enumerate(scripted_actions(random.Random(seed), 3, 60 * hands + 200)):
        table.store.apply(table.game_id, seq, action)
        started += isinstance(action, StartHand)
        if started == hands and after is None:
            after = seq + 3
        if seq == after:
            return table.game_id
    raise AssertionError("the script ended first")


def whole_log(store: Store, snapshot: Snapshot) -> list[object]:
    """Every hand as the whole log replays it, from the game's start."""
    stored = store.log_since(snapshot.id, 0)[: snapshot.seq]
    actions = [recorded(action) for _, action in stored]
    return list(replay(snapshot.state.options, actions).hands)


def each_hand(store: Store, snapshot: Snapshot) -> list[object]:
    """Every hand replayed from its start's snapshot."""
    return [played_hand(store, snapshot, n) for n in range(1, snapshot.state.hand_number + 1)]


# --- any hand from its start ------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_any_hand_from_its_start_is_the_hand_the_whole_log_replays(table: Table, seed: int) -> None:
    """Undos that reach back past a hand's start (the hand dealt again, its snapshot passed
    over for the later one), then the same game exported and imported: each hand from its own
    start is the hand the whole log replays, moves, scores before it and settlement alike."""
    table.create("Ana", "Ben", "Cy", target="10000")
    store, game_id = table.store, table.game_id
    script = scripted_actions(random.Random(seed), 3, 200)
    seq = 0
    for index, action in enumerate(script):
        store.apply(game_id, seq, action)
        seq += 1
        if isinstance(action, StartHand) and index > 40 and index % 3 == seed % 3:
            for _ in range(4):  # back into the hand before: its end and settlement undone
                store.apply(game_id, seq, Undo())
                seq += 1
            for again in script[index - 3 : index + 1]:
                store.apply(game_id, seq, again)
                seq += 1
    snapshot = store.get(game_id)
    assert snapshot.state.hand_number >= 4
    store.cache.clear()
    assert each_hand(store, snapshot) == whole_log(store, snapshot)
    imported = store.import_game(store.export(game_id))
    store.cache.clear()
    assert each_hand(store, imported) == whole_log(store, imported)
    assert played_hand(store, snapshot, 0) is None
    assert played_hand(store, snapshot, snapshot.state.hand_number + 1) is None


def test_an_earlier_revision_sees_its_own_hands(table: Table) -> None:
    """A page read at an earlier revision (before a hand was undone and dealt again) replays
    the hands as they stood then."""
    long_game(table, 3)
    store = table.store
    before = store.get(table.game_id)
    hand = before.state.hand_number
    while store.get(table.game_id).state.hand_number == hand:
        store.apply(table.game_id, store.revision(table.game_id), Undo())
    leader = store.get(table.game_id).state.next_leader or 0
    store.apply(table.game_id, store.revision(table.game_id), StartHand(leader))
    after = store.get(table.game_id)
    assert each_hand(store, before) == whole_log(store, before)
    assert each_hand(store, after) == whole_log(store, after)


# --- the engine's work per page ---------------------------------------------------------------


@contextmanager
def counted() -> Iterator[dict[str, int]]:
    """The states folded by the rules (``GameState.apply``) and the hands replayed meanwhile."""
    found = {"folded": 0, "hands": 0}
    apply = GameState.apply

    def counting(self: GameState, action: object) -> object:
        found["folded"] += 1
        return apply(self, action)  # type: ignore[arg-type]

    hands = REPLAYED["hands"]
    GameState.apply = counting  # type: ignore[assignment,method-assign]
    try:
        yield found
    finally:
        GameState.apply = apply  # type: ignore[method-assign]
        found["hands"] = REPLAYED["hands"] - hands


def pages(table: Table) -> dict[str, str]:
    state = table.state
    tiles = (Tile(high, low) for high in range(7) for low in range(high + 1))
    tile = next(t for t in tiles if state.placements(t))
    return {
        "game page": table.url,
        "More": f"{table.url}/more",
        "Replay": f"{table.url}/replay/{state.hand_number}/1",
        "Replay of hand 2": f"{table.url}/replay/2/3",
        "Check": f"{table.url}/check?tile={tile}",
        "Rescore": f"{table.url}/rescore?preset=pagat",
    }


def work(table: Table, path: str, cold: bool) -> dict[str, int]:
    """The engine's work for ``path``: as a fresh process serves it (``cold``), or right
    after a play (the play undone and made again: a new revision, the pages seen before)."""
    store = table.store
    table.client.get(path)
    if cold:
        store.cache.clear()
    else:
        seq = store.revision(table.game_id)
        last = store.log_since(table.game_id, seq - 1)[0][1]
        store.apply(table.game_id, seq, Undo())
        store.apply(table.game_id, seq + 1, recorded(last))
    with counted() as found:
        response = table.client.get(path)
    assert response.status_code == 200, path
    return found


@pytest.fixture
def short_and_long(app: Flask) -> tuple[Table, Table]:
    short, long = Table(app, device(app)), Table(app, device(app))
    long_game(short, 3)
    long_game(long, 60)
    return short, long


@pytest.mark.parametrize("cold", [True, False], ids=["fresh process", "after a play"])
def test_a_page_of_a_60_hand_game_folds_about_what_a_3_hand_game_s_does(
    short_and_long: tuple[Table, Table], cold: bool
) -> None:
    """Each page of a game in its 60th hand folds at most twice what it folds in the 3rd,
    and a hand's worth more (hands differ in length): a few dozen states, where the whole
    log is some 1,500. Rescore's totals need every hand: worked out once per settlement and
    rules, its page after a play folds only the hand being played (cold, it replays the game
    once, below)."""
    short, long = short_and_long
    for page, path in pages(short).items():
        if page == "Rescore" and cold:
            continue
        few = work(short, path, cold)
        many = work(long, pages(long)[page], cold)
        assert many["folded"] <= 2 * few["folded"] + 40, (page, few, many)
        assert many["hands"] <= few["hands"] + 1, (page, few, many)


def test_a_fresh_rescore_of_a_long_game_replays_it_once_under_the_other_rules(
    short_and_long: tuple[Table, Table],
) -> None:
    """Cold, the rescore's totals replay the game under the other rules once (kept per
    settlement), however many pages of hands are then shown; the game as played is not
    replayed at all: its settled hands' results are in its state, and the hand being played
    too. Under other rules every hand's counts may change, so they fold every action once."""
    _, long = short_and_long
    actions = long.store.revision(long.game_id)
    long.store.cache.clear()
    with counted() as first:
        page = long.client.get(f"{long.url}/rescore?preset=pagat")
    assert page.status_code == 200 and "Hands 60 to 51 of 60" in page.text
    assert first["folded"] <= actions + 40, (first, actions)
    assert first["hands"] == 0  # no hand replayed from its start for the side as played
    with counted() as pages_after:
        for hand in (50, 40, 30, 20, 10):
            page = long.client.get(f"{long.url}/rescore?preset=pagat&hand={hand}")
            assert f"Hands {hand} to {hand - 9} of 60" in page.text
    assert pages_after["folded"] <= 5 * 40  # the hand being played, each time


# --- pieces made once ---------------------------------------------------------------------------


def test_eight_requests_missing_one_piece_at_once_make_it_once() -> None:
    """A single flight per piece: the first request makes it, the seven others wait for it
    and are handed the same piece; a piece of another revision is made apart."""
    cache = GameCache()
    made: list[int] = []
    inside = threading.Event()
    release = threading.Event()

    def make() -> str:
        made.append(1)
        inside.set()
        release.wait(10)
        return "replayed"

    answers: list[str] = []
    threads = [
        threading.Thread(
            target=lambda: answers.append(cache.get_or_make("g", Part.HISTORY, 5, make))
        )
        for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    assert inside.wait(10)
    release.set()
    for thread in threads:
        thread.join(10)
    assert answers == ["replayed"] * 8 and len(made) == 1
    assert cache.get_or_make("g", Part.HISTORY, 6, lambda: "later") == "later"
    assert not cache._flights  # nothing left behind


def test_a_piece_whose_making_fails_is_made_by_the_next_request() -> None:
    cache = GameCache()

    def broken() -> str:
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        cache.get_or_make("g", Part.AUDITS, 1, broken)
    assert cache.get_or_make("g", Part.AUDITS, 1, lambda: "made") == "made"
    assert not cache._flights


def test_rescores_that_replay_the_whole_game_are_limited_per_client(make_app: AppMaker) -> None:
    """A rescore under rules already worked out for the game costs a hand's replay and counts
    only as a heavy page; one under new rules replays every hand, and a client may ask for a
    few of those a minute: a script trying every target in turn is refused (429, with
    Retry-After), while the table's rescores already made are still answered."""
    app = make_app(RATELIMIT_ENABLED=True, RATE_LIMIT_REPLAY="3 per minute")
    table = Table(app, device(app))
    long_game(table, 4)
    for target in (100, 150, 200):
        assert table.client.get(f"{table.url}/rescore?target={target}").status_code == 200
    refused = table.client.get(f"{table.url}/rescore?target=250")
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    assert table.client.get(f"{table.url}/rescore?target=150&hand=2").status_code == 200
    other = Table(app, device(app))
    other.client.environ_base["REMOTE_ADDR"] = "192.0.2.7"  # another client
    assert other.client.get(f"{table.url}/rescore?target=250").status_code == 200


def test_a_timed_game_s_clock_starts_at_the_first_lead_in_effect_whatever_its_length(
    table: Table,
) -> None:
    """R30: the clock starts with the first hand's lead still in effect (an undone lead does
    not start it), read from the first hand's actions alone, many hands later too."""
    table.create("Ana", "Ben", "Cy", target="10000", time_limit="90")
    store, game_id = table.store, table.game_id
    script = scripted_actions(random.Random(5), 3, 130)
    store.apply(game_id, 0, script[0])
    store.apply(game_id, 1, script[1])  # the lead, undone
    store.apply(game_id, 2, Undo())
    for seq, action in enumerate(script[1:], start=3):
        store.apply(game_id, seq, action)
    snapshot = store.get(game_id)
    assert snapshot.state.hand_number >= 3
    log = store.log(game_id)
    lead_again = log[3][2]  # the lead made again, event 4
    store.cache.clear()
    assert store.clock_ends(snapshot) == lead_again + timedelta(minutes=90)
