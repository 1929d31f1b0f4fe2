"""Settling a hand at the table, on a phone: what the table does now has the screen.

With three or four players holding tiles, the Settle button and the previewed scores are on the
screen before and after each player's pips are typed, as is the field being typed into; the
hand's heading is said once, the last play's result is shown whole, and one tap settles. Digits
typed into the next field right after the previous one (while its preview is on its way, or just
after it came) all arrive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phone import answer_to, at_revision, on_screen, play, revision, shown
from tests.scripts import EXAMPLE_C, FOUR_OUT, Script
from tests.tables import HttpApi

pytestmark = pytest.mark.browser

SCREENS = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}


@dataclass(frozen=True)
class Hand:
    """A hand at a table, up to its last play (the phone taps it, choosing ``end`` among the
    ``offered`` ends and their points, and is told ``says``); what each player still holding
    tiles ``reports``, and each one's score now, its change and after (``scores``)."""

    names: list[str]
    script: Script
    says: str
    end: str
    offered: dict[str, int]
    reports: dict[str, str]
    scores: dict[str, str]


TABLES = {
    # Worked example C: Ana goes out with 5-2 on the up end; Ben holds 13 pips, Cy 7 (R13:
    # 15 and 5 taken off their scores).
    "3 players": Hand(
        ["Ana", "Ben", "Cy"],
        EXAMPLE_C,
        "Ana played 5-2 on the up end",
        "up",
        {"up": 10, "down": 0},
        {"Ben": "13", "Cy": "7"},
        {"Ben": "0 -15 -15", "Cy": "15 -5 10"},
    ),
    # FOUR_OUT: Ana goes out with 6-3 on the down end; Ben 3, Cy 12, Di 3 (5, 10 and 5 off).
    "4 players": Hand(
        ["Ana", "Ben", "Cy", "Di"],
        FOUR_OUT,
        "Ana played 6-3 on the down end",
        "down",
        {"right": 0, "down": 10},
        {"Ben": "3", "Cy": "12", "Di": "3"},
        {"Ben": "0 -5 -5", "Cy": "0 -10 -10", "Di": "15 -5 10"},
    ),
}


def hand_over_on_the_phone(page: Page, api: HttpApi, live_server: str, hand: Hand) -> str:
    """The hand entered up to its last play, which the phone taps: the screen then shows that
    play's result and the settlement, as at a real table."""
    game = api.new_game(hand.names)
    api.act(game, "start_hand", starter="Ana")
    api.enter(game, hand.script[:-1])
    page.goto(f"{live_server}/g/{game}")
    last = hand.script[-1].button
    play(page, last, hand.says, end=hand.end, offered=hand.offered, last=True)
    return game


def pips_field(page: Page, name: str) -> Any:
    return page.get_by_role("group", name=re.compile(rf"^{name}\b")).get_by_label("Pips")


def settle_button(page: Page) -> Any:
    return page.get_by_role("button", name="Settle hand 1")


# The rows scroll on their own: a field is seen only within what its scroller shows.
WHOLE_IN_ITS_SCROLLER = """field => {
  const box = field.getBoundingClientRect();
  const shown = field.closest(".reports").getBoundingClientRect();
  return box.top >= shown.top - 0.5 && box.bottom <= shown.bottom + 0.5;
}"""


def in_view(page: Page, what: str) -> None:
    on_screen(page, settle_button(page), f"the Settle button {what}")
    on_screen(page, page.locator("#settle-preview"), f"the preview {what}")


@pytest.mark.parametrize("table", list(TABLES))
@pytest.mark.parametrize("size", list(SCREENS))
def test_the_settle_button_and_the_preview_stay_in_view_while_pips_are_typed(
    browser: Any, api: HttpApi, live_server: str, size: str, table: str
) -> None:
    context = browser.new_context(viewport=SCREENS[size], device_scale_factor=2, has_touch=True)
    page = context.new_page()
    try:
        hand = TABLES[table]
        game = hand_over_on_the_phone(page, api, live_server, hand)

        # The panel says the hand's heading; the notice above it only what the last play did,
        # whole (nothing cut off at the bottom of its box).
        expect(page.get_by_role("heading", name="Ana went out!")).to_be_visible()
        # (The live region also says it, for the ear only: not counted, as the eye never sees it.)
        seen = page.locator("#game").evaluate(
            "el => Array.from(el.querySelectorAll('h2, .notice')).map(e => e.innerText).join(' ')"
        )
        assert seen.count("went out") == 1
        notice = page.locator("#notice .notice")
        shown(notice).to_contain_text(hand.says)
        on_screen(page, notice, "the last play's result")
        assert notice.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), "the notice is cut"

        in_view(page, "before any pips are typed")
        for name, pips in hand.reports.items():
            field = pips_field(page, name)
            on_screen(page, field, f"{name}'s pips field")
            field.tap()
            with answer_to(page, "/settle/preview"):
                page.keyboard.type(pips)
            expect(field).to_have_value(pips)
            on_screen(page, field, f"{name}'s pips field once typed")
            assert field.evaluate(WHOLE_IN_ITS_SCROLLER), f"{name}'s field is scrolled out of view"
            in_view(page, f"after {name}'s pips are typed")

        preview = page.locator("#settle-preview")
        for name, row in hand.scores.items():
            shown(preview.get_by_role("row", name=re.compile(rf"^{name}\b"))).to_have_text(
                re.compile(rf"{name}\s*" + r"\s*".join(map(re.escape, row.split())) + "$")
            )
        seq = revision(page)
        assert api.state(game)["seq"] == seq
        settle_button(page).tap()  # one tap settles
        at_revision(page, seq + 1)
        state = api.state(game)
        assert state["seq"] == seq + 1 and state["status"] == "awaiting_start"
        reported = {name: int(pips) for name, pips in hand.reports.items()}
        assert state["hands"][0]["pips"] == {"Ana": 0, **reported}
    finally:
        context.close()


# Tapping the next field after typing into one: at once (the typed digit's preview is still to
# be asked for, and the tap itself asks for one), while it is on its way, or just after it came.
WAITS = [0, 30, 60, 90, 150, "answered"]


def test_digits_typed_into_the_next_field_right_after_the_preview_all_arrive(
    page: Page, api: HttpApi, live_server: str
) -> None:
    game = api.new_game(["Ana", "Ben", "Cy", "Di"])
    api.act(game, "start_hand", starter="Ana")
    api.enter(game, FOUR_OUT)
    for wait in WAITS:
        page.goto(f"{live_server}/g/{game}")
        page.evaluate("localStorage.clear()")  # nothing typed before: every field empty
        page.reload()
        ben, cy = pips_field(page, "Ben"), pips_field(page, "Cy")
        ben.tap()
        if wait == "answered":
            with answer_to(page, "/settle/preview"):
                page.keyboard.type("3")
        else:
            page.keyboard.type("3")
            page.wait_for_timeout(int(wait))
        cy.tap()
        page.keyboard.type("12")
        expect(cy, f"Cy's digits, typed {wait} ms after Ben's").to_have_value("12")
        expect(ben).to_have_value("3")
        pips_field(page, "Di").tap()
        page.keyboard.type("3")
        preview = page.locator("#settle-preview")
        expect(preview).to_contain_text("Ben 3 → 5 Cy 12 → 10 Di 3 → 5")
    assert api.state(game)["status"] == "hand_over"  # a preview stores nothing
