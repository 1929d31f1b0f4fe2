"""A new user at a real table, on a phone: the app in Chromium at 390×844 with htmx on.

Each test is one long story told through what a person sees and taps: buttons by their names
(a tile's name is its notation, ``6-4``), fields by their labels, and Playwright's retrying
``expect``. The app does not know the players' hands, only that each tile fits an open end, so
the tiles are scripted — yet as a table could have played them: nobody draws or passes
holding a tile they play later (R6, R7). Every expected count and score below is worked out
from RULES.md by hand, in the comments beside it.

Along the way each test checks that a tap swaps the game region in place (a marker set on
``window`` survives it: no full reload) and that the page logs no error — the strict
Content-Security-Policy (no inline script or style) would report any violation as one.
"""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING

import pytest

from tests.browser.phone import (
    Console,
    act,
    answer_to,
    assert_same_page,
    at_revision,
    board,
    button,
    mark_page,
    more,
    new_game,
    opened,
    play,
    refused,
    revision,
    score,
    shown,
    start_game,
    status,
    tile,
    without_stream,
    work,
)

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser


# --- 1. a whole game of two ------------------------------------------------------------------


def test_two_players_play_a_whole_game_and_play_again(
    phone: tuple[Page, Console], live_server: str
) -> None:
    """Every tap waits for its answer by the game's revision (or, when the rules refuse it, by
    the answer itself), then checks what the page shows: no wait depends on how fast the
    machine draws a text."""
    page, console = phone
    new_game(page, live_server, ["Ana", "Ben"], target=30)
    start_game(page)

    shown(page.get_by_role("heading", name="Who leads hand 1?")).to_be_visible()
    shown(board(page)).to_contain_text("Shuffle and deal 9 tiles each")
    shown(board(page)).to_contain_text("10 tiles stay in the boneyard")
    shown(score(page, "Ana", 0, 30)).to_be_visible()
    shown(score(page, "Ben", 0, 30)).to_be_visible()
    mark_page(page)
    act(page, page.get_by_role("button", name="Ana leads"))
    shown(status(page)).to_contain_text("Hand 1: Ana leads")
    shown(board(page)).to_contain_text("Any tile can lead")
    shown(board(page)).to_contain_text("Boneyard 10")
    # Before the lead nobody may draw or pass (R4).
    shown(button(page, "Draw")).to_be_disabled()
    shown(button(page, "Pass")).to_be_disabled()
    assert_same_page(page)

    # R11: a lone 5-5 counts both halves, 10 → +10.
    play(page, "5-5", "Ana led 5-5: [5|5] 10 = 10")
    shown(status(page)).to_contain_text("Ana scores 10")
    shown(board(page)).to_contain_text("Count 10 [5|5] 10 = 10")
    shown(score(page, "Ana", 10, 30)).to_be_visible()
    assert_same_page(page)

    # 5-0 fits either side of the lone spinner: the same layout either way, so no question.
    play(page, "5-0", "Ben played 5-0 on the left end: 0 + [5|5] 10 = 10, scores 10")
    shown(score(page, "Ben", 10, 30)).to_be_visible()
    # 6-5 on the spinner's free side: both sides covered, the spinner stops counting: 0 + 6.
    play(page, "6-5", "Ana played 6-5 on the right end: 0 + 6 = 6")
    shown(board(page)).to_contain_text("Count 6 0 + 6 = 6")
    shown(status(page)).not_to_contain_text("scores")
    # Up and down are open now (R10) but count nothing while empty.
    shown(
        board(page).get_by_role("img", name=re.compile(r"Open ends: left 0, right 6, up 5, down 5"))
    ).to_be_visible()
    play(page, "6-1", "Ben played 6-1 on the right end: 0 + 1 = 1")
    # 5-1 fits right (1) and the empty up/down (5, asked once): right → 0 + 5 = 5 scores.
    play(
        page,
        "5-1",
        "Ana played 5-1 on the right end: 0 + 5 = 5, scores 5",
        end="right",
        offered={"right": 5, "up": 0},
    )
    shown(score(page, "Ana", 15, 30)).to_be_visible()

    # Ben cannot play: he draws (R6). The boneyard's 10th and last tile fits, and he plays it
    # at once: 5-4 fits right (5) → 0 + 4 = 4, or up/down (5) → 0 + 5 + 4 = 9. Pass is
    # offered from now on (R7: the boneyard is empty), Draw no more.
    shown(button(page, "Pass")).to_be_disabled()
    page.get_by_label("How many tiles").select_option("10")
    # R7a: this made-up hand has too few tiles without a 0 or a 5 for nine draws that do not
    # fit: the app says so, and the table records the draw anyway.
    refused(page, button(page, "Draw"), "/draw")
    shown(status(page)).to_contain_text(
        "Ben cannot draw 10 tiles without a tile that fits before the last"
    )
    shown(board(page)).to_contain_text("Boneyard 10")
    act(page, page.get_by_role("button", name="Record it anyway"))
    shown(status(page)).to_contain_text("Ben drew 10 tiles")
    shown(status(page)).to_contain_text("Ben to play or pass")
    shown(board(page)).to_contain_text("Boneyard 0")
    shown(page.get_by_role("region", name="Scores")).to_contain_text("17 tiles")
    shown(button(page, "Draw")).to_be_disabled()
    shown(button(page, "Pass")).to_be_enabled()
    assert_same_page(page)
    play(
        page,
        "5-4",
        "Ben played 5-4 on the up end: 0 + 5 + 4 = 9",
        end="up",
        offered={"right": 0, "up": 0},
    )
    play(page, "4-1", "Ana played 4-1 on the up end: 0 + 5 + 1 = 6")
    play(page, "2-1", "Ben played 2-1 on the up end: 0 + 5 + 2 = 7")
    play(page, "4-2", "Ana played 4-2 on the up end: 0 + 5 + 4 = 9")
    play(page, "6-4", "Ben played 6-4 on the up end: 0 + 5 + 6 = 11")
    # 6-0: left → 6 + 5 + 6 = 17; up → 0 + 5 + 0 = 5 would score, but Ana keeps her 0-end.
    play(
        page,
        "6-0",
        "Ana played 6-0 on the left end: 6 + 5 + 6 = 17",
        end="left",
        offered={"left": 0, "up": 5},
    )
    shown(score(page, "Ana", 15, 30)).to_be_visible()
    play(
        page,
        "6-3",
        "Ben played 6-3 on the up end: 6 + 5 + 3 = 14",
        end="up",
        offered={"left": 0, "up": 0},
    )
    play(
        page,
        "5-2",
        "Ana played 5-2 on the right end: 6 + 2 + 3 = 11",
        end="right",
        offered={"right": 0, "down": 0},
    )

    # 3-2: right → 6 + 3 + 3 = 12; up → 6 + 2 + 2 = 10 scores. Ben taps right by mistake.
    play(
        page,
        "3-2",
        "Ben played 3-2 on the right end: 6 + 3 + 3 = 12",
        end="right",
        offered={"right": 0, "up": 10},
    )
    # Undo takes the play back: the tile is free again, the count as before, still Ben's turn.
    act(page, button(page, "Undo"))
    shown(status(page)).to_contain_text("Undone: Ben played 3-2 on the right end")
    shown(tile(page, "3-2")).to_be_enabled()
    shown(board(page)).to_contain_text("Count 11 6 + 2 + 3 = 11")
    shown(status(page)).to_contain_text("Ben to play")
    assert_same_page(page)
    play(
        page,
        "3-2",
        "Ben played 3-2 on the up end: 6 + 2 + 2 = 10, scores 10",
        end="up",
        offered={"right": 0, "up": 10},
    )
    shown(score(page, "Ben", 20, 30)).to_be_visible()
    # A double at the end of an arm counts both halves (R8): 2-2 counts 4.
    play(
        page,
        "2-2",
        "Ana played 2-2 on the right end: 6 + [2|2] 4 + 2 = 12",
        end="right",
        offered={"right": 0, "up": 0},
    )
    shown(page.get_by_role("region", name="Scores")).to_contain_text("1 tile")

    # Ben cannot play and the boneyard is empty: he passes (R7).
    act(page, button(page, "Pass"))
    shown(status(page)).to_contain_text("Ben passed")
    shown(status(page)).to_contain_text("Ana to play")
    # Ana's ninth and last tile: 2-0 on the right 2-2 → 6 + 0 + 2 = 8; on the up 2 → the
    # end shows 0 and the double still counts 4 → 6 + 4 + 0 = 10, which scores.
    play(
        page,
        "2-0",
        "Ana played 2-0 on the up end: 6 + [2|2] 4 + 0 = 10, scores 10",
        end="up",
        offered={"right": 0, "up": 10},
        last=True,
    )
    shown(score(page, "Ana", 25, 30)).to_be_visible()
    shown(score(page, "Ben", 20, 30)).to_be_visible()

    # Domino (R12): Ana went out. Ben holds every unplayed tile (the boneyard is empty):
    # 6-6 6-2 5-3 4-4 4-3 4-0 3-3 3-1 3-0 1-1 1-0 0-0 = 63 pips (168 - 105 played).
    settle = work(page)
    shown(settle.get_by_role("heading", name="Ana went out!")).to_be_visible()
    ben = settle.get_by_role("group", name=re.compile(r"^Ben"))
    shown(ben).to_contain_text("holds 12 tiles")
    reports = settle.get_by_role("group", name=re.compile(r"holds \d+ tiles?$"))
    shown(reports).to_have_count(1)  # Ana holds nothing: nothing to report
    assert_same_page(page)
    # A wrong total is refused with the reason (R14) as it is typed, not an error page.
    with answer_to(page, "/settle/preview"):
        ben.get_by_label("Pips").fill("62")
    checked = settle.locator("#settle-preview")
    shown(checked).to_contain_text("Ben holds 12 tiles; 12 unplayed tiles total at least 63 pips")
    shown(checked.get_by_role("link", name="Rule R14")).to_be_visible()
    refused(page, settle.get_by_role("button", name="Settle hand 1"), "/settle")
    shown(status(page)).to_contain_text("Not allowed")
    shown(status(page).get_by_role("link", name="Rule R14")).to_be_visible()
    shown(ben.get_by_label("Pips")).to_have_value("62")  # what was typed is kept
    # 63 rounds up to 65 (remainder 3): Ben 20 - 65 = -45; Ana loses nothing.
    with answer_to(page, "/settle/preview"):
        ben.get_by_label("Pips").fill("63")
    shown(settle.locator("#settle-preview")).to_contain_text("Pips Ben 63 → 65")
    sides = settle.get_by_role("table")
    shown(sides.get_by_role("row", name=re.compile(r"^Ana"))).to_have_text(
        re.compile(r"Ana\s*25\s*\+0\s*25")
    )
    shown(sides.get_by_role("row", name=re.compile(r"^Ben"))).to_have_text(
        re.compile(r"Ben\s*20\s*-65\s*-45")
    )
    shown(score(page, "Ben", 20, 30)).to_be_visible()  # nothing changed yet
    act(page, settle.get_by_role("button", name="Settle hand 1"))
    shown(status(page)).to_contain_text("Hand 1 settled: Ana +0, Ben -65")
    shown(score(page, "Ana", 25, 30)).to_be_visible()
    shown(score(page, "Ben", -45, 30)).to_be_visible()
    assert_same_page(page)

    # R3: who went out leads the next hand. A lone 5-0 counts 5: Ana has exactly 30, the
    # target, and wins at once (R16, finish immediate), in the middle of hand 2.
    act(page, page.get_by_role("button", name="Start hand 2 — Ana leads"))
    shown(status(page)).to_contain_text("Hand 2: Ana leads")
    shown(tile(page, "5-5")).to_be_enabled()  # a new hand: every tile is back
    play(page, "5-0", "Ana led 5-0: 5 + 0 = 5, scores 5", wins=True)
    over = work(page)
    shown(over.get_by_role("heading", name="Ana wins!")).to_be_visible()
    shown(over.get_by_role("listitem").first).to_have_text(re.compile(r"Ana\s*30"))
    shown(over.get_by_role("listitem").nth(1)).to_have_text(re.compile(r"Ben\s*-45"))
    hands = over.get_by_role("table", name="Hand by hand")
    shown(hands.get_by_role("row", name=re.compile(r"^1"))).to_have_text(
        re.compile(r"1\s*Ana out\s*25\s*\+25 \+0\s*-45\s*\+20 -65")
    )
    shown(over).to_contain_text("The target was reached during hand 2")
    shown(score(page, "Ana", 30, 30)).to_be_visible()
    assert_same_page(page)
    # Every accepted action moved the game on by one revision and the two refusals did not:
    # hand 1's start, its 17 plays (3-2 twice), the draw, the undo, the pass and the
    # settlement; hand 2's start and its lead.
    assert revision(page) == 24

    # The game log keeps every action with its arithmetic.
    more(page)
    log = page.get_by_role("region", name="Game log")
    shown(log).to_contain_text("Ben drew 10 tiles")
    shown(log).to_contain_text("Ana played 2-0 on the up end: 6 + [2|2] 4 + 0 = 10, scores 10")
    shown(log).to_contain_text("Hand 1 settled: Ana +0, Ben -65")
    shown(log).not_to_contain_text("Undone")
    shown(log).not_to_contain_text("on the right 2-3")  # the undone play is gone

    # Play again: a fresh game with the same players and options.
    more(page)
    opened(page, over.get_by_role("button", name="Play again with these players"), r"/g/")
    at_revision(page, 0)
    shown(page.get_by_role("heading", name="Who leads hand 1?")).to_be_visible()
    shown(score(page, "Ana", 0, 30)).to_be_visible()
    shown(score(page, "Ben", 0, 30)).to_be_visible()

    # Home remembers both games of this phone.
    opened(page, page.get_by_role("link", name="All Fives home"), r"/$")
    games = page.get_by_role("region", name="Your games on this phone")
    shown(games.get_by_role("link")).to_have_count(2)
    shown(games).to_contain_text("Finished")
    assert console.refusals == 2  # the draw R7a disproves, the wrong pip total, nothing else


# --- 2. a partnership hand of four -----------------------------------------------------------


def test_four_players_in_partnership_play_a_hand_and_settle_it(
    phone: tuple[Page, Console], live_server: str
) -> None:
    page, console = phone
    new_game(page, live_server, ["Ana", "Ben", "Cy", "Di"])
    page.get_by_label("Play in partnerships").check()
    start_game(page)

    # R2: seats 1 and 3 against 2 and 4; R15: 200 with four.
    expect(score(page, "Ana & Cy", 0, 200)).to_be_visible()
    expect(score(page, "Ben & Di", 0, 200)).to_be_visible()
    expect(board(page)).to_contain_text("Shuffle and deal 5 tiles each")
    expect(board(page)).to_contain_text("8 tiles stay in the boneyard")
    mark_page(page)
    act(page, page.get_by_role("button", name="Ana leads"))
    expect(status(page)).to_contain_text("Hand 1: Ana leads")

    play(page, "6-4", "Ana led 6-4: 6 + 4 = 10, scores 10")
    play(page, "4-1", "Ben played 4-1 on the right end: 6 + 1 = 7")
    # 1-1 is the first double: the spinner, on the right arm; the line covers one side (R10).
    play(page, "1-1", "Cy played 1-1 on the right end: 6 + [1|1] 2 = 8")
    play(page, "3-1", "Di played 3-1 on the right end: 6 + 3 = 9")
    play(page, "6-2", "Ana played 6-2 on the left end: 2 + 3 = 5, scores 5")
    play(page, "4-3", "Ben played 4-3 on the right end: 2 + 4 = 6")
    play(page, "5-1", "Cy played 5-1 on the up end: 2 + 4 + 5 = 11")  # up or down: the same
    play(page, "4-4", "Di played 4-4 on the right end: 2 + [4|4] 8 + 5 = 15, scores 15")
    expect(score(page, "Ben & Di", 15, 200)).to_be_visible()
    play(page, "6-5", "Ana played 6-5 on the up end: 2 + [4|4] 8 + 6 = 16")
    play(page, "2-2", "Ben played 2-2 on the left end: [2|2] 4 + [4|4] 8 + 6 = 18")
    play(
        page,
        "6-1",
        "Cy played 6-1 on the down end: [2|2] 4 + [4|4] 8 + 6 + 6 = 24",
        end="down",
        offered={"up": 0, "down": 0},
    )
    play(page, "5-4", "Di played 5-4 on the right end: [2|2] 4 + 5 + 6 + 6 = 21")
    play(
        page,
        "6-0",
        "Ana played 6-0 on the up end: [2|2] 4 + 5 + 0 + 6 = 15, scores 15",
        end="up",
        offered={"up": 15, "down": 15},
    )
    expect(score(page, "Ana & Cy", 30, 200)).to_be_visible()
    play(page, "5-3", "Ben played 5-3 on the right end: [2|2] 4 + 3 + 0 + 6 = 13")
    play(page, "4-2", "Cy played 4-2 on the left end: 4 + 3 + 0 + 6 = 13")
    play(page, "0-0", "Di played 0-0 on the up end: 4 + 3 + [0|0] 0 + 6 = 13")
    expect(page.get_by_role("region", name="Scores")).to_contain_text("Ana 1 · Cy 1")
    # Ana's fifth tile: 6-3 on the right → 4 + 6 + 0 + 6 = 16; on the down 6 → 4 + 3 + 0 + 3 = 10.
    play(
        page,
        "6-3",
        "Ana played 6-3 on the down end: 4 + 3 + [0|0] 0 + 3 = 10, scores 10",
        end="down",
        offered={"right": 0, "down": 10},
        last=True,
    )
    expect(score(page, "Ana & Cy", 40, 200)).to_be_visible()
    assert_same_page(page)

    # Domino: Ben, Cy and Di hold one tile each. Ben and Di report 3 pips (2-1 and 3-0), Cy
    # taps his 6-6. R13 rounds each player: 3 → 5, 3 → 5, 12 → 10 (a team's 6 would be 5).
    settle = work(page)
    expect(settle.get_by_role("heading", name="Ana went out!")).to_be_visible()
    expect(settle.get_by_role("group", name=re.compile(r"holds 1 tile$"))).to_have_count(3)
    settle.get_by_role("group", name=re.compile(r"^Ben")).get_by_label("Pips").fill("3")
    cy = settle.get_by_role("group", name=re.compile(r"^Cy"))
    cy.get_by_text("Tiles", exact=True).click()  # pips first: the tiles behind a disclosure
    cy.get_by_label("6-6", exact=True).check()
    settle.get_by_role("group", name=re.compile(r"^Di")).get_by_label("Pips").fill("3")

    # Each player's pips and their rounding (Ana went out: nothing to say).
    expect(settle.locator("#settle-preview")).to_contain_text("Pips Ben 3 → 5 Cy 12 → 10 Di 3 → 5")
    # Ana & Cy: 40 - 10 = 30. Ben & Di: 15 - 5 - 5 = 5.
    teams = settle.get_by_role("table")
    expect(teams.get_by_role("row", name=re.compile(r"^Ana & Cy"))).to_have_text(
        re.compile(r"Ana & Cy\s*40\s*-10\s*30")
    )
    expect(teams.get_by_role("row", name=re.compile(r"^Ben & Di"))).to_have_text(
        re.compile(r"Ben & Di\s*15\s*-10\s*5")
    )
    act(page, settle.get_by_role("button", name="Settle hand 1"))
    expect(status(page)).to_contain_text("Hand 1 settled: Ana & Cy -10, Ben & Di -10")
    expect(score(page, "Ana & Cy", 30, 200)).to_be_visible()
    expect(score(page, "Ben & Di", 5, 200)).to_be_visible()
    expect(page.get_by_role("button", name="Start hand 2 — Ana leads")).to_be_visible()
    assert_same_page(page)
    assert console.refusals == 0


# --- 3. refusals are messages ----------------------------------------------------------------


@pytest.mark.no_service_worker
def test_a_tile_that_does_not_fit_and_a_stale_tap_are_explained(
    phone: tuple[Page, Console], live_server: str
) -> None:
    page, console = phone
    without_stream(page)  # this page hears of the other phone's play only when it polls
    new_game(page, live_server, ["Ana", "Ben"])
    start_game(page)
    expect(score(page, "Ana", 0, 250)).to_be_visible()
    mark_page(page)
    act(page, page.get_by_role("button", name="Ben leads"))
    play(page, "5-3", "Ben led 5-3: 5 + 3 = 8")
    expect(tile(page, "6-5")).not_to_have_class(re.compile(r"\bfits\b"))  # no hints by default
    more(page)
    page.get_by_role("button", name="Hints").click()  # a table that wants hints turns them on
    mark_page(page)

    # Tiles with a 5 or a 3 fit, and 5-2 would score (2 + 3 = 5); 1-0 fits nowhere.
    expect(tile(page, "6-5")).to_have_class(re.compile(r"\bfits\b"))
    expect(tile(page, "5-2")).to_have_class(re.compile(r"\bscores\b"))
    expect(tile(page, "1-0")).not_to_have_class(re.compile(r"\bfits\b"))
    tile(page, "1-0").click()
    expect(status(page)).to_contain_text("Not allowed")
    expect(status(page)).to_contain_text("No open end shows 1 or 0: open ends are 5, 3")
    expect(status(page).get_by_role("link", name="Rule R5")).to_be_visible()
    expect(tile(page, "1-0")).to_be_enabled()  # nothing was played
    expect(board(page)).to_contain_text("Count 8")
    assert_same_page(page)

    # The same game open on a second phone: a tile entered there makes this page stale. This
    # page has not heard of it yet: its check for news (every 2 s) answers "nothing new".
    page.route("**/poll*", lambda route: route.fulfill(status=204))
    other = page.context.new_page()
    other.goto(page.url)
    tile(other, "5-2").click()
    expect(other.get_by_role("status")).to_contain_text("Ana played 5-2 on the left end: 2 + 3 = 5")
    other.close()
    tile(page, "6-5").click()  # this page still shows the layout before 5-2
    expect(status(page)).to_contain_text("Someone else got there first (Ana played")
    page.unroute("**/poll*")
    expect(tile(page, "5-2")).to_be_disabled()
    expect(tile(page, "6-5")).to_be_enabled()  # the stale tap entered nothing
    expect(page.get_by_role("heading", name=re.compile("error", re.I))).to_have_count(0)
    assert_same_page(page)
    assert console.refusals == 2


# --- 4. a tap is never lost -------------------------------------------------------------------


@pytest.mark.no_service_worker
def test_a_tap_while_the_page_checks_for_news_is_not_lost(
    phone: tuple[Page, Console], live_server: str
) -> None:
    page, _ = phone
    without_stream(page)  # a phone that checks for news by its poll (behind a buffering proxy)
    new_game(page, live_server, ["Ana", "Ben"])
    start_game(page)
    act(page, page.get_by_role("button", name="Ana leads"))
    expect(status(page)).to_contain_text("Hand 1: Ana leads")
    # A phone on a slow network: each answer takes a second. Tap while a check is on its way.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 1000, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    with page.expect_request(lambda request: request.method == "GET" and "poll" in request.url):
        pass
    tile(page, "5-5").click()
    expect(status(page)).to_contain_text("Ana led 5-5", timeout=4_000)
