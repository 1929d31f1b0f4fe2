"""The players' housekeeping in Chromium, as a table does it: a name typed wrong is fixed from
More → Players and shows on the score cards and the sheet; the game is ended early and game
over says so; the game is deleted, then Undo brings it back. The game screen still fits one
phone screen without scrolling, and the sheet's Print button prints.

Screenshots (light and dark, 390×844 and 360×740) of each new page go to
``$ALLFIVES_SCREENSHOTS`` when it names a folder."""

from __future__ import annotations

import os
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phone import Console, button, more, score, tile, work
from tests.tables import HttpApi

PHONES = ({"width": 390, "height": 844}, {"width": 360, "height": 740})
SHOTS = os.environ.get("ALLFIVES_SCREENSHOTS")


def shots(page: Page, name: str) -> None:
    if not SHOTS:
        return
    folder = Path(SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    width = (page.viewport_size or {}).get("width")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(folder / f"{name}-{width}-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def fits_one_screen(page: Page) -> None:
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight + 1"), (
        "the game screen needs scrolling"
    )


@pytest.mark.parametrize("viewport", PHONES, ids=("390x844", "360x740"))
def test_rename_end_early_and_delete_through_the_pages(
    browser: Any, live_server: str, api: HttpApi, viewport: dict[str, int]
) -> None:
    game = api.new_game(["Ana", "Ben", "Cy"])
    api.act(game, "start_hand", starter="Ana")
    context = browser.new_context(viewport=viewport, device_scale_factor=2, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    console = Console(page)
    page.goto(f"{live_server}/g/{game}")
    tile(page, "5-5").click()
    expect(score(page, "Ana", 10, 200)).to_be_visible()
    more(page)
    shots(page, "more-players-link")
    page.get_by_role("link", name="Players").click()
    expect(page).to_have_url(re.compile(rf"/g/{game}/players$"))
    shots(page, "players")

    # A name typed wrong, fixed: keyboard alone, the label names the seat and the player.
    field = page.get_by_label("Seat 3: Cy")
    field.fill("Cy")
    page.get_by_role("button", name="Rename Cy").click()  # the same name: refused, said why
    expect(page.get_by_role("status")).to_contain_text("Cy is already called Cy")
    page.get_by_label("Seat 3: Cy").fill("Cyrus")
    page.get_by_label("Seat 3: Cy").press("Enter")
    expect(page).to_have_url(re.compile(rf"/g/{game}$"))
    expect(page.get_by_role("status")).to_contain_text("Cy renamed to Cyrus")
    expect(score(page, "Cyrus", 0, 200)).to_be_visible()
    fits_one_screen(page)
    shots(page, "renamed-game-screen")
    more(page)
    page.get_by_role("link", name="Score sheet").click()
    expect(page.locator(".sheet-table thead")).to_contain_text("Cyrus")
    print_button = page.get_by_role("button", name="Print")
    expect(print_button).to_be_visible()
    page.evaluate("window.print = () => { window.printed = true; }")
    print_button.click()
    assert page.evaluate("window.printed") is True
    shots(page, "sheet-print-button")
    page.emulate_media(media="print")
    expect(print_button).to_be_hidden()
    page.emulate_media(media="screen")

    # Ended early: game over says so; Undo takes it back.
    page.goto(f"{live_server}/g/{game}/players")
    expect(page.get_by_text("Ana is ahead and would win.")).to_be_visible()
    page.get_by_role("button", name="End the game now").click()
    expect(work(page)).to_contain_text("Ana wins!")
    expect(work(page)).to_contain_text("Ended early during hand 1")
    shots(page, "ended-early")
    button(page, "Undo").click()
    expect(page.get_by_role("status")).to_contain_text("Undone: Game ended early")
    fits_one_screen(page)

    # Deleted, then brought back.
    page.goto(f"{live_server}/g/{game}/players")
    page.get_by_role("button", name="Delete this game").click()
    expect(page.get_by_role("heading", name="Game deleted")).to_be_visible()
    expect(page.get_by_text("It can be brought back for 10 more minutes.")).to_be_visible()
    shots(page, "deleted")
    page.goto(f"{live_server}/")
    expect(page.locator(f'a[href="/g/{game}"]')).to_have_count(0)
    page.goto(f"{live_server}/g/{game}")
    page.get_by_role("button", name="Undo: bring the game back").click()
    expect(page).to_have_url(re.compile(rf"/g/{game}$"))
    expect(score(page, "Ana", 10, 200)).to_be_visible()
    expect(score(page, "Cyrus", 0, 200)).to_be_visible()
    context.close()
    # The deleted game's page answers 410 Gone on purpose, which Chromium logs as it loads.
    errors = [error for error in console.errors if "status of 410" not in error]
    assert errors == [], errors


def test_without_javascript_the_print_button_is_not_offered(
    browser: Any, live_server: str, api: HttpApi
) -> None:
    game = api.new_game(["Ana", "Ben"])
    context = browser.new_context(viewport=PHONES[0], java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server}/g/{game}/sheet")
    expect(page.get_by_role("link", name="Download as CSV")).to_be_visible()
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    context.close()


def test_a_phone_following_the_game_sees_it_deleted_then_back(
    browser: Any, live_server: str, api: HttpApi
) -> None:
    """Another phone on the players' link follows the game: deleted elsewhere, its screen says
    so within a few seconds (its poll answers 410 and it reloads), and Undo there brings the
    game back; the watch link says it was deleted and offers nothing."""
    game = api.new_game(["Ana", "Ben"])
    api.act(game, "start_hand", starter="Ana")
    view = api.state(game)["view_id"]
    context = browser.new_context(viewport=PHONES[1], device_scale_factor=2, has_touch=True)
    other, watcher = context.new_page(), context.new_page()
    other.goto(f"{live_server}/g/{game}")
    watcher.goto(f"{live_server}/v/{view}")
    removal = urllib.request.Request(f"{live_server}/api/games/{game}", method="DELETE")
    urllib.request.urlopen(removal, timeout=10).close()
    expect(other.get_by_role("heading", name="Game deleted")).to_be_visible(timeout=15_000)
    expect(watcher.get_by_role("heading", name="Game deleted")).to_be_visible(timeout=15_000)
    expect(watcher.get_by_role("button", name="Undo: bring the game back")).to_have_count(0)
    other.get_by_role("button", name="Undo: bring the game back").click()
    expect(tile(other, "6-6")).to_be_visible()
    context.close()


@pytest.mark.parametrize("viewport", PHONES, ids=("390x844", "360x740"))
def test_a_tie_ended_early_is_said_a_tie(
    browser: Any, live_server: str, api: HttpApi, viewport: dict[str, int]
) -> None:
    game = api.new_game(["Ana", "Ben", "Cy"])
    api.act(game, "start_hand", starter="Ana")
    api.act(game, "play", tile="5-0")
    api.act(game, "play", tile="0-0")  # Ana 5, Ben 5
    api.act(game, "end_game")
    context = browser.new_context(viewport=viewport, device_scale_factor=2, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server}/g/{game}")
    expect(page.get_by_role("heading", name="A tie: Ana and Ben")).to_be_visible()
    expect(work(page)).to_contain_text("Ended early during hand 1")
    fits_one_screen(page)
    shots(page, "ended-early-tie")
    context.close()
