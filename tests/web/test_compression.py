"""Compressed answers: what a phone asks for gzip, it gets gzip, and nothing breaks for it —
a part of a file, a file checked again with its ETag, the service worker, a play."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import rcssmin
import rjsmin
import zopfli.gzip
from flask import Flask
from flask.testing import FlaskClient

from tests.bench.first_load import BUDGET, first_load
from tests.scripts import LONG_HAND, Move, first_fit
from tests.tables import CSRF_TOKEN, HX, Table, device
from webapp.i18n import LANGUAGES
from webapp.rules import GameState, Options, StartHand, Status
from webapp.web.compress import PACKED, _static_gzip

GZIP = {"Accept-Encoding": "gzip, deflate, br"}
STATIC = Path(__file__).parents[2] / "static"


def body_of(client: FlaskClient, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    with client.get(path, headers=headers) as response:  # a file response: closed when read
        return response.status_code, dict(response.headers), response.get_data()


@pytest.mark.parametrize(
    ("name", "minify"),
    [
        ("app.css", rcssmin.cssmin),
        ("htmx-2.0.11.min.js", None),
        ("app.js", rjsmin.jsmin),
        ("theme.js", rjsmin.jsmin),  # under a packet's size, but packed once: 644 bytes to 203
        ("icon.svg", None),  # 425 to 214
    ],
)
def test_a_static_file_comes_gzip_and_unpacks_to_the_file(
    client: FlaskClient, name: str, minify: Callable[[bytes], bytes] | None
) -> None:
    """Our own stylesheet and scripts come minified too (their comments are for readers of the
    source); htmx, already minified, comes as it is; small files come packed as the big ones."""
    status, headers, body = body_of(client, f"/static/{name}", **GZIP)
    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in headers["Vary"]
    source = (STATIC / name).read_bytes()
    assert gzip.decompress(body) == (minify(source) if minify else source)
    assert int(headers["Content-Length"]) == len(body)
    if minify:
        assert len(gzip.decompress(body)) < 0.85 * len(source)


def test_a_gzip_files_etag_is_answered_304_when_the_phone_checks_it(client: FlaskClient) -> None:
    _, headers, _ = body_of(client, "/static/app.css", **GZIP)
    status, again, body = body_of(
        client, "/static/app.css", **GZIP, **{"If-None-Match": headers["ETag"]}
    )
    assert status == 304
    assert body == b""
    assert again["ETag"] == headers["ETag"]


def test_a_plain_files_etag_is_not_the_gzip_ones(client: FlaskClient) -> None:
    _, packed, _ = body_of(client, "/static/app.css", **GZIP)
    status, plain, body = body_of(client, "/static/app.css", **{"Accept-Encoding": "identity"})
    assert status == 200 and "Content-Encoding" not in plain
    assert plain["ETag"] != packed["ETag"]
    assert "Accept-Encoding" in plain["Vary"]  # a cache keeps the two apart
    assert body == (STATIC / "app.css").read_bytes()


def test_a_part_of_a_file_is_sent_as_the_bytes_of_the_file(client: FlaskClient) -> None:
    status, headers, body = body_of(client, "/static/app.css", **GZIP, Range="bytes=100-5099")
    assert status == 206
    assert "Content-Encoding" not in headers
    assert headers["Content-Range"].startswith("bytes 100-5099/")
    assert body == (STATIC / "app.css").read_bytes()[100:5100]


def test_the_service_worker_comes_gzip_and_is_still_checked_on_every_visit(
    client: FlaskClient,
) -> None:
    plain = client.get("/sw.js").get_data()
    status, headers, body = body_of(client, "/sw.js", **GZIP)
    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert headers["Cache-Control"] == "no-cache"
    assert gzip.decompress(body) == plain


def test_the_answer_to_a_play_comes_gzip_and_says_what_it_varies_on(table: Table) -> None:
    table.create("Ana", "Ben", "Cy")
    table.start(leader="0")
    data = {"seq": table.seq, "tile": "5-5", "csrf_token": CSRF_TOKEN}
    packed = table.client.post(f"{table.url}/play", data=data, headers={**HX, **GZIP})
    assert packed.status_code == 200
    assert packed.headers["Content-Encoding"] == "gzip"
    assert {"Accept-Encoding", "HX-Request"} <= set(packed.vary)
    assert "Ana led 5-5" in gzip.decompress(packed.get_data()).decode()


def test_an_answer_to_htmx_comes_gzip_and_unpacks_to_the_answer_sent_plain(table: Table) -> None:
    """An htmx answer is packed faster than a page (a smaller window and effort: it is a few KB)
    and reads back byte for byte as the answer sent as it is."""
    table.create("Ana", "Ben", "Cy")
    table.start(leader="0")
    plain = table.page(headers=HX)  # every region of the screen, as its Cancel fetches them
    packed = table.page(headers={**HX, **GZIP})
    assert len(plain.get_data()) > 4000
    assert packed.headers["Content-Encoding"] == "gzip"
    assert len(packed.get_data()) < len(plain.get_data()) / 2
    assert gzip.decompress(packed.get_data()) == plain.get_data()


def test_an_answer_that_fits_in_a_packet_is_sent_as_it_is(table: Table) -> None:
    """gzip only where it pays: an answer under about 1.5 KB fits one packet either way, so it
    is sent as it is; a bigger one comes gzip."""
    table.create("Ana", "Ben", "Cy")
    plain = table.client.get(f"/api/games/{table.game_id}").get_data()
    assert 512 < len(plain) < 1500  # a new game's state: gzip would make it about 600 bytes
    small = table.client.get(f"/api/games/{table.game_id}", headers=GZIP)
    assert small.status_code == 200
    assert "Content-Encoding" not in small.headers
    assert small.get_data() == plain
    assert "Accept-Encoding" in small.vary  # another phone may get it gzip
    big = table.page(headers=GZIP)  # the game screen, well over a packet
    assert big.headers["Content-Encoding"] == "gzip"


def test_a_static_file_is_packed_smaller_than_gzips_highest_level(client: FlaskClient) -> None:
    """Zopfli, once per process: the bytes a phone waits for on its first load."""
    _, _, body = body_of(client, "/static/htmx-2.0.11.min.js", **GZIP)
    source = (STATIC / "htmx-2.0.11.min.js").read_bytes()
    assert gzip.decompress(body) == source
    assert len(body) < 0.98 * len(gzip.compress(source, compresslevel=9))


def test_a_restarted_server_reads_its_packed_files_instead_of_packing_them_again(
    make_app: Callable[..., Flask], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Packing costs most of a second of CPU: a worker replaced or a server restarted reads
    what an earlier process packed (the instance folder's packed/) and sends the same bytes."""
    monkeypatch.setenv("ALLFIVES_INSTANCE", str(tmp_path))
    _static_gzip.cache_clear()
    first = body_of(device(make_app()), "/static/app.js", **GZIP)[2]
    assert list((tmp_path / PACKED).glob("*.gz")), "nothing kept for the next process"

    _static_gzip.cache_clear()  # a new process: nothing in memory
    monkeypatch.setattr(zopfli.gzip, "compress", _never)
    again = body_of(device(make_app()), "/static/app.js", **GZIP)[2]
    assert again == first
    _static_gzip.cache_clear()


def _never(*args: object, **kwargs: object) -> bytes:
    raise AssertionError("packed again")


def test_the_game_screen_loads_only_its_own_stylesheet(playing: Table) -> None:
    """The other pages' rules (pages.css) are not part of the game screen's first load; every
    other page loads them after app.css."""
    sheets = re.compile(r'<link rel="stylesheet" href="/static/([^"?]+)')
    game = playing.page().get_data(as_text=True)
    assert sheets.findall(game) == ["app.css"]
    for page in ("/", "/rules", f"{playing.url}/check", f"{playing.url}/more"):
        html = playing.client.get(page).get_data(as_text=True)
        assert sheets.findall(html) == ["app.css", "pages.css"], page


def _first_fit_hand() -> list[dict[str, Any]]:
    """A hand where each player plays the first tile that fits (Ana leads), all but its last
    move (which ends it): 18 tiles in the four arms of the spinner, 6-6."""
    state = GameState.new(Options.make(["Ana", "Ben", "Cy"])).apply(StartHand(0))[0]
    moves = []
    while state.status is Status.PLAYING:
        action = first_fit(state)
        moves.append(Move.of(action).api())
        state = state.apply(action)[0]
    return moves[:-1]


#: Points of a hand: its start; after two plays, the notice saying the last one at length (who,
#: the tile, the end, the count's sum, the points) and the layout and scores grown; late in a
#: hand, every tile the layout draws (the page grows with each); and the longest hand.
HAND_POINTS: dict[str, Sequence[dict[str, Any]]] = {
    "new": (),
    "mid-hand": (
        {"type": "play", "player": "Ana", "tile": "5-5"},
        {"type": "play", "player": "Ben", "tile": "5-0"},
    ),
    "late-hand": _first_fit_hand(),
    "longest-hand": LONG_HAND.api(),  # 37 moves, 25 tiles
}


@pytest.mark.parametrize("point", HAND_POINTS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_game_screens_first_load_is_within_its_budget(
    client: FlaskClient, language: str, point: str
) -> None:
    """What a phone at the table waits for the first time it opens a game: the screen and every
    file it loads as it opens, as sent gzip (README's budget: 40 KB), in every language (the
    longest words are Lao's) and at any point of a hand, as it starts or late in a long one."""
    sizes = first_load(client, language, HAND_POINTS[point])
    page = next(iter(sizes))
    assert f'lang="{language}"' in client.get(page).get_data(as_text=True)  # its language
    assert sum(sizes.values()) <= BUDGET, sizes


def test_the_first_load_is_measured_as_before_without_a_language_or_plays(
    client: FlaskClient,
) -> None:
    """``first_load(client)``: a new English game, as the benchmark runner measures it."""
    sizes = first_load(client)
    html = client.get(next(iter(sizes))).get_data(as_text=True)
    assert 'lang="en"' in html and "Ana leads" in html


def test_more_brings_the_settings_share_links_language_and_dispute_links(playing: Table) -> None:
    """Not part of every game screen's first load: the game's settings, the share links, the
    language menu, the dispute links and this hand's Fix links come with More's content when the
    sheet opens, each into its place in the sheet; the page holds those places."""
    playing.play("5-5")
    page = playing.page().get_data(as_text=True)
    for gone in ("data-setting=", "Share this game", "language-list", "dispute-link", "/fix/"):
        assert gone not in page, gone
    for place in ("settings", "sharing", "sheet-language"):
        assert f'<div id="{place}" hidden></div>' in page, place
    more = playing.more(headers=HX).get_data(as_text=True)
    assert '<section class="more-section settings" id="settings" hx-swap-oob="true"' in more
    assert '<section class="more-section" id="sharing" hx-swap-oob="true">' in more
    language = '<section class="more-section more-language" id="sheet-language" hx-swap-oob="true">'
    assert language in more
    assert "dispute-link" in more and f"{playing.url}/fix/1" in more
    # A language chosen there comes back to the game screen, not to More's content.
    assert f"next={playing.url}/more" not in more and f'next={playing.url}"' in more
    watch = f"/v/{playing.store.get(playing.game_id).view_id}"
    watching = playing.client.get(f"{watch}/more", headers=HX).get_data(as_text=True)
    assert "data-setting=" not in watching and "Share this game" not in watching
    assert f'next={watch}"' in watching


def test_the_keys_list_comes_with_more_not_with_every_game_screen(playing: Table) -> None:
    """The keyboard's keys are listed in More (``?`` opens it): the list comes with More's
    content, asked for when it opens, and takes its place in the sheet; a watch link has none."""
    page = playing.page().get_data(as_text=True)
    assert "keys-list" not in page
    assert '<div id="keys" hidden></div>' in page  # its place in the sheet
    more = playing.more(headers=HX).get_data(as_text=True)
    assert '<details class="more-section keys" id="keys" hx-swap-oob="true">' in more
    assert "Draw, Pass, Undo" in more
    watch = f"/v/{playing.store.get(playing.game_id).view_id}"
    assert "keys-list" not in playing.client.get(f"{watch}/more", headers=HX).get_data(as_text=True)
    assert "keys-list" not in playing.more().get_data(as_text=True)  # without JavaScript: no keys
