"""The game screen for a player who does not look at it: every action is said through one live
region that stays the same node, and the focus goes where the hand goes next, never to
``<body>``. The hand is driven with the keyboard: a control is focused and Enter pressed."""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING

import pytest

from tests.browser.phone import (
    _NOTE_SHOWN,
    SHOWN_MS,
    _after_the_guard,
    answer_to,
    at_revision,
    revision,
    shown,
    status,
    tile,
    work,
)
from tests.scripts import HAND_OF_FIVE

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

    from tests.browser.phone import Console
    from tests.tables import HttpApi

pytestmark = pytest.mark.browser

# HAND_OF_FIVE up to Ben's 5-3: open ends 4 (left), 4 (right), 3 (up), 2 (down).
BEFORE_FIFTEEN = HAND_OF_FIVE[:7]


def before_fifteen(page: Page, api: HttpApi, live_server: str) -> str:
    """A two-player game to 5 at BEFORE_FIFTEEN, open on ``page``; its id."""
    game = api.new_game(["Ana", "Ben"], deal="5")
    api.act(game, "start_hand", starter="Ana")
    api.enter(game, BEFORE_FIFTEEN)
    page.goto(f"{live_server}/g/{game}")
    return game


def mark_live_region(page: Page) -> None:
    page.evaluate("document.getElementById('notice').__theOne = true")


def same_live_region(page: Page) -> None:
    assert page.evaluate("document.getElementById('notice').__theOne === true"), (
        "the live region was replaced: a screen reader may not say what it now holds"
    )
    assert page.get_by_role("status").count() == 1


def press(page: Page, control: Locator) -> None:
    """A keyboard user's tap: the control focused, Enter pressed."""
    control.focus()
    page.keyboard.press("Enter")


def enter(page: Page, control: Locator) -> None:
    """Press a control that enters an action, and wait for the revision it makes."""
    seq = revision(page)
    press(page, control)
    at_revision(page, seq + 1)


def focused(page: Page) -> str:
    """What has the focus once the answer's regions are settled: never the page's body after
    an action (the focus moves as the last region settles, a moment after it is drawn)."""
    with contextlib.suppress(Exception):  # still on <body>: the assertion below says so
        page.wait_for_function("document.activeElement !== document.body", timeout=SHOWN_MS)
    name = page.evaluate(
        "(() => { const el = document.activeElement;"
        " return el === document.body ? 'body' : el.tagName + ' ' + el.textContent.trim(); })()"
    )
    assert name != "body", "the focus fell to <body>"
    return str(name)


def test_each_action_is_said_in_one_live_region_and_the_focus_follows_the_hand(
    phone: tuple[Page, Console], api: HttpApi, live_server: str
) -> None:
    """HAND_OF_FIVE with the keyboard: a refusal (1-0 fits none of 4, 4, 3, 2: R5) keeps the
    focus on the tile; Ben's 5-3 up makes 15 (R11): the picker; Ana's 5-2 fits up and down, so
    the question is said and the focus is on its first answer; up, and Ana is out (R12): the
    settlement's pips field; settled: the next hand's start; started: the picker. Then a game
    to 5, won by Ana's lead 3-2 (R11): the winner's heading."""
    page, console = phone
    before_fifteen(page, api, live_server)
    mark_live_region(page)
    said = status(page)

    with answer_to(page, "/play"):
        press(page, tile(page, "1-0"))
    shown(said).to_contain_text("Not allowed")
    shown(said).to_contain_text("No open end shows 1 or 0")
    expect(tile(page, "1-0")).to_be_focused()
    same_live_region(page)
    console.refusals = 0

    enter(page, tile(page, "5-3"))  # up, the one end showing 3: 4 + 4 + 5 + 2 = 15
    shown(said).to_contain_text("Ben played 5-3")
    shown(said).to_contain_text("Ben scores 15")
    shown(said).to_contain_text("Ana to play")
    picker = page.get_by_role("region", name="Tiles")
    assert focused(page).startswith("BUTTON"), "the focus is not on a tile"
    expect(picker.get_by_role("button", disabled=False).first).to_be_focused()
    same_live_region(page)

    page.evaluate(_NOTE_SHOWN)
    with answer_to(page, "/play"):  # 5-2 fits up (5) and down (2): which end?
        press(page, tile(page, "5-2"))
    question = re.compile(r"Where does\s+5-2\s+go\?")
    shown(picker.get_by_role("heading", name=question)).to_be_visible()
    shown(said).to_contain_text(question)
    shown(said).to_contain_text("0 points")
    expect(picker.get_by_role("button", name=re.compile("points")).first).to_be_focused()
    same_live_region(page)
    _after_the_guard(page)  # the choice ignores a second tap within 350 ms: one reads it first
    enter(page, picker.get_by_role("button", name=re.compile(r"^up\b", re.I)))
    settle = work(page)
    heading = settle.get_by_role("heading", level=2)
    shown(said).to_contain_text("5-2")
    shown(said).to_contain_text(heading.inner_text())  # the hand's end: "Ana went out!"
    expect(settle.get_by_label("Pips").first).to_be_focused()
    same_live_region(page)

    with answer_to(page, "/settle/preview"):
        page.keyboard.type("7")
    seq = revision(page)
    page.keyboard.press("Enter")
    at_revision(page, seq + 1)
    shown(said).to_contain_text("Hand 1 settled")
    expect(settle.get_by_role("button", name=re.compile("Start hand 2"))).to_be_focused()
    same_live_region(page)

    enter(page, settle.get_by_role("button", name=re.compile("Start hand 2")))
    shown(said).to_contain_text("Hand 2")
    expect(picker.get_by_role("button", disabled=False).first).to_be_focused()
    same_live_region(page)

    over = api.new_game(["Ana", "Ben"], target=5)
    api.act(over, "start_hand", starter="Ana")
    page.goto(f"{live_server}/g/{over}")
    mark_live_region(page)
    enter(page, tile(page, "3-2"))  # R11: 5, the target
    shown(said).to_contain_text("Ana led 3-2")
    shown(said).to_contain_text("Ana wins!")
    expect(work(page).get_by_role("heading", name="Ana wins!")).to_be_focused()
    same_live_region(page)
