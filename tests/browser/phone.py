"""The game screen on a phone, as a person looks at it and taps it, for the browser tests:
controls are found by role and name (a tile's name is its notation, ``6-4``)."""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Locator, Page

# A refused action (422) or a stale one (409) is answered with the game region, which htmx
# swaps in; Chromium still logs the status of the request. Those lines are expected where a
# test provokes a refusal, and nowhere else.
REFUSAL_LOG = re.compile(r"Failed to load resource: the server responded with a status of 4(09|22)")


class Console:
    """Every error the page reports: console errors (CSP violations among them), crashes."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        self.refusals = 0
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: uncaught {error}"))
        self.page = page

    def _console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        if REFUSAL_LOG.search(message.text):
            self.refusals += 1
            return
        where = message.location.get("url", "") if message.location else ""
        self.errors.append(f"{self.page.url}: {message.text} ({where})")


# --- what a person looks at and taps ----------------------------------------------------------


def tile(page: Page, name: str) -> Locator:
    """A tile of the picker: its accessible name is its notation."""
    return page.get_by_role("region", name="Tiles").get_by_role("button", name=name, exact=True)


def score(page: Page, side: str, points: int, target: int) -> Locator:
    """A side's progress bar toward the target, named with its score."""
    return page.get_by_role("progressbar", name=f"{side}: {points} of {target}", exact=True)


def status(page: Page) -> Locator:
    return page.get_by_role("status")


def board(page: Page) -> Locator:
    return page.get_by_role("region", name="The layout")


def button(page: Page, name: str) -> Locator:
    """Draw, Pass or Undo: always in place, greyed out when the rules do not allow it."""
    return page.get_by_role("region", name="Actions").get_by_role(
        "button", name=re.compile(rf"^{name}\b")
    )


def work(page: Page) -> Locator:
    """The panel under the thumb between plays: start, settle, game over."""
    return page.get_by_role("region", name="Next")


def more(page: Page) -> None:
    """Open (or close) the "More" sheet: the log, disputes, settings and sharing."""
    page.get_by_text("More", exact=True).click()


def mark_page(page: Page) -> None:
    page.evaluate("window.__samePage = true")


def assert_same_page(page: Page) -> None:
    """htmx swapped a region: the page itself (and its window) was not reloaded."""
    assert page.evaluate("window.__samePage === true"), "the page fully reloaded"


def play(
    page: Page,
    name: str,
    says: str,
    *,
    end: str | None = None,
    offered: dict[str, int] | None = None,
    last: bool = False,
) -> None:
    """Tap a tile. When it fits several ends, check the points each choice offers (``offered``:
    arm → points) and tap ``end``. Then the message must say ``says`` and the tile be played
    (unless it was the ``last`` play of the hand: then the picker gives way to what follows)."""
    tile(page, name).click()
    if offered is not None:
        picker = page.get_by_role("region", name="Tiles")
        heading = re.compile(rf"Where does\s+{re.escape(name)}\s+go\?")
        expect(picker.get_by_role("heading", name=heading)).to_be_visible()
        choices = picker.get_by_role("button", name=re.compile(r"points"))
        expect(choices).to_have_count(len(offered))
        for arm, points in offered.items():
            choice = picker.get_by_role("button", name=re.compile(rf"^{arm}\b", re.I))
            expect(choice).to_contain_text(f"{points} points")
        assert end is not None
        # As a person would, tap once the choice has been read: a tap within 350 ms of the
        # choice appearing is taken for the second tap of a double tap and ignored.
        page.wait_for_timeout(400)
        picker.get_by_role("button", name=re.compile(rf"^{end}\b", re.I)).click()
    expect(status(page)).to_contain_text(says)
    if last:
        expect(page.get_by_role("region", name="Tiles").get_by_role("button")).to_have_count(0)
    else:
        expect(tile(page, name)).to_be_disabled()


def new_game(page: Page, base: str, names: list[str], target: int | None = None) -> None:
    """Home → New game → names (adding fields as needed) → options → Start game."""
    page.goto(base + "/")
    page.get_by_role("link", name="New game").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    while page.get_by_role("textbox").count() < len(names):
        page.get_by_role("button", name="+ Add player").click()
    for seat, name in enumerate(names, start=1):
        page.get_by_label(f"Player {seat} name").fill(name)
    if target is not None:
        page.get_by_text("House rules", exact=True).click()
        page.get_by_label("Play to").fill(str(target))
