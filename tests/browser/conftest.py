"""Browser tests: the real app on a local port, driven by Playwright in Debian's Chromium.

Without Chromium these tests skip with a loud reason; under ``CI`` they fail instead, so a
green CI run always means the browser tests ran.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from werkzeug.serving import make_server

from tests.browser.phone import Console
from tests.conftest import AppMaker
from tests.tables import HttpApi

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}


def phone_context(browser: Any, request: pytest.FixtureRequest, **options: Any) -> Any:
    """A phone's browser (390×844, touch), without the app's service worker for a test marked
    ``no_service_worker``: one that answers requests in the server's place, since once the
    worker controls the page (which it may start doing at any moment after the first load)
    the page's requests go through it and are no longer the test's to answer."""
    blocked = request.node.get_closest_marker("no_service_worker") is not None
    return browser.new_context(
        viewport=PHONE,
        has_touch=True,
        service_workers="block" if blocked else "allow",
        **options,
    )


def _patient_expectations() -> None:
    """Retrying expectations wait up to 10 s: a busy two-core machine runs a server, Chromium
    and pytest at once."""
    try:
        from playwright.sync_api import expect
    except ImportError:
        return
    expect.set_options(timeout=10_000)


_patient_expectations()


def _chromium() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI needs the browser tests: {reason}", pytrace=False)
    # -ra in pytest's options lists this reason in the run's closing summary.
    pytest.skip(f"BROWSER TESTS SKIPPED: {reason} (apt-get install -y chromium)")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    executable = _chromium()
    if executable is None:
        _missing("no Chromium found at /usr/bin/chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def live_server(tmp_path: Path, make_app: AppMaker) -> Iterator[str]:
    """The app on 127.0.0.1 with its own SQLite database; yields its base URL."""
    app = make_app(DATABASE=str(tmp_path / "browser.sqlite3"))
    server = make_server("127.0.0.1", 0, closing(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def closing(app: Any) -> Any:
    """``app`` with each answer's body closed however its sending ends: Werkzeug's server does
    not close it when the browser drops the connection mid-answer (a page left while a file
    was still coming), so a static file stayed open until a later test's collection, which
    failed that test. (``allfives serve``'s waitress closes it.)"""

    def wsgi(environ: Any, start_response: Any) -> Any:
        inner = app(environ, start_response)

        def body() -> Iterator[bytes]:
            try:
                yield from inner
            finally:
                if hasattr(inner, "close"):
                    inner.close()

        return body()

    return wsgi


@pytest.fixture
def api(live_server: str) -> HttpApi:
    """The live server's JSON API, called from the test: a game set up or read back this way
    never goes through the browser under test."""
    return HttpApi(live_server)


@pytest.fixture
def page(browser, live_server, request):  # type: ignore[no-untyped-def]
    context = phone_context(browser, request, device_scale_factor=2)
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    yield tab
    context.close()


@pytest.fixture
def phone(page: Page) -> Iterator[tuple[Page, Console]]:
    """The scorer's phone: its page, and what its console reports. A refusal's status line is
    counted (``console.refusals``); any other error fails the test at its end."""
    console = Console(page)
    yield page, console
    assert console.errors == [], "the page logged errors:\n" + "\n".join(console.errors)
