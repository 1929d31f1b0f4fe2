"""Screenshots of the teaching screens at 390×844, for a person to look at (not a test).

    python3 -m tests.web.screens_teaching [OUTDIR]      # default /tmp/screens-teaching

Practice board, guided first hand, rules page and a game in learning mode, driven through
headless Chromium by role and label, as a player (or a later Playwright test) would.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from tests.scripts import EXAMPLE_A, EXAMPLE_B, HAND_OF_FIVE
from tests.tables import HttpApi
from tests.web.screens import phone, serve


def main(outdir: str = "/tmp/screens-teaching") -> None:
    from playwright.sync_api import sync_playwright

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    base, server = serve(Path(tempfile.mkdtemp()))
    try:
        with sync_playwright() as p:
            browser, page = phone(p)

            def shot(name: str, full: bool = False) -> None:
                page.wait_for_timeout(120)
                page.screenshot(path=str(out / f"{name}.png"), full_page=full)
                print("saved", out / f"{name}.png")

            def tap(name: str) -> None:
                page.get_by_role("button", name=name, exact=True).click()
                page.wait_for_load_state()

            page.goto(base + "/")
            shot("01-home", full=True)

            page.goto(base + "/practice")
            shot("02-practice-empty")
            shot("02b-practice-empty-full", full=True)
            lead, second, third = EXAMPLE_B[:3]  # worked example B
            tap(lead.button)
            shot("03-practice-lead")
            tap(second.button)  # either side of the lone spinner: the same place, not asked
            tap(third.button)
            shot("05-practice-three")
            shot("05b-practice-three-full", full=True)
            tap("3-2")  # the left shows 3, the right 2: asked which
            shot("04-practice-choice")
            page.get_by_role("button", name="Left").click()
            page.wait_for_load_state()
            page.goto(base + "/practice?p=5-5,5-2:up")
            shot("06-practice-bad-link")
            page.goto(base + "/practice?p=5-5,5-3:left&add=1-1")
            shot("07-practice-refused")
            page.goto(f"{base}/practice?p={EXAMPLE_A[:9].board()}")
            shot("08-practice-example-a", full=True)

            page.goto(base + "/learn")
            shot("10-learn-1", full=True)
            for number in range(2, 17):
                page.get_by_role("link", name="Next", exact=True).click()
                page.wait_for_load_state()
                shot(f"11-learn-{number:02d}", full=number in (3, 4, 10, 12, 15, 16))

            page.goto(base + "/rules")
            shot("20-rules-top")
            shot("20b-rules-full", full=True)
            height = page.evaluate("document.body.scrollHeight")
            for part, top in enumerate(range(0, height, 780)):
                page.evaluate(f"window.scrollTo(0, {top})")
                shot(f"20c-rules-part-{part:02d}")
            page.goto(base + "/rules#R10")
            shot("21-rules-r10")

            page.goto(base + "/new")
            page.locator("input[name=name]").nth(0).fill("Ana")
            page.locator("input[name=name]").nth(1).fill("Ben")
            page.locator("input[name=name]").nth(2).fill("Cy")
            page.get_by_role("button", name="Start game").click()
            page.get_by_role("button", name="Ana leads").click()
            page.get_by_role("button", name=re.compile("^Learning mode")).click()
            page.wait_for_load_state()
            shot("30-learning-lead", full=True)
            for move in EXAMPLE_A[:2]:
                tap(move.button)
                page.locator("#message").get_by_text(move.button, exact=False).first.wait_for()
            page.evaluate("window.scrollTo(0, 0)")
            shot("31-learning-after-spinner")
            shot("31b-learning-after-spinner-full", full=True)
            tap("1-1")
            page.locator(".notice.refused").wait_for()
            page.evaluate("window.scrollTo(0, 0)")
            shot("32-learning-refusal")
            api = HttpApi(base)
            game_id = api.new_game(["Ana", "Ben"], deal="5")
            api.act(game_id, "start_hand", starter="Ana")
            api.enter(game_id, HAND_OF_FIVE)
            page.goto(f"{base}/g/{game_id}")
            page.get_by_role("button", name=re.compile("^Learning mode")).click()
            page.wait_for_load_state()
            holders = [p for p in api.state(game_id)["players"] if p["held"]]
            for index, player in enumerate(holders):
                page.get_by_label("Pips").nth(index).fill(str(3 * player["held"]))
            page.get_by_role("button", name="Check the scores").click()
            page.locator("#preview").wait_for()
            page.locator("#preview").scroll_into_view_if_needed()
            shot("33-learning-settle-preview")

            page.set_viewport_size({"width": 844, "height": 390})
            page.goto(f"{base}/practice?p={EXAMPLE_B[:3].board()}")
            shot("40-practice-landscape")
            page.goto(base + "/learn/10")
            shot("41-learn-landscape")
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main(*sys.argv[1:2])
