"""Writers to one SQLite file take turns through ``WriterQueue``, across threads and processes,
and the plays of one process's threads are committed in groups.

SQLite would also keep them apart, but its busy handler sleeps between tries; the queue wakes
the next writer as soon as the lock is free. What matters to a table: one writer at a time,
and no writer left waiting once the lock is released.
"""

from __future__ import annotations

import gc
import multiprocessing
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from webapp.rules import Draw, Options, Play, StartHand, Tile, Undo
from webapp.store import StaleRevision, open_store
from webapp.store import sql as sqlpath
from webapp.store.writer import WriterQueue, fcntl

FORK = multiprocessing.get_context("fork") if fcntl is not None else None


def _take_turn(queue: WriterQueue, entered: multiprocessing.synchronize.Event) -> None:
    with queue.turn():
        entered.set()


@pytest.mark.skipif(FORK is None, reason="flock and fork are POSIX only")
def test_a_forked_worker_waits_for_the_turn_held_by_another(tmp_path: Path) -> None:
    assert FORK is not None
    queue = WriterQueue(str(tmp_path / "games.sqlite3"))
    entered = FORK.Event()
    with queue.turn():
        child = FORK.Process(target=_take_turn, args=(queue, entered))
        child.start()  # forked while this process holds the turn
        assert not entered.wait(0.5), "the other process wrote while this one held the turn"
    assert entered.wait(10), "the other process was left waiting after the turn was released"
    child.join(10)
    assert child.exitcode == 0
    assert (tmp_path / "games.sqlite3-writers").exists()


def test_threads_take_turns_one_at_a_time(tmp_path: Path) -> None:
    queue = WriterQueue(str(tmp_path / "games.sqlite3"))
    inside: list[int] = []
    most = 0

    def write() -> None:
        nonlocal most
        for _ in range(50):
            with queue.turn():
                inside.append(1)
                most = max(most, len(inside))
                time.sleep(0.0001)
                inside.pop()

    threads = [threading.Thread(target=write) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert most == 1


def test_an_in_memory_database_queues_threads_without_a_file(tmp_path: Path) -> None:
    queue = WriterQueue(":memory:")
    assert queue.path is None
    with queue.turn():
        assert not queue._thread.acquire(blocking=False)
    assert queue._thread.acquire(blocking=False)


def test_plays_from_many_threads_are_each_written_once_or_refused(database_url: str) -> None:
    """Threads write at once (on SQLite, in shared transactions): each play on its own game
    lands at its revision; of the plays racing for one revision, exactly one lands."""
    store = open_store(database_url)
    options = Options.make(["Ana", "Ben"], target=10_000)
    own = [store.create(options).id for _ in range(6)]
    shared = store.create(options).id
    for game_id in [*own, shared]:
        store.apply(game_id, 0, StartHand(0))
    store.apply(shared, 1, Play(Tile(5, 5), None))
    accepted: list[int] = []
    refused: list[int] = []
    start = threading.Barrier(len(own) + 4)

    def lead_and_undo(game_id: str) -> None:
        start.wait()
        for seq in range(1, 41, 2):
            store.apply(game_id, seq, Play(Tile(5, 5), None))
            store.apply(game_id, seq + 1, Undo())

    def race(_: int) -> None:
        start.wait()
        for _ in range(30):  # each reads the revision, then draws or undoes the draw at it
            seq = store.revision(shared)
            try:
                store.apply(shared, seq, Draw(1) if seq % 2 == 0 else Undo())
                accepted.append(seq)
            except StaleRevision as stale:
                refused.append(seq)
                assert stale.current.seq > seq

    threads = [threading.Thread(target=lead_and_undo, args=(g,)) for g in own]
    threads += [threading.Thread(target=race, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    try:
        for game_id in own:
            assert store.revision(game_id) == 41
            assert [seq for seq, _, _ in store.log(game_id)] == list(range(1, 42))
        assert sorted(set(accepted)) == sorted(accepted), "a revision was taken twice"
        assert store.revision(shared) == 2 + len(accepted)
        assert len(accepted) + len(refused) == 4 * 30
        replayed = store.get(shared).state
        store.cache.clear()
        assert store.get(shared).state.hand == replayed.hand
    finally:
        store.close()


def test_a_play_raced_between_two_reads_is_stale_not_refused(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reads have no snapshot of their own: another worker may commit between reading the game
    and its log. The play must then be told the game moved on (409), not be judged against
    the newer game (a 422 refusal such as "the hand has started")."""
    store, other = open_store(database_url), open_store(database_url)
    try:
        game_id = store.create(Options.make(["Ana", "Ben"])).id
        read_game = sqlpath.Cursor.game
        raced: list[bool] = []

        def game_then_race(cursor: sqlpath.Cursor, key: str, by_view: bool = False) -> Any:
            row = read_game(cursor, key, by_view)
            if not raced:
                raced.append(True)
                other.apply(game_id, 0, StartHand(0))  # commits between the two reads
            return row

        store.cache.clear()  # as in a worker whose cache is behind
        monkeypatch.setattr(sqlpath.Cursor, "game", game_then_race)
        with pytest.raises(StaleRevision):
            store.apply(game_id, 0, StartHand(1))
        monkeypatch.undo()
        assert store.revision(game_id) == 1
        assert [action["type"] for _, action, _ in store.log(game_id)] == ["start_hand"]
    finally:
        store.close()
        other.close()


def test_closing_a_store_closes_its_writers_lock_file(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    game_id = store.create(Options.make(["Ana", "Ben"])).id
    store.apply(game_id, 0, StartHand(0))
    queue = store._write.queue
    assert queue is not None and queue._fd is not None
    store.close()
    assert queue._fd is None


def _play_and_close(store: Any, game_id: str, parents: tuple[int, int], done: Any) -> None:
    """In a forked child: a play on the store inherited from the parent, then its close."""
    gc.collect()  # what the child's collector does sooner or later: nothing inherited goes back
    store.apply(game_id, 1, Play(Tile(5, 5), None))
    assert store.get(game_id).seq == 2
    writer, reader = store._write._held, store._read._readers.connection()  # type: ignore[union-attr]
    used = (id(writer.dbapi_connection), id(reader.dbapi_connection))
    done.put(not set(used) & set(parents))
    store.close()


@pytest.mark.skipif(FORK is None, reason="flock and fork are POSIX only")
def test_a_store_forked_after_a_write_is_the_childs_own_and_leaves_the_parents_be(
    tmp_path: Path,
) -> None:
    """A process forked from one that has written and read (as under ``gunicorn --preload``)
    writes and reads on connections of its own, and closing its store leaves the parent's
    database whole: the parent's later plays are all there when the file is opened again."""
    assert FORK is not None
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    store = open_store(url)
    game_id = store.create(Options.make(["Ana", "Ben"], target=10_000)).id
    store.apply(game_id, 0, StartHand(0))
    assert store.get(game_id).seq == 1
    writer, reader = store._write._held, store._read._readers.connection()  # type: ignore[union-attr]
    assert writer is not None
    parents = (id(writer.dbapi_connection), id(reader.dbapi_connection))
    del writer, reader  # (the child holds them only where the store does)
    done = FORK.Queue()
    child = FORK.Process(target=_play_and_close, args=(store, game_id, parents, done))
    child.start()
    child.join(20)
    assert child.exitcode == 0
    assert done.get(timeout=5), "the child used its parent's connections"
    for seq in range(2, 6):
        store.apply(game_id, seq, Play(Tile(5, 5), None) if seq % 2 else Undo())
    store.close()
    again = open_store(url)
    assert again.get(game_id).seq == 6
    again.close()
