"""Many phones at one table, and no one let in (issue: edit and view links, live updates,
CSRF, security headers, escaping, limits, friendly errors)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.scripts import HAND_OF_FIVE
from tests.tables import CSRF_TOKEN, HX, Table, device, text


def view_id(table: Table) -> str:
    return table.store.get(table.game_id).view_id


@pytest.mark.parametrize("htmx", [True, False], ids=["more-opened", "more-page"])
def test_the_game_screen_shares_both_links_with_qr_codes(playing: Table, htmx: bool) -> None:
    """The share panel comes with More's content when the sheet opens (into its place in the
    sheet), or with More's own page without JavaScript; not with every game screen."""
    assert "Share this game" not in playing.page().get_data(as_text=True)
    page = playing.more(headers=HX) if htmx else playing.more()
    html = page.get_data(as_text=True)
    if htmx:
        assert '<section class="more-section" id="sharing" hx-swap-oob="true">' in html
    assert f"/g/{playing.game_id}" in html
    assert f"/v/{view_id(playing)}" in html
    assert "Players' link" in text(page) and "Watch link" in text(page)
    # Each QR code is an image fetched when the share panel opens, of the link shown beside it.
    images = re.findall(r'<img class="qr" src="([^"]+)" alt="QR code: ([^"]+)"[^>]*>', html)
    assert [alt for _, alt in images] == ["Players&#39; link", "Watch link"]
    assert html.count('loading="lazy"') >= 2
    for src, path in zip(
        (src.replace("&amp;", "&") for src, _ in images),
        (f"/g/{playing.game_id}", f"/v/{view_id(playing)}"),
        strict=True,
    ):
        assert src == f"/qr.svg?path={path}"
        image = playing.client.get(src)
        assert image.status_code == 200 and image.mimetype == "image/svg+xml"
        assert image.get_data().startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')
        assert b'class="qrline"' in image.get_data()


def test_a_qr_code_is_drawn_only_for_a_page_of_this_site(client: FlaskClient) -> None:
    for path in ("//elsewhere.example/g/x", "https://elsewhere.example/", "g/x", "/g/\x01"):
        assert client.get("/qr.svg", query_string={"path": path}).status_code == 404
    one, other = (client.get("/qr.svg", query_string={"path": p}) for p in ("/g/a", "/g/b"))
    assert one.status_code == other.status_code == 200
    assert one.get_data() != other.get_data()  # each the code of its own link


def test_qr_codes_are_stored_by_no_cache_and_a_flood_of_them_is_limited(
    make_app: Any,
) -> None:
    """A code is stored by no cache (a players' link is its key), like every page; drawing
    one costs about 30 times a bare answer, so the server keeps the ones drawn, and a script
    asking for codes of path after path meets the heavy pages' limit."""
    client = device(make_app(RATELIMIT_ENABLED=True, RATE_LIMIT_HEAVY="3 per minute"))
    answers = [client.get("/qr.svg", query_string={"path": f"/g/{n}"}) for n in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[0].cache_control.no_store


def test_the_view_link_shows_the_live_game_and_nothing_to_change(playing: Table) -> None:
    playing.play("5-5")
    page = playing.client.get(f"/v/{view_id(playing)}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Watching live" in text(page)
    assert "[5|5] 10 = 10" in text(page)
    assert playing.game_id not in html, "the edit id must never reach an onlooker"
    assert "<form" not in html
    assert "csrf_token" not in html


def test_the_view_link_says_what_the_table_is_doing_not_what_to_enter(table: Table) -> None:
    table.create("Ana", "Ben", deal="5")
    table.start(0)
    table.enter(HAND_OF_FIVE)  # Ana goes out: Ben's pips are to be counted
    watched = text(table.client.get(f"/v/{view_id(table)}"))
    assert "the table is counting what each player holds" in watched
    assert "enter the pips" not in watched.lower() and "Settle hand" not in watched
    assert "enter the pips" in text(table.page()).lower()  # the scorer is told what to do
    news = text(table.client.get(f"/v/{view_id(table)}/poll?seq=0", headers=HX))
    assert "counting" in news and "enter the pips" not in news.lower()


def test_writing_through_the_view_link_is_refused_with_a_clear_page(playing: Table) -> None:
    for path in ("play", "undo", "settle"):
        response = playing.client.post(
            f"/v/{view_id(playing)}/{path}", data={"tile": "6-6", "csrf_token": CSRF_TOKEN}
        )
        assert response.status_code == 403
        assert "view-only link" in text(response)
    assert playing.seq == 1


def test_the_api_reads_by_view_link_and_refuses_writes_with_403(
    client: FlaskClient, playing: Table
) -> None:
    watched = client.get(f"/api/games/{view_id(playing)}")
    assert watched.status_code == 200
    assert playing.game_id not in watched.get_data(as_text=True)
    refused = client.post(
        f"/api/games/{view_id(playing)}/actions", json={"seq": 1, "type": "play", "tile": "6-6"}
    )
    assert refused.status_code == 403
    assert "view-only" in refused.json["error"]["message"]
    assert playing.seq == 1


def test_polling_answers_nothing_while_unchanged_and_the_game_once_changed(
    playing: Table,
) -> None:
    seq = playing.seq
    unchanged = playing.client.get(f"/g/{playing.game_id}/poll?seq={seq}", headers=HX)
    # An empty 200 with its length, not a 204: the server keeps the connection after it.
    assert unchanged.status_code == 200
    assert unchanged.get_data() == b""
    assert unchanged.headers["Content-Length"] == "0"
    assert unchanged.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in unchanged.headers
    watching = playing.client.get(f"/v/{view_id(playing)}/poll?seq={seq}", headers=HX)
    assert watching.status_code == 200 and watching.get_data() == b""
    playing.play("6-4")  # entered on another phone
    changed = playing.client.get(f"/g/{playing.game_id}/poll?seq={seq}", headers=HX)
    assert changed.status_code == 200
    assert 'id="board" class="board" aria-label="The layout" hx-swap-oob="true"' in changed.text
    assert "Ana led 6-4" in text(changed)
    assert "<html" not in changed.get_data(as_text=True)
    watch = playing.client.get(f"/v/{view_id(playing)}/poll?seq={seq}", headers=HX)
    assert "Ana led 6-4" in text(watch)
    assert playing.game_id not in watch.get_data(as_text=True)


def test_the_game_region_polls_its_own_revision(playing: Table) -> None:
    html = playing.page().get_data(as_text=True)
    match = re.search(r'class="live" hx-get="([^"]+)"\s+hx-trigger="every 2s"', html)
    assert match is not None
    assert match.group(1) == f"/g/{playing.game_id}/poll?seq={playing.seq}"


@pytest.mark.parametrize("token", [None, "", "forged"])
def test_a_form_without_the_devices_token_changes_nothing(
    playing: Table, token: str | None
) -> None:
    data = {"seq": playing.seq, "tile": "6-4"}
    if token is not None:
        data["csrf_token"] = token
    response = playing.client.post(f"/g/{playing.game_id}/play", data=data)
    assert response.status_code == 400
    assert "nothing was changed" in text(response)
    assert playing.seq == 1


def test_htmx_sends_the_token_in_the_form(playing: Table) -> None:
    html = playing.page().get_data(as_text=True)
    forms = re.findall(r"<form[^>]*method=\"post\"[^>]*>(.*?)</form>", html, flags=re.S)
    assert forms
    assert all('name="csrf_token"' in form for form in forms)


@pytest.mark.parametrize("path", ["/", "/new", "/rules", "/api/games/none", "/nowhere"])
def test_security_headers_on_every_response(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    csp = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_pages_have_no_inline_script_or_style(playing: Table) -> None:
    playing.play("5-5")
    for page in (playing.page(), playing.client.get("/"), playing.client.get("/new")):
        html = page.get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script"
        assert " style=" not in html and "<style" not in html


def test_a_hostile_name_shows_as_text(table: Table) -> None:
    table.create("<script>alert(1)</script>", "Ben")
    html = table.page().get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_names_are_length_limited(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"players": ["A" * 500, "Ben"]})
    assert response.status_code == 422
    assert response.json["error"]["code"] == "player_name"


def test_request_bodies_are_size_limited(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"players": ["Ana", "Ben"], "pad": "x" * 100_000})
    assert response.status_code == 413
    assert response.json["error"]["message"] == "That request is too large."


def test_a_crash_shows_a_friendly_page_without_internals(app: Flask) -> None:
    def broken() -> str:
        raise RuntimeError("secret internal detail")

    app.add_url_rule("/broken", "broken", broken)
    app.add_url_rule("/api/broken", "api_broken", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    client = app.test_client()
    page = client.get("/broken")
    assert page.status_code == 500
    assert "secret internal detail" not in page.get_data(as_text=True)
    assert "Nothing was changed" in text(page)
    api = client.get("/api/broken")
    assert api.status_code == 500
    assert api.json["error"]["code"] == "server_error"
    assert "secret" not in api.get_data(as_text=True)


def test_a_watch_link_post_without_a_token_is_still_the_clear_403(playing: Table) -> None:
    response = playing.client.post(f"/v/{view_id(playing)}/play", data={"tile": "6-6"})
    assert response.status_code == 403
    assert "view-only link" in text(response)


def test_a_name_typed_two_ways_is_one_player(client: FlaskClient) -> None:
    """R2: the seats are the names entered; "José" with a combining accent is still José."""
    decomposed, composed = "Jose\u0301", "Jos\u00e9"
    refused = client.post("/api/games", json={"players": [decomposed, composed]})
    assert refused.status_code == 422, "two spellings of one name are one name twice"
    game = client.post("/api/games", json={"players": [decomposed, "Ben"]}).json
    assert game["players"][0]["name"] == composed
    started = client.post(
        f"/api/games/{game['id']}/actions",
        json={"seq": 0, "type": "start_hand", "starter": composed},
    )
    assert started.status_code == 200, started.json
    assert started.json["state"]["hand"]["leader"] == composed


def test_the_new_game_form_stores_names_in_one_spelling(table: Table) -> None:
    table.create("Jose\u0301", "Ben")
    assert table.store.get(table.game_id).state.options.players[0] == "Jos\u00e9"


def test_import_takes_a_body_above_the_usual_limit_and_refuses_one_above_its_own(
    client: FlaskClient,
) -> None:
    game = client.post("/api/games", json={"players": ["Ana", "Ben"]}).json
    exported = client.get(f"/api/games/{game['id']}/export").json
    padded = {**exported, "note": "x" * 100_000}  # over 64 KB, under the import's 2 MB
    assert client.post("/api/games/import", json=padded).status_code == 201
    huge = {**exported, "note": "x" * 2_100_000}
    refused = client.post("/api/games/import", json=huge)
    assert refused.status_code == 413
    assert refused.json["error"]["message"] == "That request is too large."


def test_a_full_disk_is_a_503_to_retry_and_one_log_line_naming_the_real_error_first(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    # The database's own driver says so (sqlite3, or psycopg in the PostgreSQL run).
    driver_error = app.extensions["allfives_store"].engine.dialect.loaded_dbapi.OperationalError

    def full_disk() -> str:
        try:
            raise driver_error("database or disk is full")  # the COMMIT
        except driver_error:
            raise driver_error("cannot rollback - no transaction is active")  # noqa: B904

    app.add_url_rule("/full", "full", full_disk)
    app.add_url_rule("/api/full", "api_full", full_disk)
    client = app.test_client()
    page = client.get("/full")
    assert page.status_code == 503 and page.headers["Retry-After"] == "5"
    assert "Nothing was changed" in text(page)
    assert "disk" not in text(page), "the page says what to do, not the internals"
    api = client.get("/api/full")
    assert api.status_code == 503 and api.json["error"]["code"] == "unavailable"
    assert api.headers["Retry-After"] == "5"
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 1, lines  # one for the outage, not one per request
    assert lines[0].startswith("database unavailable: database or disk is full (then")
    assert "Traceback" not in caplog.text


def test_a_play_sent_by_a_page_of_the_site_leaves_the_session_alone(
    playing: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The browser says the form came from this site (Fetch Metadata): no other site can send
    # that, so the token is not checked, and the forms of the answer carry the one it sent.
    interface = playing.app.session_interface
    save = interface.save_session
    decoded: list[bool] = []

    def saving(app: Any, session: Any, response: Any) -> None:
        decoded.append(getattr(session, "decoded", True))
        save(app, session, response)

    monkeypatch.setattr(interface, "save_session", saving)
    from_here = {**HX, "Sec-Fetch-Site": "same-origin"}
    data = {"seq": playing.seq, "tile": "6-4", "csrf_token": CSRF_TOKEN}
    response = playing.client.post(f"/g/{playing.game_id}/play", data=data, headers=from_here)
    assert response.status_code == 200
    assert "Ana led 6-4" in text(response)
    html = response.get_data(as_text=True)
    assert html.count(f'name="csrf_token" value="{CSRF_TOKEN}"') == html.count('name="csrf_token"')
    assert decoded == [False]  # the session cookie was never even decoded
    assert "Set-Cookie" not in response.headers
    assert playing.seq == 2


def test_a_page_of_the_site_needs_no_token(playing: Table) -> None:
    data = {"seq": playing.seq, "tile": "6-4"}
    headers = {"Sec-Fetch-Site": "same-origin"}
    response = playing.client.post(f"/g/{playing.game_id}/play", data=data, headers=headers)
    assert response.status_code == 303
    assert playing.seq == 2


@pytest.mark.parametrize("site", ["cross-site", "same-site", "none"])
def test_a_form_from_elsewhere_without_the_devices_token_changes_nothing(
    playing: Table, site: str
) -> None:
    data = {"seq": playing.seq, "tile": "6-4"}
    headers = {"Sec-Fetch-Site": site}
    response = playing.client.post(f"/g/{playing.game_id}/play", data=data, headers=headers)
    assert response.status_code == 400
    assert "nothing was changed" in text(response)
    assert playing.seq == 1


def test_the_layout_is_turned_on_the_phone_that_turned_it_only(playing: Table, app: Flask) -> None:
    playing.play("6-4")

    def board(client: FlaskClient) -> str:
        html = client.get(f"/g/{playing.game_id}", headers=HX).get_data(as_text=True)
        found = re.search(r'<section id="board".*?</section>', html, flags=re.S)
        assert found is not None
        return found.group(0)

    upright = board(playing.client)
    turn = f"/g/{playing.game_id}/turn"
    assert playing.client.post(turn, data={"on": "1", "csrf_token": CSRF_TOKEN}).status_code == 303
    assert "Layout turned on" in text(playing.more())  # the setting is in More
    assert board(playing.client) != upright
    other = app.test_client()
    assert "Layout turned off" in text(other.get(f"/g/{playing.game_id}/more"))
    assert board(other) == upright
    playing.client.post(turn, data={"on": "0", "csrf_token": CSRF_TOKEN})
    assert "Layout turned off" in text(playing.more())
    assert board(playing.client) == upright
