"""WCAG 2.2 AA on every page, light and dark, as axe-core finds it: no serious or critical
violation. axe-core is vendored unchanged (``tests/browser/axe/``: axe.min.js 4.14.1, from npm's
``axe-core``, MPL-2.0, its licence beside it), so the test runs offline and never from a CDN."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.scripts import HAND_OF_FIVE

from .conftest import PHONE

if TYPE_CHECKING:
    from tests.tables import HttpApi

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "axe" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
SERIOUS = {"serious", "critical"}

RUN = """tags => axe.run(document, {runOnly: {type: "tag", values: tags}}).then(result =>
  result.violations.map(v => ({id: v.id, impact: v.impact,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + ": " + n.failureSummary
      .split("\\n").slice(1, 2).join(" ").trim())})))"""


def pages(api: HttpApi) -> dict[str, str]:
    """Every page a table meets, by name: its address under the live server."""
    playing = api.new_game(["Ana", "Ben"], deal="5")
    api.act(playing, "start_hand", starter="Ana")
    api.enter(playing, HAND_OF_FIVE[:8])  # to Ben's 5-3 for 15
    settling = api.new_game(["Ana", "Ben"], deal="5")
    api.act(settling, "start_hand", starter="Ana")
    api.enter(settling, HAND_OF_FIVE)
    over = api.new_game(["Ana", "Ben"], target=5)
    api.act(over, "start_hand", starter="Ana")
    api.act(over, "play", tile="3-2")  # R11: 5, the target
    circle = api.call("/api/circles", {"name": "Thursday table"})["id"]
    in_circle = api.call(
        "/api/games", {"players": ["Ana", "Ben"], "circle": circle, "rules": {"target": 5}}
    )["id"]
    api.act(in_circle, "start_hand", starter="Ana")
    api.act(in_circle, "play", tile="3-2")
    return {
        "home": "/",
        "new game": "/new",
        "game mid-hand": f"/g/{playing}",
        "end choice": f"/g/{playing}?choose=5-2",
        "settlement": f"/g/{settling}",
        "game over": f"/g/{over}",
        "rules": "/rules",
        "replay": f"/g/{playing}/replay",
        "check": f"/g/{playing}/check",
        "rescore": f"/g/{over}/rescore",
        "learn": "/learn",
        "practice": "/practice",
        "circle": f"/c/{circle}",
        "circle's names": f"/c/{circle}/people",
        "new circle": "/circles/new",
        "game into a circle": f"/g/{over}/circle",
    }


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_page_has_a_serious_accessibility_violation(
    browser: Any, api: HttpApi, live_server: str, scheme: str
) -> None:
    # The page's CSP allows no inline script: the test's own axe is let in by the browser.
    context = browser.new_context(viewport=PHONE, color_scheme=scheme, bypass_csp=True)
    found: dict[str, list[dict[str, Any]]] = {}
    try:
        page = context.new_page()
        for name, path in pages(api).items():
            answer = page.goto(live_server + path)
            assert answer is not None and answer.ok, f"{name}: {path} did not load"
            page.add_script_tag(path=str(AXE))
            violations = page.evaluate(RUN, TAGS)
            serious = [v for v in violations if v["impact"] in SERIOUS]
            if serious:
                found[name] = serious
    finally:
        context.close()
    assert found == {}, "\n".join(
        f"{name}: {v['id']} ({v['impact']}) {v['nodes']}" for name, vs in found.items() for v in vs
    )
