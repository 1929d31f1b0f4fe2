"""The game screen at a real table: whole hands played on a phone, one screen, no scrolling.

After every tap the count, what the tap did and the control just tapped are all on the screen,
the page has not scrolled, and the picker has not moved under the thumb. Each hand prints the
taps it took against the fewest its entries need.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.phone import on_screen
from tests.scripts import first_fit
from tests.tables import HttpApi, on_table
from webapp.rules import DOUBLE_SIX

SCREENS = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
NAMES = ["Alejandro", "Benedicta", "Cy"]


class Phone:
    """A scorer's phone: taps, and after each one checks what the eye and the thumb need."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0
        self.picker_top: float | None = None

    def tap(self, control: Locator, what: str) -> None:
        on_screen(self.page, control, what)
        box = control.bounding_box()
        assert box and box["height"] >= 44 and box["width"] >= 44, f"{what} is under 44 px: {box}"
        with self.page.expect_response(lambda answer: answer.request.method == "POST"):
            control.click()
        self.taps += 1
        busy = self.page.locator(".htmx-request, .htmx-swapping, .htmx-settling")
        expect(busy).to_have_count(0)
        self.check(what)

    def check(self, what: str) -> None:
        page = self.page
        notice = page.locator("#notice")
        expect(notice).not_to_be_empty()
        on_screen(page, notice, f"the result of {what}")
        # The count while the hand is played; once it is over the layout gives its room to the
        # settlement (the last play's count is in its result).
        if page.locator("#board .count").count() and not page.locator("#work .settle").count():
            on_screen(page, page.locator("#board .count"), f"the count after {what}")
        assert page.evaluate("window.scrollY") == 0, f"the page scrolled after {what}"
        fits = page.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight + 1")
        if not fits:
            page.screenshot(path="/tmp/shots/scroll.png", full_page=True)
        assert fits, f"the screen needs scrolling after {what}"
        tiles = page.locator("#work form.tiles")
        if tiles.count():
            box = tiles.bounding_box()
            assert box is not None
            if self.picker_top is not None:
                assert abs(box["y"] - self.picker_top) < 1, f"the picker moved after {what}"
            self.picker_top = box["y"]
            on_screen(page, tiles, f"the picker after {what}")
            on_screen(page, page.locator("#controls"), f"Draw / Pass / Undo after {what}")


def tile_button(page: Page, name: str) -> Locator:
    return page.get_by_role("region", name="Tiles").get_by_role("button", name=name, exact=True)


def play_a_hand(page: Page, api: HttpApi, game_id: str) -> tuple[int, int]:
    """Enter a whole hand as a scorer would, tapping the first tile that fits; returns (taps,
    the fewest the entries needed)."""
    phone = Phone(page)
    fewest = 0
    while True:
        state = api.state(game_id)
        if state["status"] != "playing":
            break
        played = on_table(state)
        fitting = [n for n in map(str, DOUBLE_SIX) if n not in played and _fits(state, n)]
        if fitting:
            name = fitting[0]
            phone.tap(tile_button(page, name), f"tile {name}")
            fewest += 1
            choice = page.get_by_role("heading", name=re.compile(r"Where does"))
            if choice.count():
                ends = page.locator("#work .choice-button")
                on_screen(page, ends.last, "the last end to choose")
                page.wait_for_timeout(400)  # a tap that starts after the choices are shown
                phone.tap(ends.first, f"the end for {name}")
                fewest += 1
        elif state["can_draw"]:
            phone.tap(page.get_by_role("button", name=re.compile(r"^Draw")), "Draw")
            fewest += 1
        else:
            phone.tap(page.get_by_role("button", name=re.compile(r"^Pass")), "Pass")
            fewest += 1
        expect(page.locator("#live")).to_have_attribute("data-seq", str(state["seq"] + 1))
    return phone.taps, fewest


def _fits(state: dict[str, Any], name: str) -> bool:
    ends = state["hand"]["ends"]
    if not state["hand"]["layout"]["lead"]:
        return True
    a, b = (int(x) for x in name.split("-"))
    return any(pip in (a, b) for pip in ends.values())


@pytest.mark.parametrize("size", list(SCREENS))
def test_whole_hands_are_played_on_one_screen_without_scrolling(
    browser: Any, api: HttpApi, live_server: str, size: str
) -> None:
    context = browser.new_context(viewport=SCREENS[size], device_scale_factor=2, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        game_id = api.new_game(NAMES)
        page.goto(f"{live_server}/g/{game_id}")
        for number in (1, 2):
            panel = page.get_by_role("region", name="Next")
            panel.get_by_role("button", name=re.compile(r"leads$|^Start hand")).first.click()
            expect(page.get_by_role("region", name="Tiles")).to_be_visible()
            taps, fewest = play_a_hand(page, api, game_id)
            settled, needed = settle(page, api, game_id)
            print(
                f"\n{size}: hand {number} took {taps} taps to enter, {settled} to settle; "
                f"the fewest its entries need: {fewest} and {needed}"
            )
            assert (taps, settled) == (fewest, needed)
    finally:
        context.close()


def settle(page: Page, api: HttpApi, game_id: str) -> tuple[int, int]:
    """Report each player's pips so that they can all be true (the lightest tiles first). With
    the boneyard empty the last player's pips follow from the others' (R14): not typed. Returns
    (taps, the fewest: a field per player whose pips do not follow, and Settle)."""
    state = api.state(game_id)
    hand = state["hand"]
    played = on_table(state)
    free = sorted((t for t in DOUBLE_SIX if str(t) not in played), key=lambda t: (t.pips, str(t)))
    holders = [(name, held) for name, held in hand["held"].items() if held]
    follows = 1 if hand["boneyard"] == 0 else 0
    taps = 0
    for name, held in holders[: len(holders) - follows]:
        mine, free = free[:held], free[held:]
        field = page.get_by_role("group", name=re.compile(rf"^{name}")).get_by_label("Pips")
        field.scroll_into_view_if_needed()  # within the panel: the page itself stays put
        on_screen(page, field, f"{name}'s pips")
        field.fill(str(sum(t.pips for t in mine)))
        taps += 1
    expect(page.locator("#settle-preview")).to_contain_text("Then:")  # read before the tap
    button = page.get_by_role("button", name=re.compile(r"^Settle hand"))
    button.scroll_into_view_if_needed()  # the panel under the thumb scrolls on its own
    on_screen(page, page.locator("#notice"), "the notice while settling")
    assert page.evaluate("window.scrollY") == 0
    button.click()
    taps += 1
    expect(page.get_by_role("status")).to_contain_text("settled")
    return taps, len(holders) - follows + 1


def test_long_names_and_three_digit_scores_never_break_inside_a_word(
    browser: Any, api: HttpApi, live_server: str
) -> None:
    context = browser.new_context(viewport=SCREENS["360x740"], has_touch=True)
    page = context.new_page()
    try:
        names = ["Maximiliano", "Bartholomew", "Guadalupita"]  # 11 letters each
        game_id = api.new_game(names, target=500)
        for seq, action in enumerate(_hands_until_a_score_has_three_digits(names)):
            api.call(f"/api/games/{game_id}/actions", {"seq": seq, **action})
        page.goto(f"{live_server}/g/{game_id}")
        cards = page.locator("#scores .side")
        expect(cards).to_have_count(3)
        scores = cards.locator(".score").all_inner_texts()
        assert any(len(score.lstrip("-")) >= 3 for score in scores), scores
        for index in range(3):
            name = cards.nth(index).locator(".side-name")
            line_height = name.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
            box = name.bounding_box()
            assert box and box["height"] < 1.5 * line_height, f"{names[index]} wraps: {box}"
            # The whole name is there for a screen reader and a long press, only cut to the eye.
            assert name.evaluate("e => e.textContent") == names[index]
            assert names[index] in (cards.nth(index).get_attribute("title") or "")
        page.screenshot(path="/tmp/long-names-360.png")
    finally:
        context.close()


def _hands_until_a_score_has_three_digits(names: list[str]) -> list[dict[str, Any]]:
    """Real hands through the rules (the first tile that fits; the lightest tiles reported),
    until someone's score has three digits: the JSON API's actions to replay them."""
    from webapp.rules import EndHand, GameState, Options, StartHand, Status, to_dict

    state = GameState.new(Options.make(names))
    actions: list[dict[str, Any]] = []

    def apply(action: Any) -> None:
        nonlocal state
        action = state.resolve(action)
        state, _ = state.apply(action)
        data = to_dict(action)
        if isinstance(action, StartHand):
            data = {"type": "start_hand", "starter": names[action.leader or 0]}
        if isinstance(action, EndHand):
            data = {"type": "end_hand", "remaining": {names[s]: r.pips for s, r in action.reports}}
        actions.append(data)

    while max(abs(score) for score in state.scores) < 100:
        apply(StartHand(0 if state.next_leader is None else None))
        while state.status is Status.PLAYING:
            apply(first_fit(state))
        if state.status is Status.HAND_OVER:
            hand = state.hand
            assert hand is not None
            free = sorted(hand.unplayed, key=lambda tile: (tile.pips, str(tile)))
            reports: dict[int, int] = {}
            for seat, held in enumerate(hand.held):
                if held:
                    mine, free = free[:held], free[held:]
                    reports[seat] = sum(tile.pips for tile in mine)
            apply(EndHand.of(reports))
    return actions


LANDSCAPES = {"740x360": {"width": 740, "height": 360}, "844x390": {"width": 844, "height": 390}}
# Ana leads 5-5; 5-1 left and 1-6 left, 5-2 right and 2-6 right: the ends are 6, 6 and the
# spinner's 5s, so Ana's 6-5 fits three places (left, right, up: down is up's twin, R10).
THREE_ENDS = ["5-5", "5-1 left", "5-2 right", "1-6 left", "2-6 right"]


@pytest.mark.parametrize("size", list(LANDSCAPES))
def test_a_phone_on_its_side_shows_every_end_to_choose_and_cancel(
    browser: Any, api: HttpApi, live_server: str, size: str
) -> None:
    context = browser.new_context(viewport=LANDSCAPES[size], device_scale_factor=2, has_touch=True)
    page = context.new_page()
    try:
        game_id = api.new_game(["Ana", "Ben", "Cy"])
        api.act(game_id, "start_hand", starter="Ana")
        for move in THREE_ENDS:
            tile, _, end = move.partition(" ")
            api.act(game_id, "play", tile=tile, **({"end": end} if end else {}))
        page.goto(f"{live_server}/g/{game_id}")
        with page.expect_response(lambda answer: answer.url.endswith("/play")):
            tile_button(page, "6-5").click()
        ends = page.locator("#work .choice-button")
        expect(ends).to_have_count(3)
        for index, arm in enumerate(["Left", "Right", "Up"]):
            expect(ends.nth(index)).to_contain_text(arm)
            on_screen(page, ends.nth(index), f"the end {arm}")
            box = ends.nth(index).bounding_box()
            assert box and box["height"] >= 44 and box["width"] >= 44, f"{arm} is under 44 px"
        on_screen(page, page.get_by_role("link", name="Cancel"), "Cancel")
        on_screen(page, page.locator("#controls"), "Draw / Pass / Undo")
        assert page.evaluate("window.scrollY") == 0
        page.screenshot(path=f"/tmp/landscape-{size}.png")
    finally:
        context.close()
