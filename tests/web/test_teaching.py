"""Teaching through the test client: learning mode, the practice board, the guided first hand,
the drawn rules page, and every refusal linking to its rule."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.scripts import EXAMPLE_A, HAND_OF_FIVE
from tests.tables import CSRF_TOKEN, HX, Table, text
from webapp.rules import IllegalAction, Status
from webapp.teaching import lesson

RULE_IDS = [f"R{n}" for n in range(1, 17)] + ["R13p"]


def board_of(url: str) -> str:
    """The ``p`` of a practice URL ('' for the empty board)."""
    return parse_qs(urlsplit(url).query).get("p", [""])[0]


def no_inline_script_or_style(page: str) -> bool:
    scripts = re.findall(r"<script[^>]*>(.*?)</script>", page, flags=re.S)
    return "style=" not in page and "<style" not in page and set(scripts) == {""}


# --- learning mode -------------------------------------------------------------------------------


def learning(table: Table, on: bool) -> None:
    response = table.client.post(
        f"{table.url}/learning", data={"on": "1" if on else "0", "csrf_token": CSRF_TOKEN}
    )
    assert response.status_code == 303 and response.location == table.url


def test_learning_mode_is_off_by_default_and_offered_on_the_game_screen(playing: Table) -> None:
    page = playing.more()  # in More, as its settings' first switch
    assert 'data-setting="learning"' in page.text
    assert 'aria-pressed="false"' in page.text
    assert "Learning mode off" in text(page)
    assert "What fits now" not in text(page) and "Any tile can lead R4" not in text(page)
    assert "What fits now" not in text(playing.page())
    assert playing.store.get(playing.game_id).learning is False


def test_learning_mode_is_stored_with_the_options_not_the_log(playing: Table) -> None:
    seq = playing.seq
    learning(playing, True)
    snapshot = playing.store.get(playing.game_id)
    assert snapshot.learning is True and snapshot.seq == seq
    assert playing.store.export(playing.game_id)["learning"] is True
    assert snapshot.state.options.rules_dict() == playing.state.options.rules_dict()
    page = playing.more()
    assert 'aria-pressed="true"' in page.text and "Learning mode on" in text(page)
    learning(playing, False)
    assert playing.store.get(playing.game_id).learning is False


def test_the_switch_needs_the_csrf_token(playing: Table) -> None:
    response = playing.client.post(f"{playing.url}/learning", data={"on": "1"})
    assert response.status_code == 400
    assert playing.store.get(playing.game_id).learning is False


def test_the_switch_on_a_missing_game_is_a_friendly_404(client: FlaskClient) -> None:
    response = client.post("/g/nope/learning", data={"on": "1", "csrf_token": CSRF_TOKEN})
    assert response.status_code == 404 and "No such game" in text(response)


def test_learning_mode_survives_plays_and_the_cached_state(playing: Table) -> None:
    learning(playing, True)
    playing.play("5-5")
    playing.play("5-3", "left")
    snapshot = playing.store.get(playing.game_id)
    assert snapshot.learning is True and snapshot.seq == 3


def test_learning_mode_lists_the_leads_that_score(playing: Table) -> None:
    learning(playing, True)
    page = playing.page()
    shown = text(page)
    assert "Any tile can lead R4" in shown and "These score as soon as they are led" in shown
    assert "+10 [5|5] 10 = 10" in shown and "+5 3 + 2 = 5" in shown
    assert re.search(r'class="tile fits scores"[^>]*value="5-0"', page.text)


def test_learning_mode_explains_what_fits_and_scores_now(playing: Table) -> None:
    learning(playing, True)
    playing.play("5-5")
    shown = text(playing.page())
    assert "What fits now" in shown and "These would score" in shown
    assert "Left +10 0 + [5|5] 10 = 10" in shown  # 5-0 on the left
    assert "Fit, no points:" in shown and "5-3 (left 13, right 13)" in shown


def test_learning_mode_explains_each_play_in_the_banner(playing: Table) -> None:
    learning(playing, True)
    playing.play("3-2")
    playing.play("2-2", "right")
    page = playing.client.get(playing.url)  # the redirect after the POST
    shown = text(page)
    assert "2-2 is the first double played, so it is the spinner" in shown
    assert "The spinner counts both halves, 4, while a side is open R11" in shown
    assert "Count 3 + [2|2] 4 = 7: not a multiple of 5, no points R11" in shown
    assert 'href="/rules#R9"' in page.text and 'href="/rules#R10"' in page.text


def test_learning_mode_explains_plays_through_htmx_too(playing: Table) -> None:
    learning(playing, True)
    playing.play("3-2")
    playing.play("2-2", "right")
    page = playing.play("2-6", "right", htmx=True)
    assert page.status_code == 200 and page.text.lstrip().startswith(("<div", "{#"))
    shown = text(page)
    assert "Both sides of the spinner 2-2 are covered: up and down are open" in shown
    assert "R10" in shown


def test_without_learning_mode_the_banner_has_no_lesson(playing: Table) -> None:
    playing.play("3-2")
    page = playing.play("2-2", "right", htmx=True)
    assert "is the spinner" not in text(page)
    assert 'class="why' not in page.text


def test_learning_mode_explains_a_draw(table: Table) -> None:
    table.create("Ana", "Ben", deal="5")
    table.start(leader="0")
    learning(table, True)
    table.play("6-6")
    shown = text(table.draw(htmx=True))
    assert "A player who cannot play draws from the boneyard" in shown and "R6" in shown


def test_learning_mode_explains_the_rounding_before_a_hand_is_settled(table: Table) -> None:
    table.create("Ana", "Ben", deal="5")
    table.start(leader="0")
    learning(table, True)
    table.enter(HAND_OF_FIVE)
    assert table.state.status is Status.HAND_OVER
    preview = f"{table.url}/settle/preview"
    shown = text(table.client.get(preview, query_string={"pips_1": "3"}))
    assert "3 pips round up to 5: 3 is 3 past 0, and 3 or 4 past rounds up R13" in shown
    learning(table, False)
    assert "round up to 5" not in text(table.client.get(preview, query_string={"pips_1": "3"}))


def test_learning_switch_is_not_offered_once_the_game_is_over(table: Table) -> None:
    table.create("Ana", "Ben", target="5")
    table.start(leader="0")
    table.play("5-0")
    assert table.state.status is Status.GAME_OVER
    assert 'data-setting="learning"' not in table.page().text


# --- the practice board --------------------------------------------------------------------------


def test_the_empty_practice_board_offers_every_tile_as_a_lead(client: FlaskClient) -> None:
    page = client.get("/practice")
    assert page.status_code == 200
    shown = text(page)
    assert "Practice board" in shown and "An empty table." in shown
    assert len(re.findall(r'<button class="tile[^"]*" name="add"', page.text)) == 28
    assert len(re.findall(r'aria-label="\d-\d(?: \+\d+| fits)?"', page.text)) == 28
    assert "Scores now" in shown and "Lead +10 [5|5] 10 = 10" in shown
    assert "Lead for no points" in shown
    assert "Undo last tile" not in shown
    assert 'method="get"' in page.text and 'action="/practice"' in page.text


def test_a_tap_on_a_single_place_adds_the_tile_and_redirects_to_the_board(
    client: FlaskClient,
) -> None:
    response = client.get("/practice?p=5-5,5-3:left&add=5-2")
    assert response.status_code == 303
    assert board_of(response.location) == "5-5,5-3:left,5-2:right"
    page = client.get(response.location)
    shown = text(page)
    assert "Count 5 3 + 2 = 5 +5" in shown
    assert "Both sides of the spinner 5-5 are covered: up and down are open" in shown
    assert 'href="/rules#R10"' in page.text


def test_the_lead_is_added_as_tapped(client: FlaskClient) -> None:
    response = client.get("/practice?add=3-2")
    assert board_of(response.location) == "3-2"
    assert "3-2 leads: any tile may lead" in text(client.get(response.location))


def test_a_tile_fitting_several_ends_asks_where(client: FlaskClient) -> None:
    board = "5-5,5-3:left,5-2:right"
    page = client.get(f"/practice?p={board}&add=3-2")
    assert page.status_code == 200
    shown = text(page)
    assert "Where does" in shown and "3-2 go?" in shown
    assert "Left 0 points" in shown and "Right 0 points" in shown
    assert 'name="add" value="3-2:left"' in page.text
    assert 'name="add" value="3-2:right"' in page.text
    assert client.get(f"/practice?p={board}&add=3-2:left").status_code == 303


def test_a_tile_whose_places_are_mirror_images_is_added_without_asking(
    client: FlaskClient,
) -> None:
    response = client.get("/practice?p=5-5&add=5-3")
    assert response.status_code == 303
    assert board_of(response.location) == "5-5,5-3:left"


def test_the_what_if_table_lists_every_legal_place_with_its_points(client: FlaskClient) -> None:
    page = client.get("/practice?p=5-5,5-3:left,5-2:right")
    shown = text(page)
    assert "Up +5 3 + 2 + 0 = 5" in shown and "Down +5 3 + 2 + 0 = 5" in shown  # 5-0
    links = re.findall(r'href="(/practice\?p=[^"]+)"', page.text)
    assert "/practice?p=5-5,5-3:left,5-2:right,5-0:up" in links
    assert "/practice?p=5-5,5-3:left,5-2:right,5-0:down" in links
    assert "Don’t fit" in shown and "1-1" in shown.split("Don’t fit")[1]
    # every unplayed tile is accounted for: placed somewhere, or listed as not fitting
    # each place is named by what it shows, after its tile (WCAG 2.5.3: "5-0 Up +5 …")
    named = '<span class="visually-hidden">5-0 </span><span class="whatif-arm">Up</span>'
    assert named in page.text
    assert re.search(r'class="whatif-chip" href="[^"]+"><b>6-5</b> <span>up 11</span>', page.text)


def test_undo_and_clear_are_links_to_shorter_boards(client: FlaskClient) -> None:
    page = client.get("/practice?p=5-5,5-3:left,5-2:right").text
    undo = re.search(r'href="([^"]+)">Undo last tile', page)
    assert undo is not None and board_of(undo.group(1).replace("&amp;", "&")) == "5-5,5-3:left"
    assert re.search(r'href="/practice">Clear<', page)


def test_played_tiles_are_disabled_and_fitting_ones_marked(client: FlaskClient) -> None:
    page = client.get("/practice?p=5-5,5-3:left").text
    assert re.search(r'aria-label="5-5"\s+disabled', page)
    assert re.search(r'class="tile fits scores"[^>]*value="5-2"', page)  # 3 + 2 = 5
    assert re.search(r'class="tile fits"[^>]*value="5-0"', page)  # 3 + 0 = 3
    assert re.search(r'class="tile"[^>]*value="1-1"', page)


@pytest.mark.parametrize(
    ("query", "message", "rule"),
    [
        ("p=5-5,5-2:up", "Tile 2, '5-2:up': the spinner's up and down open once", "R10"),
        ("p=3-2,2-1:up", "there is no up end yet", "R9"),
        ("p=5-5,5-5:left", "5-5 is already on the table", "R1"),
        ("p=5-5,6-1:left", "the left end shows 5, and 6-1 has no 5", "R5"),
        ("p=5-5:left", "a lead goes on no end", "R4"),
        ("p=5-5,5-3:sideways", "is not an end: say left, right, up or down", "R5"),
        ("p=9-9", "is not a tile of a double-six set", None),
        ("p=hello", "is not a tile: write it like 6-4", None),
        ("p=" + "5-5," * 200, "board is at most 28 tiles", None),
    ],
)
def test_a_bad_board_link_is_a_friendly_400(
    client: FlaskClient, query: str, message: str, rule: str | None
) -> None:
    page = client.get(f"/practice?{query}")
    assert page.status_code == 400
    shown = text(page)
    assert "This board link has a mistake" in shown and message in shown
    if rule:
        assert f'href="/rules#{rule}"' in page.text
    assert "Tap a tile" in shown  # still a working board


def test_a_bad_board_keeps_the_tiles_before_the_mistake(client: FlaskClient) -> None:
    page = client.get("/practice?p=5-5,5-3:left,1-1:up")
    assert page.status_code == 400
    assert "keeps the 2 tiles before it" in text(page)
    assert "Count 13 3 + [5|5] 10 = 13" in text(page)


@pytest.mark.parametrize(
    ("query", "message", "rule"),
    [
        ("p=5-5&add=6-6", "no open end shows 6: open ends are 5", "R5"),
        ("p=5-5&add=5-5", "5-5 is already on the table", "R1"),
        ("p=5-5&add=5-0:up", "both its sides are covered", "R10"),
        ("p=5-5&add=banana", "is not a tile", None),
        ("p=5-5&add=" + "x" * 500, "is not a tile", None),
    ],
)
def test_a_refused_tap_says_why_with_its_rule(
    client: FlaskClient, query: str, message: str, rule: str | None
) -> None:
    page = client.get(f"/practice?{query}")
    assert page.status_code == 422
    shown = text(page)
    assert "Not allowed" in shown and message.lower() in shown.lower()
    if rule:
        assert f'href="/rules#{rule}"' in page.text
    assert "Count 10" in shown  # the board is unchanged


def test_an_empty_tap_on_the_empty_board_is_refused(client: FlaskClient) -> None:
    page = client.get("/practice?add=")
    assert page.status_code == 422 and "is not a tile" in text(page)


def test_a_whole_game_can_be_built_on_the_practice_board(client: FlaskClient) -> None:
    url = "/practice"
    for tap in (move.step() for move in EXAMPLE_A[:9]):
        separator = "&" if "?" in url else "?"
        response = client.get(f"{url}{separator}add={tap}")
        assert response.status_code == 303, (tap, text(response))
        url = response.location
    shown = text(client.get(url))
    assert "Count 25 0 + [6|6] 12 + [4|4] 8 + 5 = 25 +25" in shown


# --- the guided first hand -----------------------------------------------------------------------


def test_every_step_of_the_guided_hand_renders(client: FlaskClient) -> None:
    total = len(lesson.steps())
    for number in range(1, total + 1):
        page = client.get(f"/learn/{number}")
        assert page.status_code == 200, number
        assert f"Step {number} of {total}" in text(page)
        assert no_inline_script_or_style(page.text)
    first = client.get("/learn").text
    assert first.split("<main", 1)[1] == client.get("/learn/1").text.split("<main", 1)[1]


def test_next_and_back_walk_the_hand(client: FlaskClient) -> None:
    first = client.get("/learn/1").text
    assert re.search(r'<a class="button primary big" href="/learn/2" rel="next">Next ', first)
    assert 'rel="prev"' not in first
    middle = client.get("/learn/5").text
    assert 'href="/learn/4" rel="prev"><span aria-hidden="true">←</span> Back</a>' in middle
    assert 'href="/learn/6" rel="next">Next <span aria-hidden="true">→</span></a>' in middle
    last = client.get(f"/learn/{len(lesson.steps())}").text
    assert 'rel="next"' not in last and "Start over" in last


@pytest.mark.parametrize("number", [0, 17, 999])
def test_a_step_out_of_range_is_a_friendly_404(client: FlaskClient, number: int) -> None:
    page = client.get(f"/learn/{number}")
    assert page.status_code == 404 and "there is no step" in text(page)


def test_bad_step_urls_are_404(client: FlaskClient) -> None:
    assert client.get("/learn/abc").status_code == 404
    assert client.get("/learn/-1").status_code == 404


def test_the_guided_hand_teaches_each_point_the_issue_lists(client: FlaskClient) -> None:
    pages = {n: text(client.get(f"/learn/{n}")) for n in range(1, len(lesson.steps()) + 1)}
    whole = " ".join(pages.values())
    assert "is the first double played, so it is the spinner" in whole  # the spinner
    assert "Both sides of the spinner 2-2 are covered: up and down are open" in whole  # R10
    assert "A double at the end of an arm counts both halves: 12" in whole  # doubles at ends
    assert "a multiple of 5, scores 25" in whole  # a 25-point play
    assert "13 pips round up to 15" in whole and "7 pips round down to 5" in whole  # rounding
    assert "None of Ben’s tiles fits an open end (0, 4, 4, 5)" in whole  # drawing
    assert "Ana played their last tile: the hand ends at once" in whole  # going out


def test_the_guided_hand_is_computed_by_the_engine(client: FlaskClient) -> None:
    steps = lesson.steps()
    scoring = [(step.number, step.outcome.points) for step in steps if step.outcome.points]
    assert (9, 25) in scoring
    settled = steps[-1].outcome.result
    assert settled is not None
    assert settled.pips == (0, 13, 7) and settled.rounded == (0, 15, 5)
    assert settled.settled == (0, -15, -5)
    page = text(client.get(f"/learn/{len(steps)}"))
    for name, score in zip(lesson.PLAYERS, steps[-1].state.scores, strict=True):
        assert f"{name} {score}" in page


def test_the_script_is_a_legal_hand(client: FlaskClient) -> None:
    """Each player plays a tile they hold; nobody draws while holding a tile that fits (R6)."""
    for step in lesson.steps():
        if step.kind == "play":
            assert step.tile in step.held
        if step.kind == "draw":
            assert step.fitting == ()
    assert all(not holding.tiles for holding in lesson.steps()[-2].hands[:1])


def test_each_guided_step_draws_the_board_and_links_its_rules(client: FlaskClient) -> None:
    page = client.get("/learn/4").text
    assert '<svg class="layout"' in page and 'aria-label="The layout:' in page
    assert 'href="/rules#R10"' in page
    assert "Cy’s tiles before this play" in text(client.get("/learn/4"))


# --- the rules page, refusals and the home page ------------------------------------------------


def test_the_rules_page_has_every_rule_and_drawn_examples(client: FlaskClient) -> None:
    page = client.get("/rules")
    for rule in RULE_IDS:
        assert f'id="{rule}"' in page.text
    assert page.text.count('<figure class="rule-figure">') >= 7
    shown = text(page)
    assert "Count 25 0 + [6|6] 12 + [4|4] 8 + 5 = 25 +25" in shown
    assert "Count 7 3 + [2|2] 4 = 7" in shown
    assert 'href="/practice?p=3-2,2-2:right,2-6:right"' in page.text
    assert "Pips held 2 3 7 8 12 13 You lose 0 5 5 10 10 15" in shown
    assert no_inline_script_or_style(page.text)


@pytest.mark.parametrize(
    "path", ["/practice", "/practice?p=5-5,5-3:left", "/practice?p=bad", "/learn/9"]
)
def test_teaching_pages_have_no_inline_script_or_style(client: FlaskClient, path: str) -> None:
    assert no_inline_script_or_style(client.get(path).text)


def test_every_rule_linked_from_the_app_has_an_anchor(client: FlaskClient) -> None:
    anchors = set(re.findall(r'id="(R\d+p?)"', client.get("/rules").text))
    linked = set()
    for path in ["/practice?p=5-5,5-3:left", "/rules"] + [
        f"/learn/{n}" for n in range(1, len(lesson.steps()) + 1)
    ]:
        linked |= set(re.findall(r'href="/rules#(R\d+p?)"', client.get(path).text))
    assert linked and linked <= anchors


def test_game_refusals_link_to_their_rule(playing: Table) -> None:
    playing.play("5-5")
    for tile, end, rule in [("5-0", "up", "R10"), ("6-6", None, "R5"), ("5-5", None, "R1")]:
        page = playing.play(tile, end, htmx=True)
        assert page.status_code == 422
        assert f'href="/rules#{rule}"' in page.text


def test_a_refused_new_game_links_to_its_rule(table: Table) -> None:
    page = table.create("Ana", "Ben", "", target="3")
    assert page.status_code == 422
    assert 'href="/rules#R15"' in page.text


def test_a_refusal_on_an_error_page_links_to_its_rule(app: Flask) -> None:
    @app.get("/refused-for-the-test")
    def refused() -> str:
        raise IllegalAction("no_spinner", "there is no up end yet", "R9")

    page = app.test_client().get("/refused-for-the-test")
    assert page.status_code == 422
    assert "there is no up end yet" in text(page) and 'href="/rules#R9"' in page.text


def test_home_links_to_learning(client: FlaskClient) -> None:
    page = client.get("/")
    for href in ('href="/learn"', 'href="/practice"', 'href="/rules"'):
        assert href in page.text
    assert "Guided first hand" in text(page) and "Practice board" in text(page)


def test_htmx_header_does_not_change_teaching_pages(client: FlaskClient) -> None:
    assert client.get("/practice", headers=HX).status_code == 200
    assert client.get("/learn/2", headers=HX).status_code == 200
