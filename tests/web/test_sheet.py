"""The score sheet of a game as a page (without JavaScript), as CSV and as JSON, on the
players' link and the watch link, mid-game and at game over."""

from __future__ import annotations

import csv
import io
import random
import re

from tests.scripts import scripted_actions
from tests.tables import Table, text
from webapp.rules import Options

PLAYED = 70  # actions: a few hands settled, one being played


def sheet_game(table: Table, actions: int = PLAYED, target: int | None = None) -> None:
    """Ana, Ben and Cy, tiles played as a table would for ``actions`` actions."""
    table.create("Ana", "Ben", "Cy")
    if target is not None:
        options = Options.make(["Ana", "Ben", "Cy"], target=target)
        table.game_id = table.store.create(options).id
    for action in scripted_actions(random.Random(7), 3, actions):
        snapshot = table.store.get(table.game_id)
        if snapshot.state.status.value == "game_over":
            break
        table.store.apply(table.game_id, snapshot.seq, action)


def view_id(table: Table) -> str:
    return table.store.get(table.game_id).view_id


def test_the_api_gives_the_sides_and_every_hand_with_points_and_totals(table: Table) -> None:
    sheet_game(table)
    state = table.state
    sheet = table.client.get(f"/api/games/{table.game_id}/sheet").get_json()
    assert sheet["sides"] == [{"name": n, "players": [n]} for n in ("Ana", "Ben", "Cy")]
    hands = sheet["hands"]
    assert [hand["number"] for hand in hands] == list(range(1, state.hand_number + 1))
    assert len([hand for hand in hands if hand["settled"]]) == len(state.results) >= 2
    assert hands[-1]["totals"] == list(state.scores) and hands[-1]["end"] is None
    before = [0, 0, 0]
    for hand in hands:
        assert [b + p for b, p in zip(before, hand["points"], strict=True)] == hand["totals"]
        before = hand["totals"]
    assert {hand["end"] for hand in hands[:-1]} <= {"domino", "blocked"}
    watched = table.client.get(f"/api/games/{view_id(table)}/sheet").get_json()
    assert watched == sheet


def test_a_partnership_side_is_its_two_players(client) -> None:  # type: ignore[no-untyped-def]
    players = ["Ana", "Ben", "Cy", "Di"]
    made = client.post("/api/games", json={"players": players, "partnership": True})
    sheet = client.get(f"/api/games/{made.get_json()['id']}/sheet").get_json()
    assert [side["players"] for side in sheet["sides"]] == [["Ana", "Cy"], ["Ben", "Di"]]
    assert sheet["hands"] == []


def test_the_page_shows_every_hand_and_the_totals_without_javascript(table: Table) -> None:
    sheet_game(table)
    state = table.state
    page = table.client.get(f"{table.url}/sheet")
    assert page.status_code == 200
    body = page.text
    rows = re.findall(r'<tr(?: class="sheet-current")?><th scope="row">(\d+)<small>', body)
    assert rows == [str(n) for n in range(1, state.hand_number + 1)]
    assert 'class="sheet-current"' in body and "being played" in body
    foot = body.split("<tfoot>", 1)[1].split("</tfoot>", 1)[0]
    assert re.findall(r"<b>(-?\d+)</b>", foot) == [str(score) for score in state.scores]
    assert 'role="img"' in body and "<polyline" in body and "race-key-target" in body
    assert "Download as CSV" in text(page) and f'href="{table.url}/sheet.csv"' in body


def test_the_csv_matches_the_sheet(table: Table) -> None:
    sheet_game(table)
    answer = table.client.get(f"{table.url}/sheet.csv")
    assert answer.mimetype == "text/csv" and "attachment" in answer.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(answer.text)))
    assert rows[0] == [
        "Hand",
        *("Ana: points", "Ana: total", "Ben: points", "Ben: total", "Cy: points", "Cy: total"),
        "End",
    ]
    sheet = table.client.get(f"/api/games/{table.game_id}/sheet").get_json()
    assert len(rows) - 1 == len(sheet["hands"])
    for row, hand in zip(rows[1:], sheet["hands"], strict=True):
        numbers = [int(cell) for cell in row[1:-1]]
        assert int(row[0]) == hand["number"]
        assert numbers[0::2] == hand["points"] and numbers[1::2] == hand["totals"]
    assert rows[-1][-1] == "being played"


def test_the_watch_link_has_the_sheet_and_never_the_players_link(table: Table) -> None:
    sheet_game(table)
    watch = f"/v/{view_id(table)}"
    page = table.client.get(f"{watch}/sheet")
    assert page.status_code == 200
    assert table.game_id not in page.text and "<form" not in page.text.split("<main", 1)[1]
    assert f'href="{watch}/sheet.csv"' in page.text and f'href="{watch}"' in page.text
    mine = table.client.get(f"{table.url}/sheet.csv").text
    assert table.client.get(f"{watch}/sheet.csv").text == mine


def test_the_sheet_is_one_tap_away_in_more_and_at_game_over(table: Table) -> None:
    sheet_game(table, actions=400, target=60)
    state = table.state
    assert state.status.value == "game_over"
    screen = table.page().text
    assert screen.count(f'href="{table.url}/sheet"') >= 2  # More, and the game-over panel
    assert 'role="img"' in screen  # the race on the game-over panel
    page = table.client.get(f"{table.url}/sheet").text
    winner = state.options.side_name(state.winner)
    assert f"Winner: {winner}." in page and "winner</span>" in page
    watch = table.client.get(f"/v/{view_id(table)}").text
    assert f'href="/v/{view_id(table)}/sheet"' in watch


def test_an_unknown_game_has_no_sheet(client) -> None:  # type: ignore[no-untyped-def]
    assert client.get("/g/nothing/sheet").status_code == 404
    assert client.get("/v/nothing/sheet.csv").status_code == 404
    assert client.get("/api/games/nothing/sheet").status_code == 404


def test_the_race_puts_the_leader_on_top_and_the_target_line_when_in_reach(app) -> None:  # type: ignore[no-untyped-def]
    from webapp.rules import GameState
    from webapp.rules.sheet import score_sheet
    from webapp.ui.race import race

    for target, drawn in ((10_000, False), (60, True)):
        state = GameState.new(Options.make(["Ana", "Ben", "Cy"], target=target))
        for action in scripted_actions(random.Random(7), 3, PLAYED):
            if state.status.value == "game_over":
                break
            state, _ = state.apply(action)
        with app.test_request_context():
            chart = race(score_sheet(state))
        ends = [line.points[-1].y for line in chart.lines]  # drawn downwards: higher is less
        assert sorted(range(3), key=lambda side: ends[side]) == sorted(
            range(3), key=lambda side: -state.scores[side]
        )
        assert all(len(line.points) == state.hand_number + 1 for line in chart.lines)
        assert (chart.target_y >= 0) == drawn
        assert all(0 <= p.y <= chart.height for line in chart.lines for p in line.points)
        assert chart.summary.startswith(f"After {state.hand_number} hands:")
