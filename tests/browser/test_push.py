"""Other phones follow a game by its stream, served as ``allfives serve`` serves it (waitress,
each stream held by its loop, not by a thread): a play shows within a second, an idle screen
sends next to nothing, and with the stream blocked the poll still brings the play. A stream
that goes silent is noticed by its missing beats and opened again, the play it missed caught
up; a hidden tab (a locked phone) holds no stream, and catches up when shown again."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from tests.browser.conftest import phone_context
from tests.conftest import AppMaker
from tests.tables import HttpApi
from webapp.serve.serving import make_server
from webapp.web.followers import Followers

BEAT = 0.5  # seconds between two beats, where a test waits on them

#: What the console says of a stream that breaks: htmx's SSE extension logs the event itself,
#: and Chromium the request that failed.
STREAM_BROKE = re.compile(r"^\[object Event\]$|net::ERR_FAILED")


def serve(app: Flask) -> Iterator[str]:
    """``app`` under waitress as ``allfives serve`` runs it (8 threads), on its own port."""
    server = make_server(app, 8, host="127.0.0.1", port=0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()


@pytest.fixture
def served(tmp_path: Path, make_app: AppMaker) -> Iterator[str]:
    yield from serve(make_app(DATABASE=str(tmp_path / "push.sqlite3")))


@pytest.fixture
def beating(tmp_path: Path, make_app: AppMaker) -> Iterator[tuple[str, Flask]]:
    """The app served with a beat every ``BEAT`` seconds; its address, and the app itself."""
    app = make_app(DATABASE=str(tmp_path / "beat.sqlite3"), STREAM_HEARTBEAT=BEAT)
    for url in serve(app):
        yield url, app


@pytest.fixture
def watcher(browser: Any, request: pytest.FixtureRequest) -> Iterator[tuple[Page, list[str]]]:
    """A phone following a game: its page, and the errors its console reports."""
    context = phone_context(browser, request)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield page, errors
    context.close()


def playing(api: HttpApi) -> str:
    game = api.new_game(["Ana", "Ben"])
    api.act(game, "start_hand", starter="Ana")
    return game


def test_a_follower_sees_a_play_within_a_second_and_then_sends_nothing_while_idle(
    served: str, watcher: tuple[Page, list[str]]
) -> None:
    """R7: Ana leads 5-5 (10 points) on another phone; the watcher's screen shows it within a
    second, without a reload. Then, nobody playing, it sends no request for 15 s: the stream
    replaced the poll every 2 s (7 requests in that time)."""
    page, errors = watcher
    api = HttpApi(served)
    game = playing(api)
    page.goto(f"{served}/g/{game}")
    expect(page.locator("#board")).not_to_contain_text("10 = 10")
    time.sleep(1.5)  # the stream says hello as the page opens

    sent = time.monotonic()
    api.act(game, "play", tile="5-5")
    expect(page.locator("#board")).to_contain_text("[5|5] 10 = 10", timeout=1_000)
    assert time.monotonic() - sent < 1.0 + 0.2  # the expectation's own polling interval

    expect(page.locator("#scores")).to_contain_text("10")
    api.act(game, "play", tile="5-3")  # and the next, on the same stream
    expect(page.locator("#board")).to_contain_text("3 + [5|5] 10 = 13", timeout=1_000)

    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    time.sleep(15)
    assert len(requests) <= 1, requests
    assert not errors, errors


def test_a_tap_on_the_phone_itself_is_applied_once_and_its_page_ends_at_its_revision(
    served: str, watcher: tuple[Page, list[str]]
) -> None:
    """The phone that taps also follows the game: the stream's event for its own play may come
    before or after the tap's answer (one after it is not swapped: the page is there already).
    Either way the play is recorded once and the page shows it, at its revision."""
    page, errors = watcher
    api = HttpApi(served)
    game = playing(api)
    page.goto(f"{served}/g/{game}")
    time.sleep(1.0)
    page.get_by_role("button", name=re.compile(r"^5-5")).click()
    expect(page.locator("#board")).to_contain_text("[5|5] 10 = 10")
    expect(page.locator("#live")).to_have_attribute("data-seq", "2")
    expect(page.get_by_role("status")).to_contain_text("5-5")
    time.sleep(1.0)
    assert api.state(game)["seq"] == 2
    expect(page.locator("#live")).to_have_attribute("data-seq", "2")
    assert not errors, errors


@pytest.mark.no_service_worker
def test_with_the_stream_blocked_the_poll_still_brings_the_play(
    served: str, watcher: tuple[Page, list[str]]
) -> None:
    page, errors = watcher
    page.route("**/stream*", lambda route: route.abort())
    api = HttpApi(served)
    game = playing(api)
    page.goto(f"{served}/g/{game}")
    expect(page.locator("#board")).not_to_contain_text("10 = 10")
    api.act(game, "play", tile="5-5")
    # The poll asks every 2 s: the play shows within about that.
    expect(page.locator("#board")).to_contain_text("[5|5] 10 = 10", timeout=5_000)
    assert all(STREAM_BROKE.search(error) for error in errors), errors


def following(app: Flask, count: int) -> Followers:
    """The app's followers, once ``count`` streams are open (within 5 s)."""
    deadline = time.monotonic() + 5
    while True:
        hub: Followers | None = app.extensions.get("allfives_followers")
        if hub is not None and len(hub) == count:
            return hub
        assert time.monotonic() < deadline, f"not {count} streams open within 5 s"
        time.sleep(0.05)


def test_a_stream_gone_silent_is_noticed_its_play_caught_up_and_the_stream_opened_again(
    beating: tuple[str, Flask], watcher: tuple[Page, list[str]]
) -> None:
    """A proxy or a network can hold a stream's connection open and pass nothing on. Here the
    server stops writing to the watcher's stream (the connection stays open) and Ana leads 5-5
    on another phone: no event brings it, but the page misses the beats (one every 0.5 s),
    asks once by its poll, which shows the play, and opens a new stream, which brings the
    next play (5-3) by itself."""
    url, app = beating
    page, errors = watcher
    api = HttpApi(url)
    game = playing(api)
    page.goto(f"{url}/g/{game}")
    hub = following(app, 1)
    time.sleep(2 * BEAT)  # the hello, then beats: the page follows the stream

    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url))
    with hub.lock:  # silenced: still open, never written to again
        silenced = [each for followers in hub.games.values() for each in followers]
        hub.games.clear()
    api.act(game, "play", tile="5-5")
    expect(page.locator("#board")).to_contain_text("[5|5] 10 = 10", timeout=5_000)
    following(app, 1)  # a new stream
    page.wait_for_timeout(100)  # the page's requests reach this test as it waits on the page
    assert any("/poll?" in each for each in sent), sent
    assert any("/stream?seq=2" in each for each in sent), sent  # from the revision shown

    polls = sum("/poll?" in each for each in sent)
    api.act(game, "play", tile="5-3")
    expect(page.locator("#board")).to_contain_text("3 + [5|5] 10 = 13", timeout=1_000)
    page.wait_for_timeout(4000 * BEAT)  # the new stream beats on: no poll, no other stream
    assert sum("/poll?" in each for each in sent) == polls, sent
    assert sum("/stream?" in each for each in sent) == 1, sent
    for each in silenced:
        each.sink.close()
    assert not errors, errors


def hide(page: Page, hidden: bool) -> None:
    """The tab hidden (the phone locked, another app in front) or shown again, as the page's
    Page Visibility API tells it."""
    page.evaluate(
        """(hidden) => {
          Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
          Object.defineProperty(document, "visibilityState",
            { configurable: true, get: () => (hidden ? "hidden" : "visible") });
          document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def test_a_hidden_tab_holds_no_stream_and_catches_up_when_shown_again(
    beating: tuple[str, Flask], watcher: tuple[Page, list[str]]
) -> None:
    """A locked phone holds no connection and sends nothing: its stream is closed as the tab is
    hidden, and no poll goes out. Ana leads 5-5 meanwhile; when the phone is unlocked the screen
    shows it at once (one poll) and follows the game by a new stream (the next play, 5-3)."""
    url, app = beating
    page, errors = watcher
    api = HttpApi(url)
    game = playing(api)
    page.goto(f"{url}/g/{game}")
    following(app, 1)
    time.sleep(2 * BEAT)

    hide(page, True)
    following(app, 0)  # the server holds no stream for it
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url))
    api.act(game, "play", tile="5-5")
    page.wait_for_timeout(3000)  # longer than the poll's 2 s
    assert not sent, sent
    expect(page.locator("#board")).not_to_contain_text("10 = 10")

    hide(page, False)
    expect(page.locator("#board")).to_contain_text("[5|5] 10 = 10", timeout=2_000)
    following(app, 1)
    page.wait_for_timeout(100)
    assert sum("/poll?" in each for each in sent) == 1, sent
    api.act(game, "play", tile="5-3")
    expect(page.locator("#board")).to_contain_text("3 + [5|5] 10 = 13", timeout=1_000)
    assert not errors, errors
