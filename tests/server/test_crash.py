"""Every acknowledged action survives the server being killed (SIGKILL) mid-load."""

from __future__ import annotations

import threading
import time

import pytest

from tests.server.conftest import Server
from tests.server.test_races import new_games, race

KILLS = 3


def test_acknowledged_actions_survive_kill_9(server: Server) -> None:
    game_ids = new_games(server, 3)
    acknowledged: list[tuple[str, int, dict]] = []
    for _ in range(KILLS):
        stop = threading.Event()
        landed: list[list[tuple[str, int, dict]]] = []

        def load_until_stopped(stop=stop, landed=landed) -> None:
            landed.append(race(server, game_ids, 10_000, stop))

        load = threading.Thread(target=load_until_stopped, daemon=True)
        load.start()
        time.sleep(1.5)
        server.kill()  # mid-load: requests are in flight
        stop.set()
        load.join(timeout=60)
        assert landed, "the load did not finish"
        acknowledged += landed[0]
        server.start()

    assert len(acknowledged) >= 20, f"too little load to prove anything: {len(acknowledged)}"
    logs = {}
    for game_id in game_ids:
        status, exported = server.call("GET", f"/api/games/{game_id}/export")
        assert status == 200
        logs[game_id] = exported["actions"]
    for game_id, seq, action in acknowledged:
        stored = logs[game_id][seq - 1]
        assert stored["type"] == action["type"], (game_id, seq)
        if action["type"] == "play":
            assert stored["tile"] == action["tile"]
    for game_id in game_ids:
        status, state = server.call("GET", f"/api/games/{game_id}")
        assert status == 200 and state["seq"] == len(logs[game_id])
    print(f"crash: {KILLS} kills under load, {len(acknowledged)} acknowledged actions all kept")


def test_backup_while_the_server_writes(server: Server, tmp_path) -> None:
    """``allfives backup`` copies a consistent database while a load is running."""
    import subprocess
    import sys

    from webapp.store import open_store

    if not server.db.startswith("sqlite"):
        pytest.skip("allfives backup copies SQLite databases; PostgreSQL has pg_dump")
    game_ids = new_games(server, 2)
    stop = threading.Event()
    load = threading.Thread(target=race, args=(server, game_ids, 10_000, stop), daemon=True)
    load.start()
    time.sleep(0.5)
    copy = tmp_path / "copy.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "webapp.serve.cli", "backup", "--db", str(server.db), str(copy)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    stop.set()
    load.join(timeout=60)
    assert done.returncode == 0, done.stderr
    store = open_store(f"sqlite:///{copy}")
    for game_id in game_ids:
        snapshot = store.get(game_id)  # replays the copied log through the rules
        assert snapshot.seq == len(store.log(game_id)) > 0
    store.close()
