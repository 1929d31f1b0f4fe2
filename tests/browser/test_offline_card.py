"""The card that says plays are not saved yet ("Not saved — this phone is offline", each play
waiting under it) lies over the layout while a hand is played: the scores, the notice and the
picker stay in view and can be tapped, at 390×844 and 360×740, however many plays wait. While a
hand is settled it lies over the last play's result, clear of the scores, the rows and Settle."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_phone import EXPECTED_LOG
from tests.scripts import HAND_OF_FIVE
from tests.tables import HttpApi

pytestmark = pytest.mark.browser

SCREENS = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}

BOXES = """() => Object.fromEntries(
  ["sync", "scores", "board", "notice", "work", "controls"].map(id => {
  const box = document.getElementById(id).getBoundingClientRect();
  return [id, {top: box.top, bottom: box.bottom, left: box.left, right: box.right}];
}))"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["top"] < b["bottom"] - 0.5
        and b["top"] < a["bottom"] - 0.5
        and a["left"] < b["right"] - 0.5
        and b["left"] < a["right"] - 0.5
    )


@pytest.mark.parametrize("size", list(SCREENS))
def test_the_offline_card_covers_neither_the_scores_nor_the_picker(
    browser: Any, api: HttpApi, live_server: str, size: str
) -> None:
    game = api.new_game(["Alejandro", "Benedicta"])
    api.act(game, "start_hand", starter="Alejandro")
    context = browser.new_context(viewport=SCREENS[size], device_scale_factor=2, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on(
        "console",
        lambda m: m.type == "error" and not EXPECTED_LOG.search(m.text) and errors.append(m.text),
    )
    try:
        page.goto(f"{live_server}/g/{game}")
        card = page.locator("#sync")
        expect(card).to_be_hidden()
        context.set_offline(True)
        waiting = card.locator(".sync-play")
        for count, name in enumerate(("6-4", "4-1", "1-1"), start=1):  # the card grows each time
            page.locator(f'#work button[value="{name}"]').click()
            expect(waiting).to_have_count(count)
            expect(card.locator(".sync-text")).to_have_text("Not saved — this phone is offline")
            boxes = page.evaluate(BOXES)
            for region in ("scores", "notice", "work", "controls"):
                assert not _overlap(boxes["sync"], boxes[region]), (
                    f"{size}, {count} waiting: the card covers #{region}: {boxes}"
                )
            board = boxes["board"]
            assert board["top"] - 0.5 <= boxes["sync"]["top"], boxes
            assert boxes["sync"]["bottom"] <= board["bottom"] + 0.5, boxes
        # The tile under the thumb is still there to tap: the picker is not behind the card.
        expect(page.locator('#work button[value="5-5"]')).to_be_visible()
        hit = page.evaluate(
            """() => { const t = document.querySelector('#work button[value="5-5"]');
              const r = t.getBoundingClientRect();
              const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
              return t === top || t.contains(top); }"""
        )
        assert hit, "the picker is covered"
        context.set_offline(False)
        expect(card.locator(".sync-text")).to_have_text("Saved", timeout=30_000)
    finally:
        context.close()
    assert errors == [], errors


SETTLING = """() => {
  const box = e => { const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const covered = e => { const r = e.getBoundingClientRect();
    const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !(e === top || e.contains(top)); };
  const form = document.querySelector("#work .settle-form");
  const settle = form.querySelector("button[type=submit]");
  const byId = id => box(document.getElementById(id));
  return {sync: byId("sync"), scores: byId("scores"),
    settle: box(settle), fields: [...form.querySelectorAll("input[type=number]")].map(box),
    hidden: [settle, ...form.querySelectorAll("input[type=number]")].filter(covered).length};
}"""


def test_the_offline_card_covers_neither_the_scores_nor_the_settlement(
    browser: Any, api: HttpApi, live_server: str
) -> None:
    """While a hand is settled (the layout gives its room to the rows), a Settle tapped offline
    waits in the card, which covers neither the scores, the pips typed nor the Settle button."""
    game = api.new_game(["Alejandro", "Benedicta"], deal="5")
    api.act(game, "start_hand", starter="Alejandro")
    api.enter(game, HAND_OF_FIVE)  # Alejandro goes out: Benedicta's pips to settle
    context = browser.new_context(viewport=SCREENS["390x844"], has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{live_server}/g/{game}")
        card = page.locator("#sync")
        context.set_offline(True)
        page.get_by_role("spinbutton").fill("5")
        page.get_by_role("button", name="Settle hand 1").click()
        expect(card.locator(".sync-play")).to_have_text("Settle hand 1 — not saved yet")
        for size, screen in SCREENS.items():
            page.set_viewport_size(screen)
            boxes = page.evaluate(SETTLING)
            for region in (
                "scores",
                "settle",
                *[f"field {n}" for n in range(len(boxes["fields"]))],
            ):
                box = (
                    boxes["fields"][int(region[6:])]
                    if region.startswith("field")
                    else boxes[region]
                )
                assert not _overlap(boxes["sync"], box), (
                    f"{size}: the card covers {region}: {boxes}"
                )
            assert boxes["hidden"] == 0, f"{size}: a field or Settle is under something: {boxes}"
        context.set_offline(False)
        expect(card.locator(".sync-text")).to_have_text("Saved", timeout=30_000)
        expect(page.get_by_role("status")).to_contain_text("Hand 1 settled")
    finally:
        context.close()
