"""Screenshots of the disputes screens at 390×844, for a person to look at (not a test).

    python3 tests/web/screens_disputes.py [OUTDIR]      # default /tmp/screens-disputes

Plays worked example C of RULES.md through the JSON API, settles it with Ben holding a tile that
fitted when he drew (a certain breach of R6), then photographs: the game screen with the audit,
check a play (legal, two ends, refused), the replay (a move, a flagged draw, the end of the hand),
rescore under pagat, a game over, and the watch link's replay.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.scripts import EXAMPLE_C
from tests.tables import HttpApi
from tests.web.screens import finished_game, phone, serve


def main(outdir: str = "/tmp/screens-disputes") -> None:
    from playwright.sync_api import sync_playwright

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    base, server = serve(Path(tempfile.mkdtemp()))
    try:
        with sync_playwright() as p:
            browser, page = phone(p)
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

            def shot(name: str, url: str | None = None, full: bool = False) -> None:
                if url is not None:
                    page.goto(base + url)
                page.wait_for_timeout(150)
                page.screenshot(path=str(out / f"{name}.png"), full_page=full)
                print("saved", out / f"{name}.png")

            api = HttpApi(base)
            gid = api.new_game(["Ana", "Ben", "Cy"])
            api.act(gid, "start_hand", starter="Ana")
            api.enter(gid, EXAMPLE_C[:12])
            g = f"/g/{gid}"
            shot("01-game-playing-links", g, full=True)
            shot("02-check-empty", f"{g}/check")
            page.get_by_role("button", name="4-3", exact=True).click()
            shot("03-check-two-ends", full=True)
            page.get_by_role("link", name="Right").first.click()
            shot("04-check-legal-right", full=True)
            shot("05-check-refused-up", f"{g}/check?tile=4-3&end=up", full=True)
            shot("06-check-no-match", f"{g}/check?tile=6-6", full=False)
            shot("07-check-played", f"{g}/check?tile=3-2")
            api.enter(gid, EXAMPLE_C[12:])
            api.act(gid, "end_hand", remaining={"Ben": ["3-0", "6-5"], "Cy": ["3-4"]})
            shot("08-game-after-settle-audit", g, full=True)
            shot("09-replay-step-1", f"{g}/replay/1")
            shot("10-replay-flagged-draw", f"{g}/replay/1/17", full=True)
            shot("11-replay-end-of-hand", f"{g}/replay/1/20", full=True)
            shot("12-replay-start", f"{g}/replay/1/0")
            shot("13-rescore-pagat", f"{g}/rescore", full=True)
            shot("14-rescore-target", f"{g}/rescore?preset=seed&target=15&finish=immediate", True)

            over = {"id": finished_game(base)}
            shot("15-game-over-links", f"/g/{over['id']}", full=True)
            shot("16-rescore-game-over", f"/g/{over['id']}/rescore", full=True)
            view = api.state(gid)
            watch = view.get("view_id") or view.get("watch")
            if isinstance(watch, str):
                shot("17-watch-replay", f"/v/{watch}/replay/1/17")
            browser.close()
            print("console errors:", errors or "none")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main(*sys.argv[1:2])
