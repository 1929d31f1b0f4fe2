"""The players' housekeeping through the JSON API: a rename and an early end are action kinds
(README "JSON API"), refused with 422 and nothing changed when they cannot be, carried by an
export into an import."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from flask.testing import FlaskClient

from tests.conftest import AppMaker, device
from tests.scripts import HAND_OF_FIVE
from tests.tables import ApiTable
from webapp.store import RESTORE_WINDOW


@pytest.fixture
def started(api_table: ApiTable) -> ApiTable:
    api_table.act("start_hand", starter="Ana")
    api_table.act("play", tile="5-5")
    return api_table


def test_a_rename_names_the_player_by_the_old_name(started: ApiTable) -> None:
    answer = started.act("rename", player="cy", name="Cyrus")
    assert answer["outcome"]["message"] == "Cy renamed to Cyrus"
    assert [p["name"] for p in started.state["players"]] == ["Ana", "Ben", "Cyrus"]
    assert started.state["last"] == "Cy renamed to Cyrus"
    sheet = started.client.get(f"/api/games/{started.id}/sheet").json
    assert [side["name"] for side in sheet["sides"]] == ["Ana", "Ben", "Cyrus"]
    # the new name is the one the API knows the player by from now on
    started.act("play", tile="5-0", player="Ben")
    started.act("play", tile="0-0", player="Cyrus")
    refused = started.act("play", tile="6-6", player="Cy", expect=422)
    assert refused["error"]["code"] == "bad_player"


def test_undo_takes_a_rename_back(started: ApiTable) -> None:
    started.act("rename", player="Cy", name="Cyrus")
    answer = started.act("undo")
    assert answer["outcome"]["message"] == "Undone: Cy renamed to Cyrus"
    assert [p["name"] for p in started.state["players"]] == ["Ana", "Ben", "Cy"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"player": "Cy", "name": ""}, "player_name"),
        ({"player": "Cy", "name": "   "}, "player_name"),
        ({"player": "Cy", "name": "C" * 31}, "player_name"),
        ({"player": "Cy", "name": 7}, "player_name"),
        ({"player": "Cy", "name": "ANA"}, "duplicate_name"),
        ({"player": "Cy", "name": "Cy"}, "same_name"),
        ({"player": "Zed", "name": "Zeb"}, "bad_player"),
        ({"name": "Cyrus"}, "bad_player"),
    ],
)
def test_a_bad_rename_is_refused_and_changes_nothing(
    started: ApiTable, body: dict[str, object], code: str
) -> None:
    before = started.fetch()
    refused = started.act("rename", expect=422, **body)
    assert refused["error"]["code"] == code and refused["error"]["message"]
    assert started.fetch() == before


def test_ending_early_finishes_the_game_with_the_scores_as_they_stand(started: ApiTable) -> None:
    answer = started.act("end_game")
    state = started.state
    assert state["status"] == "game_over" and state["ended_early"] is True
    assert state["winner"] == "Ana" and state["winners"] == ["Ana"]
    assert answer["outcome"]["message"] == (
        "Game ended early: Ana won with the scores as they stand"
    )
    assert state["next"] == "Game over, ended early: Ana won"
    refused = started.act("rename", player="Ana", name="Anabel", expect=422)
    assert refused["error"]["code"] == "game_over"
    again = started.act("end_game", expect=422)
    assert again["error"]["code"] == "game_over"
    started.act("undo")
    assert started.state["status"] == "playing" and started.state["ended_early"] is False


def test_ending_before_anything_is_played_is_refused(api_table: ApiTable) -> None:
    refused = api_table.act("end_game", expect=422)
    assert refused["error"]["code"] == "nothing_played"
    assert api_table.fetch()["seq"] == 0


def test_the_watch_link_cannot_rename_or_end(started: ApiTable) -> None:
    view = started.state["view_id"]
    for body in ({"type": "rename", "player": "Cy", "name": "Cyrus"}, {"type": "end_game"}):
        body = {"seq": started.state["seq"], **body}
        answer = started.client.post(f"/api/games/{view}/actions", json=body)
        assert answer.status_code == 403
    assert started.fetch()["players"][2]["name"] == "Cy"


def test_an_export_carries_renames_and_an_early_end(client: FlaskClient, started: ApiTable) -> None:
    started.act("rename", player="Cy", name="Cyrus")
    started.act("rename", player="Ben", name="Benjamin")
    started.act("undo")
    started.act("end_game")
    exported = client.get(f"/api/games/{started.id}/export").json
    assert exported["players"] == ["Ana", "Ben", "Cy"]  # as the game began; the log renames
    assert {"type": "rename", "seat": 2, "name": "Cyrus"} in exported["actions"]
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201
    state = imported.json
    assert [p["name"] for p in state["players"]] == ["Ana", "Ben", "Cyrus"]
    assert state["status"] == "game_over" and state["ended_early"]
    assert state["winner"] == started.state["winner"]


def test_a_fresh_process_folds_the_names_from_the_hand_start_kept(
    client: FlaskClient, make_app: AppMaker
) -> None:
    """The snapshot written with a hand's start keeps the names then: a new process (nothing
    cached) that folds the game from it shows the renamed player, the log says who it was, and
    undo reaches back past it."""
    game = ApiTable(client, ["Ana", "Ben"], rules={"deal": "5"})
    game.act("start_hand", starter="Ana")
    game.act("rename", player="Ben", name="Benny")
    game.enter(HAND_OF_FIVE)
    game.act("end_hand", remaining={"Benny": 3})
    game.act("start_hand")  # its snapshot is written now
    fresh = device(make_app())
    state = fresh.get(f"/api/games/{game.id}").json
    assert [p["name"] for p in state["players"]] == ["Ana", "Benny"]
    page = fresh.get(f"/g/{game.id}/more").text
    assert "Ben renamed to Benny" in page
    undone = device(make_app())
    for _ in range(len(HAND_OF_FIVE) + 2):
        body = {"seq": game.fetch()["seq"], "type": "undo"}
        assert undone.post(f"/api/games/{game.id}/actions", json=body).status_code == 200
    assert game.fetch()["last"] == "Ben renamed to Benny"  # back to just after the rename
    body = {"seq": game.fetch()["seq"], "type": "undo"}
    answer = undone.post(f"/api/games/{game.id}/actions", json=body).json
    assert answer["outcome"]["message"] == "Undone: Ben renamed to Benny"
    assert [p["name"] for p in answer["state"]["players"]] == ["Ana", "Ben"]


# --- DELETE /api/games/<id> and its restore ---------------------------------------------------


def test_delete_then_restore(started: ApiTable) -> None:
    client, game = started.client, started.id
    answer = client.delete(f"/api/games/{game}")
    assert answer.status_code == 200
    assert answer.json["deleted"] is True and answer.json["restore_until"].endswith("Z")
    for url in (f"/api/games/{game}", f"/api/games/{game}/sheet", f"/api/games/{game}/export"):
        gone = client.get(url)
        assert gone.status_code == 410
        assert gone.json["error"]["code"] == "deleted"
        assert gone.json["error"]["restore_until"] == answer.json["restore_until"]
    refused = started.act("play", tile="5-0", expect=410)
    assert refused["error"]["code"] == "deleted"
    twice = client.delete(f"/api/games/{game}")
    assert twice.status_code == 410  # deleting twice changes nothing
    back = client.post(f"/api/games/{game}/restore")
    assert back.status_code == 200
    assert back.json["seq"] == started.state["seq"] and back.json["players"][0]["score"] == 10
    assert client.post(f"/api/games/{game}/restore").json["error"]["code"] == "not_deleted"


def test_the_watch_id_can_neither_delete_nor_restore(started: ApiTable) -> None:
    client, view = started.client, started.state["view_id"]
    assert client.delete(f"/api/games/{view}").status_code == 403
    assert started.fetch()["status"] == "playing"
    client.delete(f"/api/games/{started.id}")
    assert client.post(f"/api/games/{view}/restore").status_code == 404
    watched = client.get(f"/api/games/{view}")
    assert watched.status_code == 410 and watched.json["error"]["restore_until"] is None


def test_no_restore_after_the_window(started: ApiTable, monkeypatch: pytest.MonkeyPatch) -> None:
    started.client.delete(f"/api/games/{started.id}")
    moved = datetime.now(UTC).replace(tzinfo=None) + RESTORE_WINDOW + timedelta(seconds=1)
    monkeypatch.setattr("webapp.store.snapshot.utcnow", lambda: moved)
    back = started.client.post(f"/api/games/{started.id}/restore")
    assert back.status_code == 422 and back.json["error"]["code"] == "restore_too_late"
    gone = started.client.get(f"/api/games/{started.id}")
    assert gone.status_code == 410 and gone.json["error"]["restore_until"] is None


def test_unknown_games_are_not_found(client: FlaskClient) -> None:
    assert client.delete("/api/games/nosuchgame").status_code == 404
    assert client.post("/api/games/nosuchgame/restore").status_code == 404
