"""A circle's page on a phone: a club of five people and 24 games (partnerships, four presets,
undos and fixes, two still being played) reads at 390×844 and 360×740, light and dark, with
nothing wider than the screen; its filters work by the keyboard alone; a person is renamed
from the names page. Screenshots go to ``$ALLFIVES_SCREENSHOTS`` (a temporary folder by
default)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from tests.web.golden_games import random_game
from webapp.rules import Options, to_dict

from .test_axe import AXE, RUN, SERIOUS, TAGS

if TYPE_CHECKING:
    from tests.tables import HttpApi

pytestmark = pytest.mark.browser

SIZES = {"390x844": (390, 844), "360x740": (360, 740)}
TABLES = [
    (["Ana", "Ben", "Cyrus", "Dele"], True, "seed"),
    (["Ben", "Cyrus", "Ana"], False, "pagat"),
    (["Dele", "Eve"], False, "muggins"),
    (["Eve", "Ana", "Ben", "Cyrus"], True, "five-up"),
    (["Cyrus", "Dele", "Eve"], False, "seed"),
    (["Ana", "Eve"], False, "pagat"),
]


def club(api: HttpApi, games: int = 24) -> dict[str, Any]:
    """A circle imported with ``games`` games played at random through the rules."""
    exported = []
    for number in range(games):
        players, partnership, preset = TABLES[number % len(TABLES)]
        target = 31 if preset == "five-up" else 41
        options = Options.make(players, partnership, preset, target=target)
        length = 40 if number >= games - 2 else 500  # the last two still being played
        log = random_game(options, number + 3, length)
        exported.append(
            {
                "format": "allfives-game/1",
                "players": players,
                "partnership": partnership,
                "rules": {"preset": preset, "target": target},
                "actions": [to_dict(action) for action in log],
            }
        )
    body = {"format": "allfives-circle/1", "name": "Thursday club", "games": exported}
    return api.call("/api/circles/import", body)


def shots() -> Path:
    folder = Path(os.environ.get("ALLFIVES_SCREENSHOTS") or tempfile.mkdtemp(prefix="shots-"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_circles_page_reads_on_a_phone_light_and_dark(
    browser: Any, api: HttpApi, live_server: str, scheme: str
) -> None:
    circle = club(api)
    assert len(circle["games"]) == 24 and len(circle["players"]) == 5
    folder = shots()
    for size, (width, height) in SIZES.items():
        context = browser.new_context(
            viewport={"width": width, "height": height},
            color_scheme=scheme,
            device_scale_factor=1,
            bypass_csp=True,  # axe is let in by the browser, as in test_axe
        )
        try:
            page = context.new_page()
            page.goto(f"{live_server}/c/{circle['id']}")
            expect(page.get_by_role("heading", name="Standings")).to_be_visible()
            rows = page.locator("table.circle-table").first.locator("tbody tr")
            expect(rows).to_have_count(5)
            expect(page.get_by_role("img", name="Wins over time, game by game")).to_be_visible()
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{size}: the page is {wide} px wide"
            page.screenshot(path=str(folder / f"circle-{size}-{scheme}.png"), full_page=True)
            page.screenshot(path=str(folder / f"circle-{size}-{scheme}-top.png"))
            for language in ("ro", "lo"):  # the longest words, and another script
                host = live_server.split("//", 1)[1].split(":")[0]
                context.add_cookies(
                    [{"name": "language", "value": language, "domain": host, "path": "/"}]
                )
                page.goto(f"{live_server}/c/{circle['id']}")
                assert page.evaluate("document.documentElement.lang") == language
                wide = page.evaluate("document.documentElement.scrollWidth")
                assert wide <= width, f"{size} in {language}: the page is {wide} px wide"
                page.add_script_tag(path=str(AXE))
                found = [v for v in page.evaluate(RUN, TAGS) if v["impact"] in SERIOUS]
                assert found == [], f"{size} in {language}: {found}"
                if size == "360x740":
                    shot = folder / f"circle-{size}-{scheme}-{language}.png"
                    page.screenshot(path=str(shot), full_page=True)
        finally:
            context.close()


def test_the_filters_work_by_keyboard_and_a_person_is_renamed(
    page: Any, api: HttpApi, live_server: str
) -> None:
    circle = club(api, games=8)
    page.goto(f"{live_server}/c/{circle['id']}")
    rules = page.get_by_label("Rules")
    rules.focus()
    rules.select_option("pagat")
    show = page.get_by_role("button", name="Show")
    show.focus()  # a date field is several tab stops in Chromium (day, month, year)
    expect(show).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{live_server}/c/{circle['id']}?preset=pagat&since=&until=")
    pagat = api.call(f"/api/circles/{circle['id']}")
    counted = sum(1 for g in pagat["games"] if g["preset"] == "pagat" and g["over"])
    expect(page.locator(".circle-head .hint")).to_contain_text(f"{counted} finished game")
    page.get_by_role("link", name="Names").click()
    field = page.get_by_label("New name for Cyrus")
    field.fill("Cy")
    field.press("Enter")
    expect(page.get_by_role("status")).to_contain_text("Saved: Cy.")
    folder = shots()
    page.screenshot(path=str(folder / "circle-names.png"), full_page=True)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], f"the names page is {wide} px wide"
    game = api.new_game(["Ana", "Ben"], target=5)
    api.act(game, "start_hand", starter="Ana")
    api.act(game, "play", tile="3-2")  # R11: 5, the target: game over
    page.goto(f"{live_server}/g/{game}")
    page.get_by_role("link", name="Keep this table’s games together").click()
    page.get_by_label("Name of the circle").fill("Family")
    page.screenshot(path=str(folder / "circle-keep-game.png"), full_page=True)
    page.get_by_role("button", name="Keep the games together").click()
    expect(page.get_by_role("heading", name="Family")).to_be_visible()
    family = api.call("/api/circles/" + page.url.rsplit("/", 1)[-1])
    assert [g["id"] for g in family["games"]] == [game]
    page.goto(f"{live_server}/")  # the phone's circles, listed as its games are
    expect(page.get_by_role("link", name="Family")).to_be_visible()
    page.screenshot(path=str(folder / "home-circles.png"), full_page=True)
    names = {p["name"] for p in api.call(f"/api/circles/{circle['id']}")["players"]}
    assert "Cy" in names and "Cyrus" not in names
