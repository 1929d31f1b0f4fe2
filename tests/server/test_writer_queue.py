"""Writers to one SQLite file take turns through ``WriterQueue``, across threads and processes.

SQLite would also keep them apart, but its busy handler sleeps between tries; the queue wakes
the next writer as soon as the lock is free. What matters to a table: one writer at a time,
and no writer left waiting once the lock is released.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from pathlib import Path

import pytest

from webapp.sqlpath import WriterQueue, fcntl

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
