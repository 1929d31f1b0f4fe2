"""The game screen on a phone, as a person looks at it and taps it, for the browser tests.

Controls are found by role and name (a tile's name is its notation, ``6-4``). Every tap that
asks the server something waits for the answer by a signal that does not depend on how busy
the machine is, then checks what is shown at once:

- a tap that enters an action (a tile, Draw, Pass, Undo, Start, Settle) waits until the page
  shows the game's next revision: ``#live`` carries it as ``data-seq`` and is swapped out of
  band with every answer that moved the game (``templates/game/_live.html``);
- a tap the rules refuse, a question (which end?) or a preview waits for the server's answer
  itself, as it leaves the revision as it was.

Only those waits are patient (:data:`ANSWER`, for a two-core machine running the server,
Chromium and pytest at once); what the page shows then is checked with :data:`shown`, whose
retries are short, since it is already there once the answer has been swapped in.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import Expect, expect

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Locator, Page, Response

ANSWER = 30_000  # ms the server may take to answer a tap, on a busy machine
SHOWN_MS = 2_000  # ms for what an answer shows to be drawn, once the answer is in

# A refused action (422) or a stale one (409) is answered with the game region, which htmx
# swaps in; Chromium still logs the status of the request. Those lines are expected where a
# test provokes a refusal, and nowhere else.
#: A game screen's stream breaking (the network cut, or the stream blocked): htmx's SSE
#: extension logs the event itself, Chromium the request; the page falls back to its poll.
STREAM_BROKE = re.compile(r"^\[object Event\]$")
REFUSAL_LOG = re.compile(r"Failed to load resource: the server responded with a status of 4(09|22)")


def _shown() -> Expect:
    patient_briefly = Expect()
    patient_briefly.set_options(timeout=SHOWN_MS)
    return patient_briefly


with contextlib.suppress(NameError):  # no Playwright: the tests skip before using it
    shown = _shown()  # ``shown(locator).to_…``: what the page shows now


class Console:
    """Every error the page reports: console errors (CSP violations among them), crashes."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        self.refusals = 0
        self.stream_breaks = 0
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: uncaught {error}"))
        self.page = page

    def _console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        if REFUSAL_LOG.search(message.text):
            self.refusals += 1
            return
        where = message.location.get("url", "") if message.location else ""
        if STREAM_BROKE.search(message.text) or "/stream" in where:
            self.stream_breaks += 1
            return
        self.errors.append(f"{self.page.url}: {message.text} ({where})")


def without_stream(page: Page) -> None:
    """The page follows the game by its poll alone, as behind a proxy that buffers the stream."""
    page.route("**/stream*", lambda route: route.abort())


# --- what a person looks at --------------------------------------------------------------------


def tile(page: Page, name: str) -> Locator:
    """A tile of the picker: its accessible name is its notation, then its badge when it shows
    one ("6-5 fits", "5-5 +10")."""
    named = re.compile(rf"^{re.escape(name)}(?: |$)")
    return page.get_by_role("region", name="Tiles").get_by_role("button", name=named)


def score(page: Page, side: str, points: int, target: int) -> Locator:
    """A side's progress bar toward the target, named with its score."""
    return page.get_by_role("progressbar", name=f"{side}: {points} of {target}", exact=True)


def status(page: Page) -> Locator:
    return page.get_by_role("status")


def board(page: Page) -> Locator:
    return page.get_by_role("region", name="The layout")


def button(page: Page, name: str) -> Locator:
    """Draw, Pass or Undo: always in place, greyed out when the rules do not allow it."""
    return page.get_by_role("region", name="Actions").get_by_role(
        "button", name=re.compile(rf"^{name}\b")
    )


def work(page: Page) -> Locator:
    """The panel under the thumb between plays: start, settle, game over."""
    return page.get_by_role("region", name="Next")


def more(page: Page) -> None:
    """Open (or close) the "More" sheet: the log, disputes, settings and sharing, fetched
    afresh each time it is opened or closed."""
    with answer_to(page, "/more"):
        page.get_by_text("More", exact=True).click()


def on_screen(page: Page, locator: Locator, what: str) -> None:
    """``locator`` is drawn and whole within the screen's height."""
    # A region swapped out of band is replaced, not changed: wait (retrying) until the new one
    # is drawn before measuring where it is.
    expect(locator, f"{what} is not shown").to_be_visible()
    box = locator.bounding_box()
    assert box is not None, f"{what} is not shown"
    height = page.viewport_size["height"] if page.viewport_size else 0
    assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, (
        f"{what} is off the screen: {box['y']:.0f}–{box['y'] + box['height']:.0f} of {height}"
    )


def mark_page(page: Page) -> None:
    page.evaluate("window.__samePage = true")


def assert_same_page(page: Page) -> None:
    """htmx swapped a region: the page itself (and its window) was not reloaded."""
    assert page.evaluate("window.__samePage === true"), "the page fully reloaded"


# --- waiting for the server --------------------------------------------------------------------


def revision(page: Page) -> int:
    """The game's revision the page shows."""
    seq = page.locator("#live").get_attribute("data-seq", timeout=ANSWER)
    assert seq is not None, "the game screen has no #live[data-seq]"
    return int(seq)


def at_revision(page: Page, seq: int) -> None:
    """Wait until the page shows the game at revision ``seq``."""
    expect(page.locator("#live")).to_have_attribute("data-seq", str(seq), timeout=ANSWER)


def act(page: Page, control: Locator) -> None:
    """Tap a control that enters an action, and wait for the revision it makes."""
    seq = revision(page)
    control.click()
    at_revision(page, seq + 1)


@contextlib.contextmanager
def answer_to(page: Page, path: str) -> Iterator[None]:
    """Wait, after what the block does, for the server's answer to a request to ``path``
    (the end of its address: ``/play``, ``/settle/preview``, ``/more``)."""
    with page.expect_response(_to(path), timeout=ANSWER):
        yield


def _to(path: str) -> Callable[[Response], bool]:
    return lambda response: response.url.split("?")[0].endswith(path)


def refused(page: Page, control: Locator, path: str) -> None:
    """Tap a control whose action the server refuses (a 422 to ``path``): wait for the
    refusal; the game's revision stays as it was."""
    seq = revision(page)
    with page.expect_response(_to(path), timeout=ANSWER) as answer:
        control.click()
    assert answer.value.status == 422, f"{path} answered {answer.value.status}, not a refusal"
    shown(page.locator("#live")).to_have_attribute("data-seq", str(seq))


def opened(page: Page, control: Locator, address: str | re.Pattern[str]) -> None:
    """Tap a link or button that leads to another page, and wait for it to load."""
    before = page.url
    control.click()
    page.wait_for_url(
        lambda url: url != before and bool(re.search(address, url)),
        timeout=ANSWER,
    )


# --- taps ----------------------------------------------------------------------------------------

# A choice of ends ignores a tap that comes within 350 ms of its being shown (the second tap of
# a double tap: [data-guard] in static/app.js). The page notes when htmx showed it, as app.js
# does, so a test taps once that time has passed on the page's own clock, however slow the
# machine: a person reads the choice first.
_NOTE_SHOWN = """() => {
  if (!window.__noteShown) {
    window.__noteShown = true;
    document.addEventListener("htmx:load", (event) => {
      const shown = event.detail.elt;
      if (shown.matches?.("[data-guard]") || shown.querySelector?.("[data-guard]")) {
        window.__guardShown = performance.now();
      }
    });
  }
  window.__guardShown = null;
}"""
GUARD_MS = 350


def _after_the_guard(page: Page) -> None:
    page.wait_for_function(
        "ms => window.__guardShown !== null && performance.now() - window.__guardShown > ms",
        arg=GUARD_MS + 50,
        timeout=ANSWER,
    )


def play(
    page: Page,
    name: str,
    says: str,
    *,
    end: str | None = None,
    offered: dict[str, int] | None = None,
    last: bool = False,
    wins: bool = False,
) -> None:
    """Tap a tile. When it fits several ends, check the points each choice offers (``offered``:
    arm → points) and tap ``end``. Once the page shows the play's revision, the message must
    say ``says`` and the tile be played (unless it was the ``last`` play of the hand: then the
    picker gives way to what follows). A play that ``wins`` the game is the last: the game-over
    panel then takes the place of the message, which Undo names instead."""
    seq = revision(page)
    if offered is None:
        tile(page, name).click()
    else:
        page.evaluate(_NOTE_SHOWN)
        with answer_to(page, "/play"):  # the question: which end?
            tile(page, name).click()
        picker = page.get_by_role("region", name="Tiles")
        heading = re.compile(rf"Where does\s+{re.escape(name)}\s+go\?")
        shown(picker.get_by_role("heading", name=heading)).to_be_visible()
        choices = picker.get_by_role("button", name=re.compile(r"points"))
        shown(choices).to_have_count(len(offered))
        for arm, points in offered.items():
            choice = picker.get_by_role("button", name=re.compile(rf"^{arm}\b", re.I))
            shown(choice).to_contain_text(f"{points} points")
        assert end is not None
        _after_the_guard(page)
        picker.get_by_role("button", name=re.compile(rf"^{end}\b", re.I)).click()
    at_revision(page, seq + 1)
    if wins:
        # The answer carries the message (#notice), but the page shows the game-over panel in
        # its place (static/app.css hides the notice area then from the eye, not from a screen
        # reader: it is the live region, which says the winner): Undo names the play.
        shown(status(page)).to_contain_text(says)
        shown(status(page)).to_have_css("clip-path", "inset(50%)")
        shown(button(page, "Undo")).to_have_accessible_name(f"Undo: {says}")
    else:
        shown(status(page)).to_contain_text(says)
    if last or wins:
        shown(page.get_by_role("region", name="Tiles").get_by_role("button")).to_have_count(0)
    else:
        shown(tile(page, name)).to_be_disabled()


def new_game(page: Page, base: str, names: list[str], target: int | None = None) -> None:
    """Home → New game → names (adding fields as needed) → options; Start game is the test's."""
    page.goto(base + "/")
    opened(page, page.get_by_role("link", name="New game"), r"/new$")
    shown(page.get_by_role("heading", name="New game")).to_be_visible()
    fields = page.get_by_role("textbox")
    while (count := fields.count()) < len(names):
        page.get_by_role("button", name="+ Add player").click()
        expect(fields).to_have_count(count + 1, timeout=ANSWER)
    for seat, name in enumerate(names, start=1):
        page.get_by_label(f"Player {seat} name").fill(name)
    if target is not None:
        page.get_by_text("House rules", exact=True).click()
        page.get_by_label("Play to").fill(str(target))


def start_game(page: Page) -> None:
    """Tap Start game on the new-game form: the game's screen, at its first revision."""
    opened(page, page.get_by_role("button", name="Start game"), r"/g/[\w-]+$")
    at_revision(page, 0)
