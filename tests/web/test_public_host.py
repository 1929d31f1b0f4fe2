"""On a public host behind a reverse proxy: share links from the configured address, never from
the Host header; proxy headers believed only when trusted; HTTPS cookies and HSTS; nothing with
an edit id or a token stored by a cache; rate limits with a friendly 429."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from tests.conftest import AppMaker
from tests.tables import CSRF_TOKEN, device, text


def share_urls(html: str) -> list[str]:
    """The share panel's links (in More: its page, or its content as the sheet opens)."""
    return re.findall(r'https?://[^"<\s]+/[gv]/[A-Za-z0-9_-]+', html)


def new_game(client: FlaskClient, **headers: str) -> str:
    created = client.post("/api/games", json={"players": ["Ana", "Ben"]}, headers=headers)
    assert created.status_code == 201, created.json
    return str(created.json["id"])


def test_share_links_use_the_public_address_whatever_the_host_header(
    make_app: AppMaker,
) -> None:
    client = device(make_app(PUBLIC_URL="https://fives.example.org/"))
    game_id = new_game(client)
    page = client.get(f"/g/{game_id}/more", headers={"Host": "evil.example"})
    html = page.get_data(as_text=True)
    urls = share_urls(html)
    assert len(urls) >= 2
    assert all(url.startswith("https://fives.example.org/") for url in urls), urls
    assert f"https://fives.example.org/g/{game_id}" in urls
    assert "evil.example" not in html


def test_without_a_public_address_a_foreign_host_header_is_refused(make_app: AppMaker) -> None:
    client = device(make_app())
    game_id = new_game(client)
    page = client.get(f"/g/{game_id}", headers={"Host": "evil.example"})
    assert page.status_code == 400
    assert "evil.example" not in page.get_data(as_text=True)
    assert "does not answer to that address" in text(page)
    with client.get("/static/app.css", headers={"Host": "evil.example"}) as style:
        assert style.status_code == 200, "the refusal page keeps its stylesheet"
    refused = client.post(
        "/api/games", json={"players": ["Ana", "Ben"]}, headers={"Host": "evil.example"}
    )
    assert refused.status_code == 400
    assert "ALLFIVES_PUBLIC_URL" in refused.json["error"]["message"]


def test_an_allowed_host_gets_share_links_on_itself(make_app: AppMaker) -> None:
    client = device(make_app(ALLOWED_HOSTS="fives.lan, 192.168.1.20"))
    game_id = new_game(client, Host="fives.lan")
    more = client.get(f"/g/{game_id}/more", headers={"Host": "fives.lan:8000"})
    html = more.get_data(as_text=True)
    assert f"http://fives.lan:8000/g/{game_id}" in share_urls(html)
    assert client.get("/", headers={"Host": "localhost"}).status_code == 400


def test_proxy_headers_are_not_believed_unless_the_proxy_is_trusted(make_app: AppMaker) -> None:
    client = device(make_app())
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"}
    game_id = new_game(client)
    page = client.get(f"/g/{game_id}/more", headers=forwarded)
    urls = share_urls(page.get_data(as_text=True))
    assert urls and all(url.startswith("http://localhost/") for url in urls), urls
    assert "Strict-Transport-Security" not in page.headers


def test_behind_a_trusted_https_proxy_links_are_https_and_the_cookie_is_secure(
    make_app: AppMaker,
) -> None:
    app = make_app(TRUSTED_PROXIES="1", ALLOWED_HOSTS="fives.example.org")
    client = app.test_client()
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "fives.example.org"}
    created = client.post("/api/games", json={"players": ["Ana", "Ben"]}, headers=forwarded)
    assert created.status_code == 201
    cookie = created.headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie
    assert created.headers["Strict-Transport-Security"].startswith("max-age=")
    game_id = created.json["id"]
    page = client.get(f"/g/{game_id}/more", headers=forwarded)
    assert f"https://fives.example.org/g/{game_id}" in share_urls(page.get_data(as_text=True))
    plain = app.test_client().get("/", headers={"Host": "fives.example.org"})
    assert "Strict-Transport-Security" not in plain.headers


def test_a_public_https_address_makes_the_cookie_secure_and_sends_hsts(make_app: AppMaker) -> None:
    client = make_app(PUBLIC_URL="https://fives.example.org").test_client()
    created = client.post("/api/games", json={"players": ["Ana", "Ben"]})
    assert "Secure" in created.headers["Set-Cookie"]
    assert "Strict-Transport-Security" in created.headers


def test_pages_and_api_answers_are_never_stored_but_static_files_are(make_app: AppMaker) -> None:
    client = device(make_app())
    game_id = new_game(client)
    for path in ("/", "/new", f"/g/{game_id}", f"/api/games/{game_id}", "/api/games/none"):
        assert client.get(path).headers["Cache-Control"] == "no-store", path
    export = client.get(f"/api/games/{game_id}/export")
    assert export.headers["Cache-Control"] == "no-store"
    with client.get("/static/app.css") as static:
        assert "no-store" not in static.headers.get("Cache-Control", "")


@pytest.fixture
def limited(make_app: AppMaker) -> FlaskClient:
    return device(
        make_app(
            RATELIMIT_ENABLED=True,
            RATE_LIMIT_CREATE="3 per minute",
            RATE_LIMIT_IMPORT="2 per minute",
            RATE_LIMIT_LOOKUPS="5 per minute",
        )
    )


def test_creating_games_is_rate_limited_with_a_clear_429(limited: FlaskClient) -> None:
    for _ in range(2):
        new_game(limited)
    refused_form = limited.post("/new", data={"name": ["Ana"], "csrf_token": CSRF_TOKEN})
    assert refused_form.status_code == 422, "a refused form is not a game made"
    made = limited.post("/new", data={"name": ["Ana", "Ben"], "csrf_token": CSRF_TOKEN})
    assert made.status_code == 303
    api = limited.post("/api/games", json={"players": ["Ana", "Ben"]})
    assert api.status_code == 429
    assert api.json["error"]["code"] == "too_many_requests"
    assert "wait a minute" in api.json["error"]["message"]
    assert 1 <= int(api.headers["Retry-After"]) <= 61
    assert "X-RateLimit-Remaining" not in made.headers, "no limit look-up on every answer"
    page = limited.post("/new", data={"name": ["Ana", "Ben"], "csrf_token": CSRF_TOKEN})
    assert page.status_code == 429
    assert "Too many requests from this device" in text(page)
    assert "Traceback" not in page.get_data(as_text=True)


def test_importing_games_is_rate_limited(limited: FlaskClient) -> None:
    game_id = new_game(limited)
    exported = limited.get(f"/api/games/{game_id}/export").json
    assert limited.post("/api/games/import", json=exported).status_code == 201
    assert limited.post("/api/games/import", json={"format": "nonsense"}).status_code == 422
    assert limited.post("/api/games/import", json=exported).status_code == 429


def test_guessing_game_ids_is_rate_limited_and_real_games_are_then_refused_too(
    limited: FlaskClient,
) -> None:
    game_id = new_game(limited)
    for n in range(5):
        assert limited.get(f"/g/guess{n}").status_code == 404
    assert limited.get(f"/g/{game_id}").status_code == 429
    assert limited.get("/api/games/guess").json["error"]["code"] == "too_many_requests"
    with limited.get("/static/app.css") as style:
        assert style.status_code == 200, "the 429 page keeps its stylesheet"


def test_rate_limits_count_each_address_on_its_own(limited: FlaskClient) -> None:
    for n in range(5):
        limited.get(f"/v/guess{n}", environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert limited.get("/v/x", environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code == 429
    assert limited.get("/v/x", environ_base={"REMOTE_ADDR": "10.0.0.2"}).status_code == 404


def test_a_rate_limit_store_that_stops_answering_refuses_no_one_and_counts_in_memory(
    limited: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = limited.application.extensions["allfives_limits"]

    def unreachable(*_args: object, **_kwargs: object) -> None:
        raise ConnectionError("the shared store went away")

    monkeypatch.setattr(counts.counter, "hit", unreachable)
    monkeypatch.setattr(counts.counter, "test", unreachable)
    game_id = new_game(limited)
    for n in range(5):
        assert limited.get(f"/g/guess{n}").status_code == 404
    assert limited.get(f"/g/{game_id}").status_code == 429, "counted in memory meanwhile"
