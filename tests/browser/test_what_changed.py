"""An answer carries only what changed on the screen (webapp/game/delta.py): the screen it
patches must then be the very screen a fresh load of the game shows, after every tap, with the
hints off and on, through a lead, plays that score and plays that do not, a draw, a pass, an
end chosen and an undo (worked example A, R8–R11)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import PHONE
from tests.browser.phone import act, button, new_game, revision, start_game, tile

# Every element under #game: its tag, its attributes (htmx's own classes and bookkeeping left
# out) and its own text, in document order; what a fresh load of the page must show the same.
# The stream's element is not shown: it keeps the revision its connection opened at (a broken
# stream reconnects from the last event it had).
SCREEN = """() => {
  const out = [];
  for (const el of document.querySelectorAll('#game *:not(#stream)')) {
    const attrs = Array.from(el.attributes)
      .filter(a => !a.name.startsWith('data-htmx') && a.name !== 'hx-swap-oob')
      .map(a => a.name === 'class'
        ? 'class=' + a.value.split(/\\s+/).filter(c => c && !c.startsWith('htmx-')).join(' ')
        : a.name + '=' + a.value)
      .sort();
    const text = Array.from(el.childNodes)
      .filter(n => n.nodeType === 3).map(n => n.textContent.trim()).join(' ').trim();
    out.push(el.tagName + ' ' + attrs.join(' ') + (text ? ' | ' + text : ''));
  }
  return out;
}"""


DUPLICATE_IDS = """() => {
  const ids = Array.from(document.querySelectorAll('[id]'), el => el.id);
  return ids.filter((id, at) => ids.indexOf(id) !== at);
}"""


def same_as_a_fresh_load(page: Page, fresh: Page) -> None:
    # A piece swapped by its id lands only in its own place (a tile's drawing is not a target).
    assert page.evaluate(DUPLICATE_IDS) == []
    fresh.goto(page.url)
    assert revision(fresh) == revision(page)
    patched, loaded = page.evaluate(SCREEN), fresh.evaluate(SCREEN)
    differing = [(a, b) for a, b in zip(patched, loaded, strict=False) if a != b]
    assert len(patched) == len(loaded) and not differing, differing[:5]


@pytest.mark.parametrize("hints", [False, True])
def test_the_screen_each_answer_patches_is_the_screen_a_fresh_load_shows(
    browser,  # type: ignore[no-untyped-def]
    live_server: str,
    hints: bool,
) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True)
    page, fresh = context.new_page(), context.new_page()
    try:
        new_game(page, live_server, ["Ana", "Ben", "Cy"])
        start_game(page)
        if hints:
            page.get_by_text("More").click()
            page.get_by_role("button", name=re.compile("^Hints")).click()
            page.wait_for_load_state()
        act(page, page.get_by_role("button", name="Ana leads"))
        same_as_a_fresh_load(page, fresh)
        for name in ("3-2", "2-2", "6-2", "4-2"):  # a lead that scores 5, then none score
            act(page, tile(page, name))
            same_as_a_fresh_load(page, fresh)
        act(page, button(page, "Draw"))  # the boneyard and the controls change
        same_as_a_fresh_load(page, fresh)
        act(page, tile(page, "3-1"))
        same_as_a_fresh_load(page, fresh)
        act(page, button(page, "Undo"))
        same_as_a_fresh_load(page, fresh)
        for name in ("3-1", "6-6", "4-4", "5-2"):
            act(page, tile(page, name))
            same_as_a_fresh_load(page, fresh)
        act(page, tile(page, "1-0"))  # Cy scores 25 (R8, R11)
        same_as_a_fresh_load(page, fresh)
        assert "25" in page.locator("#scores").inner_text()
    finally:
        context.close()
