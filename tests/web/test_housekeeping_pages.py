"""The players' housekeeping through the pages, as a phone without JavaScript: More → Players
renames a player (the score cards, the sheet and the log say the new name) and ends the game
early (game over says so); Undo takes either back; a bad name changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from flask.testing import FlaskClient

from tests.conftest import AppMaker
from tests.scripts import HAND_OF_FIVE
from tests.tables import CSRF_TOKEN, HX, ApiTable, Table, device, text


def test_more_links_to_the_players_page_on_the_players_link_only(playing: Table) -> None:
    page = playing.page().text
    assert f'href="{playing.url}/players"' in page
    view = playing.store.get(playing.game_id).view_id
    assert "/players" not in playing.client.get(f"/v/{view}").text
    assert playing.client.get(f"/v/{view}/players").status_code in (404, 405)


def test_a_rename_shows_the_new_name_on_the_cards_the_sheet_and_the_log(playing: Table) -> None:
    playing.play("5-5")
    page = playing.client.get(f"{playing.url}/players")
    assert page.status_code == 200
    assert "Seat 3: Cy" in text(page)
    answer = playing.post("rename", seat="2", name="  Cyrus ")
    assert answer.status_code == 303 and answer.location.endswith(playing.url)
    screen = text(playing.page())
    assert "Cy renamed to Cyrus" in screen
    assert "Cyrus" in screen and "Ana · Ben · Cyrus" in screen
    sheet = text(playing.client.get(f"{playing.url}/sheet"))
    assert "Cyrus" in sheet
    log = text(playing.client.get(f"{playing.url}/more"))
    assert "Cy renamed to Cyrus" in log
    csv = playing.client.get(f"{playing.url}/sheet.csv").text
    assert "Cyrus" in csv.splitlines()[0]
    playing.undo()
    assert "Undone: Cy renamed to Cyrus" in text(playing.page())
    assert playing.state.options.players == ("Ana", "Ben", "Cy")


def test_a_bad_name_is_refused_on_the_page_and_changes_nothing(playing: Table) -> None:
    for name, said in (
        ("", "every player needs a name"),
        ("BEN", "each player needs a different name: Ben already plays"),
        ("x" * 31, "names are at most 30 characters"),
    ):
        before = playing.seq
        answer = playing.post("rename", seat="2", name=name)
        assert answer.status_code == 422
        assert said.lower() in text(answer).lower()
        assert playing.seq == before and playing.state.options.players[2] == "Cy"
    answer = playing.post("rename", seat="9", name="Eve")
    assert answer.status_code == 422 and "not a seat" in text(answer)
    answer = playing.post("rename", seat="2", name="BEN")
    assert 'value="BEN"' in answer.text  # what was typed stays, to be corrected


def test_a_stale_rename_is_not_applied(playing: Table) -> None:
    seq = playing.seq
    playing.play("5-5")
    answer = playing.post("rename", seq=seq, seat="2", name="Cyrus")
    assert answer.status_code == 409
    assert playing.state.options.players[2] == "Cy"


def test_ending_early_shows_game_over_and_undo_takes_it_back(playing: Table) -> None:
    playing.play("5-5")
    players = text(playing.client.get(f"{playing.url}/players"))
    assert "Ana is ahead and would win." in players
    answer = playing.post("end")
    assert answer.status_code == 303
    screen = text(playing.page())
    assert "Ana wins!" in screen
    assert "Ended early during hand 1, with the scores as they stood" in screen
    over = text(playing.client.get(f"{playing.url}/players"))
    assert "The game is over: names no longer change." in over
    assert playing.post("end").status_code == 422
    refused = playing.play("6-6")  # a tile tapped after the end: the game-over panel says why
    assert refused.status_code == 422
    assert "Ana wins!" in text(refused) and "Still:" not in text(refused)
    assert playing.post("rename", seat="0", name="Anabel").status_code == 422
    playing.undo()
    assert "Undone: Game ended early" in text(playing.page())
    assert playing.state.status.value == "playing"


def test_a_tie_ended_early_is_said_a_tie(playing: Table) -> None:
    playing.play("5-0")
    playing.play("0-0", end="right")
    assert "Ana and Ben are level: it would be a tie." in text(
        playing.client.get(f"{playing.url}/players")
    )
    playing.post("end")
    screen = text(playing.page())
    assert "A tie: Ana and Ben" in screen


def test_nothing_to_end_before_the_first_hand(table: Table) -> None:
    table.create("Ana", "Ben")
    page = text(table.client.get(f"{table.url}/players"))
    assert "Nothing has been played yet" in page
    assert table.post("end").status_code == 422
    assert table.post("rename", seat="1", name="Benny").status_code == 303
    assert table.state.options.players == ("Ana", "Benny")
    table.undo()
    assert table.state.options.players == ("Ana", "Ben")


def test_the_forms_need_the_devices_token(playing: Table) -> None:
    data = {"seq": playing.seq, "seat": "2", "name": "Cyrus", "csrf_token": CSRF_TOKEN + "x"}
    assert playing.client.post(f"{playing.url}/rename", data=data).status_code in (400, 403)
    assert playing.state.options.players[2] == "Cy"


def test_the_score_sheet_has_a_print_button_for_javascript_only(playing: Table) -> None:
    page = playing.client.get(f"{playing.url}/sheet").text
    assert '<button class="button" type="button" data-print hidden>Print</button>' in page


# --- deleting a game, with an undo window -------------------------------------------------------


def later(monkeypatch: pytest.MonkeyPatch, minutes: int) -> None:
    """The clock ``minutes`` on, for the store's window and the page that counts it down."""
    moved = datetime.now(UTC).replace(tzinfo=None) + timedelta(minutes=minutes)
    monkeypatch.setattr("webapp.store.snapshot.utcnow", lambda: moved)
    monkeypatch.setattr("webapp.web.errors.utcnow", lambda: moved)


def test_delete_hides_the_game_then_undo_brings_it_back(playing: Table) -> None:
    playing.play("5-5")
    assert playing.game_id in playing.client.get("/").text
    answer = playing.client.post(f"{playing.url}/delete", data={"csrf_token": CSRF_TOKEN})
    assert answer.status_code == 303
    gone = playing.page()
    assert gone.status_code == 410
    said = text(gone)
    assert "This game was deleted." in said
    assert "It can be brought back for 10 more minutes." in said
    assert "Undo: bring the game back" in said
    assert playing.game_id not in playing.client.get("/").text  # gone from the device's list
    for page in ("/more", "/sheet", "/players", "/sheet.csv"):
        assert playing.client.get(playing.url + page).status_code == 410
    refused = playing.post("play", seq=1, tile="5-0")
    assert refused.status_code == 410
    again = playing.client.post(f"{playing.url}/delete", data={"csrf_token": CSRF_TOKEN})
    assert again.status_code == 410  # deleting twice changes nothing
    back = playing.client.post(f"{playing.url}/restore", data={"csrf_token": CSRF_TOKEN})
    assert back.status_code == 303
    assert playing.page().status_code == 200
    assert playing.state.scores == (10, 0, 0)  # the game as it was
    assert playing.game_id in playing.client.get("/").text


def test_the_watch_link_says_deleted_and_offers_nothing(playing: Table) -> None:
    view = playing.store.get(playing.game_id).view_id
    assert playing.client.post(
        f"/v/{view}/delete", data={"csrf_token": CSRF_TOKEN}
    ).status_code in (
        403,
        404,
        405,
    )
    playing.client.post(f"{playing.url}/delete", data={"csrf_token": CSRF_TOKEN})
    watched = playing.client.get(f"/v/{view}")
    assert watched.status_code == 410 and "This game was deleted." in text(watched)
    assert "bring the game back" not in text(watched)
    restored = playing.client.post(f"/v/{view}/restore", data={"csrf_token": CSRF_TOKEN})
    assert restored.status_code in (403, 404, 405, 410)
    assert "bring the game back" not in text(restored)
    assert playing.page().status_code == 410


def test_delete_needs_the_devices_token(playing: Table) -> None:
    answer = playing.client.post(f"{playing.url}/delete", data={"csrf_token": "forged"})
    assert answer.status_code in (400, 403)
    assert playing.page().status_code == 200


def test_after_the_window_a_deleted_game_cannot_come_back(
    playing: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    playing.client.post(f"{playing.url}/delete", data={"csrf_token": CSRF_TOKEN})
    later(monkeypatch, 9)
    assert "for 1 more minute." in text(playing.page())
    later(monkeypatch, 11)
    page = playing.page()
    assert page.status_code == 410 and "This game was deleted." in text(page)
    assert "bring the game back" not in text(page)
    back = playing.client.post(f"{playing.url}/restore", data={"csrf_token": CSRF_TOKEN})
    assert back.status_code == 422
    assert "more than 10 minutes ago" in text(back)
    assert playing.page().status_code == 410


def test_restoring_a_game_not_deleted_is_refused(playing: Table) -> None:
    back = playing.client.post(f"{playing.url}/restore", data={"csrf_token": CSRF_TOKEN})
    assert back.status_code == 422 and "not deleted" in text(back)


def test_a_screen_following_a_deleted_game_is_told_to_reload(playing: Table) -> None:
    seq = playing.seq
    playing.client.post(f"{playing.url}/delete", data={"csrf_token": CSRF_TOKEN})
    polled = playing.client.get(f"{playing.url}/poll?seq={seq}", headers=HX)
    assert polled.status_code == 410 and polled.headers["HX-Refresh"] == "true"
    assert playing.store.many([playing.game_id]) == []  # in no device's list


def test_a_game_deleted_by_another_process_is_deleted_here(
    playing: Table, make_app: AppMaker
) -> None:
    """Each process keeps its own cache of games: one that has the game cached still reads
    the game's row first, so a deletion made by another process on the database is seen."""
    playing.play("5-5")
    assert playing.page().status_code == 200  # cached here
    other = device(make_app())
    assert other.post(f"{playing.url}/delete", data={"csrf_token": CSRF_TOKEN}).status_code == 303
    assert playing.page().status_code == 410
    assert playing.post("play", seq=1, tile="5-0").status_code == 410
    assert other.post(f"{playing.url}/restore", data={"csrf_token": CSRF_TOKEN}).status_code == 303
    assert playing.page().status_code == 200 and playing.state.scores == (10, 0, 0)


def test_replay_rescore_and_export_after_a_rename(client: FlaskClient) -> None:
    """The dispute pages replay the whole log from the names the game began with: a rename in
    the middle of it is folded like any action, and the pages say the names now."""
    game = ApiTable(client, ["Ana", "Ben"], rules={"deal": "5"})
    game.act("start_hand", starter="Ana")
    game.act("play", tile="6-6")
    game.act("rename", player="Ben", name="Benny")
    game.enter(HAND_OF_FIVE[1:])
    game.act("end_hand", remaining={"Benny": 3})
    game.act("rename", player="Ana", name="Anabel")
    url = f"/g/{game.id}"
    replay = client.get(f"{url}/replay/1/2")
    assert replay.status_code == 200 and "Benny" in text(replay)
    rescore = client.get(f"{url}/rescore?preset=pagat")
    assert rescore.status_code == 200
    assert "Anabel" in text(rescore) and "Benny" in text(rescore)
    log = text(client.get(f"{url}/more"))
    assert "Ben renamed to Benny" in log and "Ana renamed to Anabel" in log
