"""A circle's pages through the forms, as a phone without JavaScript: made from the home page
or from game over, games started in it, filtered by rules and dates, names renamed and
merged; every bad input a clear message with nothing changed, and the watch link read-only."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.tables import CSRF_TOKEN, text


def api_circle(client: FlaskClient, key: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/circles/{key}").json
    return found


def post(client: FlaskClient, url: str, **form: Any) -> Any:
    return client.post(url, data={"csrf_token": CSRF_TOKEN, **form})


def made_circle(client: FlaskClient, name: str = "Thursday table") -> str:
    answer = post(client, "/circles/new", name=name)
    assert answer.status_code == 303
    return str(answer.headers["Location"]).rsplit("/", 1)[-1]


def game_over(
    client: FlaskClient, players: list[str], circle: str | None = None, **rules: Any
) -> str:
    """A game to 5 won at once by the first player's 3-2 (R11, R15)."""
    body: dict[str, Any] = {"players": players, "rules": {"target": 5, **rules}}
    if circle:
        body["circle"] = circle
    state = client.post("/api/games", json=body).json
    for action in ({"type": "start_hand", "starter": players[0]}, {"type": "play", "tile": "3-2"}):
        state = client.post(
            f"/api/games/{state['id']}/actions", json={"seq": state["seq"], **action}
        ).json["state"]
    assert state["status"] == "game_over"
    return str(state["id"])


def test_a_circle_made_from_the_home_page_is_listed_there(client: FlaskClient) -> None:
    assert "New circle" in text(client.get("/"))
    key = made_circle(client)
    assert "Thursday table" in text(client.get("/"))
    page = text(client.get(f"/c/{key}"))
    assert "Thursday table" in page and "No finished game yet" in page


def test_a_circle_without_a_name_is_refused_with_a_message_and_not_made(
    client: FlaskClient,
) -> None:
    for name in ("", "   ", "z" * 41):
        answer = post(client, "/circles/new", name=name)
        assert answer.status_code == 422
        said = text(answer)
        assert "give a name" in said.lower() or "at most 40 characters" in said
    assert "Your circles" in text(client.get("/"))
    assert "Thursday" not in text(client.get("/"))


def test_a_game_started_from_the_circle_belongs_to_it(client: FlaskClient) -> None:
    key = made_circle(client)
    form = text(client.get(f"/new?circle={key}"))
    assert "In the circle Thursday table." in form
    answer = post(client, "/new", name=["Ana", "Ben"], circle=key, preset="seed")
    assert answer.status_code == 303
    assert len(api_circle(client, key)["games"]) == 1
    unknown = post(client, "/new", name=["Ana", "Ben"], circle="no-such-circle", preset="seed")
    assert unknown.status_code == 404 and "No such circle" in text(unknown)
    assert len(client.get("/api/circles/" + key).json["games"]) == 1


def test_game_over_keeps_the_tables_games_together_and_a_game_moves_between_circles(
    client: FlaskClient,
) -> None:
    first = game_over(client, ["Ana", "Ben"])
    screen = text(client.get(f"/g/{first}"))
    assert "Keep this table’s games together" in screen
    assert post(client, f"/g/{first}/circle", name="").status_code == 422  # no name: nothing made
    answer = post(client, f"/g/{first}/circle", name="Family")
    assert answer.status_code == 303
    family = answer.headers["Location"].rsplit("/", 1)[-1]
    assert [g["id"] for g in api_circle(client, family)["games"]] == [first]
    club = made_circle(client, "Club")
    form = text(client.get(f"/g/{first}/circle"))
    assert "Family" in form and "Club" in form
    assert post(client, f"/g/{first}/circle", circle=club).status_code == 303
    assert api_circle(client, family)["games"] == []
    assert [g["id"] for g in api_circle(client, club)["games"]] == [first]


def test_the_filters_count_only_the_games_they_keep_and_a_wrong_date_is_said(
    client: FlaskClient,
) -> None:
    key = made_circle(client)
    game_over(client, ["Ana", "Ben"], key)
    game_over(client, ["Ben", "Ana"], key, preset="pagat")
    game_over(client, ["Ben", "Ana", "Cy"], key, preset="pagat")
    assert "3 finished games counted." in text(client.get(f"/c/{key}"))
    assert "2 finished games counted." in text(client.get(f"/c/{key}?preset=pagat"))
    assert "0 finished games counted." in text(client.get(f"/c/{key}?since=2999-01-01"))
    assert "3 finished games counted." in text(client.get(f"/c/{key}?until=2999-01-01&preset=nope"))
    wrong = client.get(f"/c/{key}?since=yesterday")
    assert wrong.status_code == 422
    assert "A date is written as year-month-day" in text(wrong)
    standings = text(client.get(f"/c/{key}?preset=pagat"))
    assert "Ben 2 2 100%" in standings  # Ben won both pagat games (R15)


def test_names_are_renamed_and_merged_and_a_refused_merge_changes_nothing(
    client: FlaskClient,
) -> None:
    key = made_circle(client)
    game_over(client, ["Ana", "Cy"], key)
    game_over(client, ["Cyrus", "Ana", "Ben"], key)
    people = {p["name"]: p for p in api_circle(client, key)["players"]}
    assert set(people) == {"Ana", "Cy", "Cyrus", "Ben"}
    ids = _ids(client, key)
    refused = post(client, f"/c/{key}/people/merge", source=ids["Ana"], into=ids["Cyrus"])
    assert refused.status_code == 422
    assert "Ana and Cyrus played in the same game" in text(refused)
    assert (
        post(client, f"/c/{key}/people/merge", source=ids["Ana"], into=ids["Ana"]).status_code
        == 422
    )
    assert post(client, f"/c/{key}/people/merge", source="x'1", into=ids["Ana"]).status_code == 422
    assert len(api_circle(client, key)["players"]) == 4
    merged = post(client, f"/c/{key}/people/merge", source=ids["Cy"], into=ids["Cyrus"])
    assert merged.status_code == 303
    figures = {p["name"]: (p["games"], p["wins"]) for p in api_circle(client, key)["players"]}
    assert figures == {"Ana": (2, 1), "Cyrus": (2, 1), "Ben": (1, 0)}
    taken = post(client, f"/c/{key}/people/rename", person=ids["Ben"], name="ana")
    assert taken.status_code == 422 and "merge the two instead" in text(taken)
    renamed = post(client, f"/c/{key}/people/rename", person=ids["Ben"], name="Benjamin")
    assert renamed.status_code == 303
    assert "Saved: Benjamin." in text(client.get(renamed.headers["Location"]))


def _ids(client: FlaskClient, key: str) -> dict[str, str]:
    page = client.get(f"/c/{key}/people").get_data(as_text=True)
    import re

    found = re.findall(r'name="person" value="(\d+)">\s*<label><span>([^<]+?) <small>', page)
    return {name: number for number, name in found}


def test_the_watch_link_shows_the_circle_and_offers_no_change(client: FlaskClient) -> None:
    made = client.post("/api/circles", json={"name": "Club"}).json
    game = game_over(client, ["Ana", "Ben"], made["id"])
    watched = client.get(f"/api/games/{game}").json["view_id"]
    page = client.get(f"/cw/{made['view_id']}")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "Club" in text(page) and "Ana" in text(page)
    assert made["id"] not in body and game not in body  # no players' link anywhere
    assert f"/v/{watched}" in body
    assert 'method="post"' not in body and "New game in this circle" not in text(page)
    assert client.get(f"/cw/{made['view_id']}/people").status_code == 404


def test_an_unknown_circle_is_a_page_saying_so(client: FlaskClient) -> None:
    for path in ("/c/nope", "/cw/nope", "/c/nope/people", "/c/%27%3B--"):
        answer = client.get(path)
        assert answer.status_code == 404
        assert "No such circle" in text(answer)
