"""The game screen under the thumb: every control a 44 px target, at both phone sizes, in every
state a table meets; and what the last tap did, still said after a reload."""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING

import pytest

from tests.browser.phone import (
    ANSWER,
    act,
    answer_to,
    at_revision,
    button,
    more,
    opened,
    refused,
    status,
    tile,
)
from tests.browser.test_one_screen import SCREENS

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from tests.browser.phone import Console
    from tests.tables import HttpApi

pytestmark = pytest.mark.browser

TARGET = 44  # px: the smallest control a finger hits reliably (WCAG 2.5.5, Apple, Android)

# Every control a finger can hit that the page draws: its name and size, if under TARGET.
TOO_SMALL = """(target) => Array.from(document.querySelectorAll(
    'button, a[href], summary, input:not([type=hidden]), select, textarea'))
  .filter((el) => el.checkVisibility({visibilityProperty: true}))
  .map((el) => {
    const box = el.getBoundingClientRect();
    const name = (el.getAttribute('aria-label') || el.textContent || el.name || '').trim();
    return `${el.tagName.toLowerCase()}.${el.className} "${name.slice(0, 40)}": `
      + `${Math.round(box.width)}×${Math.round(box.height)}`;
  })
  .filter((said) => {
    const [w, h] = said.split(': ').pop().split('×').map(Number);
    return w < target || h < target;
  })"""


def small_controls(page: Page) -> list[str]:
    found: list[str] = page.evaluate(TOO_SMALL, TARGET)
    return found


@pytest.mark.parametrize("size", list(SCREENS))
def test_every_control_of_the_game_screen_is_a_44_px_target(
    browser: Browser, api: HttpApi, live_server: str, size: str
) -> None:
    """Leaders to pick; a play explained in learning mode (rule chips); a refusal (its rule
    link); the end choice; More open (log, Fix, audit, settings, sharing, languages); the
    settlement; game over. R11: Ana's lead 5-5 scores 10; R10: 3-2 fits the 3 and the 2."""
    context = browser.new_context(viewport=SCREENS[size], device_scale_factor=2, has_touch=True)
    page = context.new_page()
    seen: dict[str, list[str]] = {}
    try:
        game = api.new_game(["Ana", "Ben"])
        page.goto(f"{live_server}/g/{game}")
        seen["leaders"] = small_controls(page)
        api.act(game, "start_hand", starter="Ana")
        page.reload()
        act(page, tile(page, "5-5"))
        expect(status(page)).to_contain_text("Ana scores 10")
        refused(page, tile(page, "6-6"), "/play")
        seen["a refusal"] = small_controls(page)
        api.act(game, "play", tile="5-3", end="left")
        api.act(game, "play", tile="5-2", end="right")
        page.reload()
        with answer_to(page, "/play"):
            tile(page, "3-2").click()  # R10: on the 3 or on the 2, asked
        expect(page.get_by_role("link", name="Cancel")).to_be_visible()
        seen["the end choice"] = small_controls(page)
        page.reload()
        more(page)
        with page.expect_navigation(timeout=ANSWER):
            page.get_by_role("button", name=re.compile("^Learning mode")).click()
        expect(status(page).get_by_role("link", name=re.compile("^Rule R"))).not_to_have_count(0)
        seen["a play explained"] = small_controls(page)
        more(page)
        seen["More"] = small_controls(page)

        blocked = api.new_game(["Ana", "Ben"])  # R6, R7: 6-6, the boneyard drawn, both pass
        api.act(blocked, "start_hand", starter="Ana")
        api.act(blocked, "play", tile="6-6")
        api.act(blocked, "draw", count=10)
        api.act(blocked, "pass")
        api.act(blocked, "pass", confirm=True)
        page.goto(f"{live_server}/g/{blocked}")
        seen["the settlement"] = small_controls(page)
        api.act(blocked, "end_hand", remaining={"Ana": 23, "Ben": 133})
        page.goto(f"{live_server}/g/{blocked}")
        more(page)
        seen["More with the last hand's audit"] = small_controls(page)

        over = api.new_game(["Ana", "Ben"], target=5)
        api.act(over, "start_hand", starter="Ana")
        api.act(over, "play", tile="3-2")  # R11: 5, the target
        page.goto(f"{live_server}/g/{over}")
        seen["game over"] = small_controls(page)
    finally:
        context.close()
    assert {state: found for state, found in seen.items() if found} == {}


def test_the_last_result_is_still_shown_after_a_reload_until_the_next_action(
    phone: tuple[Page, Console], api: HttpApi, live_server: str
) -> None:
    """R11: Ana's lead 5-5 scores 10; a reload says so again; after Undo, a reload says what
    Undo did."""
    page, _ = phone
    game = api.new_game(["Ana", "Ben"])
    api.act(game, "start_hand", starter="Ana")
    page.goto(f"{live_server}/g/{game}")
    act(page, tile(page, "5-5"))
    expect(status(page)).to_contain_text("Ana scores 10")
    page.reload()
    at_revision(page, 2)
    expect(status(page)).to_contain_text("Ana scores 10: Ana led 5-5")
    act(page, button(page, "Undo"))
    page.reload()
    at_revision(page, 3)
    expect(status(page)).to_contain_text("Undone: Ana led 5-5")
    opened(page, page.get_by_role("link", name="All Fives home"), r"/$")
