"""Fives and Threes and time through the pages, without JavaScript (R26–R30): the form, the
hints, the knock, the five for going out, the clock and "Time", rescoring."""

from __future__ import annotations

import re

from tests.scripts import EXAMPLE_C, EXAMPLE_L
from tests.tables import CSRF_TOKEN, Table, text


def test_the_new_game_form_offers_fives_and_threes_by_what_it_does(table: Table) -> None:
    page = text(table.client.get("/new"))
    assert "Fives and Threes" in page
    assert "No spinner and no drawing: counts of five and of three score" in page
    for title in ("Counts that score", "Who leads the next hand", "Getting in", "Time limit"):
        assert title in page
    assert "Never: who cannot play knocks" in page and "9 each for 2, else 6" in page


def test_a_fives_and_threes_hand_through_the_forms(table: Table) -> None:
    table.create("Ana", "Ben", preset="fives-and-threes")
    assert table.state.options.title == "Fives and Threes"
    table.start(0)
    table.enter(EXAMPLE_L[:6])
    table.client.post(f"{table.url}/coaching", data={"on": "1", "csrf_token": CSRF_TOKEN})
    page = table.page().text
    # R26: 6-6 on the left makes [6|6] 12 + 3 = 15: 8 points, marked on the picker.
    assert re.search(r'class="tile fits scores"[^>]*value="6-6"', page)
    assert "+8" in page
    table.enter(EXAMPLE_L[6:10])
    page = table.page()
    assert ">Knock</button>" in page.text and ">Pass</button>" not in page.text
    table.enter(EXAMPLE_L[10:])
    shown = text(table.page())
    assert "Ana knocked" in shown or "Ben went out" in shown
    assert "Going out scores one five; the tiles left count nothing." in shown
    response = table.settle(step="confirm")
    assert response.status_code == 303, text(response)[:300]
    assert table.state.scores == (11, 15)
    assert "Start the next hand: Ben leads (R29)" in text(table.page())


def test_a_timed_game_ends_by_time_in_overtime(table: Table) -> None:
    table.create("Ana", "Ben", time_limit="15")
    page = table.page().text
    assert "data-clock" not in page  # the clock starts with the first lead
    table.start(0)
    table.play("6-1")
    page = table.page().text
    clock = r'<time class="clock" data-clock datetime="[0-9T:-]+Z">1[45]:[0-5]\d</time>'
    assert re.search(clock, page)  # 15 minutes, counting down from the lead
    assert ">Time</button>" in page
    table.post("time")
    shown = text(table.page())
    assert "Overtime: Ana and Ben play on; the first to score wins" in shown
    assert "data-clock" not in table.page().text
    for tile in ("1-3", "6-4", "3-3"):  # Ben's 3-3: 4 + [3|3] 6 = 10, the first to score
        table.play(tile)
    assert "Game over: Ben won" in text(table.page())
    refused = table.post("time")
    assert refused.status_code == 422
    assert "time was called and the game is over" in text(refused) and "R30" in text(refused)


def test_any_finished_game_can_be_rescored_under_fives_and_threes(table: Table) -> None:
    table.create("Ana", "Ben", "Cy")
    table.start(0)
    table.enter(EXAMPLE_C)
    table.settle(step="confirm", tiles_1=["6-5", "1-1"], tiles_2=["3-4"])
    page = table.client.get(f"{table.url}/rescore?preset=fives-and-threes")
    assert page.status_code == 200
    shown = text(page)
    # The draws and the leads stay as played; the counting is Fives and Threes'.
    assert "Rescored Fives and Threes, the standard deal, drawing only when stuck" in shown
    # Example C has a spinner's down end (move 14); Fives and Threes has no spinner (R17).
    assert "Ben’s play of 4-2 on the down end in hand 1, move 14 is not allowed" in shown
    assert "Ana 15 +15 +0 1 +1, not settled" in shown
