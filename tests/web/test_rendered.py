"""A change rendered once for every worker process of a server (``webapp.web.rendered``): two
apps on one database and one folder stand for two workers, as ``allfives serve --workers 2``
runs them; the play is made through one, screens follow on both."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from tests.conftest import AppMaker
from tests.tables import Table, device
from tests.web.test_stream import Stream, followers, playing
from webapp.web import followers as followers_module
from webapp.web import rendered
from webapp.web.followers import Look
from webapp.web.rendered import Rendered

LOOK = Look("g1", "g1", False, "en", False, "http://127.0.0.1/")


@pytest.fixture
def workers(make_app: AppMaker, tmp_path: Path) -> Iterator[tuple[Flask, Flask]]:
    folder = tmp_path / "rendered"
    folder.mkdir()
    apps = (make_app(RENDERED_FOLDER=str(folder)), make_app(RENDERED_FOLDER=str(folder)))
    yield apps
    for app in apps:  # each screen's stream ends, as a phone leaving would end it
        hub = app.extensions.get("allfives_followers")
        for each in [f for game in list(hub.games.values()) for f in game] if hub else ():
            each.sink.close()


def lines(html: str) -> str:
    """An answer's HTML as an event carries it, line by line."""
    return "".join(f"{line}\n" for line in html.splitlines())


def test_a_play_made_in_one_worker_is_rendered_once_for_the_screens_of_both(
    workers: tuple[Flask, Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    """R7: Ana leads 5-5. The worker that took the play renders the change; the other worker's
    screen is sent those very bytes, which are what its poll would have answered. (The other
    worker holds back longer than it does in service, where 20 ms is plenty: on a busy test
    machine the worker that took the play may not have claimed its change by then.)"""
    monkeypatch.setattr(followers_module, "HEARD_WAIT", 1.0)
    first, second = workers
    table = Table(first, device(first))
    playing(table)
    seq = table.seq
    phones = (table.client, device(second))
    streams = [Stream(phone, f"{table.url}/stream?seq={seq}") for phone in phones]
    for stream in streams:
        stream.wait(lambda stream=stream: "event: hello" in stream.read)

    table.play("5-5")

    for stream in streams:
        stream.wait(lambda stream=stream: stream.changes())
    [(mine, here)], [(theirs, there)] = (stream.changes() for stream in streams)
    assert mine == theirs == seq + 1
    assert here == there and "[5|5] 10 = 10" in here
    assert followers(first).renders + followers(second).renders == 1
    poll = phones[1].get(f"{table.url}/poll?seq={seq}", headers={"HX-Request": "true"})
    assert lines(poll.get_data(as_text=True)) == there


def test_a_change_claimed_by_a_worker_that_does_not_render_it_still_reaches_the_screens(
    workers: tuple[Flask, Flask], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that claimed the change and stopped (or fell far behind) holds the others
    back for ``CLAIMED_FOR`` only: then they render it themselves."""
    monkeypatch.setattr(rendered, "CLAIMED_FOR", 0.5)
    first, second = workers
    table = Table(first, device(first))
    playing(table)
    stream = Stream(device(second), f"{table.url}/stream?seq={table.seq}")
    stream.wait(lambda: "event: hello" in stream.read)
    [[follower]] = [list(each) for each in followers(second).games.values()]
    Rendered(str(tmp_path / "rendered")).claim(follower.look, table.seq + 1)  # a third worker's

    table.play("5-5")

    stream.wait(stream.changes)
    assert "[5|5] 10 = 10" in stream.changes()[0][1]
    assert followers(second).renders == 1


def test_a_rendered_change_is_taken_at_its_revision_or_a_later_one(tmp_path: Path) -> None:
    one, other = Rendered(str(tmp_path)), Rendered(str(tmp_path))
    assert other.get(LOOK, 5) is None
    one.put(LOOK, 6, b"id: 6\nevent: change\ndata: x\n\n")
    assert other.get(LOOK, 5) == other.get(LOOK, 6) == (6, b"id: 6\nevent: change\ndata: x\n\n")
    assert other.get(LOOK, 7) is None
    assert other.get(Look("g1", "v1", True, "en", False, "http://127.0.0.1/"), 6) is None


def test_a_claim_holds_the_other_workers_back_only_for_a_while(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that claimed a change and never rendered it (it stopped, or is far behind) is
    not waited for any longer than ``CLAIMED_FOR``; its own claim never holds it back."""
    one, other = Rendered(str(tmp_path)), Rendered(str(tmp_path))
    one.claim(LOOK, 5)
    assert other.claimed(LOOK, 5) and other.claimed(LOOK, 4)
    assert not other.claimed(LOOK, 6)
    assert not one.claimed(LOOK, 5)
    monkeypatch.setattr(rendered, "CLAIMED_FOR", 0.0)
    assert not other.claimed(LOOK, 5)


def test_what_is_too_old_to_be_of_use_is_swept(tmp_path: Path) -> None:
    shared = Rendered(str(tmp_path))
    shared.put(LOOK, 3, b"old")
    shared.claim(LOOK, 3)
    long_ago = time.time() - rendered.KEPT_FOR - 1
    for name in os.listdir(tmp_path):
        os.utime(tmp_path / name, (long_ago, long_ago))
    shared.put(Look("g2", "g2", False, "en", False, "http://127.0.0.1/"), 1, b"new")
    shared.sweep()
    assert len(os.listdir(tmp_path)) == 1
    assert shared.get(LOOK, 0) is None
