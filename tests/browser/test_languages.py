"""Every language at 360×740, the smaller phone: the game screen mid-hand, a refusal, the
new-game form, the settlement and the rules page fit the width, no button or label cuts its
text off, and Lao is drawn with a Lao font (Debian's fonts-lao, installed by .ci/run).

Screenshots of each go to ``$ALLFIVES_SCREENSHOTS`` (a temporary folder by default), to be
looked at: a measurement cannot tell that a word reads well."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser.conftest import _missing
from tests.scripts import EXAMPLE_C
from tests.tables import HttpApi
from webapp.i18n import COOKIE, LANGUAGES

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 740}
LAO_FONT = "Phetsarath OT"

# Whether the page is wider than the screen, and every element with text of its own that does
# not fit its box while the box hides the rest (overflow hidden or clipped, or an ellipsis);
# text meant for screen readers only is hidden that way on purpose.
CUT_OFF = """() => {
  const root = document.documentElement;
  const cut = [];
  for (const box of document.body.querySelectorAll("*")) {
    if (!box.getClientRects().length || box.closest(".visually-hidden")) continue;
    const own = [...box.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const style = getComputedStyle(box);
    const hides = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
    if (hides && box.scrollWidth > box.clientWidth + 1) {
      cut.push(box.tagName.toLowerCase() + "." + box.className + ": " + box.textContent.trim());
    }
  }
  const out = [...document.body.querySelectorAll("*")]
    .filter((box) => box.getBoundingClientRect().right > root.clientWidth + 1)
    .map((box) => box.tagName.toLowerCase() + "." + box.className + " " +
      Math.round(box.getBoundingClientRect().right) + "px: " + box.textContent.trim().slice(0, 40));
  return {page: root.scrollWidth, screen: root.clientWidth, cut: cut, out: out.slice(0, 6)};
}"""


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("ALLFIVES_SCREENSHOTS") or tmp_path / "screens")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(params=LANGUAGES)
def reader(request: pytest.FixtureRequest, browser: Any, live_server: str) -> Iterator[Page]:
    """A small phone whose device chose the language (the cookie the switcher sets)."""
    context = browser.new_context(viewport=SMALL_PHONE, device_scale_factor=2, has_touch=True)
    context.add_cookies([{"name": COOKIE, "value": request.param, "url": live_server}])
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    yield tab
    context.close()


def check_fits(page: Page, what: str, shots: Path) -> None:
    language = page.evaluate("() => document.documentElement.lang")
    # The whole page, but the rules (some 10,000 px tall): their first screen.
    page.screenshot(path=str(shots / f"{language}-{what}.png"), full_page=what != "rules")
    found = page.evaluate(CUT_OFF)
    assert found["page"] <= found["screen"], (
        f"{language} {what}: {found['page']}px wide: {found['out']}"
    )
    assert found["cut"] == [], f"{language} {what}: text cut off: {found['cut']}"


def example_c(api: HttpApi, moves: int | None = None) -> str:
    """Ana, Ben and Cy, and worked example C up to move ``moves``: after two, Ana led 2-0 and
    Ben played 3-2 on the left; at its end, Ana went out and Ben and Cy still hold tiles."""
    game = api.new_game(["Ana", "Ben", "Cy"])
    api.act(game, "start_hand", starter="Ana")
    api.enter(game, EXAMPLE_C[:moves])
    return game


def test_every_screen_fits_a_small_phone_in_every_language(
    reader: Page, api: HttpApi, live_server: str, screenshots: Path
) -> None:
    game = example_c(api, moves=2)
    reader.goto(f"{live_server}/g/{game}")
    expect(reader.locator("#work .tiles")).to_be_visible()
    check_fits(reader, "game", screenshots)

    reader.locator('#work button[value="6-6"]').click()  # ends 3 and 0: 6-6 fits neither (R5)
    expect(reader.locator("#notice .notice.refused")).to_be_visible()
    expect(reader.locator("#notice .rule-link")).to_have_attribute("href", "/rules#R5")
    check_fits(reader, "refusal", screenshots)

    reader.locator("summary.more-button").click()
    expect(reader.locator(".more-language")).to_be_visible()
    check_fits(reader, "more", screenshots)

    reader.goto(f"{live_server}/new")
    reader.locator("details.options summary").click()
    check_fits(reader, "new-game", screenshots)

    reader.goto(f"{live_server}/g/{example_c(api)}")
    expect(reader.locator(".settle-form")).to_be_visible()
    check_fits(reader, "settlement", screenshots)

    reader.goto(f"{live_server}/rules")
    reader.locator("details.language summary").click()
    check_fits(reader, "rules", screenshots)


def platform_fonts(page: Page, selector: str) -> list[str]:
    """The fonts Chromium really drew an element's text with (DevTools protocol)."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument")["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    used = session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return [font["familyName"] for font in used if font["glyphCount"]]


def test_lao_is_drawn_with_a_lao_font(browser: Any, live_server: str) -> None:
    if not any(Path("/usr/share/fonts").rglob("Phetsarath*")):
        _missing(f"no {LAO_FONT} font (apt-get install -y fonts-lao)")
    context = browser.new_context(viewport=SMALL_PHONE)
    context.add_cookies([{"name": COOKIE, "value": "lo", "url": live_server}])
    page = context.new_page()
    try:
        page.goto(f"{live_server}/rules")
        assert page.evaluate("() => document.documentElement.lang") == "lo"
        family = page.evaluate("() => getComputedStyle(document.body).fontFamily")
        assert family.startswith('"Lao Text"'), family  # app.css: Phetsarath OT, for Lao letters
        page.locator("details.language summary").click()
        assert platform_fonts(page, '.language-list a[lang="lo"]') == [LAO_FONT]
        # Whatever is written in Lao on the page (the headings once translated) uses it too.
        if page.evaluate(
            "() => /[\\u0e80-\\u0eff]/.test(document.querySelector('h1').textContent)"
        ):
            assert LAO_FONT in platform_fonts(page, "h1")
    finally:
        context.close()
