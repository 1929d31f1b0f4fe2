"""A long game in the browser: the More sheet's log comes when the sheet is opened, Replay's
hand picker answers the keyboard alone, Rescore pages through the hands. Screenshots of each at
390×844 and 360×740, light and dark, go to ``$ALLFIVES_SCREENSHOTS`` when it names a folder."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser import phone
from tests.tables import HttpApi

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("ALLFIVES_SCREENSHOTS")
SIZES = ({"width": 390, "height": 844}, {"width": 360, "height": 740})


def test_more_builds_the_log_when_it_is_opened(page: Any, api: HttpApi, live_server: str) -> None:
    from playwright.sync_api import expect

    game = api.long_game(14)
    page.goto(f"{live_server}/g/{game}")
    sheet = page.locator("#more-live")
    closed = {"include_hidden": True}  # the sheet is a closed <details> until tapped
    expect(sheet.get_by_role("link", name="Game log and audits", **closed)).to_be_attached()
    expect(sheet.get_by_role("heading", name="Game log", **closed)).to_have_count(0)
    phone.more(page)
    expect(sheet.get_by_role("heading", name="Game log")).to_be_visible()
    expect(sheet.get_by_role("heading", name=re.compile(r"^Hand 14 "))).to_be_visible()
    expect(sheet.get_by_text("2 earlier hands: pick any in Replay.")).to_be_visible()


def test_the_hand_picker_answers_the_keyboard(page: Any, api: HttpApi, live_server: str) -> None:
    from playwright.sync_api import expect

    game = api.long_game(12)
    page.goto(f"{live_server}/g/{game}/replay/12/1")
    picker = page.get_by_role("navigation", name="Hands")
    expect(picker.get_by_role("link", name="← Hand 11")).to_be_visible()
    field = picker.get_by_label("Hand (1–12)")
    field.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("5")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/replay/5/1$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Replay of hand 5")
    page.get_by_role("link", name="Hand 6 →").click()
    expect(page).to_have_url(re.compile(r"/replay/6/1$"))


def test_rescore_pages_through_the_hands(page: Any, api: HttpApi, live_server: str) -> None:
    from playwright.sync_api import expect

    game = api.long_game(12)
    page.goto(f"{live_server}/g/{game}/rescore?preset=pagat")
    expect(page.get_by_text("Hands 12 to 3 of 12")).to_be_visible()
    expect(page.locator(".rescore-hand")).to_have_count(10)
    page.get_by_role("link", name="Older hands →").click()
    expect(page.get_by_text("Hands 2 to 1 of 12")).to_be_visible()
    expect(page.locator(".rescore-hand")).to_have_count(2)
    page.get_by_role("link", name="← Newer hands").click()
    expect(page.get_by_text("Hands 12 to 3 of 12")).to_be_visible()


@pytest.mark.skipif(not SHOTS, reason="ALLFIVES_SCREENSHOTS names no folder")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots(browser: Any, api: HttpApi, live_server: str, scheme: str) -> None:
    folder = Path(str(SHOTS))
    folder.mkdir(parents=True, exist_ok=True)
    game = api.long_game(14)
    for size in SIZES:
        context = browser.new_context(viewport=size, color_scheme=scheme)
        try:
            page = context.new_page()
            name = f"{size['width']}-{scheme}"
            for shot, path in (
                ("replay", f"/g/{game}/replay/7/3"),
                ("rescore", f"/g/{game}/rescore?preset=pagat"),
                ("rescore-older", f"/g/{game}/rescore?preset=pagat&hand=4"),
                ("more-page", f"/g/{game}/more"),
            ):
                page.goto(live_server + path)
                page.screenshot(path=str(folder / f"{shot}-{name}.png"), full_page=True)
            page.goto(f"{live_server}/g/{game}")
            phone.more(page)
            page.screenshot(path=str(folder / f"more-sheet-{name}.png"), full_page=True)
        finally:
            context.close()
