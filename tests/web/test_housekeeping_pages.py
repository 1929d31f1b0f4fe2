"""The players' housekeeping through the pages, as a phone without JavaScript: More → Players
renames a player (the score cards, the sheet and the log say the new name) and ends the game
early (game over says so); Undo takes either back; a bad name changes nothing."""

from __future__ import annotations

from tests.tables import CSRF_TOKEN, Table, text


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
