"""Dark is dark however it is chosen: with the phone set to dark and the device panel on Auto,
or with the panel on Dark, every colour of the palette resolves the same; and Light the same
under a dark phone as under a light one (the palette is written once: tests/web/test_colours.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_colours import palette

from .conftest import PHONE

pytestmark = pytest.mark.browser

RESOLVE = """names => {
  const probe = document.createElement("div");
  document.body.append(probe);
  const colours = {};
  for (const name of names) {
    probe.style.color = "var(" + name + ")";
    colours[name] = getComputedStyle(probe).color;
  }
  probe.remove();
  return colours;
}"""


def colours(browser: Any, live_server: str, phone: str, choice: str | None) -> dict[str, str]:
    """Every palette colour as Chromium resolves it, the phone set to ``phone`` and the device
    panel to ``choice`` (None: Auto)."""
    context = browser.new_context(viewport=PHONE, color_scheme=phone)
    if choice:
        context.add_init_script(f"localStorage.setItem('allfives.theme', '\"{choice}\"')")
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        found: dict[str, str] = page.evaluate(RESOLVE, sorted(palette()))
        return found
    finally:
        context.close()


def test_dark_and_light_are_the_same_set_whether_the_phone_or_the_switch_chose_them(
    browser: Any, live_server: str
) -> None:
    dark = colours(browser, live_server, "dark", None)
    assert colours(browser, live_server, "light", "dark") == dark
    light = colours(browser, live_server, "light", None)
    assert colours(browser, live_server, "dark", "light") == light
    differ = {
        name for name, [(_, value, _)] in palette().items() if value.startswith("light-dark(")
    }
    assert {name for name in light if light[name] != dark[name]} == differ
    assert dark["--paper"] == "rgb(15, 21, 18)" and light["--paper"] == "rgb(243, 240, 232)"
