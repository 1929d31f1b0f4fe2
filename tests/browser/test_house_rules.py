"""House rules at a real table, on a phone at 390×844: Five Up's second spinner, Muggins' line.

The plays are worked examples H and G of RULES.md; each expected count is worked out there.
Screenshots go to ``$ALLFIVES_SCREENS`` (default: the test's temporary folder) to be looked at.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser.phone import Console, act, board, play, score, start_game, status, tile
from tests.scripts import EXAMPLE_G, EXAMPLE_H

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser


def _shot(page: Page, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get("ALLFIVES_SCREENS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"))


def _new_game(page: Page, base: str, preset: str) -> None:
    """Two players under a preset chosen by what it does."""
    page.goto(base + "/new")
    page.get_by_label("Player 1 name").fill("Ana")
    page.get_by_label("Player 2 name").fill("Ben")
    page.get_by_role("radio", name=re.compile(rf"^{preset}\b")).check()
    start_game(page)
    expect(page.get_by_role("heading", name="Who leads hand 1?")).to_be_visible()
    act(page, page.get_by_role("button", name="Ana leads"))
    expect(status(page)).to_contain_text("Hand 1: Ana leads")


def test_five_up_a_second_spinner_opens_its_own_named_ends(
    phone: tuple[Page, Console], live_server: str, tmp_path: Path
) -> None:
    page, _ = phone
    page.goto(live_server + "/new")
    _shot(page, tmp_path, "new-game")
    page.get_by_text("House rules", exact=True).click()
    page.get_by_label("Spinners").scroll_into_view_if_needed()
    _shot(page, tmp_path, "new-game-house-rules")
    _new_game(page, live_server, "Five Up")
    # Five Up deals 5 each (R1 option) and keeps points in fives to 61 (R25).
    expect(score(page, "Ana", 0, 61)).to_be_visible()
    says = [
        "Ana led 6-4: 6 + 4 = 10, scores 2",
        "Ben played 4-4 on the right end: 6 + [4|4] 8 = 14",
        "Ana played 4-2 on the right end: 6 + 2 = 8",
        # The 4-4's up and down are both empty: the same layout either way, so not asked.
        "Ben played 4-1 on the up end: 6 + 2 + 1 = 9",
        "Ana played 6-6 on the left end: [6|6] 12 + 2 + 1 = 15, scores 3",
        "Ben played 6-3 on the left end: 3 + 2 + 1 = 6",
        # R17: the 6-6 is a spinner too; its ends are named by the double (up or down).
        "Ana played 6-5 on the 6-6 up end: 3 + 2 + 1 + 5 = 11",
    ]
    for move, message in zip(EXAMPLE_H[:7], says, strict=True):
        play(page, move.button, message)
    expect(
        board(page).get_by_role(
            "img",
            name=re.compile(r"Open ends: left 3, right 2, up 1, down 4, 6-6 up 5, 6-6 down 6"),
        )
    ).to_be_visible()
    # 2-1 fits right (2) and up (1): right → 10, 2 in fives; up → 12, nothing.
    last = EXAMPLE_H[7]
    play(
        page,
        last.button,
        "Ben played 2-1 on the right end: 3 + 1 + 1 + 5 = 10, scores 2",
        end=last.end,
        offered={"right": 2, "up": 0},
    )
    expect(score(page, "Ana", 5, 61)).to_be_visible()
    expect(score(page, "Ben", 2, 61)).to_be_visible()
    board(page).scroll_into_view_if_needed()
    _shot(page, tmp_path, "five-up-second-spinner")


def test_muggins_has_no_up_or_down_and_check_a_play_says_why(
    phone: tuple[Page, Console], live_server: str, tmp_path: Path
) -> None:
    page, _ = phone
    _new_game(page, live_server, "Muggins")
    # Example G's first three tiles, tapped: either side of the lone 4-4 is the same layout, so
    # the app does not ask and lays 4-1 on the left; the line is example G's seen from across.
    says = [
        "Ana led 4-4: [4|4] 8 = 8",
        "Ben played 4-1 on the left end: 1 + [4|4] 8 = 9",
        "Ana played 6-4 on the right end: 1 + 6 = 7",
    ]
    for move, message in zip(EXAMPLE_G[:3], says, strict=True):
        play(page, move.button, message)
    # Under seed the 4-4 would be a spinner with up and down open; here the line has two ends.
    expect(
        board(page).get_by_role("img", name=re.compile(r"Open ends: left 1, right 6\."))
    ).to_be_visible()
    expect(tile(page, "4-3")).not_to_have_class(re.compile(r"\bfits\b"))
    _shot(page, tmp_path, "muggins-line")
    page.get_by_text("More", exact=True).click()
    page.get_by_role("link", name=re.compile("Check a play")).click()
    page.get_by_role("button", name="4-3", exact=True).click()
    up = page.get_by_role("link", name=re.compile(r"^Up\b"))
    expect(up).to_contain_text("R17")
    up.click()
    verdict = page.locator(".verdict")
    expect(verdict).to_contain_text("Not allowed: 4-3 on the up end")
    expect(verdict).to_contain_text("with no spinner (Muggins)")
    expect(verdict.get_by_role("link", name="Rule R17")).to_be_visible()
    _shot(page, tmp_path, "muggins-up-refused")
