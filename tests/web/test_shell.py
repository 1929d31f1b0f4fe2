"""The installable app as the server sends it: manifest, service worker, offline page."""

from __future__ import annotations

from pathlib import Path

from flask.testing import FlaskClient

from tests.tables import text
from webapp.home.shell import static_version


def test_the_manifest_names_the_app_its_icons_and_opens_at_the_start_page(
    client: FlaskClient,
) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = response.json
    assert manifest["name"] == "All Fives"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["theme_color"] == "#17432f"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as image:  # a file response: closed when read
            assert image.status_code == 200 and image.mimetype == "image/png"


def test_the_service_worker_is_served_from_the_root_and_checked_on_every_visit(
    client: FlaskClient,
) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    # The strict CSP covers the worker too: its fetches may go to this site only.
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    body = response.get_data(as_text=True)
    version = client.application.extensions["allfives_static_version"]
    assert f'var VERSION = "{version}";' in body
    assert '"/static/app.css"' in body and '"/offline"' in body


def test_the_cache_version_changes_when_a_static_file_does(tmp_path: Path) -> None:
    (tmp_path / "app.css").write_text("body { color: black }")
    before = static_version(str(tmp_path))
    assert static_version(str(tmp_path)) == before
    (tmp_path / "app.css").write_text("body { color: white }")
    assert static_version(str(tmp_path)) != before


def test_the_offline_page_says_the_phone_is_offline_and_plays_are_kept(
    client: FlaskClient,
) -> None:
    shown = text(client.get("/offline"))
    assert "This phone is offline" in shown
    assert "sent as soon as the connection is back" in shown


def test_every_page_links_the_manifest_and_the_phone_script(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<script src="/static/app.js" defer></script>' in page
    assert 'data-worker="/sw.js?lang=en"' in page
    assert '<meta name="color-scheme" content="light dark">' in page
