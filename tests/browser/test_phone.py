"""The phone at the table for an evening: a dropped connection, a double tap, a reload in the
middle of a settlement, the screen kept awake, dim-room colours, and the app opening offline.

The games are set up through the JSON API (README "JSON API") from the test, outside the browser,
so that taking the browser offline never touches the set-up or the checks: what the server holds
is read back with ``GET /api/games/<id>``, and what the player saw is read from the page.
"""

from __future__ import annotations

import contextlib
import re
import struct
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser.conftest import PHONE, phone_context
from tests.browser.phone import STREAM_BROKE
from tests.scripts import EXAMPLE_B
from tests.tables import HttpApi

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

pytestmark = pytest.mark.browser

# What a browser logs when a request cannot reach the server (the point of these tests), the
# game screen's stream breaking with it, and the status of a refused or stale action: expected;
# any other console error (a CSP violation, a script error) fails the test.
EXPECTED_LOG = re.compile(
    r"net::ERR_INTERNET_DISCONNECTED|net::ERR_FAILED|Failed to fetch|status of (409|422|503)"
    r"|Response Status Error Code 503|htmx:(afterRequest|sendError|timeout)"
    rf"|{STREAM_BROKE.pattern}"
)


@pytest.fixture
def context(browser, request) -> Iterator[BrowserContext]:  # type: ignore[no-untyped-def]
    made = phone_context(browser, request, device_scale_factor=2)
    yield made
    made.close()


@pytest.fixture
def offline_phone(context: BrowserContext) -> Iterator[Page]:
    """A phone that may lose its connection: the network errors that follow (and a refusal's
    status) are expected in its console; any other error fails the test."""
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    errors: list[str] = []

    def console(message: Any) -> None:
        if message.type == "error" and not EXPECTED_LOG.search(message.text):
            errors.append(message.text)

    tab.on("console", console)
    tab.on("pageerror", lambda error: errors.append(f"uncaught {error}"))
    yield tab
    assert errors == [], "the page logged errors:\n" + "\n".join(errors)


def tile(page: Page, name: str) -> Any:
    return page.get_by_role("region", name="Tiles").get_by_role("button", name=name, exact=True)


def sync_line(page: Page) -> Any:
    return page.locator("#sync")


def said(page: Page) -> Any:
    """What the line says about the plays not saved yet (or that they are saved)."""
    return page.locator("#sync .sync-text")


def waiting(page: Page) -> Any:
    """Each play waiting to be sent, as the line lists it under what it says."""
    return page.locator("#sync .sync-play")


def played(state: dict[str, Any]) -> list[str]:
    """The tiles played this hand, in order, named high half first as on the picker."""
    tiles = [move["tile"] for move in state["hand"]["moves"] if move.get("tile")]
    return ["-".join(sorted(name.split("-"), reverse=True)) for name in tiles]


# Example B's first three plays: Ana 5-5, Ben 5-3 on the left, Ana 5-2 on the right (R10: up
# and down open at 5).
OPEN = EXAMPLE_B[:3]


def spinner_open(api: HttpApi) -> str:
    game = api.new_game(["Ana", "Ben"])
    api.act(game, "start_hand", starter="Ana")
    api.enter(game, OPEN)
    return game


def open_device_panel(page: Page) -> None:
    page.get_by_label("This phone: screen and colours").click()
    expect(page.get_by_role("heading", name="This phone", exact=True)).to_be_visible()


def background(page: Page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


# --- nothing lost ------------------------------------------------------------------------------


def test_taps_made_offline_wait_in_order_and_are_applied_once_when_back_online(
    context: BrowserContext, offline_phone: Page, api: HttpApi, live_server: str
) -> None:
    """R5: Ana leads 6-4 and Ben plays 4-1 on the 4 end while the phone has no connection. Both
    wait, in order, and are applied exactly once each when it comes back: the second one at the
    revision the first one made, so the server's revision check (README "JSON API") still holds."""
    game = api.new_game(["Ana", "Ben"])
    api.act(game, "start_hand", starter="Ana")
    before = api.state(game)
    offline_phone.goto(f"{live_server}/g/{game}")
    expect(tile(offline_phone, "6-4")).to_be_enabled()

    context.set_offline(True)
    tile(offline_phone, "6-4").click()
    expect(said(offline_phone)).to_have_text("Not saved — this phone is offline")
    expect(waiting(offline_phone)).to_have_text(["Ana: 6-4 — not saved yet"])
    # The second tap's player is not named: the screen did not move on, so it cannot say.
    tile(offline_phone, "4-1").click()
    expect(sync_line(offline_phone)).to_contain_text("Waiting to be sent: 2")
    expect(waiting(offline_phone)).to_have_text(["Ana: 6-4 — not saved yet", "4-1 — not saved yet"])
    for name in ("6-4", "4-1"):  # shown as waiting on the picker, so nobody taps them twice
        expect(tile(offline_phone, name)).to_have_class(re.compile(r"\bwaiting\b"))
    assert api.state(game)["seq"] == before["seq"]  # nothing reached the server

    context.set_offline(False)
    expect(said(offline_phone)).to_have_text("Saved")
    expect(waiting(offline_phone)).to_have_count(0)
    after = api.state(game)
    assert played(after) == ["6-4", "4-1"]
    assert after["seq"] == before["seq"] + 2
    # R11: ends 6 and 1 count 7, no score; the screen shows the server's answer.
    expect(offline_phone.get_by_role("region", name="The layout")).to_contain_text("Count 7")
    expect(tile(offline_phone, "4-1")).to_be_disabled()
    assert offline_phone.evaluate("localStorage.getItem('allfives.queue')") is None


ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
LAO = re.compile(r"[\u0e80-\u0eff]")


def test_an_offline_tap_on_a_lao_page_shows_the_waiting_tile_in_lao_until_it_is_sent(
    context: BrowserContext, offline_phone: Page, api: HttpApi, live_server: str
) -> None:
    """A phone set to Lao loses its connection and ສົມ leads 6-4 (R5). The line says, in Lao
    and no English, that it is not saved yet, with the tile as the picker draws it and who
    played it; back online, the play is sent once, and the line says so in Lao."""
    game = api.new_game(["ສົມ", "ບຸນ"])
    api.act(game, "start_hand", starter="ສົມ")
    before = api.state(game)["seq"]
    context.add_cookies([{"name": "language", "value": "lo", "url": live_server}])
    offline_phone.goto(f"{live_server}/g/{game}")
    six_four = offline_phone.locator("#work").get_by_role("button", name="6-4", exact=True)
    expect(six_four).to_be_enabled()

    context.set_offline(True)
    six_four.click()
    expect(waiting(offline_phone)).to_have_count(1)
    play = waiting(offline_phone).first
    expect(play).to_contain_text("6-4")
    expect(play).to_contain_text("ສົມ")
    expect(play.locator("use")).to_have_attribute("href", "#tile-6-4")  # the picker's tile
    line = sync_line(offline_phone).inner_text()
    assert LAO.search(line) and not ENGLISH_WORD.search(line), line
    assert api.state(game)["seq"] == before  # nothing reached the server

    context.set_offline(False)
    expect(waiting(offline_phone)).to_have_count(0)
    line = said(offline_phone).inner_text()
    assert LAO.search(line) and not ENGLISH_WORD.search(line), line
    after = api.state(game)
    assert after["seq"] == before + 1
    assert played(after) == ["6-4"]


def test_a_waiting_tile_that_fits_two_ends_asks_where_and_what_follows_waits_for_the_answer(
    context: BrowserContext, offline_phone: Page, api: HttpApi, live_server: str
) -> None:
    """R9, R10: 5-5, 5-3 on the left and 5-2 on the right open the spinner. Ben's 3-2 fits the
    left 3 and the right 2; Ana's 5-0 then fits up (or down: the same layout, not asked). Both
    are tapped offline. Back online, the screen asks where 3-2 goes and holds 5-0 back until it
    is answered; then 5-0 follows at the new revision. R11: 2 + 2 + 0 = 4, no score."""
    game = spinner_open(api)
    offline_phone.goto(f"{live_server}/g/{game}")
    expect(tile(offline_phone, "3-2")).to_be_enabled()

    context.set_offline(True)
    tile(offline_phone, "3-2").click()
    tile(offline_phone, "5-0").click()
    expect(sync_line(offline_phone)).to_contain_text("Waiting to be sent: 2")

    context.set_offline(False)
    expect(
        offline_phone.get_by_role("heading", name=re.compile(r"Where does\s+3-2\s+go"))
    ).to_be_visible()
    expect(said(offline_phone)).to_have_text("Choose the end first")
    expect(waiting(offline_phone)).to_have_text(["5-0 — not saved yet"])
    offline_phone.wait_for_timeout(600)
    assert played(api.state(game)) == [*(move.button for move in OPEN)]

    offline_phone.get_by_role("button", name=re.compile(r"^Left")).click()
    expect(said(offline_phone)).to_have_text("Saved")
    assert played(api.state(game)) == [*(move.button for move in OPEN), "3-2", "5-0"]
    board = offline_phone.get_by_role("region", name="The layout")
    expect(board).to_contain_text("Count 4 2 + 2 + 0 = 4")


@pytest.mark.no_service_worker
def test_a_waiting_tile_that_needs_an_end_is_asked_on_its_game_screen_not_elsewhere(
    offline_phone: Page, api: HttpApi, live_server: str
) -> None:
    """3-2 fits the left 3 and the right 2, so it needs an end. Its request fails; the phone then
    opens the home page, which sends what waits but cannot show the question: the tap stays
    waiting, and the game screen asks where it goes."""
    game = spinner_open(api)
    offline_phone.goto(f"{live_server}/g/{game}")

    def fail(route: Any) -> None:
        route.abort()

    offline_phone.route("**/play", fail)
    tile(offline_phone, "3-2").click()
    expect(said(offline_phone)).to_have_text("Not saved — no connection")
    offline_phone.unroute("**/play", fail)
    offline_phone.goto(live_server + "/")
    expect(said(offline_phone)).to_have_text("Open the game to choose the end")
    expect(waiting(offline_phone)).to_have_text(["Ben: 3-2 — not saved yet"])
    offline_phone.goto(f"{live_server}/g/{game}")
    expect(
        offline_phone.get_by_role("heading", name=re.compile(r"Where does\s+3-2\s+go"))
    ).to_be_visible()
    expect(said(offline_phone)).to_have_text("Not saved yet — choose the end")
    offline_phone.wait_for_timeout(400)
    offline_phone.get_by_role("button", name=re.compile(r"^Left")).click()
    expect(said(offline_phone)).to_have_text("Saved")
    assert played(api.state(game)) == [*(move.button for move in OPEN), "3-2"]


@pytest.mark.no_service_worker
def test_a_play_whose_request_fails_survives_a_reload_and_is_sent_once(
    offline_phone: Page, api: HttpApi, live_server: str
) -> None:
    """The server answers 503 (a restarting server behind its proxy): the play is kept on the
    phone, still there after a reload, and applied once when the server answers again."""
    game = api.new_game(["Ana", "Ben"])
    api.act(game, "start_hand", starter="Ana")
    offline_phone.goto(f"{live_server}/g/{game}")

    def unavailable(route: Any) -> None:
        route.fulfill(status=503, body="Service Unavailable")

    offline_phone.route("**/play", unavailable)
    tile(offline_phone, "5-5").click()
    expect(said(offline_phone)).to_have_text("Not saved — no answer from the server")
    offline_phone.reload()
    expect(waiting(offline_phone)).to_have_text(["Ana: 5-5 — not saved yet"])
    assert played(api.state(game)) == []

    offline_phone.unroute("**/play", unavailable)
    expect(said(offline_phone)).to_have_text("Saved", timeout=15_000)
    state = api.state(game)
    assert played(state) == ["5-5"]
    assert state["players"][0]["score"] == 10  # R11: a lone 5-5 counts 10
    expect(offline_phone.get_by_role("status")).to_contain_text("Ana scores 10")


# --- no accidental entries ---------------------------------------------------------------------


def test_a_double_tap_on_a_tile_that_fits_two_ends_chooses_no_end(
    offline_phone: Page, api: HttpApi, live_server: str
) -> None:
    """3-2 fits the left 3 and the right 2, so the screen asks. The second tap of a double tap,
    or a tap right after the choice appears, must not answer that question; a deliberate tap a
    moment later does."""
    game = spinner_open(api)
    offline_phone.goto(f"{live_server}/g/{game}")
    choices = offline_phone.get_by_role("region", name="Tiles").get_by_role(
        "button", name=re.compile(r"points")
    )

    expect(offline_phone.locator("#live")).to_have_attribute("hx-trigger", "every 2s")
    offline_phone.wait_for_function("() => window.htmx !== undefined")
    tile(offline_phone, "3-2").dblclick()
    expect(choices).to_have_count(2)
    offline_phone.wait_for_timeout(600)
    assert played(api.state(game)) == [*(move.button for move in OPEN)]

    # A tap landing on an end the moment it is shown (within the guard's 350 ms): the page
    # itself clicks the first end as soon as it appears, so a slow machine cannot be late.
    offline_phone.get_by_role("link", name="Cancel").click()
    expect(choices).to_have_count(0)
    offline_phone.evaluate(
        """() => new MutationObserver((changes, watching) => {
            const end = document.querySelector("#work .choice-button");
            if (end) { watching.disconnect(); end.click(); }
        }).observe(document.body, { childList: true, subtree: true })"""
    )
    tile(offline_phone, "3-2").click()
    expect(choices).to_have_count(2)
    offline_phone.wait_for_timeout(600)
    assert played(api.state(game)) == [*(move.button for move in OPEN)]
    expect(choices).to_have_count(2)
    right = offline_phone.get_by_role("button", name=re.compile(r"^Right"))

    right.click()  # a tap that starts after the choice is shown goes through
    expect(offline_phone.get_by_role("status")).to_contain_text("Ben played 3-2 on the right end")
    assert played(api.state(game)) == [*(move.button for move in OPEN), "3-2"]


def test_the_phone_buzzes_briefly_when_a_play_scores_and_not_otherwise(
    context: BrowserContext, offline_phone: Page, api: HttpApi, live_server: str
) -> None:
    """R11: Ana's lone 5-5 counts 10 and scores; Ben's 5-3 then counts 3 + 10 = 13, no score."""
    context.add_init_script(
        "window.__buzzes = [];"
        "navigator.vibrate = (ms) => { window.__buzzes.push(ms); return true; };"
    )
    game = api.new_game(["Ana", "Ben"])
    api.act(game, "start_hand", starter="Ana")
    offline_phone.goto(f"{live_server}/g/{game}")
    tile(offline_phone, "5-5").click()
    expect(offline_phone.get_by_role("status")).to_contain_text("Ana scores 10")
    offline_phone.wait_for_function("() => window.__buzzes.length > 0", timeout=2_000)
    assert offline_phone.evaluate("window.__buzzes") == [60]
    tile(offline_phone, "5-3").click()  # either side of the lone 5-5: the same layout, not asked
    expect(offline_phone.get_by_role("status")).to_contain_text("Ben played 5-3")
    assert offline_phone.evaluate("window.__buzzes") == [60]


# --- settlement survives a reload --------------------------------------------------------------

ANA_HELD = ["0-0", "1-0", "2-0", "3-0", "4-0", "5-0", "6-0", "1-1"]  # 23 pips


def test_a_reload_in_the_middle_of_a_settlement_keeps_what_was_entered(
    offline_phone: Page, api: HttpApi, live_server: str
) -> None:
    """R6, R7, R13: Ana leads 6-6, Ben draws the whole boneyard, both pass: blocked. The scorer
    taps Ana's tiles and types Ben's pips; a reload (before and after the preview) keeps both.
    Confirming settles the hand and forgets the entries."""
    game = api.new_game(["Ana", "Ben"])
    api.act(game, "start_hand", starter="Ana")
    api.act(game, "play", tile="6-6")
    api.act(game, "draw", count=10)
    api.act(game, "pass")
    api.act(game, "pass", confirm=True)  # R7a: example E, which the table insists on
    assert api.state(game)["status"] == "hand_over"
    offline_phone.goto(f"{live_server}/g/{game}")

    ana = offline_phone.get_by_role("group", name=re.compile(r"^Ana"))
    ben = offline_phone.get_by_role("group", name=re.compile(r"^Ben"))
    ana.get_by_text("Tiles", exact=True).click()  # pips first: the tiles behind a disclosure
    for name in ANA_HELD:
        ana.get_by_label(name, exact=True).check()
    ben.get_by_label("Pips").fill("133")  # every unplayed tile but Ana's: 168 - 12 - 23

    def entries_are_kept() -> None:
        expect(ben.get_by_label("Pips")).to_have_value("133")
        for name in ANA_HELD:
            expect(ana.get_by_label(name, exact=True)).to_be_checked()
        expect(ana.get_by_label("6-5", exact=True)).not_to_be_checked()

    preview = offline_phone.locator("#settle-preview")
    expect(preview).to_contain_text("Then:")  # the scores, previewed as typed
    offline_phone.reload()
    entries_are_kept()
    expect(preview).to_contain_text("Then:")
    offline_phone.reload()
    entries_are_kept()

    offline_phone.get_by_role("button", name="Settle hand 1").click()
    expect(offline_phone.get_by_role("status")).to_contain_text("Hand 1 settled")
    state = api.state(game)
    assert state["status"] == "awaiting_start"
    assert state["hands"][0]["pips"] == {"Ana": 23, "Ben": 133}
    offline_phone.wait_for_function(  # forgotten once the answer is on screen
        "() => !Object.keys(localStorage).some(k => k.startsWith('allfives.form.'))"
    )


# --- this phone: screen and colours ------------------------------------------------------------


def test_the_keep_screen_on_switch_holds_a_wake_lock_or_says_it_cannot(
    offline_phone: Page, live_server: str
) -> None:
    offline_phone.goto(live_server + "/")
    supported = offline_phone.evaluate("'wakeLock' in navigator")
    open_device_panel(offline_phone)
    switch = offline_phone.get_by_role("button", name="Keep the screen on")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    note = offline_phone.locator("[data-wakelock-note]")
    if not supported:
        expect(note).to_have_text(re.compile("This browser cannot keep the screen on"))
        expect(switch).to_have_attribute("aria-pressed", "false")
        return
    expect(note).to_have_text("The screen stays on while this page is open.")
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert offline_phone.evaluate("localStorage.getItem('allfives.wakelock')") == '"on"'

    offline_phone.reload()  # remembered on this phone, and taken again
    open_device_panel(offline_phone)
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    expect(note).to_have_text("The screen turns off as the phone's settings say.")
    offline_phone.reload()
    open_device_panel(offline_phone)
    expect(switch).to_have_attribute("aria-pressed", "false")


def test_a_browser_without_wake_lock_says_so_instead_of_pretending(
    context: BrowserContext, offline_phone: Page, live_server: str
) -> None:
    context.add_init_script("delete Navigator.prototype.wakeLock;")
    offline_phone.goto(live_server + "/")
    open_device_panel(offline_phone)
    switch = offline_phone.get_by_role("button", name="Keep the screen on")
    switch.click()
    expect(offline_phone.locator("[data-wakelock-note]")).to_have_text(
        "This browser cannot keep the screen on: set the phone's screen timeout instead."
    )
    expect(switch).to_have_attribute("aria-pressed", "false")


FACE = """() => {
  const svg = tag => document.createElementNS("http://www.w3.org/2000/svg", tag);
  const [tile, face, box] = [svg("g"), svg("g"), svg("rect")];
  face.setAttribute("class", "face");
  face.append(box);
  tile.append(face);
  document.querySelector(".layout").append(tile);
  const fill = getComputedStyle(box).fill;
  tile.remove();
  return fill;
}"""
PAPER_LIGHT = "rgb(243, 240, 232)"  # --paper, light
PAPER_DARK = "rgb(15, 21, 18)"  # --paper, dark


def test_dark_colours_follow_the_phone_and_the_switch_overrides_them(
    browser: Any, live_server: str
) -> None:
    context = browser.new_context(viewport=PHONE, color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        assert background(page) == PAPER_DARK
        assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "dark"
        open_device_panel(page)
        page.get_by_role("button", name="Light", exact=True).click()
        assert background(page) == PAPER_LIGHT
        page.reload()  # remembered, and in force before the first paint (theme.js in <head>)
        assert page.evaluate("document.documentElement.dataset.theme") == "light"
        assert background(page) == PAPER_LIGHT
        open_device_panel(page)
        expect(page.get_by_role("button", name="Light", exact=True)).to_have_attribute(
            "aria-pressed", "true"
        )
        page.get_by_role("button", name="Auto").click()
        assert background(page) == PAPER_DARK

        page.emulate_media(color_scheme="light")
        assert background(page) == PAPER_LIGHT
        page.get_by_role("button", name="Dark", exact=True).click()
        assert background(page) == PAPER_DARK
        # The drawn tiles keep their ivory face on the dark table: a tile of a layout is the
        # picker's (a <use>, whose copy no script can read), so its face is read off one built
        # as its copy is (a .face in the layout), styled by the same rules.
        page.goto(live_server + "/rules")
        drawn = page.locator(".layout use").first.get_attribute("href") or ""
        assert drawn.startswith("#tile-")
        assert page.evaluate(FACE) == "rgb(241, 236, 220)"
    finally:
        context.close()


# --- installable -------------------------------------------------------------------------------


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_app_can_be_installed_and_opens_with_the_network_off(
    context: BrowserContext, offline_phone: Page, api: HttpApi, live_server: str
) -> None:
    manifest = offline_phone.request.get(live_server + "/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    body = manifest.json()
    assert body["display"] == "standalone" and body["start_url"] == "/"
    sizes = {icon["sizes"]: icon["src"] for icon in body["icons"]}
    for size in (192, 512):
        image = offline_phone.request.get(live_server + sizes[f"{size}x{size}"])
        assert _png_size(image.body()) == (size, size)

    game = api.new_game(["Ana", "Ben"])
    api.act(game, "start_hand", starter="Ana")
    offline_phone.goto(live_server + "/")
    offline_phone.evaluate("navigator.serviceWorker.ready.then(() => true)")
    offline_phone.goto(f"{live_server}/g/{game}")  # now served through the worker, and kept
    expect(tile(offline_phone, "6-6")).to_be_enabled()
    assert offline_phone.evaluate("navigator.serviceWorker.controller !== null")

    context.set_offline(True)
    offline_phone.goto(live_server + "/")
    expect(offline_phone.get_by_role("link", name="New game")).to_be_visible()
    offline_phone.goto(f"{live_server}/g/{game}")  # the copy kept on the phone
    expect(tile(offline_phone, "6-6")).to_be_enabled()
    tile(offline_phone, "6-6").click()  # and a tap there waits like any other
    expect(said(offline_phone)).to_have_text("Not saved — this phone is offline")
    expect(waiting(offline_phone)).to_have_text(["Ana: 6-6 — not saved yet"])
    offline_phone.goto(live_server + "/rules?never-seen")
    expect(offline_phone.get_by_role("heading", name="This phone is offline")).to_be_visible()

    context.set_offline(False)  # any page of the app sends what waits
    expect(said(offline_phone)).to_have_text("Saved")
    assert played(api.state(game)) == ["6-6"]
    offline_phone.goto(f"{live_server}/g/{game}")
    expect(tile(offline_phone, "6-6")).to_be_disabled()
