"""A rush does not flood the server's log: waitress's warning that requests are waiting for a
thread is said at most once every few seconds, with how many such lines were held back."""

from __future__ import annotations

import logging
import threading

import pytest

from webapp import create_app
from webapp.serve.serving import QUEUE_SAID_EVERY, Seldom, make_server


def test_a_rush_says_the_queue_depth_once_and_later_how_many_lines_it_held_back(
    tmp_path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app({"DATABASE": str(tmp_path / "logs.sqlite3"), "SECRET_KEY": "logs"})
    server = make_server(app, 2, host="127.0.0.1", port=0)
    try:
        queue = logging.getLogger("waitress.queue")
        (seldom,) = [each for each in queue.filters if isinstance(each, Seldom)]
        assert seldom.every == QUEUE_SAID_EVERY
        make_server(app, 2, host="127.0.0.1", port=0).close()  # a second server adds none
        assert sum(isinstance(each, Seldom) for each in queue.filters) == 1
        now = [1000.0]
        monkeypatch.setattr("webapp.serve.serving.time.monotonic", lambda: now[0])
        seldom.due = 0.0
        with caplog.at_level(logging.WARNING, logger="waitress.queue"):
            rush = [
                threading.Thread(target=queue.warning, args=("Task queue depth is %d", depth))
                for depth in range(1, 201)
            ]
            for thread in rush:
                thread.start()
            for thread in rush:
                thread.join()
            assert len(caplog.records) == 1
            now[0] += QUEUE_SAID_EVERY
            queue.warning("Task queue depth is %d", 7)
        said = [record.getMessage() for record in caplog.records]
        assert said[-1] == "Task queue depth is 7 (199 such lines held back before this one)"
    finally:
        server.close()
        app.extensions["allfives_store"].close()
