"""Circles through the JSON API: made, games started in them or moved in, people renamed and
merged, statistics equal to a count written here from each game's own state (R2: a
partnership's win is both partners'; R15: the target ends the game), and every bad input a
clear refusal that changes nothing."""

from __future__ import annotations

import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from tests.conftest import AppMaker
from tests.tables import device, text
from tests.web.golden_games import random_game
from webapp.rules import Options, to_dict
from webapp.store import Store
from webapp.store.circle_rows import CIRCLES, GAMES, PEOPLE

DATA = Path(__file__).parent.parent / "data"


def store_of(client: FlaskClient) -> Store:
    found: Store = client.application.extensions["allfives_store"]
    return found


def rows(client: FlaskClient, table: Any) -> int:
    with store_of(client).engine.connect() as db:
        return int(db.scalar(select(func.count()).select_from(table)) or 0)


def new_circle(client: FlaskClient, name: str = "Thursday table") -> dict[str, Any]:
    response = client.post("/api/circles", json={"name": name})
    assert response.status_code == 201, response.json
    found: dict[str, Any] = response.json
    return found


def quick_game(
    client: FlaskClient,
    circle: str,
    players: list[str],
    leader: str,
    undo: bool = False,
    rules: dict[str, Any] | None = None,
    **body: Any,
) -> dict[str, Any]:
    """A game to 10 in the circle: ``leader`` leads 5-5 (10, R15) and their side wins; with
    ``undo``, a 3-2 first, taken back."""
    rules = rules or {}
    made = client.post(
        "/api/games",
        json={**body, "players": players, "circle": circle, "rules": {**rules, "target": 10}},
    )
    assert made.status_code == 201, made.json
    state = made.json
    for action in (
        {"type": "start_hand", "starter": leader},
        *([{"type": "play", "tile": "3-2"}, {"type": "undo"}] if undo else []),
        {"type": "play", "tile": "5-5"},
    ):
        answer = client.post(
            f"/api/games/{state['id']}/actions", json={"seq": state["seq"], **action}
        )
        assert answer.status_code == 200, answer.json
        state = answer.json["state"]
    assert state["status"] == "game_over"
    return state


def independent_count(
    states: list[dict[str, Any]], same: dict[str, str]
) -> dict[str, dict[str, int]]:
    """Games, wins and points per person from the games' API states; ``same`` names each
    game's player as the circle knows them now (renamed, merged)."""
    count: dict[str, dict[str, int]] = defaultdict(lambda: {"games": 0, "wins": 0, "points": 0})
    for state in states:
        if state["status"] != "game_over":
            continue
        teams = {
            name: " & ".join(team["players"])
            for team in state.get("teams", [])
            for name in team["players"]
        }
        for player in state["players"]:
            person = count[same.get(player["name"], player["name"])]
            person["games"] += 1
            person["wins"] += teams.get(player["name"], player["name"]) in state["winners"]
            person["points"] += player["score"]
    return count


def figures(circle: dict[str, Any]) -> dict[str, dict[str, int]]:
    return {
        p["name"]: {"games": p["games"], "wins": p["wins"], "points": p["points"]}
        for p in circle["players"]
        if p["games"]
    }


def test_a_circle_is_made_with_its_id_and_links(client: FlaskClient) -> None:
    circle = new_circle(client, "  Thursday   table ")
    assert circle["name"] == "Thursday table"
    assert circle["url"].endswith(f"/c/{circle['id']}")
    assert circle["watch_url"].endswith(f"/cw/{circle['view_id']}")
    shown = client.get(f"/api/circles/{circle['id']}").json
    assert (shown["id"], shown["name"], shown["games"], shown["players"]) == (
        circle["id"],
        "Thursday table",
        [],
        [],
    )


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, 123, None, ["Ana"], "tab\tle\x07"])
def test_a_circle_without_a_good_name_is_refused_and_nothing_is_made(
    client: FlaskClient, name: Any
) -> None:
    response = client.post("/api/circles", json={"name": name})
    assert response.status_code == 422
    assert response.json["error"]["code"] == "circle_name"
    assert response.json["error"]["message"]
    assert rows(client, CIRCLES) == 0


@pytest.mark.parametrize(
    "key", ["nope", "../../etc/passwd", "x'; DROP TABLE circles;--", "a" * 200, "%00", "é"]
)
def test_an_unknown_or_hostile_circle_id_is_no_circle_and_makes_no_game(
    client: FlaskClient, key: str
) -> None:
    new_circle(client)
    response = client.get(f"/api/circles/{key}")
    assert response.status_code == 404
    assert response.json["error"]["code"] in ("no_such_circle", "not_found")  # a path: no route
    made = client.post("/api/games", json={"players": ["Ana", "Ben"], "circle": key})
    assert made.status_code == 404 and made.json["error"]["code"] == "no_such_circle"
    assert (
        client.post("/api/games", json={"players": ["Ana", "Ben"], "circle": 7}).status_code == 404
    )
    assert rows(client, GAMES) == 0 and rows(client, CIRCLES) == 1


def test_statistics_over_partnerships_undos_fixes_a_rename_and_a_merge_equal_an_independent_count(
    client: FlaskClient,
) -> None:
    circle = new_circle(client)
    key = circle["id"]
    states = [
        quick_game(client, key, ["Ana", "Ben", "Cy"], "Ana"),
        quick_game(client, key, ["Ben", "Ana"], "Ben", undo=True),
        quick_game(client, key, ["Ana", "Ben", "Cyrus", "Di"], "Ben", partnership=True),  # Ben & Di
        quick_game(client, key, ["cy", "Di"], "cy", rules={"preset": "pagat"}),  # one person: Cy
    ]
    store = store_of(client)
    for seed, (players, partnership, preset) in enumerate(
        [(["Ana", "Ben", "Cyrus", "Di"], True, "seed"), (["Di", "Ana"], False, "muggins")]
    ):
        options = Options.make(players, partnership, preset, target=41)
        log = random_game(options, seed + 3, 800)  # with undos and corrections
        snapshot = store.create(options, [to_dict(action) for action in log])
        moved = client.post(f"/api/circles/{key}/games", json={"game": snapshot.id})
        assert moved.status_code == 200, moved.json
        states.append(client.get(f"/api/games/{snapshot.id}").json)
    assert (
        client.post(f"/api/circles/{key}/merge", json={"from": "CY", "into": "Cyrus"}).status_code
        == 200
    )
    renamed = client.post(f"/api/circles/{key}/rename", json={"from": "ben", "to": "Benjamin"})
    assert renamed.status_code == 200, renamed.json
    shown = client.get(f"/api/circles/{key}").json
    same = {"Cy": "Cyrus", "cy": "Cyrus", "Ben": "Benjamin"}
    assert figures(shown) == independent_count(states, same)
    assert {p["name"] for p in shown["players"]} == {"Ana", "Benjamin", "Cyrus", "Di"}
    assert len(shown["games"]) == 6
    # Ana and Cy were partners in game 3: never head to head there; Ben & Di won it together.
    partners = figures(shown)
    assert partners["Benjamin"]["wins"] >= 2 and partners["Di"]["wins"] >= 1


def test_head_to_head_adds_up_when_a_third_player_wins_and_the_page_says_what_it_counts(
    client: FlaskClient,
) -> None:
    """Cy's 5-5 wins the first game while Ana and Ben stay level at 0; Ana wins the second:
    between Ana and Ben, one game each way is not what happened."""
    key = new_circle(client)["id"]
    quick_game(client, key, ["Ana", "Ben", "Cy"], "Cy")
    quick_game(client, key, ["Ana", "Ben"], "Ana")
    meetings = client.get(f"/api/circles/{key}").json["head_to_head"]
    pair = next(m for m in meetings if m["players"] == ["Ana", "Ben"])
    assert pair == {"players": ["Ana", "Ben"], "games": 2, "ahead": [1, 0], "tied": 1}
    for meeting in meetings:
        assert sum(meeting["ahead"]) + meeting["tied"] == meeting["games"]
    page = text(client.get(f"/c/{key}"))
    assert "Ana ahead in 1, Ben ahead in 0, tied 1 (2 games against each other)" in page


def test_refused_merges_and_renames_say_why_and_change_nothing(client: FlaskClient) -> None:
    key = new_circle(client)["id"]
    quick_game(client, key, ["Ana", "Ben", "Cy"], "Ana")
    before = client.get(f"/api/circles/{key}").json
    for path, body, code in [
        ("merge", {"from": "Ana", "into": "ana"}, "merge_self"),
        ("merge", {"from": "Ana", "into": "Ben"}, "played_together"),
        ("merge", {"from": "Zed", "into": "Ben"}, "no_such_person"),
        ("rename", {"from": "Ana", "to": "BEN"}, "name_taken"),
        ("rename", {"from": "Ana", "to": ""}, "person_name"),
        ("rename", {"from": "Ana", "to": "y" * 41}, "person_name"),
        ("rename", {"from": 5, "to": "Zed"}, "no_such_person"),
    ]:
        response = client.post(f"/api/circles/{key}/{path}", json=body)
        assert response.status_code == 422, (path, body)
        assert response.json["error"]["code"] == code
        assert response.json["error"]["message"]
    assert client.get(f"/api/circles/{key}").json == before
    assert rows(client, PEOPLE) == 3


def test_the_watch_id_reads_the_circle_and_changes_nothing(client: FlaskClient) -> None:
    circle = new_circle(client)
    state = quick_game(client, circle["id"], ["Ana", "Ben"], "Ana")
    shown = client.get(f"/api/circles/{circle['view_id']}").json
    assert shown["id"] == circle["view_id"] and shown["url"] == circle["watch_url"]
    assert [game["id"] for game in shown["games"]] == [state["view_id"]]
    assert circle["id"] not in str(shown) and state["id"] not in str(shown)
    refused = client.post(
        f"/api/circles/{circle['view_id']}/rename", json={"from": "Ana", "to": "Ann"}
    )
    assert refused.status_code == 403
    assert client.get(f"/api/circles/{circle['id']}").json["players"][0]["name"] == "Ana"


def test_a_game_started_in_a_circle_and_played_again_stays_in_it(client: FlaskClient) -> None:
    key = new_circle(client)["id"]
    state = quick_game(client, key, ["Ana", "Ben"], "Ana")
    client.get(f"/g/{state['id']}")  # the page sets the device's CSRF token
    again = client.post(f"/g/{state['id']}/again", data={"csrf_token": _token(client)})
    assert again.status_code == 303
    shown = client.get(f"/api/circles/{key}").json
    assert len(shown["games"]) == 2


def _token(client: FlaskClient) -> str:
    with client.session_transaction() as session:
        return str(session["csrf_token"])


def test_a_circles_games_export_and_import_to_the_same_figures(client: FlaskClient) -> None:
    key = new_circle(client, "Club")["id"]
    quick_game(client, key, ["Ana", "Ben", "Cy"], "Ana")
    quick_game(client, key, ["Ana", "Ben", "Cy", "Di"], "Di", partnership=True)
    exported = client.get(f"/api/circles/{key}/export").json
    assert exported["format"] == "allfives-circle/1" and len(exported["games"]) == 2
    imported = client.post("/api/circles/import", json=exported)
    assert imported.status_code == 201, imported.json
    assert imported.json["name"] == "Club" and imported.json["id"] != key
    assert figures(imported.json) == figures(client.get(f"/api/circles/{key}").json)
    games, circles = rows(client, GAMES), rows(client, CIRCLES)
    exported["games"][1]["actions"] += [{"type": "undo"}] * 3  # the third has nothing to undo
    refused = client.post("/api/circles/import", json=exported)
    assert refused.status_code == 422
    assert refused.json["error"]["message"].startswith("game 2: ")
    assert (rows(client, GAMES), rows(client, CIRCLES)) == (games, circles)
    assert client.post("/api/circles/import", json={"format": "x"}).status_code == 422


def test_a_circles_games_as_csv_one_row_each(client: FlaskClient) -> None:
    key = new_circle(client)["id"]
    quick_game(client, key, ["=Ana", "Ben"], "=Ana")
    quick_game(client, key, ["Ana", "Ben", "Cy", "Di"], "Ben", partnership=True)
    lines = client.get(f"/api/circles/{key}/games.csv").get_data(as_text=True).splitlines()
    assert lines[0].startswith("Date,Game,Rules,Finished,Player 1,Score 1")
    assert len(lines) == 3
    newest, oldest = lines[1].split(","), lines[2].split(",")
    assert newest[4:12] == ["Ana", "0", "Ben", "10", "Cy", "0", "Di", "10"]
    assert newest[-1] == "Ben & Di"
    assert oldest[4:8] == ["'=Ana", "10", "Ben", "0"]  # a name is never a formula


def test_a_database_of_the_version_before_circles_upgrades_and_its_games_join_one(
    tmp_path: Path, make_app: AppMaker
) -> None:
    database = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "previous_version.sqlite3", database)
    app: Flask = make_app(DATABASE=f"sqlite:///{database}")
    client = device(app)
    with store_of(client).engine.connect() as db:
        old = [row[0] for row in db.execute(select(GAMES.c.id))]
    assert old
    key = new_circle(client)["id"]
    for game in old:
        assert client.post(f"/api/circles/{key}/games", json={"game": game}).status_code == 200
    shown = client.get(f"/api/circles/{key}").json
    assert len(shown["games"]) == len(old)
    assert (
        client.post(f"/api/circles/{key}/games", json={"game": "no-such-game"}).status_code == 404
    )


def test_a_deleted_game_leaves_its_circles_figures_and_comes_back_when_restored(
    client: FlaskClient,
) -> None:
    circle = new_circle(client)
    quick_game(client, circle["id"], ["Ana", "Ben"], leader="Ana")
    gone = quick_game(client, circle["id"], ["Ana", "Ben"], leader="Ben")
    both = {
        "Ana": {"games": 2, "wins": 1, "points": 10},
        "Ben": {"games": 2, "wins": 1, "points": 10},
    }
    assert figures(client.get(f"/api/circles/{circle['id']}").json) == both
    assert client.delete(f"/api/games/{gone['id']}").status_code == 200
    shown = client.get(f"/api/circles/{circle['id']}").json
    assert [game["id"] for game in shown["games"]] != [] and gone["id"] not in {
        game["id"] for game in shown["games"]
    }
    assert figures(shown) == {
        "Ana": {"games": 1, "wins": 1, "points": 10},
        "Ben": {"games": 1, "wins": 0, "points": 0},
    }
    assert client.post(f"/api/games/{gone['id']}/restore").status_code == 200
    assert figures(client.get(f"/api/circles/{circle['id']}").json) == both
