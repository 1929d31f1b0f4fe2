"""One tap, one action: a double tap on any control that changes what is under the finger enters
at most what its first tap meant, whatever the first tap drew there (an end choice, the picker
after a choice or a Cancel, the next player's Draw or Pass, the next hand's panel, a tile after
Start).

Each control is tapped twice with a finger (touch events, as a phone sends them) 80, 150 and
250 ms apart. What the server holds is read back through the JSON API's revision, and every
action the page posted is counted: the first tap's, and none from the second.
"""

from __future__ import annotations

import contextlib
import re
import time
from typing import TYPE_CHECKING

import pytest

from tests.browser.phone import GUARD_MS, answer_to, at_revision, revision, shown
from tests.scripts import HAND_OF_FIVE, Script
from tests.tables import HttpApi

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import Locator, Page, Request

    from tests.browser.phone import Console

pytestmark = pytest.mark.browser

GAPS_MS = (80, 150, 250)

# Three players: Ana leads 5-5, Ben lays 5-3 on the left, Cy 5-0 on the right; Ana's 3-0
# then fits the left 3 and the right 0 (R4), so the phone asks where it goes.
SPINNER_COVERED = Script("The spinner's sides covered", "5-5", "5-3 left", "5-0 right")


class Posts:
    """Every action the page posts (a form to /g/<id>/<action>), from now on."""

    def __init__(self, page: Page) -> None:
        self.sent: list[str] = []
        self.open = 0
        page.on("request", self._sent)
        page.on("requestfinished", self._done)
        page.on("requestfailed", self._done)
        self.page = page

    def _sent(self, request: Request) -> None:
        if request.method == "POST" and "/g/" in request.url:
            self.sent.append(request.url.rsplit("/", 1)[-1])
            self.open += 1

    def _done(self, request: Request) -> None:
        if request.method == "POST" and "/g/" in request.url:
            self.open -= 1

    def settled(self) -> list[str]:
        """The actions posted, once every one of them has been answered (a tap's handlers run
        before the next task of the page, so a post it makes has been sent by then)."""
        self.page.evaluate("() => new Promise((done) => setTimeout(done, 50))")
        deadline = time.monotonic() + 30
        while self.open and time.monotonic() < deadline:
            self.page.wait_for_timeout(50)
        assert self.open == 0, "an action was never answered"
        return list(self.sent)


def double_tap(page: Page, control: Locator, gap_ms: int) -> None:
    """Two taps of a finger at the control's centre, ``gap_ms`` apart."""
    control.scroll_into_view_if_needed()
    box = control.bounding_box()
    assert box is not None, "the control is not on screen"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    first = time.monotonic()
    page.touchscreen.tap(x, y)
    time.sleep(max(0.0, gap_ms / 1000 - (time.monotonic() - first)))
    page.touchscreen.tap(x, y)


def tiles(page: Page) -> Locator:
    return page.get_by_role("region", name="Tiles")


def actions(page: Page) -> Locator:
    return page.get_by_role("region", name="Actions")


def open_game(page: Page, base: str, game: str) -> Posts:
    page.goto(f"{base}/g/{game}")
    page.wait_for_function("() => window.htmx !== undefined")
    return Posts(page)


def asked_where(page: Page, tile: str) -> Locator:
    """Tap ``tile`` once, wait for the question and let a person read it: the choices."""
    with answer_to(page, "/play"):
        tiles(page).get_by_role("button", name=tile, exact=True).click()
    choices = tiles(page).get_by_role("button", name=re.compile(r"points"))
    shown(choices).to_have_count(2)
    page.wait_for_timeout(GUARD_MS + 50)  # a person reads the question before answering it
    return choices


def spinner_covered(api: HttpApi) -> str:
    game = api.new_game(["Ana", "Ben", "Cy"])
    api.act(game, "start_hand", starter="Ana")
    api.enter(game, SPINNER_COVERED)
    return game


def boneyard_empty(api: HttpApi) -> str:
    """Ana leads 6-6 and Ben draws the boneyard without a 6: he may only pass (R7), and Ana's
    Pass takes the place of his."""
    game = api.new_game(["Ana", "Ben"])
    api.act(game, "start_hand", starter="Ana")
    api.enter(game, Script("Ben draws the boneyard", "6-6", "draw 10"))
    return game


def hand_over(api: HttpApi) -> str:
    game = api.new_game(["Ana", "Ben"], deal="5")
    api.act(game, "start_hand", starter="Ana")
    api.enter(game, HAND_OF_FIVE)
    return game


if TYPE_CHECKING:
    # Each case: the game's set-up, what the test does before the double tap (returning the
    # control tapped twice), the action the first tap posts (None: it posts nothing) and what
    # the page shows once it is done.
    Case = tuple[
        Callable[[HttpApi], str], Callable[[Page], Locator], str | None, Callable[[Page], None]
    ]


def _end_choice(page: Page) -> Locator:
    return asked_where(page, "3-0").filter(has_text=re.compile(r"^\s*Left", re.I))


def _cancel(page: Page) -> Locator:
    asked_where(page, "3-0")
    return tiles(page).get_by_role("link", name="Cancel")


def _draw(page: Page) -> Locator:
    return actions(page).get_by_role("button", name=re.compile(r"^Draw\b"))


def _pass(page: Page) -> Locator:
    return actions(page).get_by_role("button", name=re.compile(r"^Pass\b"))


def _undo(page: Page) -> Locator:
    return actions(page).get_by_role("button", name=re.compile(r"^Undo\b"))


def _settle(page: Page) -> Locator:
    next_up = page.get_by_role("region", name="Next")
    with answer_to(page, "/settle/preview"):
        next_up.get_by_role("group", name=re.compile(r"^Ben")).get_by_label("Pips").fill("4")
    return next_up.get_by_role("button", name="Settle hand 1")


def _start(page: Page) -> Locator:
    return page.get_by_role("region", name="Next").get_by_role("button", name="Ana leads")


def _choices_gone(page: Page) -> None:
    shown(tiles(page).get_by_role("button", name=re.compile(r"points"))).to_have_count(0)


def _nothing_more(page: Page) -> None:
    """The screen after the one action: nothing to check beyond its revision."""


CASES: dict[str, Case] = {
    "an end choice": (spinner_covered, _end_choice, "play", _choices_gone),
    "Cancel": (spinner_covered, _cancel, None, _choices_gone),
    "Draw": (spinner_covered, _draw, "draw", _nothing_more),
    "Pass": (boneyard_empty, _pass, "pass", _nothing_more),
    "Undo": (spinner_covered, _undo, "undo", _nothing_more),
    "Settle": (hand_over, _settle, "settle", _nothing_more),
    "Start hand": (lambda api: api.new_game(["Ana", "Ben"]), _start, "start", _nothing_more),
}


@pytest.mark.parametrize("gap_ms", GAPS_MS)
@pytest.mark.parametrize("control", list(CASES))
def test_a_double_tap_enters_one_action(
    phone: tuple[Page, Console], api: HttpApi, live_server: str, control: str, gap_ms: int
) -> None:
    set_up, find, posts, after = CASES[control]
    page, _console = phone
    game = set_up(api)
    before = api.state(game)["seq"]
    posted = open_game(page, live_server, game)
    assert revision(page) == before
    target = find(page)
    expect(target).to_be_enabled()
    posted.sent.clear()

    double_tap(page, target, gap_ms)

    expected = 0 if posts is None else 1
    if expected:
        at_revision(page, before + 1)
    after(page)
    assert posted.settled() == ([] if posts is None else [posts]), (
        f"a double tap on {control}, {gap_ms} ms apart, posted {posted.sent}"
    )
    assert api.state(game)["seq"] == before + expected
    assert revision(page) == before + expected
