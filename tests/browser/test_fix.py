"""Fixing a tile entered wrongly three moves back, on a phone at 390×844 (Chromium, htmx on).

Ana, Ben and Cy play six tiles; the scorer then sees that move 3 was 6-5, not 6-0. No doubles
are played, so every count is just the two open ends (R11), worked out beside each step. In
the first story every later tile still fits; in the second, Ben's 0-3 at move 5 needed the 0
that move 3 left open, so it and the move after it are taken back, and the app says why (R5).
"""

from __future__ import annotations

import contextlib
import os
import re
from typing import TYPE_CHECKING

import pytest

from tests.browser.phone import Console, act, new_game, play, score, start_game, status
from tests.scripts import FIX_KEPT, FIX_STOPPED, Script

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("ALLFIVES_SCREENSHOTS")  # a folder: save what each step looks like


def shot(page: Page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"fix-{name}.png"))


def six_moves(page: Page, base: str, script: Script, fifth: str, sixth: str) -> None:
    """The six moves of ``script``, tapped; each message says what the move did."""
    new_game(page, base, ["Ana", "Ben", "Cy"])
    start_game(page)
    act(page, page.get_by_role("button", name="Ana leads"))
    says = [
        "Ana led 6-4: 6 + 4 = 10, scores 10",
        "Ben played 4-1 on the right end: 6 + 1 = 7",
        "Cy played 6-0 on the left end: 0 + 1 = 1",  # really 6-5
        "Ana played 2-1 on the right end: 0 + 2 = 2",
        fifth,
        sixth,
    ]
    for move, message in zip(script, says, strict=True):
        play(page, move.button, message)


def fix_move_3_to_6_5(page: Page) -> None:
    """Game log → Fix move 3 → tile 6-5 → its one end, checking what each screen says."""
    page.get_by_text("More", exact=True).click()
    fix = page.get_by_role("link", name="Fix move 3", exact=True)
    fix.scroll_into_view_if_needed()
    box = fix.bounding_box()
    assert box is not None and box["height"] >= 44, "the Fix link is a thumb-sized target"
    fix.click()
    expect(page.get_by_role("heading", name=re.compile(r"^Fix move 3"))).to_be_visible()
    expect(page.get_by_text("Entered: Cy played 6-0 on the left end")).to_be_visible()
    # The layout as it stood before move 3: 6-4 and 4-1, ends 6 and 1 (R11: 6 + 1 = 7).
    expect(page.get_by_role("region", name="The layout before move 3")).to_contain_text(
        "Count 7 6 + 1 = 7"
    )
    tiles = page.get_by_role("region", name=re.compile(r"^Another tile"))
    # A tile's name: its notation, then its badge when it shows one ("6-5 fits").
    expect(tiles.get_by_role("button", name=re.compile(r"^4-1(?: |$)"))).to_be_disabled()
    shot(page, "page")
    tiles.get_by_role("button", name=re.compile(r"^6-5(?: |$)")).click()
    ends = page.get_by_role("region", name=re.compile(r"Where did\s+6-5\s+go\?"))
    expect(ends).to_be_visible()
    # 6-5 fitted only the 6 on the left: 5 + 1 = 6, no points (R5, R11).
    end = ends.get_by_role("button", name=re.compile(r"^Left end"))
    expect(end).to_contain_text("0 points")
    expect(end).to_contain_text("5 + 1 = 6")
    expect(end).to_be_in_viewport()
    shot(page, "ends")
    end.click()


def test_fixing_move_3_keeps_every_later_move_that_still_fits(
    phone: tuple[Page, Console], live_server: str
) -> None:
    page, _ = phone
    six_moves(
        page,
        live_server,
        FIX_KEPT,
        "Ben played 3-2 on the right end: 0 + 3 = 3",
        "Cy played 5-3 on the right end: 0 + 5 = 5, scores 5",
    )
    expect(score(page, "Cy", 5, 200)).to_be_visible()

    fix_move_3_to_6_5(page)

    # Left shows 5 now: 5 + 2 = 7, 5 + 3 = 8, then Cy's 5-3 makes 5 + 5 = 10 (R11).
    message = status(page)
    expect(message).to_contain_text(
        "Fixed move 3: Cy played 6-5 on the left end, not 6-0; moves 4–6 kept"
    )
    expect(message).to_be_in_viewport()
    expect(score(page, "Cy", 10, 200)).to_be_visible()
    expect(score(page, "Ana", 10, 200)).to_be_visible()
    expect(page.get_by_role("region", name="The layout")).to_contain_text("Count 10 5 + 5 = 10")
    shot(page, "kept")
    # The log keeps the move as entered and the fix; undo takes the fix back.
    page.get_by_role("button", name=re.compile(r"Undo: Fixed move 3")).click()
    expect(status(page)).to_contain_text("Undone: Fixed move 3")
    expect(score(page, "Cy", 5, 200)).to_be_visible()


def test_a_later_move_that_no_longer_fits_is_named_and_taken_back(
    phone: tuple[Page, Console], live_server: str
) -> None:
    page, _ = phone
    six_moves(
        page,
        live_server,
        FIX_STOPPED,
        "Ben played 3-0 on the left end: 3 + 2 = 5, scores 5",
        "Cy played 5-2 on the right end: 3 + 5 = 8",
    )
    expect(score(page, "Ben", 5, 200)).to_be_visible()

    fix_move_3_to_6_5(page)

    message = status(page)
    expect(message).to_contain_text("Fixed move 3: Cy played 6-5 on the left end, not 6-0")
    expect(message).to_contain_text(
        "move 5 (Ben played 3-0 on the left end) no longer fits: the left end shows 5, "
        "and 0-3 has no 5 — moves from there on taken back (R5)"
    )
    expect(message).to_contain_text("Ben to play")
    expect(message).to_be_in_viewport()
    # Ben's +5 went with his 3-0; the layout is back to four tiles, ends 5 and 2 (R11: 7).
    expect(score(page, "Ben", 0, 200)).to_be_visible()
    expect(page.get_by_role("region", name="The layout")).to_contain_text("Count 7 5 + 2 = 7")
    shot(page, "stopped")
    # Ben enters what he really played; 5-2 fits both ends now (5 and 2): the right, 5 + 5.
    play(
        page,
        "5-2",
        "Ben played 5-2 on the right end: 5 + 5 = 10, scores 10",
        end="right",
        offered={"left": 0, "right": 10},
    )
