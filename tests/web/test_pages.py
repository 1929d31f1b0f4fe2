"""The pages through Flask's test client: each flow, as the words a player sees."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.conftest import AppMaker
from tests.scripts import HAND_OF_FIVE
from tests.tables import CSRF_TOKEN, HX, Table, device, text
from webapp.i18n import COOKIE
from webapp.rules import Action, EndHand, StartHand, Status
from webapp.rules.options import OPTION_SPECS, PRESET_LIST

# --- home, rules, new game ------------------------------------------------------------------------


def test_home_offers_a_new_game_and_the_rules(client: FlaskClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'href="/new"' in page.text
    assert 'href="/rules"' in page.text
    assert "No games yet" in text(page)


def test_rules_page_has_an_anchor_per_rule(client: FlaskClient) -> None:
    page = client.get("/rules")
    for rule in [f"R{n}" for n in range(1, 26)] + ["R13p"]:
        assert f'id="{rule}"' in page.text
    assert "Sides before ends" in text(page)


def test_new_game_form_starts_with_three_name_fields(client: FlaskClient) -> None:
    page = client.get("/new")
    assert page.text.count('name="name"') == 3
    assert "House rules" in text(page)
    assert "Start game" in text(page)


def test_the_partnership_box_is_offered_only_with_four_players(client: FlaskClient) -> None:
    """R2: partnerships need four players; without JavaScript the box comes with the fourth
    name field."""
    assert 'name="partnership"' not in client.get("/new").text
    four = client.post(
        "/new", data={"name": ["Ana", "Ben", "Cy"], "resize": "add", "csrf_token": CSRF_TOKEN}
    )
    assert 'name="partnership"' in four.text
    three = client.post(
        "/new", data={"name": ["A", "B", "C", "D"], "resize": "remove", "csrf_token": CSRF_TOKEN}
    )
    assert 'name="partnership"' not in three.text


def test_the_form_offers_every_preset_and_every_house_rule_with_its_rule(
    client: FlaskClient,
) -> None:
    page = client.get("/new")
    for preset in PRESET_LIST:
        assert f'name="preset" value="{preset.name}"' in page.text
        assert preset.sentence.replace("’", "&#8217;") in page.text or preset.sentence in page.text
    for spec in OPTION_SPECS:
        assert f'<select name="{spec.name}">' in page.text
        assert f'href="/rules#{spec.rule}"' in page.text
        for label in spec.labels:
            assert label in page.text.replace("&#8217;", "’")
    assert page.text.count('name="preset"') == len(PRESET_LIST)  # one control for the preset


def test_a_preset_with_house_rules_is_played_by_them_and_named_so(table: Table) -> None:
    table.create("Ana", "Ben", preset="muggins", rounding="up", reserve="1")
    options = table.state.options
    assert (options.spinner, options.rounding, options.reserve) == ("none", "up", 1)
    assert options.title == "Muggins, the last tile never drawn, rounding up"


@pytest.mark.parametrize(("resize", "fields"), [("add", 4), ("remove", 2)])
def test_players_are_added_and_removed_without_javascript(
    client: FlaskClient, resize: str, fields: int
) -> None:
    page = client.post(
        "/new", data={"name": ["Ana", "Ben", "Cy"], "resize": resize, "csrf_token": CSRF_TOKEN}
    )
    assert page.status_code == 200
    assert page.text.count('name="name"') == fields
    assert 'value="Ana"' in page.text
    assert 'value="Ben"' in page.text


def test_enter_in_the_form_starts_the_game_and_never_adds_a_player(client: FlaskClient) -> None:
    """Enter in a field submits the form through its first submit button (also without
    JavaScript): that one starts the game. Each name's keyboard key says "next", the last "go"."""
    page = client.get("/new").text
    form = page[page.index("<form") : page.index("</form>")]
    buttons = re.findall(r"<button[^>]*>", form)
    assert 'type="submit"' in buttons[0]
    assert "resize" not in buttons[0]
    assert ">Start game</button>" in form[form.index(buttons[0]) :][:200]
    assert re.findall(r'enterkeyhint="(\w+)"', form) == ["next", "next", "go"]


def test_names_then_start_is_all_a_table_needs(table: Table) -> None:
    response = table.create("Ana", "Ben", "")
    assert response.status_code == 303
    page = table.client.get(response.location)
    assert "Ana" in text(page) and "Ben" in text(page)
    assert "Who leads hand 1?" in text(page)
    assert table.state.options.goal == 250


def test_options_under_the_disclosure_are_used(table: Table) -> None:
    table.create("Ana", "Ben", "Cy", "Di", partnership="1", preset="pagat", deal="5", target="150")
    options = table.state.options
    assert options.partnership and options.preset == "pagat"
    assert options.hand_size == 5 and options.goal == 150
    assert options.settlement.value == "winner-takes"
    assert "Ana & Cy" in text(table.page())


@pytest.mark.parametrize(
    ("names", "fields", "message"),
    [
        (["Ana", "", ""], {}, "played by 2, 3 or 4 players"),
        (["Ana", "ana", ""], {}, "each player needs a different name"),
        (["Ana", "Ben", "Cy"], {"partnership": "1"}, "partnerships need exactly 4 players"),
        (["Ana", "Ben", ""], {"target": "3"}, "the target is a number of points"),
        (
            ["Ana", "Ben", ""],
            {"preset": "five-up", "rounding": "none"},
            "with points in fives, choose a rounding",
        ),
        (["Ana", "Ben", ""], {"spinner": "sideways"}, "spinner must be"),
    ],
)
def test_bad_options_keep_the_form_and_say_why(
    table: Table, names: list[str], fields: dict[str, str], message: str
) -> None:
    page = table.create(*names, **fields)
    assert page.status_code == 422
    assert message.casefold() in text(page).casefold()
    assert 'value="Ana"' in page.text
    assert table.game_id == ""


# --- this device's games --------------------------------------------------------------------------


def test_home_lists_this_devices_games_only(app: Flask, table: Table) -> None:
    table.create("Ana", "Ben", "")
    home = text(table.client.get("/"))
    assert "Ana 0" in home and "Not started" in home
    other = app.test_client()
    assert "Ana" not in text(other.get("/"))
    other.get(table.url)  # opening a shared link remembers the game on that device too
    assert "Ana" in text(other.get("/"))


def test_a_missing_game_is_a_friendly_404(client: FlaskClient) -> None:
    page = client.get("/g/no-such-game")
    assert page.status_code == 404
    assert "There is no game at this address" in text(page)
    assert 'href="/new"' in page.text


# --- starting a hand ------------------------------------------------------------------------------


def test_first_hand_offers_each_leader_and_a_random_pick(table: Table) -> None:
    table.create("Ana", "Ben", "")
    page = text(table.page())
    assert "Pick at random" in page
    assert "Ana leads" in page and "Ben leads" in page
    assert "Start the first hand: pick the leader or draw lots (R3)" in page
    response = table.start(leader="1")
    assert response.status_code == 303
    page = text(table.page())
    assert "Hand 1: Ben leads" in page
    assert "Any tile can lead" in page


def test_random_pick_starts_the_hand(table: Table) -> None:
    table.create("Ana", "Ben", "Cy")
    table.start(leader="random")
    assert table.state.status is Status.PLAYING
    assert re.search(r"Hand 1: (Ana|Ben|Cy) leads", text(table.page()))


# --- playing tiles --------------------------------------------------------------------------------


def test_picker_shows_all_28_tiles_by_name(playing: Table) -> None:
    page = playing.page().text
    assert len(re.findall(r'aria-label="\d-\d"', page)) == 28
    assert "disabled" not in page.split('id="work"')[1].split("</section>")[0]


def test_a_tile_that_fits_one_place_is_played_in_one_tap(playing: Table) -> None:
    response = playing.play("5-5")
    assert response.status_code == 303
    page = playing.client.get(response.location)
    shown = text(page)
    assert "Ana scores 10" in shown and "+10" in shown
    assert "Ana led 5-5: [5|5] 10 = 10" in shown
    assert "Ben to play" in shown
    assert re.search(r'aria-label="5-5"\s+disabled', page.text)


def test_a_tile_that_fits_several_places_asks_where_at_an_address_that_can_be_reloaded(
    playing: Table,
) -> None:
    playing.play("6-5")
    playing.play("6-4", "left")  # open ends: left 4, right 5
    response = playing.play("5-4")  # fits both
    assert response.status_code == 303  # without JavaScript the question is a GET
    assert response.location.endswith("?choose=5-4")
    page = playing.client.get(response.location)
    assert page.status_code == 200
    shown = text(page)
    assert "Where does 5-4 go?" in shown
    assert "Left +10 points 5 + 5 = 10" in shown and "Right 0 points 4 + 4 = 8" in shown
    assert playing.state.hand is not None and len(playing.state.hand.layout.tiles) == 2
    playing.play("5-4", "left")
    shown = text(playing.page())
    assert "Cy played 5-4 on the left end" in shown
    assert "Cy scores 10" in shown


def test_mirror_image_places_are_not_asked(playing: Table) -> None:
    """A lone double's two sides, and the spinner's empty up and down, give the same layout."""
    playing.play("5-5")
    response = playing.play("5-3")
    assert response.status_code == 303 and "choose" not in response.location
    assert "Ben played 5-3 on the left end" in text(playing.page())
    playing.play("5-2", "right")  # both sides covered: up and down open at 5
    response = playing.play("5-0")
    assert response.status_code == 303 and "choose" not in response.location
    assert "Ana played 5-0 on the up end" in text(playing.page())


def test_fitting_tiles_are_marked_with_their_points_only_when_the_table_wants_hints(
    playing: Table,
) -> None:
    playing.play("5-5")
    page = playing.page().text
    assert 'class="tile fits' not in page and "fit-badge" not in page  # no hints by default
    playing.client.post(f"{playing.url}/coaching", data={"on": "1", "csrf_token": CSRF_TOKEN})
    page = playing.page().text
    assert re.search(r'class="tile fits scores"[^>]*value="5-0"', page)
    assert "+10" in page  # 5-0 on either side: 0 + 10 = 10
    playing.client.post(f"{playing.url}/coaching", data={"on": "0", "csrf_token": CSRF_TOKEN})
    assert "fit-badge" not in playing.page().text
    playing.play("5-0")
    assert "Ben scores 10" in text(playing.page())  # a play still shows its points


def test_a_tile_that_fits_nowhere_is_refused_on_the_game_page(playing: Table) -> None:
    playing.play("5-5")
    seq = playing.seq
    page = playing.play("6-6")
    assert page.status_code == 422
    shown = text(page)
    assert "Not allowed" in shown
    assert "No open end shows 6: open ends are 5" in shown
    assert 'href="/rules#R5"' in page.text
    assert 'id="work"' in page.text  # the game, not an error page
    assert playing.seq == seq


def test_a_refused_play_says_whose_turn_it_still_is_in_the_readers_language(
    playing: Table,
) -> None:
    """Ana leads 5-5; Ben's 6-6 fits no end (R5): nothing changed, so Ben is still to play, and
    the notice says so, on the page and in the notice htmx swaps, in Hausa as in English."""
    playing.play("5-5")
    page = playing.play("6-6")
    assert page.status_code == 422
    assert "No open end shows 6: open ends are 5 Rule R5 Still: Ben to play" in text(page)
    refused = playing.play("6-6", htmx=True)
    assert regions(refused) == ["notice"]
    assert '<p class="next still">Still: <b>Ben to play</b></p>' in refused.text
    playing.client.set_cookie(COOKIE, "ha")
    in_hausa = text(playing.play("6-6", htmx=True))
    assert "Har yanzu: Juyin Ben ne" in in_hausa and "Still" not in in_hausa


def test_a_refusal_links_to_its_rule(playing: Table) -> None:
    playing.play("5-5")
    page = playing.play("5-0", "up")
    assert page.status_code == 422
    assert "both its sides are covered" in text(page)
    assert 'href="/rules#R10"' in page.text


def test_a_played_tile_is_refused(playing: Table) -> None:
    playing.play("5-5")
    page = playing.play("5-5")
    assert page.status_code == 422
    assert "5-5 was already played" in text(page)


def test_nonsense_is_refused_politely(playing: Table) -> None:
    page = playing.play("9-9")
    assert page.status_code == 422
    assert "is not a tile" in text(page) or "not a tile of a double-six set" in text(page)


# --- drawing and passing --------------------------------------------------------------------------


DRAW_OFF = re.compile(r'class="button draw" type="submit" disabled')
PASS_OFF = re.compile(r'class="button pass" type="submit" disabled')


def test_draw_and_pass_are_offered_only_when_the_rules_allow(playing: Table) -> None:
    """Both stay in place (nothing moves under the thumb) and are greyed out when not allowed."""
    before_lead = playing.page().text
    assert DRAW_OFF.search(before_lead) and PASS_OFF.search(before_lead)
    playing.play("6-6")
    page = playing.page().text
    assert not DRAW_OFF.search(page) and PASS_OFF.search(page)
    boneyard = playing.state.hand.boneyard  # type: ignore[union-attr]
    assert f"<option>{boneyard}</option></select>" in page
    response = playing.draw(boneyard)
    assert response.status_code == 303
    page = playing.page()
    assert f"Ben drew {boneyard} tiles" in text(page)
    assert DRAW_OFF.search(page.text) and not PASS_OFF.search(page.text)
    playing.pass_turn()
    assert "Ben passed" in text(playing.page())


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_a_pass_the_record_disproves_is_refused_with_record_it_anyway(
    table: Table, htmx: bool
) -> None:
    """Worked example E (R7a): after 6-6, Ben draws the boneyard and passes; Ana's pass is
    refused with the proof, and "Record it anyway" records it (the form sends confirm=1)."""
    table.create("Ana", "Ben")
    table.start(leader="0")
    table.play("6-6")
    table.draw(10)
    table.pass_turn()
    before = table.seq
    page = table.pass_turn(htmx=htmx)
    assert page.status_code == 422
    assert table.seq == before
    shown = text(page)
    assert "Ana must hold a tile that fits, so cannot pass: 6-5, 6-4, 6-3, 6-2, 6-1 and 6-0" in (
        shown
    )
    assert "Ben drew 10 tiles at move 2 and passed at move 3" in shown
    form = re.search(r'<form class="confirm-form"(.*?)</form>', page.text, re.S)
    assert form is not None, "the refusal offers to record the pass anyway"
    assert f'action="{table.url}/pass"' in form.group(0)
    assert 'name="confirm" value="1"' in form.group(0)
    assert "Record it anyway" in form.group(0)
    confirmed = table.pass_turn(htmx=htmx, confirm="1")
    assert confirmed.status_code == (200 if htmx else 303)
    assert table.state.hand.end.value == "blocked"  # type: ignore[union-attr]


def test_a_refusal_the_table_cannot_overrule_offers_no_button(playing: Table) -> None:
    playing.play("6-6")
    page = playing.pass_turn(confirm="1")  # R7: the boneyard still has tiles, confirm or not
    assert page.status_code == 422
    assert "must draw, not pass" in text(page)
    assert "Record it anyway" not in page.text


def test_drawing_more_than_the_boneyard_is_refused(playing: Table) -> None:
    playing.play("6-6")
    page = playing.draw(20)
    assert page.status_code == 422
    assert "the boneyard has only 7 tiles".casefold() in text(page).casefold()


@pytest.mark.parametrize(
    "count", ["¹", "٣", "1" * 5000, "-1", "0"], ids=["superscript", "arabic", "huge", "-1", "0"]
)
def test_a_draw_count_that_is_no_plain_number_is_refused(playing: Table, count: str) -> None:
    """Digits that str.isdigit accepts but int refuses (or reads oddly) are refused, not a 500."""
    playing.play("6-6")
    before = playing.seq
    page = playing.draw(count)
    assert page.status_code == 422
    assert "Draw a whole number of tiles, 1 or more" in text(page)
    assert playing.seq == before


@pytest.mark.parametrize(
    "leader", ["²", "1" * 5000, "12", "100", "Ana"], ids=["²", "huge", "12", "100", "name"]
)
def test_a_leader_that_is_no_seat_is_refused(table: Table, leader: str) -> None:
    table.create("Ana", "Ben", "Cy")
    page = table.start(leader=leader)
    assert page.status_code == 422
    assert re.search(r"is not (a seat )?at this table", text(page))
    assert table.state.hand is None


# --- stale submissions, undo ---------------------------------------------------------------------


def test_a_double_submission_is_applied_once(playing: Table) -> None:
    seq = playing.seq
    playing.play("5-5", seq=seq)
    page = playing.play("6-6", seq=seq)
    assert page.status_code == 409
    shown = text(page)
    assert "got there first" in shown
    assert "Ana led 5-5" in shown
    assert playing.state.hand is not None
    assert [str(t) for t in playing.state.hand.layout.tiles] == ["5-5"]


def test_undo_shows_what_it_undoes_and_takes_it_back(playing: Table) -> None:
    playing.play("5-5")
    assert 'aria-label="Undo: Ana led 5-5' in playing.page().text
    playing.undo()
    shown = text(playing.page())
    assert "Undone: Ana led 5-5" in shown
    assert playing.state.scores == (0, 0, 0)
    assert "Next: Ana leads" in shown and "Any tile can lead" in shown


def notice_of(page: TestResponse) -> str:
    """What the notice above the picker says (the last tap's result), as a person reads it."""
    found = re.search(r'<section id="notice".*?</section>', page.text, flags=re.S)
    assert found is not None, "the page has no notice area"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group()).split())


def test_the_last_result_is_shown_again_after_a_reload_until_the_next_action(
    playing: Table, make_app: AppMaker
) -> None:
    """R11: Ana's lead 5-5 scores 10. Every reload says so until the next action, also in a
    fresh process (nothing cached) and on the watch link; a refusal changed nothing, so a
    reload shows the last action's result, not the refusal; then Undo's result replaces it."""
    playing.play("5-5", htmx=True)
    fresh = device(make_app())
    watch = f"/v/{playing.store.get(playing.game_id).view_id}"
    for page in (playing.page(), playing.page(), fresh.get(playing.url), fresh.get(watch)):
        assert "Ana led 5-5: [5|5] 10 = 10" in notice_of(page)
        assert "Next: Ben to play" in notice_of(page)
    assert notice_of(playing.page()).startswith("+10 Ana scores 10:")
    assert playing.play("6-6", htmx=True).status_code == 422
    assert notice_of(playing.page()).startswith("+10 Ana scores 10:")
    playing.undo(htmx=True)
    for page in (playing.page(), fresh.get(playing.url), fresh.get(watch)):
        assert notice_of(page).startswith("Undone: Ana led 5-5")


# --- the end of a hand ----------------------------------------------------------------------------


def _hand_over(table: Table, **options: str) -> Table:
    """HAND_OF_FIVE: two players, five tiles each: Ana goes out; Ben, with 15 points, holds one
    tile."""
    table.create("Ana", "Ben", "", deal="5", **options)
    table.start(leader="0")
    table.enter(HAND_OF_FIVE)
    assert table.state.status is Status.HAND_OVER
    assert table.state.scores == (0, 15)
    return table


@pytest.fixture
def hand_over(table: Table) -> Table:
    return _hand_over(table)


def test_hand_over_asks_for_the_pips_of_those_holding_tiles(hand_over: Table) -> None:
    page = hand_over.page()
    shown = text(page)
    assert "Ana went out!" in shown
    assert "Ben holds 1 tile" in shown
    assert 'name="pips_1"' in page.text and 'name="pips_0"' not in page.text
    assert 'inputmode="numeric"' in page.text
    assert f'{hand_over.url}/play"' not in page.text and "/draw" not in page.text


def preview(table: Table, htmx: bool = False, **fields: Any) -> TestResponse:
    return table.client.get(
        f"{table.url}/settle/preview", query_string=fields, headers=HX if htmx else {}
    )


def test_the_settlement_is_previewed_as_typed_then_settled_in_one_tap(hand_over: Table) -> None:
    shown = text(preview(hand_over, pips_1="3"))  # a GET: reloading it resubmits nothing
    assert "Ben 3 → 5" in shown  # pips 3, rounded to 5
    assert "Ben 15 -5 10" in shown  # score before, change, after
    assert hand_over.state.status is Status.HAND_OVER  # nothing stored yet
    fragment = preview(hand_over, htmx=True, pips_1="3")
    assert fragment.text.lstrip().startswith('<div class="preview" id="settle-preview"')
    assert "Ben 15 -5 10" in text(fragment)
    response = hand_over.settle(pips_1="3")
    assert response.status_code == 303
    shown = text(hand_over.page())
    assert "Hand 1 settled: Ana +0, Ben -5" in shown
    assert "Start hand 2 — Ana leads" in shown


def test_settle_with_tiles(hand_over: Table) -> None:
    assert "Ben 8 → 10" in text(preview(hand_over, tiles_1="4-4"))
    page = hand_over.page().text
    assert page.count('name="tiles_1"') == len(hand_over.state.hand.unplayed)  # type: ignore[union-attr]
    # Pips first: the tiles wait behind "Tiles", opened once some were tapped.
    assert '<details class="tile-pick">' in page
    assert '<details class="tile-pick" open>' in preview(hand_over, tiles_1="4-4").text
    hand_over.settle(tiles_1="4-4")
    assert hand_over.state.scores == (0, 5)


def test_the_last_players_pips_follow_from_the_others_when_the_boneyard_is_empty(
    table: Table,
) -> None:
    """R14: with the boneyard empty, the tiles nobody else holds are the last player's."""
    table.create("Ana", "Ben", "Cy")
    table.start(leader="0")
    table.play("6-6")
    table.draw(7)  # Ben draws the whole boneyard
    table.play_out()
    state = table.state
    hand = state.hand
    assert hand is not None and state.status is Status.HAND_OVER and hand.boneyard == 0
    first, last = (seat for seat, held in enumerate(hand.held) if held)
    total = sum(tile.pips for tile in hand.unplayed)
    lightest = sum(sorted(tile.pips for tile in hand.unplayed)[: hand.held[first]])
    page = table.page()  # nothing typed yet: two players to report, nothing follows
    assert "worked out" not in text(page)
    entered = {f"pips_{first}": str(lightest)}
    shown = text(preview(table, **entered))
    assert f"{state.name(last)} holds {total - lightest} pips: the boneyard is empty" in shown
    response = table.settle(**entered)  # one tap: the rest is worked out
    assert response.status_code == 303
    assert table.state.results[-1].pips[last] == total - lightest


def test_an_impossible_report_is_refused_with_the_reason(hand_over: Table) -> None:
    page = hand_over.settle(pips_1="40")
    assert page.status_code == 422
    shown = text(page)
    assert "Ben holds 1 tile; one unplayed tile" in shown and "at most" in shown
    assert 'href="/rules#R14"' in page.text
    assert 'value="40"' in page.text  # what was typed is kept
    page = hand_over.settle(tiles_1=["4-4", "3-3"])
    assert page.status_code == 422
    assert "Ben holds 1 tile, not 2" in text(page)
    page = hand_over.settle(tiles_1="6-6")
    assert "6-6 was already played" in text(page)
    assert hand_over.state.status is Status.HAND_OVER
    # What the table does next is the settlement's own panel: the refusal does not say it again.
    assert "Still:" not in text(page) and 'class="next still"' not in page.text


@pytest.mark.parametrize("pips", ["²", "-4", "4.5", "9" * 5000], ids=["²", "-4", "4.5", "huge"])
def test_pips_that_are_no_plain_number_are_refused(hand_over: Table, pips: str) -> None:
    page = hand_over.settle(pips_1=pips)
    assert page.status_code == 422
    if len(pips) < 5:  # a long entry is cut to 4 digits: 9999 pips, refused by R14
        assert "Ben's pips must be a whole number, 0 or more" in text(page)
    assert hand_over.state.status is Status.HAND_OVER


def test_a_missing_report_is_refused(hand_over: Table) -> None:
    page = hand_over.settle(pips_1="")
    assert page.status_code == 422
    assert "Ben still holds tiles: how many pips?" in text(page)


def test_undo_after_a_settled_hand(hand_over: Table) -> None:
    hand_over.settle(pips_1="0")
    assert 'aria-label="Undo: Hand 1 settled' in hand_over.page().text
    hand_over.undo()
    assert hand_over.state.status is Status.HAND_OVER
    assert "Ana went out!" in text(hand_over.page())


# --- game over ------------------------------------------------------------------------------------


def test_game_over_shows_the_winner_the_hands_and_play_again(table: Table) -> None:
    hand_over = _hand_over(table, target="10", finish="end-of-hand")
    hand_over.settle(pips_1="0")
    page = hand_over.page()
    shown = text(page)
    assert "Ben wins!" in shown
    assert "Hand by hand" in shown
    assert "Play again with these players" in shown
    first = hand_over.game_id
    response = hand_over.client.post(f"/g/{first}/again", data={"csrf_token": CSRF_TOKEN})
    assert response.status_code == 303
    second = response.location.rsplit("/", 1)[1]
    assert second != first
    again = text(hand_over.client.get(response.location))
    assert "Who leads hand 1?" in again and "Ana" in again and "Ben" in again
    home = hand_over.client.get("/").text
    assert first in home and second in home


def test_an_immediate_win_ends_mid_hand(table: Table) -> None:
    table.create("Ana", "Ben", "", target="10")
    table.start(leader="0")
    table.play("5-5")
    shown = text(table.page())
    assert "Ana wins!" in shown
    assert "not settled" in shown


# --- the log --------------------------------------------------------------------------------------


def test_the_log_lists_every_action_per_hand_with_points(playing: Table) -> None:
    playing.play("5-5")
    playing.play("5-3", "left")
    playing.undo()
    playing.play("5-0", "left")
    log = text(playing.more()).split("Game log", 1)[1]
    assert "Hand 1" in log
    assert "+10 Ana led 5-5: [5|5] 10 = 10" in log
    assert "+10 Ben played 5-0 on the left end: 0 + [5|5] 10 = 10" in log
    assert "5-3" not in log  # undone, so no longer in effect


# --- htmx and the page shell ----------------------------------------------------------------------


def regions(response: TestResponse) -> list[str]:
    """The ids of the regions (and pieces of regions) an htmx answer swaps, each out of band."""
    return re.findall(r'<\w+ id="([\w-]+)"[^>]*hx-swap-oob="(?:true|innerHTML)"', response.text)


def test_htmx_requests_get_the_regions_a_play_changed(playing: Table) -> None:
    response = playing.play("5-5", htmx=True)
    assert response.status_code == 200
    assert "<html" not in response.text
    assert "HX-Request" in response.headers["Vary"]
    # Ana's card (10 points) and Ben's (his turn); the picker asks for the next tile now.
    assert regions(response) == ["live", "side-0", "side-1", "board", "notice", "work", "controls"]
    assert 'id="log"' not in response.text and "Share this game" not in response.text
    assert "Ana scores 10" in text(response)
    assert "HX-Request" in playing.page().headers["Vary"]
    assert "<html" in playing.page().text


def test_htmx_refusals_change_only_the_notice_and_stale_posts_swap_everything(
    playing: Table,
) -> None:
    playing.play("5-5")
    refused = playing.play("6-6", htmx=True)
    assert refused.status_code == 422  # the page's htmx-config swaps 422 and 409 too
    assert regions(refused) == ["notice"]
    assert "No open end shows 6" in text(refused)
    stale = playing.play("6-6", htmx=True, seq=0)
    assert stale.status_code == 409
    assert regions(stale) == ["live", "scores", "board", "notice", "work", "controls"]
    assert "got there first" in text(stale)


def test_a_resent_tap_that_was_already_saved_is_said_to_be_saved(playing: Table) -> None:
    """A phone that lost the answer sends the same play again with the same seq."""
    seq = playing.seq
    playing.play("5-5", seq=seq)
    again = playing.play("5-5", htmx=True, seq=seq)
    assert again.status_code == 200
    assert "Saved: that was already recorded" in text(again)
    assert playing.seq == seq + 1
    other = playing.play("6-6", htmx=True, seq=seq)  # a different play at that seq is stale
    assert other.status_code == 409


def test_forms_work_without_javascript(playing: Table) -> None:
    page = playing.page().text
    for form in re.findall(r"<form[^>]*>", page):
        assert 'method="post"' in form and 'action="/g/' in form
    assert page.count('name="seq"') >= 2


def test_plays_and_polls_do_not_resend_the_session_cookie(playing: Table) -> None:
    """Each response to a tap stays small; opening a game still renews the device's list."""
    assert "Set-Cookie" not in playing.play("5-5", htmx=True).headers
    poll = playing.client.get(f"{playing.url}/poll?seq={playing.seq}", headers=HX)
    assert poll.status_code == 200 and poll.get_data() == b"" and "Set-Cookie" not in poll.headers
    assert "Set-Cookie" in playing.page().headers


def test_every_form_of_the_game_screen_posts_to_its_action(app: Flask, table: Table) -> None:
    """The screen builds its action URLs once; each must still reach the action it names."""
    table.create("Ana", "Ben", "", deal="5")
    pages = [table.page().text]  # who leads
    table.start(leader="0")
    table.play("5-5")
    pages.append(table.page().text)  # tiles, draw, undo
    pages.append(table.more(headers=HX).text)  # More's content: learning, hints, layout turned
    table.play_out()
    pages.append(table.page().text)  # settling
    adapter = app.url_map.bind("localhost")
    seen = set()
    for page in pages:
        for form in re.findall(r"<form[^>]*>", page):
            action = re.search(r' action="([^"]+)"', form)
            posted = re.search(r' hx-post="([^"]+)"', form)
            assert action and (posted is None or posted.group(1) == action.group(1)), form
            endpoint, args = adapter.match(action.group(1), method="POST")
            assert args.get("game_id") == table.game_id
            seen.add(endpoint)
    for name in ("start", "play", "draw", "undo", "settle"):
        assert f"game.{name}" in seen
    assert "game.learning" in seen


@pytest.mark.parametrize("path", ["/", "/new", "/rules", "/g/missing"])
def test_no_inline_script_or_style(client: FlaskClient, path: str) -> None:
    page = client.get(path).text
    assert "style=" not in page and "<style" not in page and "hx-on" not in page
    assert set(re.findall(r"<script[^>]*>(.*?)</script>", page, flags=re.S)) == {""}
    assert "htmx-2.0.11.min.js" in page


def test_game_page_has_no_inline_script_or_style(playing: Table) -> None:
    playing.play("5-5")
    for page in (playing.page().text, playing.client.get(f"{playing.url}?choose=3-5").text):
        assert "style=" not in page and "hx-on" not in page
        assert set(re.findall(r"<script[^>]*>(.*?)</script>", page, flags=re.S)) == {""}


def test_partnership_scores_by_team(table: Table) -> None:
    table.create("Ana", "Ben", "Cy", "Di", partnership="1")
    table.start(leader="0")
    table.play("5-5")
    shown = text(table.page())
    assert "Ana & Cy 10" in shown and "Ben & Di 0" in shown
    assert "Ana 4 · Cy 5" in shown


def _into_hand(table: Table, number: int) -> list[Action]:
    """A real 3-player game (target 10,000) entered until hand ``number`` is being played; the
    whole script, of which only the first actions were entered."""
    from tests.scripts import scripted_actions

    table.create("Ana", "Ben", "Cy", target="10000")
    actions = scripted_actions(random.Random(3), 3, 400)
    for seq, action in enumerate(actions):
        table.store.apply(table.game_id, seq, action)
        if table.state.hand_number == number and table.state.status is Status.PLAYING:
            return actions
    raise AssertionError("the script ended first")


def test_the_log_of_a_long_game_lists_every_hand_newest_first(table: Table) -> None:
    """Hands before the last two keep their heading and replay link (whose last step shows
    the hand's audit), so a long game's log costs no more than a short one's; the last two
    list their actions and audits. Undoing a settlement takes its audit away."""
    _into_hand(table, 6)
    page = table.more().text
    log = page.split("Game log", 1)[1]
    headings = re.findall(r"<h3>Hand (\d+) <a class=\"log-replay\" href=\"([^\"]+)\"", log)
    assert [int(n) for n, _ in headings] == [6, 5, 4, 3, 2, 1]
    assert all(href.endswith(f"/replay/{n}") for n, href in headings)
    assert log.count('class="audit-summary"') == 1  # hand 5's: hand 6 is not settled yet
    hand_three = log.split("<h3>Hand 3 ", 1)[1].split("<h3>Hand 2 ", 1)[0]
    assert "<li" not in hand_three and "log-audit" not in hand_three  # heading only
    assert "<li" in log.split("<h3>Hand 5 ", 1)[1].split("<h3>Hand 4 ", 1)[0]
    while table.state.hand_number == 6:  # back to before hand 5 was settled
        table.undo()
    table.undo()
    assert table.state.status is Status.HAND_OVER
    log = table.more().text.split("Game log", 1)[1]
    assert [int(n) for n in re.findall(r"<h3>Hand (\d+) ", log)] == [5, 4, 3, 2, 1]
    assert log.count('class="audit-summary"') == 1  # hand 4's; hand 5 is not settled now


def test_the_hand_before_reads_as_a_fresh_page_would_as_the_game_moves(table: Table) -> None:
    """The settled hand listed before the one being played, in words, and its audit are kept
    once per settlement: after its settlement is undone and made again, and after a rename,
    the log reads exactly as a page worked out from nothing (nothing of the game kept)."""
    actions = _into_hand(table, 3)
    said = table.more().text.split("<h3>Hand 2 ", 1)[1].split("<h3>Hand 1 ")[0]
    assert "Ben played" in said and "entered as pips" not in said

    def as_fresh() -> str:
        kept = table.more().text
        table.store.cache.clear()
        assert kept == table.more().text
        return kept.split("<h3>Hand 2 ", 1)[1].split("<h3>Hand 1 ")[0]

    while table.state.hand_number == 3:  # back to before hand 2 was settled
        table.undo()
    table.undo()
    assert table.state.status is Status.HAND_OVER  # More not looked at: what it kept stays
    tapped = [action for action in actions if isinstance(action, EndHand)][1]  # hand 2's
    typed = EndHand.of({seat: report.pips for seat, report in tapped.reports})  # as pips
    table.store.apply(table.game_id, table.seq, typed)
    start = [action for action in actions if isinstance(action, StartHand)][2]
    table.store.apply(table.game_id, table.seq, start)
    assert "Ben and Cy: tiles at the end entered as pips" in as_fresh()  # its audit, anew
    assert table.post("rename", seat="1", name="Benedict").status_code == 303
    assert "Benedict and Cy: tiles at the end entered as pips" in as_fresh()


def test_the_rules_page_draws_the_house_rules(client: FlaskClient) -> None:
    """R17, R18: Muggins, Five Up and doubles that count once, each with its drawn layout."""
    page = client.get("/rules")
    shown = text(page)
    assert "Example G, play 4 (Muggins)" in shown and "Example H, play 7 (Five Up)" in shown
    five_up = page.text.split('id="R17"')[1].split('id="R18"')[0]
    assert "6-6 up 5" in five_up  # the drawing names the second spinner's end
    assert "3 + 2 + 1 + 5 = 11" in five_up  # its count, from the engine under five-up
    assert "[2|2] 2" in page.text.split('id="R18"')[1].split('id="R19"')[0]  # R18: one half
    for preset in PRESET_LIST:
        assert preset.title in shown


def test_a_mirror_image_place_needs_no_end_on_the_page_as_through_the_api_R5(
    table: Table,
) -> None:
    """After a 6-6 lead its two sides are one place: one tap plays 6-4, the same play the JSON
    API makes of it (tests/api/test_api_mirror.py)."""
    table.create("Ana", "Ben")
    table.start(leader="0")
    table.play("6-6")
    answer = table.play("6-4", htmx=True)
    assert answer.status_code == 200
    assert "Ben played 6-4 on the left end: 4 + [6|6] 12 = 16" in text(answer)
    assert table.state.hand is not None and table.state.hand.layout.count == 16
