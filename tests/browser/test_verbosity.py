"""What the ear hears after each kind of action with this phone's verbosity (⚙) Short, in a
language other than English: the tile and its end, the points and who is next, without the sum
or the scores, which Full adds. Read from the live region as a screen reader reads it: without
what is hidden from the ear."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.browser.phone import _NOTE_SHOWN, _after_the_guard, at_revision, revision, shown, status
from tests.browser.test_access import before_fifteen
from tests.browser.test_keyboard import focus_is, into_game, keys, settings
from webapp.i18n import COOKIE

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.browser.phone import Console
    from tests.tables import HttpApi

pytestmark = pytest.mark.browser


EAR = """() => { const said = el => { let t = ""; el.childNodes.forEach(n => {
  if (n.nodeType === 3) t += n.textContent;
  else if (n.nodeType === 1 && n.getAttribute("aria-hidden") !== "true") t += " " + said(n) + " ";
  }); return t; };
  return said(document.getElementById("notice")).replace(/\\s+/g, " ").trim(); }"""


def test_a_short_verbosity_still_says_the_tile_the_points_and_who_is_next(
    phone: tuple[Page, Console], api: HttpApi, live_server: str
) -> None:
    """In Romanian, with ⚙'s Short: Ben's 5-3 up makes 15 (R11) and Ana's 5-2 goes out
    unscored (R12); Ben draws, then passes once the boneyard is empty (R6, R7), and it is
    undone. Each time the ear hears the tile and its end, the points and who is next, without
    the sum or the scores; Full says them all."""
    page, console = phone
    page.context.add_cookies([{"name": COOKIE, "value": "ro", "url": live_server}])
    before_fifteen(page, api, live_server)
    ear = lambda: page.evaluate(EAR)  # noqa: E731
    seq = revision(page)
    into_game(page)
    keys(page, "5", "3")
    at_revision(page, seq + 1)
    assert ear().startswith("Ben face 15: Ben a pus 5-3 la capătul de sus: 4 + 4 + 5 + 2 = 15")
    assert "La rând: Ana" in ear() and "Scorul: Ana 0 și Ben 15" in ear(), ear()
    settings(page)
    page.get_by_role("button", name="Scurt: punctele, piesa, cine urmează").click()
    settings(page)
    into_game(page)
    keys(page, "u")
    at_revision(page, seq + 2)
    into_game(page)
    keys(page, "3", "5")
    at_revision(page, seq + 3)
    shown(status(page)).to_contain_text("Ben face 15")
    assert ear() == "Ben face 15: 5-3 sus. Urmează: La rând: Ana", ear()
    page.evaluate(_NOTE_SHOWN)
    into_game(page)
    keys(page, "2", "5")
    choice = page.locator("#work .choice-button")
    focus_is(page, "#work .choice-button", "the end choice does not have the focus")
    _after_the_guard(page)
    choice.first.press("Enter")  # up, the first end
    at_revision(page, seq + 4)
    assert ear() == "Ana: 5-2 sus, 0 puncte. Ana a ieșit!", ear()

    blocked = api.new_game(["Ana", "Ben"])
    api.act(blocked, "start_hand", starter="Ana")
    api.act(blocked, "play", tile="6-6")
    page.goto(f"{live_server}/g/{blocked}")
    for key, heard in (
        ("d", "Ben a tras 1 piesă Urmează: La rând: Ben, pune sau trage din nou"),
        ("p", "Ben a trecut Urmează: La rând: Ana"),
        ("u", "Anulat: Ben a trecut Urmează: La rând: Ben, pune sau trece"),
    ):
        if key == "p":
            api.act(blocked, "draw", count=9)  # the boneyard drawn: Ben may pass (R7)
            page.reload()
        seq = revision(page)
        into_game(page)
        keys(page, key)
        at_revision(page, seq + 1)
        assert ear() == heard, ear()
    assert console.refusals == 0
