"""WCAG 2.2 AA on every page, light and dark, as axe-core finds it: no serious or critical
violation. axe-core is vendored unchanged (``tests/browser/axe/``: axe.min.js 4.14.1, from npm's
``axe-core``, MPL-2.0, its licence beside it), so the test runs offline and never from a CDN."""

from __future__ import annotations

import urllib.request
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
    ended = api.new_game(["Ana", "Ben", "Cy"])
    api.act(ended, "start_hand", starter="Ana")
    api.act(ended, "play", tile="5-0")
    api.act(ended, "play", tile="0-0")  # Ana 5, Ben 5: level
    api.act(ended, "end_game")  # a tie, ended early
    deleted = api.new_game(["Ana", "Ben"])
    urllib.request.urlopen(
        urllib.request.Request(f"{api.base}/api/games/{deleted}", method="DELETE")
    )
    long = api.long_game(14)
    circle = api.call("/api/circles", {"name": "Thursday table"})["id"]
    in_circle = api.call(
        "/api/games", {"players": ["Ana", "Ben"], "circle": circle, "rules": {"target": 5}}
    )["id"]
    api.act(in_circle, "start_hand", starter="Ana")
    api.act(in_circle, "play", tile="3-2")
    block = api.new_game(["Ana", "Ben"], draw="never")  # a house rule: nobody draws (R27)
    api.act(block, "start_hand", starter="Ana")
    api.act(block, "play", tile="6-6")
    return {
        "home": "/",
        "new game": "/new",
        "game mid-hand": f"/g/{playing}",
        "end choice": f"/g/{playing}?choose=5-2",
        "settlement": f"/g/{settling}",
        "settlement with its preview": f"/g/{settling}?look=preview",
        "block game (nobody draws)": f"/g/{block}",
        "game over": f"/g/{over}",
        "rules": "/rules",
        "replay": f"/g/{playing}/replay",
        "check": f"/g/{playing}/check",
        "rescore": f"/g/{over}/rescore",
        "replay of a long game (hand picker)": f"/g/{long}/replay/7/3",
        "rescore of a long game (pages)": f"/g/{long}/rescore?preset=pagat&hand=12",
        "More as a page (log and audits)": f"/g/{long}/more",
        "learn": "/learn",
        "practice": "/practice",
        "players": f"/g/{playing}/players",
        "ended early": f"/g/{ended}",
        "deleted": f"/g/{deleted}",  # 410 Gone, with the way back
        "score sheet": f"/g/{playing}/sheet",
        "more open": f"/g/{playing}?look=more",
        "refusal": f"/g/{playing}?look=refusal",
        "circle": f"/c/{circle}",
        "circle's names": f"/c/{circle}/people",
        "new circle": "/circles/new",
        "game into a circle": f"/g/{over}/circle",
        "game over in a circle (its link, the move)": f"/g/{in_circle}",
        "a game moved to another circle": f"/g/{in_circle}/circle",
    }


def prepare(page: Any, path: str) -> None:
    """What a page shows only once tapped: More open (with its keys and the phone's settings),
    a refusal (1-0 fits none of the open ends, R5), a settlement's preview of the scores."""
    if path.endswith("look=more"):
        page.locator("#more > summary").click()
        page.locator("#keys > summary").click()
        page.locator("details.device > summary").click()
    elif path.endswith("look=refusal"):
        with page.expect_response(lambda answer: answer.url.endswith("/play")):
            page.get_by_role("button", name="1-0", exact=True).click()
        page.get_by_role("status").get_by_text("Not allowed").wait_for()
    elif path.endswith("look=preview"):
        with page.expect_response(lambda answer: "/settle" in answer.url):
            page.get_by_role("spinbutton").fill("5")
        page.locator("#settle-preview table").wait_for()


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
            gone = name == "deleted" and answer is not None and answer.status == 410
            assert answer is not None and (answer.ok or gone), f"{name}: {path} did not load"
            prepare(page, path)
            page.add_script_tag(path=str(AXE))
            violations = page.evaluate(RUN, TAGS)
            serious = [v for v in violations if v["impact"] in SERIOUS]
            if serious:
                found[name] = serious
            lesser = [f"{v['id']} ({v['impact']})" for v in violations if v not in serious]
            if lesser:  # moderate and minor: shown, for fixing where sensible
                print(f"\n{scheme} {name}: {', '.join(lesser)}")
    finally:
        context.close()
    assert found == {}, "\n".join(
        f"{name}: {v['id']} ({v['impact']}) {v['nodes']}" for name, vs in found.items() for v in vs
    )
