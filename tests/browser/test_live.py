"""Two phones on one game: a play entered on the players' phone appears on the watcher's."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.scripts import EXAMPLE_B


def test_a_play_made_on_one_phone_appears_on_the_other(browser, live_server) -> None:  # type: ignore[no-untyped-def]
    scorer = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    watcher_context = browser.new_context(viewport=PHONE, has_touch=True)
    watcher = watcher_context.new_page()
    errors: list[str] = []
    for page in (scorer, watcher):
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        scorer.goto(live_server + "/new")
        names = scorer.get_by_label(re.compile(r"Player \d"))
        names.nth(0).fill("Ana")
        names.nth(1).fill("Ben")
        scorer.get_by_role("button", name=re.compile("Start", re.I)).click()
        expect(scorer).to_have_url(re.compile(r"/g/[\w-]{22}$"))
        scorer.get_by_role("button", name="Ana leads").click()

        scorer.get_by_text("More").click()
        scorer.get_by_text("Share this game").click()
        watch_link = scorer.locator("#share a[href*='/v/']")
        expect(watch_link).to_be_visible()
        watch_url = watch_link.get_attribute("href")
        assert watch_url and "/v/" in watch_url
        scorer.get_by_text("More").click()  # closes the sheet
        watcher.goto(watch_url)
        expect(watcher.get_by_text("Watching live")).to_be_visible()
        expect(watcher.get_by_role("button", name="5-5")).to_have_count(0)

        lead, second = EXAMPLE_B[:2]  # worked example B: 5-5 counts 10, 5-3 makes 13
        scorer.get_by_role("button", name=lead.button).click()
        expect(scorer.locator("#board")).to_contain_text("[5|5] 10 = 10")
        # The watcher never reloads: the poll brings the play within about 2 seconds.
        expect(watcher.locator("#board")).to_contain_text("[5|5] 10 = 10", timeout=6_000)
        expect(watcher.locator("#scores")).to_contain_text("10")

        # 5-3 fits either side of a lone 5-5, the same layout: no question.
        scorer.get_by_role("button", name=second.button).click()
        expect(watcher.locator("#board")).to_contain_text("3 + [5|5] 10 = 13", timeout=6_000)
        assert not errors, errors
    finally:
        scorer.context.close()
        watcher_context.close()
