"""Circles' loose ends, through the JSON API and the pages: game over names the circle a game is
in (and the move to another stays a deliberate step); two phones moving one game at once get
one move and a clear answer, never a 500 or half a move; a player renamed inside a game of a
circle (a typo fixed) is seated as the person of the new name, and Undo seats them back, the
figures equal to a count made here from the games' own states (R15: the target ends a game);
and people whose games left the circle are no longer in its standings, but still on its Names
page."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from tests.api.test_api_circles import figures, independent_count, new_circle, rows, store_of
from tests.tables import CSRF_TOKEN, device, text
from webapp.store.circle_people import CirclePeople
from webapp.store.circle_rows import CIRCLES, MEMBERS, SEATS
from webapp.store.circles import Circles


def post(client: FlaskClient, url: str, **form: Any) -> Any:
    return client.post(url, data={"csrf_token": CSRF_TOKEN, **form})


def act(client: FlaskClient, state: dict[str, Any], **action: Any) -> Any:
    return client.post(f"/api/games/{state['id']}/actions", json={"seq": state["seq"], **action})


def started(client: FlaskClient, players: list[str], circle: str | None = None) -> dict[str, Any]:
    """A game to 10 in ``circle``, its first hand started by the first player."""
    body: dict[str, Any] = {"players": players, "rules": {"target": 10}}
    if circle:
        body["circle"] = circle
    state = client.post("/api/games", json=body).json
    answer = act(client, state, type="start_hand", starter=players[0])
    assert answer.status_code == 200, answer.json
    found: dict[str, Any] = answer.json["state"]
    return found


def won(client: FlaskClient, state: dict[str, Any]) -> dict[str, Any]:
    """The player to lead plays 5-5: 10, the target (R11, R15)."""
    answer = act(client, state, type="play", tile="5-5")
    assert answer.status_code == 200, answer.json
    found: dict[str, Any] = answer.json["state"]
    assert found["status"] == "game_over"
    return found


def shown(client: FlaskClient, key: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/circles/{key}").json
    return found


def where(client: FlaskClient, game: str) -> list[str]:
    """The circles holding ``game``, and that each of its seats is seated once."""
    with store_of(client).engine.connect() as db:
        held = list(db.scalars(select(MEMBERS.c.circle_id).where(MEMBERS.c.game_id == game)))
        seats = db.scalar(select(func.count()).select_from(SEATS).where(SEATS.c.game_id == game))
    assert seats == (2 if held else 0)
    return held


# --- 1. game over names the circle ---------------------------------------------------------------


def test_game_over_in_a_circle_links_to_it_instead_of_offering_to_keep_it(
    client: FlaskClient,
) -> None:
    family = new_circle(client, "Family <b>")
    game = won(client, started(client, ["Ana", "Ben"], family["id"]))
    screen = client.get(f"/g/{game['id']}").text
    assert "Keep this table’s games together" not in screen
    assert f'In the circle <a href="/c/{family["id"]}">Family &lt;b&gt;</a>.' in screen
    assert "Move it to another circle" in screen
    watch = client.get(f"/v/{game['view_id']}").text
    assert f'<a href="/cw/{family["view_id"]}">Family &lt;b&gt;</a>' in watch
    assert family["id"] not in watch and "Move it to another circle" not in watch
    alone = won(client, started(client, ["Ana", "Ben"]))
    assert "Keep this table’s games together" in text(client.get(f"/g/{alone['id']}"))
    assert "In the circle" not in text(client.get(f"/g/{alone['id']}"))


def test_the_move_page_says_where_the_game_is_and_offers_only_the_other_circles(
    app: Flask,
) -> None:
    phone = device(app)
    family = post(phone, "/circles/new", name="Family").headers["Location"].rsplit("/", 1)[-1]
    club = post(phone, "/circles/new", name="Club").headers["Location"].rsplit("/", 1)[-1]
    game = won(phone, started(phone, ["Ana", "Ben"], family))
    form = phone.get(f"/g/{game['id']}/circle").text
    assert "Move this game to another circle" in form
    assert "This game is in the circle Family" in form
    assert f'value="{club}"' in form and f'name="circle" value="{family}"' not in form
    assert post(phone, f"/g/{game['id']}/circle", circle=club, was=family).status_code == 303
    assert where(phone, game["id"]) == [club]
    assert "In the circle Club" in text(phone.get(f"/g/{game['id']}"))


# --- 2. two phones moving one game at once -------------------------------------------------------


def test_a_move_made_from_a_page_that_is_out_of_date_is_said_and_changes_nothing(
    app: Flask,
) -> None:
    first, second = device(app), device(app)
    game = won(first, started(first, ["Ana", "Ben"]))
    club = new_circle(first, "Club")["id"]
    assert 'name="was" value=""' in first.get(f"/g/{game['id']}/circle").text
    assert post(first, f"/g/{game['id']}/circle", circle=club, was="").status_code == 303
    circles_before = rows(first, CIRCLES)
    late = post(second, f"/g/{game['id']}/circle", name="Family", was="")  # its page: no circle
    assert late.status_code == 422
    said = text(late)
    assert "This game is now in the circle Club: nothing was changed" in said
    assert "Move this game to another circle" in said  # the form again, as things now stand
    assert rows(first, CIRCLES) == circles_before  # no circle "Family" half-made
    assert where(first, game["id"]) == [club]


def test_two_phones_moving_one_game_into_two_circles_at_once_get_one_move_and_a_clear_answer(
    app: Flask,
) -> None:
    setup = app.test_client()
    for attempt in range(4):
        circles = [new_circle(setup, f"Circle {attempt}{n}")["id"] for n in range(2)]
        game = won(setup, started(setup, ["Ana", "Ben"]))["id"]
        answers: list[Any] = [None, None]
        ready = threading.Barrier(2)

        def move(
            n: int,
            game: str = game,
            circles: list[str] = circles,
            ready: threading.Barrier = ready,
            answers: list[Any] = answers,
        ) -> None:
            phone = app.test_client()
            ready.wait()
            answers[n] = phone.post(
                f"/api/circles/{circles[n]}/games", json={"game": game, "from": None}
            )

        threads = [threading.Thread(target=move, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        codes = sorted(answer.status_code for answer in answers)
        assert codes == [200, 422], [a.json for a in answers]
        moved = next(n for n in range(2) if answers[n].status_code == 200)
        refused = answers[1 - moved].json["error"]
        assert refused["code"] == "in_another_circle"
        assert f"now in the circle Circle {attempt}{moved}" in refused["message"]
        assert where(setup, game) == [circles[moved]]
        assert shown(setup, circles[1 - moved])["games"] == []


def test_a_rival_move_committed_between_the_look_and_the_write_is_said_not_a_500(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race as PostgreSQL sees it (each move holds only its own circle's row): the rival
    move commits after this one looked where the game is; the members' unique key refuses
    this one, which then says where the game went, with nothing of it written."""
    game = won(client, started(client, ["Ana", "Ben"]))
    club, family = new_circle(client, "Club")["id"], new_circle(client, "Family")["id"]
    assert client.post(f"/api/circles/{club}/games", json={"game": game["id"]}).status_code == 200
    revision = shown(client, family)
    # This move looked before the rival's commit: it saw the game in no circle.
    monkeypatch.setattr(Circles, "_where", staticmethod(lambda db, game_id: None))
    answer = client.post(f"/api/circles/{family}/games", json={"game": game["id"]})
    assert answer.status_code == 422, answer.json
    assert answer.json["error"]["code"] == "in_another_circle"
    assert "now in the circle Club" in answer.json["error"]["message"]
    monkeypatch.undo()
    assert shown(client, family)["games"] == [] and shown(client, family)["players"] == []
    with store_of(client).engine.connect() as db:
        assert db.scalar(select(CIRCLES.c.revision).where(CIRCLES.c.id == family)) == 0
    assert where(client, game["id"]) == [club]  # its seats once, the club's: no half move
    assert revision == shown(client, family)


def test_a_move_by_the_api_names_where_it_saw_the_game_or_moves_it_from_anywhere(
    client: FlaskClient,
) -> None:
    club, family = new_circle(client, "Club")["id"], new_circle(client, "Family")["id"]
    game = won(client, started(client, ["Ana", "Ben"], club))["id"]
    stale = client.post(f"/api/circles/{family}/games", json={"game": game, "from": None})
    assert stale.status_code == 422 and stale.json["error"]["code"] == "in_another_circle"
    wrong = client.post(f"/api/circles/{family}/games", json={"game": game, "from": 7})
    assert wrong.status_code == 422 and wrong.json["error"]["code"] == "from"
    assert where(client, game) == [club]
    seen = client.post(f"/api/circles/{family}/games", json={"game": game, "from": club})
    assert seen.status_code == 200 and where(client, game) == [family]
    assert client.post(f"/api/circles/{club}/games", json={"game": game}).status_code == 200
    assert where(client, game) == [club]


# --- 3. a rename inside a game of a circle -------------------------------------------------------


def test_a_rename_in_a_game_seats_the_new_name_and_undo_seats_the_old_one_back(
    app: Flask,
) -> None:
    phone = device(app)
    circle = new_circle(phone, "Thursday table")
    key = circle["id"]
    earlier = won(phone, started(phone, ["Cyrus", "Ben"], key))
    state = started(phone, ["Ana", "Cy"], key)
    people = {p.name: p.games for p in store_of(phone).circles.people(key)}
    assert people == {"Ana": 1, "Ben": 1, "Cy": 1, "Cyrus": 1}
    renamed = act(phone, state, type="rename", seat=1, name="Cyrus")
    assert renamed.status_code == 200, renamed.json
    state = renamed.json["state"]
    people = {p.name: p.games for p in store_of(phone).circles.people(key)}
    assert people == {"Ana": 1, "Ben": 1, "Cy": 0, "Cyrus": 2}
    undone = act(phone, state, type="undo")
    assert undone.status_code == 200
    state = undone.json["state"]
    people = {p.name: p.games for p in store_of(phone).circles.people(key)}
    assert people == {"Ana": 1, "Ben": 1, "Cy": 1, "Cyrus": 1}
    # Fixed again, through the players' page this time, then the game is won by Ana.
    page = post(phone, f"/g/{state['id']}/rename", seq=state["seq"], seat="1", name="cyrus")
    assert page.status_code == 303, text(page)
    state = phone.get(f"/api/games/{state['id']}").json
    assert [p["name"] for p in state["players"]] == ["Ana", "cyrus"]
    state = won(phone, state)
    circle = shown(phone, key)
    expected = independent_count([earlier, state], {"cyrus": "Cyrus"})
    assert figures(circle) == expected
    assert expected["Cyrus"] == {"games": 2, "wins": 1, "points": 10}
    assert "Cy" not in {p["name"] for p in circle["players"]}
    standings = text(phone.get(f"/c/{key}"))
    assert "Cyrus 2 1 50%" in standings
    names = text(phone.get(f"/c/{key}/people"))
    assert "Cy" in names.replace("Cyrus", "")  # still on the Names page, to merge or come back


def revision(client: FlaskClient, key: str) -> int | None:
    with store_of(client).engine.connect() as db:
        found: int | None = db.scalar(select(CIRCLES.c.revision).where(CIRCLES.c.id == key))
    return found


def test_a_rename_whose_circle_seat_fails_to_be_written_changes_nothing_and_says_so(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rename and the circle's seat are one write: when seating the new name fails after
    the new person was made, the game keeps its old name and the seat its old person, and the
    players' page says that nothing was changed, without a traceback."""
    key = new_circle(client)["id"]
    state = started(client, ["Ana", "Cy"], key)
    seat = CirclePeople._seat

    def seat_then_fail(self: CirclePeople, db: Any, *args: Any) -> None:
        seat(self, db, *args)
        raise RuntimeError("the server stopped between the two writes")

    before = revision(client, key)
    monkeypatch.setattr(CirclePeople, "_seat", seat_then_fail)
    page = post(client, f"/g/{state['id']}/rename", seq=state["seq"], seat="1", name="Cyrus")
    monkeypatch.undo()
    assert page.status_code == 500
    said = text(page)
    assert "Something went wrong on our side. Nothing was changed; please try again." in said
    assert "Traceback" not in said and "RuntimeError" not in said
    after = client.get(f"/api/games/{state['id']}").json
    assert after["seq"] == state["seq"]
    assert [p["name"] for p in after["players"]] == ["Ana", "Cy"]
    people = store_of(client).circles.people(key)
    assert {p.name: p.games for p in people} == {"Ana": 1, "Cy": 1}  # no Cyrus made either
    assert revision(client, key) == before
    # Sent again once the fault is gone, the rename is made, and the seat moves with it.
    again = post(client, f"/g/{state['id']}/rename", seq=state["seq"], seat="1", name="Cyrus")
    assert again.status_code == 303, text(again)
    assert {p.name: p.games for p in store_of(client).circles.people(key)} == {
        "Ana": 1,
        "Cy": 0,
        "Cyrus": 1,
    }


def test_a_rename_that_would_seat_one_person_twice_in_the_circle_is_refused(
    client: FlaskClient,
) -> None:
    key = new_circle(client)["id"]
    state = started(client, ["Bob", "Cy"], key)
    circles = store_of(client).circles
    bob = next(p.id for p in circles.people(key) if p.name == "Bob")
    circles.rename(key, bob, "Robert")  # the circle knows Bob as Robert
    refused = act(client, state, type="rename", seat=1, name="robert")
    assert refused.status_code == 422
    said = refused.json["error"]["message"]
    assert "in the circle Thursday table, robert is already a player of this game" in said
    after = client.get(f"/api/games/{state['id']}").json
    assert after["seq"] == state["seq"]
    assert [p["name"] for p in after["players"]] == ["Bob", "Cy"]
    assert {p.name: p.games for p in circles.people(key)} == {"Robert": 1, "Cy": 1}


def test_a_game_renamed_before_it_joins_a_circle_is_seated_by_its_names_now(
    client: FlaskClient,
) -> None:
    key = new_circle(client)["id"]
    state = started(client, ["Ana", "Cy"])
    state = act(client, state, type="rename", seat=1, name="Cyrus").json["state"]
    assert store_of(client).circles.people(key) == []  # no circle of its own to change
    state = won(client, state)
    assert client.post(f"/api/circles/{key}/games", json={"game": state["id"]}).status_code == 200
    assert figures(shown(client, key)) == independent_count([state], {})
    assert {p.name for p in store_of(client).circles.people(key)} == {"Ana", "Cyrus"}


# --- 4. people whose games left the circle -------------------------------------------------------


def test_people_whose_games_moved_out_leave_the_standings_but_not_the_names_page(
    app: Flask,
) -> None:
    phone = device(app)
    family, club = new_circle(phone, "Family")["id"], new_circle(phone, "Club")["id"]
    kept = won(phone, started(phone, ["Ana", "Ben"], family))
    moved = won(phone, started(phone, ["Dee", "Eve"], family))
    assert {p["name"] for p in shown(phone, family)["players"]} == {"Ana", "Ben", "Dee", "Eve"}
    assert post(phone, f"/g/{moved['id']}/circle", circle=club, was=family).status_code == 303
    assert [p["name"] for p in shown(phone, family)["players"]] == ["Ana", "Ben"]
    assert figures(shown(phone, family)) == independent_count([kept], {})
    standings = text(phone.get(f"/c/{family}"))
    assert "Dee" not in standings and "Eve" not in standings
    names = text(phone.get(f"/c/{family}/people"))
    assert "Dee" in names and "Eve" in names
    assert [p["name"] for p in shown(phone, club)["players"]] == ["Dee", "Eve"]
