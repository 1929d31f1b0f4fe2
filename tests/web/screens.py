"""Screenshots of every screen at 390×844, for a person to look at (not a test).

    python3 tests/web/screens.py [OUTDIR]      # default /tmp/screens

Starts the app on 127.0.0.1 with a temporary database, drives headless Chromium through
Playwright as a player would (tapping tiles), and sets up the later screens through the JSON API.
"""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from tests.browser.conftest import CHROMIUM_FLAGS as CHROMIUM_ARGS
from tests.scripts import EXAMPLE_A, HAND_OF_FIVE
from tests.tables import HttpApi, on_table
from webapp.rules import DOUBLE_SIX


def serve(tmp: Path) -> tuple[str, Any]:
    from werkzeug.serving import make_server

    from webapp import create_app

    app = create_app({"DATABASE": str(tmp / "screens.sqlite3"), "SECRET_KEY": "screens"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}", server


def finished_game(base: str) -> str:
    """A 2-player game to 30 played through the API until it is over; its id."""
    api = HttpApi(base)
    game_id = api.new_game(["Ana", "Ben"], target=30)
    for _ in range(12):
        state = api.state(game_id)
        if state["status"] == "game_over":
            break
        if state["status"] == "awaiting_start":
            api.act(game_id, "start_hand")
        elif state["status"] == "hand_over":
            settle_with_tiles(base, game_id)
        else:
            play_until(base, game_id, lambda s: s["status"] != "playing")
    return game_id


def phone(playwright: Any) -> tuple[Any, Any]:
    """Chromium with one page the size of a phone (390×844)."""
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
    page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    return browser, page


def play_until(base: str, game_id: str, done: Any) -> None:
    """Play the heaviest tile that fits (points come sooner) until ``done(state)``."""
    api = HttpApi(base)
    while True:
        state = api.state(game_id)
        if done(state):
            return
        played = on_table(state)
        ends = state["hand"]["ends"]
        for tile in sorted(DOUBLE_SIX, key=lambda t: -t.pips):
            arms = [arm for arm, pip in ends.items() if tile.has(pip)]
            if str(tile) in played or (ends and not arms):
                continue
            api.act(game_id, "play", tile=str(tile), **({"end": arms[0]} if arms else {}))
            break
        else:
            api.act(game_id, "draw" if state["can_draw"] else "pass")


def settle_with_tiles(base: str, game_id: str) -> None:
    """End the hand, handing each player the lowest unplayed tiles (always a possible report)."""
    api = HttpApi(base)
    state = api.state(game_id)
    played = on_table(state)
    free = [str(t) for t in reversed(DOUBLE_SIX) if str(t) not in played]
    remaining = {}
    for player in state["players"]:
        if player["held"]:
            remaining[player["name"]], free = free[: player["held"]], free[player["held"] :]
    api.act(game_id, "end_hand", remaining=remaining)


def main(outdir: str = "/tmp/screens") -> None:
    from playwright.sync_api import sync_playwright

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())
    base, server = serve(tmp)
    try:
        with sync_playwright() as p:
            browser, page = phone(p)

            def shot(name: str, full: bool = False) -> None:
                page.wait_for_timeout(150)
                page.screenshot(path=str(out / f"{name}.png"), full_page=full)
                print("saved", out / f"{name}.png")

            def tap(name: str) -> None:
                """Tap a button that posts through htmx, and wait for the swap."""
                with page.expect_response(lambda r: r.request.method == "POST"):
                    page.get_by_role("button", name=name, exact=True).click()
                page.wait_for_timeout(100)

            page.goto(base + "/")
            shot("01-home-empty")
            page.goto(base + "/new")
            shot("02-new-game")
            page.get_by_role("button", name="+ Add player").click()
            page.locator("input[name=name]").nth(0).fill("Ana")
            page.locator("input[name=name]").nth(1).fill("Ben")
            page.locator("input[name=name]").nth(2).fill("Cy")
            page.get_by_text("House rules", exact=True).click()
            shot("03-new-game-options", full=True)
            page.get_by_role("button", name="Start game").click()
            shot("04-awaiting-start")
            page.get_by_role("button", name="Ana leads").click()
            shot("05-before-lead")
            for move in EXAMPLE_A[:4]:  # worked example A: 2-4 asks where it goes
                tap(move.button)
            shot("06-choice")
            page.get_by_role("button", name="Up").click()
            page.wait_for_timeout(300)
            for move in EXAMPLE_A[4:9]:
                tap(move.button)
            shot("07-mid-hand")
            shot("07b-mid-hand-full", full=True)
            page.locator("#board").screenshot(path=str(out / "07c-board.png"))
            tap("3-3")
            shot("08-refusal")
            page.locator("#log summary").click()
            shot("09-log", full=True)

            # A two-player game with small hands, played through the API to a hand's end.
            api = HttpApi(base)
            gid = api.new_game(["Ana", "Ben"], deal="5", target=60)
            api.act(gid, "start_hand", starter="Ana")
            api.enter(gid, HAND_OF_FIVE)
            page.goto(f"{base}/g/{gid}")
            page.locator(".tile-choice summary").first.click()
            shot("10-hand-over", full=True)
            page.locator(".tile-choice summary").first.click()
            state = api.state(gid)
            holders = [p for p in state["players"] if p["held"]]
            for player in holders:
                page.get_by_label("Pips").nth(holders.index(player)).fill("13")
            page.get_by_role("button", name="Check the scores").click()
            shot("11-settle-refused-or-preview", full=True)
            # Pips that the rules accept: the smallest the held count allows is always possible.
            for index, player in enumerate(holders):
                page.get_by_label("Pips").nth(index).fill(str(3 * player["held"]))
            page.get_by_role("button", name="Check the scores").click()
            shot("12-settle-preview", full=True)
            page.get_by_role("button", name="Confirm and settle").click()
            shot("13-after-settle")

            over = {"id": finished_game(base)}
            page.goto(f"{base}/g/{over['id']}")
            shot("14-game-over", full=True)

            team = api.call(
                "/api/games", {"players": ["Ana", "Ben", "Cy", "Di"], "partnership": True}
            )
            api.act(team["id"], "start_hand", starter="Cy")
            for _ in range(9):
                play_until(base, team["id"], lambda s, n=_: len(s["hand"]["moves"]) > n)
            page.goto(f"{base}/g/{team['id']}")
            shot("15-partnership")

            page.goto(base + "/")
            shot("16-home")
            page.goto(base + "/rules#R10")
            shot("17-rules")
            page.goto(base + "/g/no-such-game")
            shot("18-404")
            page.set_viewport_size({"width": 844, "height": 390})
            page.goto(f"{base}/g/{team['id']}")
            shot("19-landscape")
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main(*sys.argv[1:2])
