"""The score sheet in Chromium: opened from More on a 360×740 phone, whole on its width; its
chart named for a screen reader; printed (Chromium's PDF), with every hand on the paper.

Screenshots (light and dark, 390×844 and 360×740, mid-game and at game over, and the print
as it would come out) go to ``$ALLFIVES_SCREENSHOTS`` when it names a folder."""

from __future__ import annotations

import io
import os
import random
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.phone import Console, more
from tests.scripts import scripted_actions
from tests.tables import HttpApi
from webapp.rules import GameState, Options, to_dict
from webapp.store.snapshot import options_to_dict

SMALL_PHONE = {"width": 360, "height": 740}
SHOTS = os.environ.get("ALLFIVES_SCREENSHOTS")


def imported(api: HttpApi, actions: int, target: int = 10_000) -> tuple[str, GameState]:
    """A game of Ana, Ben, Cy and Di, played as a table would for ``actions`` actions (or to
    its end), imported through the API; its id and its state as the rules leave it."""
    options = Options.make(["Ana", "Ben", "Cy", "Di"], target=target)
    state = GameState.new(options)
    log = []
    for action in scripted_actions(random.Random(11), 4, actions):
        if state.status.value == "game_over":
            break
        state, _ = state.apply(action)
        log.append(to_dict(action))
    body = {"format": "allfives-game/1", **options_to_dict(options), "actions": log}
    return str(api.call("/api/games/import", body)["id"]), state


def shots(page: Page, name: str, print_too: bool = False) -> None:
    if not SHOTS:
        return
    folder = Path(SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    width = (page.viewport_size or {}).get("width")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(folder / f"{name}-{width}-{scheme}.png"), full_page=True)
    if print_too:
        page.emulate_media(media="print", color_scheme="dark")
        page.screenshot(path=str(folder / f"{name}-{width}-print.png"), full_page=True)
        page.emulate_media(media="null")
    page.emulate_media(color_scheme="light")


def test_the_sheet_opens_from_more_on_a_small_phone(
    browser: Any, live_server: str, api: HttpApi
) -> None:
    game_id, state = imported(api, 170)
    assert len(state.results) >= 3 and state.status.value == "playing"
    context = browser.new_context(viewport=SMALL_PHONE, device_scale_factor=2, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    console = Console(page)
    page.goto(f"{live_server}/g/{game_id}")
    more(page)
    page.get_by_role("link", name="Score sheet").click()
    expect(page).to_have_url(re.compile(rf"/g/{game_id}/sheet$"))
    rows = page.locator(".sheet-table tbody tr")
    expect(rows).to_have_count(state.hand_number)
    expect(page.locator(".sheet-current")).to_contain_text("being played")
    totals = page.locator(".sheet-table tfoot td b")
    expect(totals).to_have_text([str(score) for score in state.scores])
    chart = page.get_by_role("img", name=re.compile("The race to 10000, hand by hand"))
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and box["width"] >= 300  # readable: the phone's width, not a thumb
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= SMALL_PHONE["width"], f"the sheet scrolls sideways: {wide}px wide"
    shots(page, "sheet-mid-game", print_too=True)
    page.set_viewport_size({"width": 390, "height": 844})
    shots(page, "sheet-mid-game")
    context.close()
    assert console.errors == [], console.errors


def test_the_printed_sheet_has_every_hand(page: Page, live_server: str, api: HttpApi) -> None:
    from pypdf import PdfReader

    game_id, state = imported(api, 2_000, target=80)
    assert state.status.value == "game_over" and len(state.results) >= 5
    page.goto(f"{live_server}/g/{game_id}")
    expect(page.get_by_role("img", name=re.compile("The race to 80"))).to_be_visible()
    if SHOTS:  # the game-over panel scrolls within the screen: its race, as the eye finds it
        race = page.locator(".over .race")
        race.scroll_into_view_if_needed()
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=str(Path(SHOTS, f"game-over-race-{scheme}.png")))
        page.emulate_media(color_scheme="light")
    page.get_by_role("link", name="Score sheet").click()
    expect(page.locator(".sheet-standing")).to_contain_text("Winner:")
    shots(page, "sheet-over", print_too=True)
    page.set_viewport_size(SMALL_PHONE)
    shots(page, "sheet-over")
    paper = PdfReader(io.BytesIO(page.pdf(format="A4")))
    printed = "\n".join(sheet.extract_text() for sheet in paper.pages)
    assert "Score sheet" in printed and "Signed" in printed and "Download" not in printed
    for result in state.results:
        assert re.search(rf"(?m)^{result.number}\s*\S", printed), f"hand {result.number}"
        for total in result.scores:
            assert str(total) in printed
    if SHOTS:
        Path(SHOTS, "sheet-over.pdf").write_bytes(page.pdf(format="Letter"))


def test_a_sheet_printed_over_several_pages_gives_its_totals_once_after_the_last_hand(
    page: Page, live_server: str, api: HttpApi
) -> None:
    """A footer repeated at the foot of every printed page read as the totals of that page's
    last hand: the totals are printed once, on the page of the last hand."""
    from pypdf import PdfReader

    game_id, state = imported(api, 1_500)
    page.goto(f"{live_server}/g/{game_id}/sheet")
    for paper_format in ("A4", "Letter"):
        paper = PdfReader(io.BytesIO(page.pdf(format=paper_format)))
        printed = [sheet.extract_text() for sheet in paper.pages]
        assert len(printed) >= 3, f"{state.hand_number} hands on {len(printed)} pages"
        last = max(
            number
            for number, text in enumerate(printed)
            if re.search(rf"(?m)^{state.hand_number}\s*\S", text)
        )
        assert [n for n, text in enumerate(printed) if "Total" in text] == [last]
