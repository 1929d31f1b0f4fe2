"""Fives and Threes and a timed game at 360×740, the smaller phone (R26–R30).

Worked example L is entered tile by tile in English and in Romanian: Ana knocks twice (R27:
nobody draws), Ben goes out, and the settlement asks nothing and pays Ben one five (R28). A
timed game ends by "Time" in overtime (R30). Screenshots go to ``$ALLFIVES_SCREENS`` (default:
the test's temporary folder), light and dark, to be looked at.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser.phone import ANSWER, Console, act, at_revision, revision, shown
from tests.scripts import EXAMPLE_L
from tests.tables import HttpApi
from webapp.i18n import COOKIE

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 740}

# What the table reads, in each language the hand is entered in.
WORDS = {
    "en": {
        "knock": "Knock",
        "knocked": "Ana knocked",
        "hint": "Going out scores one five",
        "draw": "Draw nobody draws",
        "why": "Nobody draws in this game: a player whose tiles do not fit knocks (R27)",
        "out": "Out of play 14",
    },
    "ro": {
        "knock": "Bate",
        "knocked": "Ana a bătut",
        "hint": "Ieșirea aduce un cinci",
        "draw": "Trage nimeni nu trage",
        "why": "În acest joc nimeni nu trage: cine nu are piesă care se potrivește bate (R27)",
        "out": "Scoase din joc 14",
    },
}


@pytest.fixture(params=list(WORDS))
def small_phone(
    request: pytest.FixtureRequest, browser: Any, live_server: str
) -> Iterator[tuple[Page, str]]:
    """A 360×740 phone whose device chose the language (the cookie the switcher sets)."""
    context = browser.new_context(viewport=SMALL_PHONE, device_scale_factor=2, has_touch=True)
    context.add_cookies([{"name": COOKIE, "value": request.param, "url": live_server}])
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    console = Console(tab)
    yield tab, request.param
    context.close()
    assert console.errors == [], "the page logged errors:\n" + "\n".join(console.errors)


def _shots(page: Page, tmp_path: Path, name: str) -> None:
    """The whole page, light and dark."""
    folder = Path(os.environ.get("ALLFIVES_SCREENS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(folder / f"{name}-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def _tile(page: Page, name: str) -> Locator:
    return page.locator(f'#work button.tile[value="{name}"]')


def test_a_fives_and_threes_hand_with_knocks_and_a_five_for_going_out(
    small_phone: tuple[Page, str], live_server: str, tmp_path: Path
) -> None:
    page, language = small_phone
    words = WORDS[language]
    api = HttpApi(live_server)
    game = api.new_game(["Ana", "Ben"], preset="fives-and-threes")
    api.act(game, "start_hand", starter="Ana")
    page.goto(f"{live_server}/g/{game}")
    at_revision(page, 1)
    knock = page.locator("#controls button.pass")
    shown(knock).to_have_text(words["knock"])
    shown(knock).to_be_disabled()  # a tile can always be led
    # R27: Draw stays in its place and says why it is never pressed; the 14 tiles left after the
    # deal are out of play, not a boneyard to draw from.
    draw = page.locator("#controls button.draw")
    shown(draw).to_be_disabled()
    shown(draw).to_have_accessible_name(words["draw"])
    shown(draw).to_have_accessible_description(words["why"])
    shown(page.locator("#board .board-facts")).to_contain_text(words["out"])
    for move in EXAMPLE_L:
        if move.kind == "pass":
            shown(knock).to_be_enabled()  # R27: nothing to draw, so a knock
            shown(page.locator("#controls button.draw")).to_be_disabled()
            act(page, knock)
            shown(page.get_by_role("status")).to_contain_text(words["knocked"])
        else:
            act(page, _tile(page, move.button))
        if move is EXAMPLE_L[6]:  # 6-6: [6|6] 12 + 3 = 15, 8 points (R26)
            # (tapped without an end, the 5-4 went left: the layout is example L mirrored)
            shown(page.get_by_role("status")).to_contain_text("3 + [6|6] 12 = 15")
            shown(page.locator("#notice")).to_contain_text("+8")
            _shots(page, tmp_path, f"{language}-fives-and-threes-15")
    assert [p["score"] for p in api.state(game)["players"]] == [11, 14]
    # Ben went out: nothing to report, one five for going out (R28).
    settle = page.locator(".settle-form button.primary")
    shown(page.locator("#settle-preview .hint")).to_contain_text(words["hint"])
    shown(page.locator("#settle-preview")).to_contain_text("+1")  # shown before any entry
    _shots(page, tmp_path, f"{language}-fives-and-threes-settle")
    act(page, settle)
    shown(page.get_by_role("status")).to_contain_text("Ben +1")
    assert [p["score"] for p in api.state(game)["players"]] == [11, 15]
    assert api.state(game)["next_leader"] == "Ben"  # R29: the lead rotates


def test_a_timed_game_ends_by_time_in_overtime(
    small_phone: tuple[Page, str], live_server: str, tmp_path: Path
) -> None:
    page, language = small_phone
    if language != "en":
        pytest.skip("the clock speaks no words of its own: one language is enough")
    api = HttpApi(live_server)
    game = api.new_game(["Ana", "Ben"], time_limit=15)
    api.act(game, "start_hand", starter="Ana")
    api.act(game, "play", tile="6-1")  # 7: nothing; the clock runs from this lead
    page.goto(f"{live_server}/g/{game}")
    at_revision(page, 2)
    clock = page.locator("time[data-clock]")
    shown(clock).to_have_text(re.compile(r"^1[45]:[0-5]\d$"))
    first = clock.text_content()
    expect(clock).not_to_have_text(first or "", timeout=ANSWER)  # it counts down on its own
    fits = "document.scrollingElement.scrollHeight <= window.innerHeight + 1"
    assert page.evaluate(fits), "a timed game needs scrolling"
    _shots(page, tmp_path, "en-timed")
    time = page.locator("#controls button.time")
    shown(time).to_have_text("Time")
    act(page, time)  # 0–0: both play on
    shown(page.get_by_role("status")).to_contain_text("Time: Ana and Ben are level and play on")
    shown(page.locator(".overtime")).to_contain_text("Overtime: Ana and Ben play on")
    shown(time).to_have_count(0)  # time was called: nothing more to call
    assert page.evaluate(fits), "a game in overtime needs scrolling"
    _shots(page, tmp_path, "en-overtime")
    for name in ("3-1", "6-4"):  # 9, then 7: nobody scores
        act(page, _tile(page, name))
    seq = revision(page)
    _tile(page, "3-3").click()  # Ben: 4 + [3|3] 6 = 10, the first to score
    at_revision(page, seq + 1)
    state = api.state(game)
    assert (state["status"], state["winner"]) == ("game_over", "Ben")
    shown(page.locator("#work")).to_contain_text("Ben")
    shown(time).to_have_count(0)  # the game is over: nothing more to call
    _shots(page, tmp_path, "en-time-won")
