"""The headers every answer carries, set in one pass (``web/headers.py``): what a cache must
tell apart (``Vary``), the security headers, nobody's store, and the reader's language."""

from __future__ import annotations

from werkzeug.datastructures import Headers

from tests.tables import CSRF_TOKEN, HX, Table
from webapp.web.headers import add_vary
from webapp.web.security import HEADERS


def test_vary_keeps_what_a_route_named_and_adds_each_name_once() -> None:
    headers = Headers([("Vary", "Origin,accept-encoding")])
    add_vary(headers, ("Accept-Encoding", "HX-Request", "Cookie"))
    assert headers.getlist("Vary") == ["Origin, accept-encoding, HX-Request, Cookie"]
    add_vary(headers, ("cookie",))
    assert headers["Vary"] == "Origin, accept-encoding, HX-Request, Cookie"
    empty = Headers()
    add_vary(empty, ("HX-Request",))
    assert empty["Vary"] == "HX-Request"


def test_a_play_and_a_page_carry_every_header_once(playing: Table) -> None:
    data = {"seq": playing.seq, "tile": "5-5", "csrf_token": CSRF_TOKEN}
    gzip = {**HX, "Accept-Encoding": "gzip"}
    answer = playing.client.post(f"{playing.url}/play", data=data, headers=gzip)
    playing.client.set_cookie("language", "ro")
    page = playing.client.get(playing.url)
    for response, language in ((answer, "en"), (page, "ro")):
        names = [name for name, _ in response.headers.items()]
        assert len(names) == len({name.lower() for name in names})
        assert response.headers["Vary"].startswith("Accept-Encoding, HX-Request, ")
        assert set(response.vary) == {"Accept-Encoding", "HX-Request", "Accept-Language", "Cookie"}
        assert response.headers["Content-Language"] == language
        assert response.headers["Cache-Control"] == "no-store"
        for name, value in HEADERS.items():
            assert response.headers[name] == value
    assert answer.headers["Content-Encoding"] == "gzip"


def test_a_static_file_is_kept_and_says_no_language(playing: Table) -> None:
    with playing.client.get("/static/app.css") as response:
        assert "Content-Language" not in response.headers
        assert response.headers["Cache-Control"] != "no-store"
        assert set(response.vary) == {"Accept-Encoding", "HX-Request"}
        assert response.headers["X-Content-Type-Options"] == "nosniff"
