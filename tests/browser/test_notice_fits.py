"""The notice (what the last tap did, just above the tiles) is read whole on a small phone in
every language: its longest kinds, a refusal with its rule and whose turn it still is (R21's,
and R7a's question that the table may overrule), the end choice and a hand's end, at 390×844
and 360×740. Its box grows and
the layout above gives up the room (its end marks, the rules line, the facts line, then the
drawing); the text is never cut, the picker never covered, the page never scrolled.

Screenshots of each go to ``$ALLFIVES_SCREENSHOTS`` (a temporary folder by default)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser.phone import ANSWER
from tests.scripts import HAND_OF_FIVE
from tests.tables import HttpApi
from webapp.i18n import COOKIE, LANGUAGES

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

SCREENS = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
NAMES = ["Alejandro", "Benedicta", "Cy"]  # long names make long sentences

# The notice's box and its content, the tiles' region, and the page's own height.
MEASURE = """() => {
  const area = document.getElementById("notice");
  const notice = area.querySelector(".notice");
  const box = area.getBoundingClientRect();
  const work = document.getElementById("work").getBoundingClientRect();
  return {
    area: [area.scrollHeight, area.clientHeight],
    notice: notice ? [notice.scrollHeight, notice.clientHeight] : [0, 0],
    visible: box.height > 0 && getComputedStyle(area).clipPath === "none",
    bottom: box.bottom, picker: work.top,
    page: document.scrollingElement.scrollHeight, screen: window.innerHeight,
    scrolled: window.scrollY,
    // what the layout still shows, whole: none of its words past its edge
    boardCut: Array.from(document.querySelectorAll("#board *")).filter(el => {
      const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
      const at = el.getBoundingClientRect();
      const board = document.getElementById("board").getBoundingClientRect();
      return own && at.height > 0 && el.getClientRects().length && !el.closest("[hidden], svg") &&
        (at.bottom > board.bottom + 0.5 || at.top < board.top - 0.5);
    }).map(el => el.textContent.trim().slice(0, 30)),
  };
}"""


def _tap(page: Page, tile: str, path: str) -> None:
    with page.expect_response(lambda answer: answer.url.endswith(path), timeout=ANSWER):
        page.locator(f'#work button[value="{tile}"]').click()


def r7a_question(api: HttpApi, page: Page, base: str) -> None:
    """Example E with three: Alejandro leads 6-6, Benedicta draws the whole boneyard and passes,
    Cy passes (the table insisted); Alejandro's pass is refused (R7a), with its proof naming
    both others and the table's question whether to record it anyway: the longest notice."""
    game = api.new_game(NAMES)
    api.act(game, "start_hand", starter=NAMES[0])
    api.act(game, "play", tile="6-6")
    api.act(game, "draw", count=api.state(game)["hand"]["boneyard"])
    api.act(game, "pass")
    api.act(game, "pass", confirm=True)
    page.goto(f"{base}/g/{game}")
    with page.expect_response(lambda answer: answer.url.endswith("/pass"), timeout=ANSWER):
        page.locator("#controls .pass").click()
    page.locator("#notice .confirm-form").wait_for()
    page.locator("#notice .still").wait_for()  # and whose turn it still is


def r21_refusal(api: HttpApi, page: Page, base: str) -> None:
    """The highest double leads (R21): a lead that is not a double is refused, with the rule."""
    game = api.new_game(NAMES[:2], first_lead="highest-double")
    api.act(game, "start_hand", starter=NAMES[1])
    page.goto(f"{base}/g/{game}")
    _tap(page, "6-5", "/play")
    page.locator('#notice .rule-link[href$="#R21"]').wait_for()
    page.locator("#notice .still").wait_for()  # Benedicta is still to lead


def end_choice(api: HttpApi, page: Page, base: str) -> None:
    """6-5 fits three ends: the question of where, under the last play's result."""
    game = api.new_game(NAMES)
    api.act(game, "start_hand", starter=NAMES[0])
    for move in ("5-5", "5-1 left", "5-2 right", "1-6 left", "2-6 right"):
        tile, _, end = move.partition(" ")
        api.act(game, "play", tile=tile, **({"end": end} if end else {}))
    page.goto(f"{base}/g/{game}")
    _tap(page, "6-5", "/play")
    page.locator("#work .choice").wait_for()


def hand_end(api: HttpApi, page: Page, base: str) -> None:
    """Alejandro goes out: the last play's result over the settlement."""
    game = api.new_game(NAMES[:2], deal="5")
    api.act(game, "start_hand", starter=NAMES[0])
    api.enter(game, HAND_OF_FIVE)
    page.goto(f"{base}/g/{game}")
    page.locator("#work .settle-form").wait_for()


NOTICES: dict[str, Callable[[HttpApi, Page, str], None]] = {
    "R7a's question": r7a_question,
    "R21's refusal": r21_refusal,
    "the end choice": end_choice,
    "the hand's end": hand_end,
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_longest_notices_are_read_whole_on_a_small_phone(
    browser: Any, api: HttpApi, live_server: str, language: str, tmp_path: Path
) -> None:
    shots = Path(os.environ.get("ALLFIVES_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    found = []
    for size, viewport in SCREENS.items():
        context = browser.new_context(viewport=viewport, device_scale_factor=2, has_touch=True)
        context.add_cookies([{"name": COOKIE, "value": language, "url": live_server}])
        page = context.new_page()
        page.set_default_timeout(10_000)
        try:
            for what, shown in NOTICES.items():
                shown(api, page, live_server)
                page.wait_for_function("() => !document.querySelector('.htmx-request')")
                got = page.evaluate(MEASURE)
                page.screenshot(path=str(shots / f"notice-{language}-{size}-{what[:8]}.png"))
                where = f"{language} {size}, {what}"
                if not got["visible"] or got["notice"][0] == 0:
                    found.append(f"{where}: no notice shown")
                if got["area"][0] > got["area"][1] + 1 or got["notice"][0] > got["notice"][1] + 1:
                    found.append(f"{where}: the notice is cut ({got['area']}, {got['notice']})")
                if got["bottom"] > got["picker"] + 0.5:
                    found.append(f"{where}: the notice covers the picker ({got})")
                if got["boardCut"]:
                    found.append(f"{where}: the layout cuts {got['boardCut']}")
                if got["page"] > got["screen"] + 1 or got["scrolled"]:
                    found.append(f"{where}: the page scrolls ({got['page']} > {got['screen']})")
        finally:
            context.close()
    assert found == [], "\n".join(found)
