"""The new-game form on a phone's keyboard: Enter (the "Next" key) goes from name to name and,
on the last name, starts the game; it never adds a player, with or without JavaScript."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import PHONE
from tests.browser.phone import ANSWER, Console, at_revision, new_game, shown

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Request

pytestmark = pytest.mark.browser


def test_enter_on_each_name_goes_to_the_next_and_on_the_last_starts_the_game(
    phone: tuple[Page, Console], live_server: str
) -> None:
    page, _ = phone
    new_game(page, live_server, [])
    posted: list[Request] = []
    page.on("request", lambda request: posted.append(request) if request.method == "POST" else 0)
    names = page.get_by_role("textbox", name="name")
    expect(names).to_have_count(3)
    page.get_by_label("Player 1 name").focus()
    for seat, name in enumerate(["Ana", "Ben"], start=1):
        page.keyboard.type(name)
        page.keyboard.press("Enter")
        shown(page.get_by_label(f"Player {seat + 1} name")).to_be_focused()
        assert posted == [], "Enter on a name that is not the last sent the form"
        shown(names).to_have_count(3)  # no player added
    page.keyboard.type("Cy")
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: "/g/" in url, timeout=ANSWER)
    at_revision(page, 0)
    for name in ("Ana", "Ben", "Cy"):
        shown(page.get_by_role("progressbar", name=f"{name}: 0 of 200")).to_be_visible()


def test_enter_on_the_last_name_with_a_name_missing_starts_nothing(
    phone: tuple[Page, Console], live_server: str
) -> None:
    """The first two names are needed: Enter on the last with the second empty asks for it."""
    page, _ = phone
    new_game(page, live_server, ["Ana", "", "Cy"])
    page.get_by_label("Player 3 name").press("Enter")
    shown(page.get_by_label("Player 2 name")).to_be_focused()  # the browser asks for it
    assert page.url.endswith("/new")
    expect(page.get_by_role("textbox", name="name")).to_have_count(3)


def test_without_javascript_enter_in_a_name_starts_the_game_not_a_new_player(
    browser: Browser, live_server: str
) -> None:
    """Without JavaScript Enter submits the form through its first submit button: it starts
    the game (with the names typed), as the Start game button does."""
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_server + "/new")
        page.get_by_label("Player 1 name").fill("Ana")
        page.get_by_label("Player 2 name").fill("Ben")
        page.get_by_label("Player 1 name").press("Enter")
        page.wait_for_url(lambda url: "/g/" in url, timeout=ANSWER)
        for name in ("Ana", "Ben"):
            shown(page.get_by_role("progressbar", name=f"{name}: 0 of 250")).to_be_visible()
        expect(page.get_by_role("progressbar")).to_have_count(2)
    finally:
        context.close()
