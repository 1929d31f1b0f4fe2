"""PostgreSQL stopped under a real ``allfives serve`` and started again: every play made
meanwhile is a 503 with ``Retry-After`` (after which the phone sends its tap again), the log
says so in a line or two, and the same play sent again once the database is back is applied
once. Runs in the CI's PostgreSQL run (``ALLFIVES_TEST_POSTGRES``), which may stop and start
its own server."""

from __future__ import annotations

import json
import os
import pwd
import shlex
import subprocess
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import POSTGRES

from .conftest import Server, request

pytestmark = pytest.mark.skipif(
    not POSTGRES,
    reason="needs a PostgreSQL server it may stop and start: set ALLFIVES_TEST_POSTGRES "
    "(the CI's PostgreSQL run does)",
)


class Postgres:
    """The tests' PostgreSQL server, stopped and started with its own ``pg_ctl``, as its
    operator would: started again with the options it was running with."""

    def __init__(self, url: str) -> None:
        from sqlalchemy import create_engine, text
        from sqlalchemy.exc import SQLAlchemyError

        admin = create_engine(url)
        try:
            with admin.connect() as connection:
                self.data = Path(connection.execute(text("SHOW data_directory")).scalar_one())
                bindir = connection.execute(
                    text("SELECT setting FROM pg_config WHERE name = 'BINDIR'")
                ).scalar_one()
        except SQLAlchemyError as error:
            pytest.skip(f"cannot ask the PostgreSQL server where it runs from: {error}")
        finally:
            admin.dispose()
        self.pg_ctl = Path(bindir) / "pg_ctl"
        if not (self.data / "postmaster.opts").exists() or not self.pg_ctl.exists():
            pytest.skip("the PostgreSQL server is not on this machine")
        owner = self.data.stat().st_uid
        if os.geteuid() not in (0, owner):
            pytest.skip("only root or the PostgreSQL server's owner may stop it")
        self.owner = pwd.getpwuid(owner).pw_name
        # "/usr/lib/postgresql/15/bin/postgres" "-D" "/tmp/…" "-k" "/tmp/…" "-p" "5432" …
        words = shlex.split((self.data / "postmaster.opts").read_text())[1:]
        if "-D" in words:
            at = words.index("-D")
            del words[at : at + 2]
        self.options = shlex.join(words)

    def _ctl(self, *args: str) -> None:
        command = [str(self.pg_ctl), "-D", str(self.data), *args]
        if os.geteuid() != self.data.stat().st_uid:
            command = ["su", self.owner, "-c", shlex.join(command)]
        subprocess.run(command, cwd=self.data, check=True, capture_output=True, timeout=60)

    def stop(self) -> None:
        self._ctl("-m", "fast", "-w", "stop")

    def start(self) -> None:
        log = str(self.data / "server.log")
        self._ctl("-w", "-l", log, "-o", self.options, "start")


@pytest.fixture
def postgres() -> Iterator[Postgres]:
    assert POSTGRES
    server = Postgres(POSTGRES)
    yield server
    try:  # running again for the tests after this one, whatever happened in this one
        server._ctl("status")
    except subprocess.CalledProcessError:
        server.start()


Tap = tuple[str, bytes, dict[str, str]]  # path, body, headers


def send(server: Server, play: Tap) -> tuple[int, dict[str, str], bytes]:
    path, body, headers = play
    return request(server, "POST", path, body, headers)


def test_plays_during_a_postgresql_outage_are_503s_and_each_is_applied_once_when_it_is_back(
    database_url: str, postgres: Postgres, tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    server = Server(database_url, log=str(log))
    server.start()
    try:
        games = []
        for _ in range(2):
            status, created = server.call("POST", "/api/games", {"players": ["Ana", "Ben"]})
            assert status == 201
            status, _ = server.call(
                "POST", f"/api/games/{created['id']}/actions", {"seq": 0, "type": "start_hand"}
            )
            assert status == 200
            games.append(created["id"])
        by_api, by_form = games
        # The same tap each time, as the phone keeps and re-sends it: its exact fields.
        api_play = (
            f"/api/games/{by_api}/actions",
            json.dumps({"seq": 1, "type": "play", "tile": "6-6"}).encode(),
            {"Content-Type": "application/json"},
        )
        form_play = (
            f"/g/{by_form}/play",
            urllib.parse.urlencode({"seq": 1, "tile": "5-5"}).encode(),
            {
                "Content-Type": "application/x-www-form-urlencoded",
                "Sec-Fetch-Site": "same-origin",  # a page of the site sent it
                "HX-Request": "true",
            },
        )

        postgres.stop()
        try:
            for _ in range(20):  # a phone or two tapping through the outage
                for play in (api_play, form_play):
                    status, headers, body = send(server, play)
                    assert status == 503, body[:300]
                    assert headers["Retry-After"] == "5"
            status, _, body = send(server, api_play)
            assert json.loads(body)["error"]["code"] == "unavailable"
        finally:
            postgres.start()

        answers = {}
        deadline = time.monotonic() + 30
        for name, play in (("api", api_play), ("form", form_play)):
            while (status := send(server, play)[0]) == 503 and time.monotonic() < deadline:
                time.sleep(0.5)  # as the phone does, every few seconds
            answers[name] = status
        assert answers == {"api": 200, "form": 200}
        again = send(server, form_play)  # a tap re-sent once more is recognised, not doubled
        assert again[0] == 200 and b"already recorded" in again[2], again[2][:300]
        assert send(server, api_play)[0] in (200, 409)
        for game_id, tile in ((by_api, "6-6"), (by_form, "5-5")):
            status, state = server.call("GET", f"/api/games/{game_id}")
            assert status == 200 and state["seq"] == 2, "applied once, not lost or doubled"
            assert tile in json.dumps(state["hand"]["layout"]), state["hand"]
    finally:
        server.stop()
    said = log.read_text()
    assert "Traceback" not in said, said[:2000]
    lines = [line for line in said.splitlines() if "database unavailable" in line]
    assert 1 <= len(lines) <= 3, lines  # one at the start, then one every 10 s at most
