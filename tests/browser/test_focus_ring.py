"""The focus ring a keyboard user follows: on a tile, on an end choice's first button and on the
settlement's first field, in light and dark, it is drawn (3 px or more), stands out from what is
around it by 3:1 or more (WCAG 1.4.11) and is whole, not cut by a box that scrolls; at 200% zoom
the settlement still shows its field and its Settle button, each at its own height."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser.phone import _NOTE_SHOWN, ANSWER
from tests.scripts import HAND_OF_FIVE

from .conftest import PHONE

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.tables import HttpApi

pytestmark = pytest.mark.browser

ZOOMED = {"width": PHONE["width"] // 2, "height": PHONE["height"] // 2}

# The focused element's ring: its width, its contrast with the first opaque background behind
# it, and whether a box that clips (overflow other than visible) cuts any of it.
RING = """() => {
  const el = document.activeElement, style = getComputedStyle(el);
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const lum = c => { const [r, g, b] = rgb(c).map(v => { v /= 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  let behind = "rgb(255, 255, 255)";
  for (let p = el.parentElement; p; p = p.parentElement) {
    const bg = getComputedStyle(p).backgroundColor, parts = rgb(bg);
    if (parts.length < 4 || parts[3] > 0.5) { behind = bg; break; } }
  const [a, b] = [lum(style.outlineColor), lum(behind)];
  const reach = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
  const box = el.getBoundingClientRect();
  let cut = "";
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    if (getComputedStyle(p).overflowX === "visible") continue;
    const clip = p.getBoundingClientRect();
    if (box.left - reach < clip.left + p.clientLeft - 0.5 ||
        box.right + reach > clip.left + p.clientLeft + p.clientWidth + 0.5) {
      cut = p.className; break; } }
  return {what: el.tagName + " " + (el.value || el.textContent.trim().split(/\\s+/)[0]),
    style: style.outlineStyle, width: parseFloat(style.outlineWidth),
    contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), cut};
}"""


def tab_to(page: Page, selector: str) -> None:
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"no Tab reached {selector}")


def ring(page: Page, where: str) -> None:
    seen: dict[str, Any] = page.evaluate(RING)
    assert seen["style"] == "solid" and seen["width"] >= 3, f"{where}: no ring: {seen}"
    assert seen["contrast"] >= 3, f"{where}: the ring stands out {seen['contrast']:.2f}:1"
    assert not seen["cut"], f"{where}: the ring is cut by .{seen['cut']}"


def test_the_focus_ring_is_seen_on_a_tile_an_end_and_a_field(
    browser: Any, api: HttpApi, live_server: str
) -> None:
    playing = api.new_game(["Ana", "Ben"], deal="5")
    api.act(playing, "start_hand", starter="Ana")
    api.enter(playing, HAND_OF_FIVE[:8])  # Ben's 5-3 for 15: Ana's 5-2 fits up and down
    settling = api.new_game(["Ana", "Ben"], deal="5")
    api.act(settling, "start_hand", starter="Ana")
    api.enter(settling, HAND_OF_FIVE)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.goto(f"{live_server}/g/{playing}")
            tab_to(page, "#work button[name=tile]")
            ring(page, f"{scheme}, a tile")
            page.evaluate(_NOTE_SHOWN)
            page.keyboard.type("52")
            expect(page.locator("#work .choice-button").first).to_be_focused(timeout=ANSWER)
            ring(page, f"{scheme}, the end choice")
            page.goto(f"{live_server}/g/{settling}")
            tab_to(page, "#work input[type=number]")
            ring(page, f"{scheme}, the settlement's first field")
        page.set_viewport_size(ZOOMED)  # 200% zoom
        page.reload()
        tab_to(page, "#work input[type=number]")
        ring(page, "200%, the settlement's first field")
        settle = page.get_by_role("button", name="Settle hand 1")
        settle.scroll_into_view_if_needed()
        box = settle.bounding_box()
        assert box is not None and box["height"] >= 44, f"200%: Settle is squeezed: {box}"
        hit = settle.evaluate(
            """b => { const r = b.getBoundingClientRect();
              const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
              return b === top || b.contains(top); }"""
        )
        assert hit, "200%: Settle is hidden"
    finally:
        context.close()
