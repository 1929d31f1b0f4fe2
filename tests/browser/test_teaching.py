"""A new player learns the game on a phone: the guided first hand and the practice board.

Each test follows what a newcomer sees and taps — links and buttons by their names (a tile's
name is its notation, ``5-3``), text as shown — and asserts with Playwright's retrying
``expect``. The counts and breakdowns expected below are RULES.md's worked examples A (the
guided hand) and B (the practice board), written as the app writes them: a double counting
both halves is shown as ``[6|6] 12``.

Both tests also check that no page logged an error: the strict Content-Security-Policy (no
inline script or style) reports any violation as a console error.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

import pytest

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.scripts import EXAMPLE_B

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Locator, Page

pytestmark = pytest.mark.browser


class Console:
    """Every error a page reports: console errors (CSP violations among them) and crashes."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Page) -> Page:
        page.on("console", lambda message: self._console(page, message))
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: uncaught {error}"))
        return page

    def _console(self, page: Page, message: ConsoleMessage) -> None:
        if message.type == "error":
            where = message.location.get("url", "") if message.location else ""
            self.errors.append(f"{page.url}: {message.text} ({where})")

    def assert_clean(self) -> None:
        assert self.errors == [], "the pages logged errors:\n" + "\n".join(self.errors)


@pytest.fixture
def console(page: Page) -> Iterator[Console]:
    """Watches ``page``; each test asserts it clean at its end. Should a test fail before then,
    the errors logged so far are printed with its captured output: they may be the cause."""
    watching = Console()
    watching.watch(page)
    yield watching
    if watching.errors:
        print("the pages logged errors:", *watching.errors, sep="\n")


def board(page: Page) -> Locator:
    return page.get_by_role("region", name="The layout")


def count(page: Page, value: int) -> Locator:
    """The count shown under the layout: the label and the number read as ``Count 25``."""
    return board(page).get_by_text(f"Count {value}", exact=True)


def why(page: Page) -> Locator:
    """The panel explaining the last play; its heading starts with "Why"."""
    return page.get_by_role("region", name=re.compile(r"^Why"))


def board_in_url(page: Page) -> str:
    """The practice board as its address carries it (the ``p`` query parameter)."""
    return parse_qs(urlsplit(page.url).query).get("p", [""])[0]


# --- 1. the guided first hand ------------------------------------------------------------------

# RULES.md worked example A, one entry per step of the guided hand that plays it:
# step → (the count's breakdown, the points scored). Steps 2-11 are plays 1-10 of the example.
EXAMPLE_A = {
    2: ("3 + 2 = 5", 5),  # 3-2 lead
    3: ("3 + [2|2] 4 = 7", 0),  # 2-2 right: the spinner, one side covered, counts 4
    4: ("3 + 6 = 9", 0),  # 2-6 right: both sides covered, the spinner stops counting
    5: ("3 + 6 + 4 = 13", 0),  # 2-4 up
    6: ("1 + 6 + 4 = 11", 0),  # 3-1 left
    7: ("1 + [6|6] 12 + 4 = 17", 0),  # 6-6 right: a double at an end counts both halves
    8: ("1 + [6|6] 12 + [4|4] 8 = 21", 0),  # 4-4 up
    9: ("1 + [6|6] 12 + [4|4] 8 + 5 = 26", 0),  # 2-5 down
    10: ("0 + [6|6] 12 + [4|4] 8 + 5 = 25", 25),  # 1-0 left: the 25-point play
    11: ("0 + 4 + [4|4] 8 + 5 = 17", 0),  # 6-4 right covers the 6-6
}
STEPS = 16
POINTS = re.compile(r"\+\d")  # "+25": points scored (the breakdown's "+" has spaces)


def test_a_new_player_walks_the_guided_first_hand(
    page: Page, live_server: str, console: Console
) -> None:
    page.goto(live_server + "/")
    page.get_by_role("link", name=re.compile(r"^Guided first hand")).click()
    expect(page).to_have_url(re.compile(r"/learn$"))

    def at_step(number: int, headline: str) -> None:
        expect(page.get_by_text(f"Step {number} of {STEPS}", exact=True)).to_be_visible()
        expect(page.get_by_role("heading", level=1)).to_have_text(headline)
        if number in EXAMPLE_A:
            breakdown, points = EXAMPLE_A[number]
            expect(count(page, int(breakdown.rsplit("= ", 1)[1]))).to_be_visible()
            expect(board(page)).to_contain_text(breakdown)
            if points:
                expect(board(page)).to_contain_text(f"+{points}")
            else:
                expect(board(page)).not_to_contain_text(POINTS)

    def next_step() -> None:
        page.get_by_role("link", name=re.compile(r"^Next")).click()

    # Step 1: the deal. Nothing is on the table yet; the rules at work link to the rules page.
    at_step(1, "Deal, and who leads")
    expect(page.get_by_text("Ana drew the lot, so Ana leads.")).to_be_visible()
    expect(page.get_by_role("list", name="Ana’s tiles")).to_contain_text("3-2")
    expect(page.get_by_role("link", name="Rule R4")).to_have_attribute("href", "/rules#R4")
    expect(page.get_by_role("link", name=re.compile(r"Back"))).to_have_count(0)

    next_step()
    at_step(2, "The lead")
    expect(page.get_by_text("Ana leads 3-2.")).to_be_visible()
    expect(board(page)).to_contain_text("+5 Ana")

    next_step()
    at_step(3, "The spinner")
    expect(page.get_by_text("The first double of the hand is the spinner")).to_be_visible()
    expect(why(page)).to_contain_text("2-2 is the first double played, so it is the spinner")
    expect(why(page)).to_contain_text("The spinner counts both halves, 4, while a side is open")

    next_step()
    at_step(4, "Sides before ends")
    expect(
        page.get_by_text(re.compile(r"Nobody may play on the spinner's up or down"))
    ).to_be_visible()
    sides = why(page).get_by_role("listitem").filter(has_text="Both sides of the spinner")
    expect(sides).to_contain_text("up and down are open, each showing 2")
    expect(sides.get_by_role("link", name="Rule R10")).to_have_attribute("href", "/rules#R10")

    next_step()
    at_step(5, "Playing up")
    expect(page.get_by_text("Ana plays 2-4 on the up end.")).to_be_visible()

    # Back once, to re-read the rule about the spinner's sides, then on again.
    page.get_by_role("link", name=re.compile(r"Back")).click()
    expect(page).to_have_url(re.compile(r"/learn/4$"))
    at_step(4, "Sides before ends")
    next_step()
    at_step(5, "Playing up")

    next_step()
    at_step(6, "Four arms to choose from")

    next_step()
    at_step(7, "A double at an end")
    double = why(page).get_by_role("listitem").filter(has_text="A double at the end of an arm")
    expect(double).to_contain_text("counts both halves: 12")
    expect(double.get_by_role("link", name="Rule R8")).to_be_visible()

    for number, headline in ((8, "Another double"), (9, "All four ends open")):
        next_step()
        at_step(number, headline)

    next_step()
    at_step(10, "A big score")
    expect(board(page)).to_contain_text("+25 Cy")
    expect(why(page)).to_contain_text("a multiple of 5, scores 25")
    cy = page.get_by_role("region", name="Scores").get_by_role("listitem").filter(has_text="Cy")
    expect(cy).to_have_text(re.compile(r"^\s*Cy\s+25\s+\+25\s*$"))

    next_step()
    at_step(11, "Covering a double")
    expect(why(page)).to_contain_text("6-6 stops counting both halves")

    next_step()
    at_step(12, "Drawing")
    expect(
        page.get_by_text(re.compile(r"Ben cannot play, so draws .* turns up 3-0"))
    ).to_be_visible()

    for number, headline in ((13, "Play what you draw"), (14, "Counting blanks")):
        next_step()
        at_step(number, headline)

    next_step()
    at_step(15, "Going out")
    expect(why(page)).to_contain_text("Ana played their last tile: the hand ends at once")

    # The settlement (RULES.md example C's pips: 13 round up to 15, 7 round down to 5).
    next_step()
    at_step(16, "Settling the hand")
    held = page.get_by_role("region", name="What each still holds")
    ben = held.get_by_role("row", name=re.compile(r"^Ben\b"))
    expect(ben.get_by_role("cell")).to_have_text(["6-1, 3-3", "13", "15", "-15"])
    cy_row = held.get_by_role("row", name=re.compile(r"^Cy\b"))
    expect(cy_row.get_by_role("cell")).to_have_text(["3-4", "7", "5", "-5"])
    ana = held.get_by_role("row", name=re.compile(r"^Ana\b"))
    expect(ana.get_by_role("cell")).to_have_text(["—", "0", "0", "0"])
    expect(why(page)).to_contain_text("13 pips round up to 15")
    expect(why(page)).to_contain_text("7 pips round down to 5")
    scores = page.get_by_role("region", name="Scores").get_by_role("listitem")
    expect(scores).to_have_text(
        [re.compile(r"Ana\s+20$"), re.compile(r"Ben\s+5\s+-15$"), re.compile(r"Cy\s+35\s+-5$")]
    )

    # The end: no Next, a way on to the practice board, and a way to start over.
    expect(page.get_by_role("heading", name="You have played a hand of All Fives")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(r"^Next"))).to_have_count(0)
    expect(page.get_by_role("link", name="Try the practice board")).to_be_visible()
    page.get_by_role("link", name="Start over").click()
    at_step(1, "Deal, and who leads")

    console.assert_clean()


# --- 2. the practice board ---------------------------------------------------------------------


def test_a_new_player_builds_a_board_on_the_practice_page(
    page: Page, browser: Browser, live_server: str, console: Console
) -> None:
    page.goto(live_server + "/")
    page.get_by_role("link", name=re.compile(r"^Practice board")).click()
    expect(page.get_by_role("heading", name="Practice board")).to_be_visible()
    expect(page.get_by_text("An empty table.")).to_be_visible()

    def tile(name: str) -> Locator:
        # Its name: the tile, then its badge when it shows one ("5-5 +10").
        return page.get_by_role("button", name=re.compile(rf"^{name}(?: |$)"))

    def choice(arm: str) -> Locator:
        return page.get_by_role("button", name=re.compile(rf"^{arm}\b"))

    # RULES.md worked example B. 1: 5-5 leads → 10, +10.
    tile("5-5").click()
    expect(count(page, 10)).to_be_visible()
    expect(board(page)).to_contain_text("[5|5] 10 = 10")
    expect(board(page)).to_contain_text("+10")
    assert board_in_url(page) == EXAMPLE_B[:1].board()

    # 2: 5-3 fits either side of the lone spinner: the same layout seen from the other side of
    # the table, so no question (R5); it goes on the left.
    tile("5-3").click()
    expect(count(page, 13)).to_be_visible()
    assert board_in_url(page) == "5-5,5-3:left"
    expect(board(page)).to_contain_text("3 + [5|5] 10 = 13")
    expect(board(page)).not_to_contain_text(POINTS)
    expect(tile("5-3")).to_be_disabled()

    # 3: 5-2 fits only the right side (up and down are not open yet, R10): no question asked.
    tile("5-2").click()
    expect(count(page, 5)).to_be_visible()
    expect(board(page)).to_contain_text("3 + 2 = 5")
    expect(board(page)).to_contain_text("+5")
    expect(page.get_by_role("heading", name="Why: 5-2 on the right")).to_be_visible()
    opened = why(page).get_by_role("listitem").filter(has_text="Both sides of the spinner")
    expect(opened).to_contain_text("up and down are open, each showing 5")
    assert board_in_url(page) == EXAMPLE_B[:3].board()

    # Now a 5 goes up or down (R10), and only there; the two are mirror images, so no question:
    # example B, 4: 5-0 up → 3 + 2 + 0 = 5, +5.
    tile("5-0").click()
    expect(board(page)).to_contain_text("3 + 2 + 0 = 5")
    expect(page.get_by_role("heading", name="Why: 5-0 on the up")).to_be_visible()
    assert board_in_url(page) == EXAMPLE_B[:4].board()

    # 3-2 fits the left (3) and the right (2), which differ: the page asks which, with the
    # points of each.
    tile("3-2").click()
    expect(page.get_by_role("heading", name=re.compile(r"Where does\s+3-2\s+go\?"))).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"points"))).to_have_count(2)
    expect(choice("Up")).to_have_count(0)
    choice("Left").click()
    assert board_in_url(page) == "5-5,5-3:left,5-2:right,5-0:up,3-2:left"
    page.get_by_role("link", name="Undo last tile").click()
    expect(page.get_by_role("heading", name="Why: 5-0 on the up")).to_be_visible()

    # Undo the last tile: back to the board after 5-2, with 5-0 to play again.
    page.get_by_role("link", name="Undo last tile").click()
    expect(page.get_by_role("heading", name="Why: 5-2 on the right")).to_be_visible()
    expect(board(page)).to_contain_text("3 + 2 = 5")
    expect(tile("5-0")).to_be_enabled()
    # Each place is named by what it shows, after its tile (WCAG 2.5.3).
    expect(page.get_by_role("link", name=re.compile(r"^5-0 Up \+5\b"))).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(r"^5-0 Down \+5\b"))).to_be_visible()
    assert board_in_url(page) == EXAMPLE_B[:3].board()

    def shows_the_board(tab: Page) -> None:
        layout = tab.get_by_role("region", name="The layout")
        expect(layout.get_by_text("Count 5", exact=True)).to_be_visible()
        expect(layout).to_contain_text("3 + 2 = 5")
        expect(layout).to_contain_text("+5")
        for played in EXAMPLE_B[:3]:
            expect(tab.get_by_role("button", name=played.button, exact=True)).to_be_disabled()
        expect(tab.get_by_role("button", name=re.compile(r"^5-0(?: |$)"))).to_be_enabled()

    # The address is the board: reloading it, or opening it on another phone, shows the same.
    shared = page.url
    page.reload()
    assert page.url == shared
    shows_the_board(page)
    other = browser.new_context(
        viewport={"width": PHONE["width"], "height": PHONE["height"]}, has_touch=True
    )
    try:
        friend = console.watch(other.new_page())
        friend.goto(shared)
        shows_the_board(friend)
    finally:
        other.close()

    # A rule chip opens the rules page at that rule.
    opened.get_by_role("link", name="Rule R10").click()
    expect(page).to_have_url(re.compile(r"/rules#R10$"))
    expect(page.get_by_role("heading", name=re.compile(r"^R10\b"))).to_be_in_viewport()

    console.assert_clean()
