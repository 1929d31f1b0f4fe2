"""For a player who zooms in or taps less precisely: text that still fits at 200% zoom (WCAG
1.4.4, 1.4.10), targets of 24 px or more on every page but the game screen (WCAG 2.5.8; the
game screen's are 44 px: tests/browser/test_one_screen.py), hint badges that leave the tile's
pips in view."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.scripts import HAND_OF_FIVE
from webapp.i18n import COOKIE, LANGUAGES

from .conftest import PHONE

if TYPE_CHECKING:
    from tests.tables import HttpApi

pytestmark = pytest.mark.browser

# 200% zoom of a 390×844 phone: the same screen, half as many CSS pixels each way.
ZOOMED = {"width": PHONE["width"] // 2, "height": PHONE["height"] // 2}

# Each element that overflows the page's width, or whose text is cut off by its own box.
OVERFLOWS = """() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  const name = el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className ? "." + el.className.trim() : "");
  const wide = document.documentElement.scrollWidth;
  if (wide > width + 1) found.push("the page scrolls sideways: " + wide + " > " + width);
  const unseen = "[hidden], .visually-hidden, svg, details:not([open]) > :not(summary)";
  for (const el of document.body.querySelectorAll("*")) {
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden" || el.closest(unseen)) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const text = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    let scroller = el.parentElement;  // a table that scrolls on its own (1.4.10's exception)
    while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowX)) {
      scroller = scroller.parentElement;
    }
    if (scroller && scroller !== document.documentElement && scroller !== document.body) continue;
    if (text && box.right > width + 1) found.push(name(el) + " ends at " + Math.round(box.right));
    const clips = /(hidden|clip)/.test(style.overflowX) && style.textOverflow !== "ellipsis";
    if (text && clips && el.scrollWidth > el.clientWidth + 1) found.push(name(el) + " is cut off");
  }
  return found.slice(0, 8);
}"""

# Every control a finger taps that is smaller than 24×24 px, except a link inside a sentence.
SMALL = """min => {
  const found = [];
  const controls = "a[href], button, input:not([type=hidden]), select, summary, [role=button]";
  for (const el of document.querySelectorAll(controls)) {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!box.width || !box.height || style.visibility === "hidden") continue;
    if (el.closest(".visually-hidden")) continue;
    if (el.tagName === "INPUT" && style.opacity === "0") continue;  // its label is the target
    const inSentence = style.display === "inline" && el.parentElement &&
      Array.from(el.parentElement.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (inSentence) continue;
    if (box.width < min - 0.5 || box.height < min - 0.5) {
      const what = el.textContent.trim() || el.getAttribute("aria-label") || el.tagName;
      found.push(what + " " + Math.round(box.width) + "×" + Math.round(box.height));
    }
  }
  return found.slice(0, 8);
}"""


def games(api: HttpApi) -> dict[str, str]:
    playing = api.new_game(["Ana", "Ben"], deal="5")
    api.act(playing, "start_hand", starter="Ana")
    api.enter(playing, HAND_OF_FIVE[:8])  # to Ben's 5-3 for 15
    settling = api.new_game(["Ana", "Ben"], deal="5")
    api.act(settling, "start_hand", starter="Ana")
    api.enter(settling, HAND_OF_FIVE)
    return {"playing": playing, "settling": settling}


def test_text_still_fits_at_200_percent_zoom(browser: Any, api: HttpApi, live_server: str) -> None:
    """Home, a new game, the game screen mid-hand and at settlement, the score sheet, the rules
    and the replay at 200%: nothing scrolls sideways and no text is cut off."""
    game = games(api)
    context = browser.new_context(viewport=ZOOMED, device_scale_factor=4)
    found = {}
    try:
        page = context.new_page()
        for path in (
            "/",
            "/new",
            f"/g/{game['playing']}",
            f"/g/{game['settling']}",
            f"/g/{game['playing']}/sheet",
            "/rules",
            f"/g/{game['playing']}/replay",
        ):
            page.goto(live_server + path)
            overflows = page.evaluate(OVERFLOWS)
            if overflows:
                found[path] = overflows
    finally:
        context.close()
    assert found == {}, "\n".join(f"{path}: {', '.join(what)}" for path, what in found.items())


def test_more_pages_still_fit_at_200_percent_zoom(
    browser: Any, api: HttpApi, live_server: str
) -> None:
    """The house rules (the new-game form's, opened), practice, learn, a circle with a game and
    its names, and a game's players at 200% (195×422 CSS px): nothing scrolls sideways, no text
    is cut off, and every target is still 24 px or more (WCAG 1.4.4, 1.4.10, 2.5.8)."""
    playing = games(api)["playing"]
    circle = api.call("/api/circles", {"name": "Thursday table at the community hall"})["id"]
    in_circle = api.call(
        "/api/games",
        {"players": ["Alejandro", "Benedicta"], "circle": circle, "rules": {"target": 5}},
    )["id"]
    api.act(in_circle, "start_hand", starter="Alejandro")
    api.act(in_circle, "play", tile="3-2")  # R11: 5, the target: a game counted in the circle
    context = browser.new_context(viewport=ZOOMED, device_scale_factor=4)
    found = {}
    try:
        page = context.new_page()
        for name, path in (
            ("house rules", "/new"),
            ("practice", "/practice"),
            ("learn", "/learn"),
            ("learn, a later step", "/learn/5"),
            ("circle", f"/c/{circle}"),
            ("circle's names", f"/c/{circle}/people"),
            ("players", f"/g/{playing}/players"),
        ):
            page.goto(live_server + path)
            if name == "house rules":
                page.locator("details.options > summary").click()
            problems = page.evaluate(OVERFLOWS) + page.evaluate(SMALL, 24)
            if problems:
                found[name] = problems
    finally:
        context.close()
    assert found == {}, "\n".join(f"{name}: {', '.join(what)}" for name, what in found.items())


def test_every_target_off_the_game_screen_is_24_px_or_more(
    browser: Any, api: HttpApi, live_server: str
) -> None:
    game = games(api)["playing"]
    context = browser.new_context(viewport=PHONE)
    found = {}
    try:
        page = context.new_page()
        for path in (
            "/",
            "/new",
            "/rules",
            "/learn",
            "/practice",
            f"/g/{game}/sheet",
            f"/g/{game}/replay",
            f"/g/{game}/check",
            f"/g/{game}/rescore",
        ):
            page.goto(live_server + path)
            small = page.evaluate(SMALL, 24)
            if small:
                found[path] = small
    finally:
        context.close()
    assert found == {}, "\n".join(f"{path}: {', '.join(what)}" for path, what in found.items())


def test_a_hint_badge_leaves_the_pips_of_its_tile_in_view(
    browser: Any, api: HttpApi, live_server: str
) -> None:
    """With hints on, each badge ("+10", "fits") sits below its tile's drawing, not over it, and
    every tile is still a 44 px target."""
    game = api.new_game(["Ana", "Ben", "Cy"])
    api.act(game, "start_hand", starter="Ana")
    api.act(game, "play", tile="3-2")
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/g/{game}")
        page.locator("#more > summary").click()
        with page.expect_response(lambda answer: answer.url.endswith("/coaching")):
            page.get_by_role("button", name="Hints").click()
        page.locator(".fit-badge").first.wait_for()
        overlaps = page.evaluate(
            """() => Array.from(document.querySelectorAll("#work .tile")).map(tile => {
              const drawn = tile.querySelector("svg").getBoundingClientRect();
              const badge = tile.querySelector(".fit-badge");
              const box = tile.getBoundingClientRect();
              const over = badge ? badge.getBoundingClientRect().top < drawn.bottom - 0.5 : false;
              return [tile.value, over, box.width, box.height, !!badge];
            })"""
        )
    finally:
        context.close()
    assert sum(badge for *_, badge in overlaps) >= 5, "hints are not shown"
    assert [name for name, over, *_ in overlaps if over] == [], "badges cover pips"
    assert all(w >= 44 and h >= 44 for _, _, w, h, _ in overlaps), "a tile is under 44 px"


# Each hint badge's words and whether they are cut: by the badge's own box, or by its tile's.
BADGES = """() => Array.from(document.querySelectorAll("#work .tile .fit-badge")).map(badge => {
  const tile = badge.closest(".tile").getBoundingClientRect();
  const box = badge.getBoundingClientRect();
  const inside = box.left >= tile.left - 0.5 && box.right <= tile.right + 0.5 &&
    box.top >= tile.top - 0.5 && box.bottom <= tile.bottom + 0.5;
  const whole = badge.scrollWidth <= badge.clientWidth + 1 &&
    badge.scrollHeight <= badge.clientHeight + 1;
  return [badge.closest(".tile").value, badge.textContent.trim(), inside && whole];
})"""


def test_hint_badges_are_whole_in_every_language_on_a_small_phone(
    browser: Any, api: HttpApi, live_server: str
) -> None:
    """With hints on at 360×740, every badge ("fits" in each language, "+10") is read whole
    inside its tile."""
    game = api.new_game(["Ana", "Ben", "Cy"])
    api.act(game, "start_hand", starter="Ana")
    api.act(game, "play", tile="5-5")  # the spinner: 5-0 makes 5, 6-5 makes 10 (+2 points)
    cut = {}
    for language in LANGUAGES:
        context = browser.new_context(viewport={"width": 360, "height": 740})
        context.add_cookies([{"name": COOKIE, "value": language, "url": live_server}])
        try:
            page = context.new_page()
            page.goto(f"{live_server}/g/{game}")
            if not page.locator(".fit-badge").count():
                page.locator("#more > summary").click()
                with page.expect_response(lambda answer: answer.url.endswith("/coaching")):
                    page.locator("#more [data-setting=coaching]").click()
            page.locator(".fit-badge").first.wait_for()
            badges = page.evaluate(BADGES)
        finally:
            context.close()
        assert len(badges) >= 5, f"{language}: hints are not shown"
        words = {text for _, text, _ in badges}
        assert len(words) >= 2, f"{language}: {words}"  # "fits" and at least one "+N"
        if bad := [f"{name} {text}" for name, text, whole in badges if not whole]:
            cut[language] = bad
    assert cut == {}, cut
