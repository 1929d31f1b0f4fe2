"""The reader's language: negotiated from the browser, chosen on any page and remembered by the
device, the same for pages, htmx regions and the JSON API; and switching it changes the words
on the screen and nothing in the game."""

from __future__ import annotations

import os
import re
import shutil
import stat
import threading
from pathlib import Path

import pytest
from babel.support import Translations
from flask import Flask
from flask.testing import FlaskClient

from tests.tables import HX, Table, device
from webapp.i18n import COOKIE, LANGUAGES, TRANSLATIONS, compile_catalogs

from .conftest import PSEUDO


def lang_of(page: str) -> tuple[str, str]:
    found = re.search(r'<html lang="([^"]+)" dir="([^"]+)"', page)
    assert found, page[:200]
    return found.group(1), found.group(2)


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("ro-RO,ro;q=0.9,en;q=0.5", "ro"),
        ("lo", "lo"),
        ("ha;q=0.4, su;q=0.8", "su"),
        ("ceb-PH", "ceb"),
        ("fr-FR,fr;q=0.9", "en"),
        ("", "en"),
    ],
)
def test_the_language_is_the_browsers_best_match(
    client: FlaskClient, accept: str, expected: str
) -> None:
    response = client.get("/", headers={"Accept-Language": accept})
    assert lang_of(response.get_data(as_text=True)) == (expected, "ltr")
    assert response.headers["Content-Language"] == expected
    assert {"Accept-Language", "Cookie"} <= set(response.vary)


def test_every_page_offers_every_language_named_in_itself(table: Table) -> None:
    table.create("Ana", "Ben")
    table.start(leader="0")
    game = f"{table.url}/more"  # the game screen's: with More's content, when the sheet opens
    for url in ("/", "/rules", "/new", "/practice", "/learn/1", f"{table.url}/check", game):
        headers = HX if url == game else {}
        page = table.client.get(url, headers=headers).get_data(as_text=True)
        for code, name in (
            ("en", "English"),
            ("ceb", "Cebuano"),
            ("ro", "Română"),
            ("su", "Basa Sunda"),
            ("lo", "ລາວ"),
            ("ha", "Hausa"),
        ):
            assert re.search(rf'lang="{code}" hreflang="{code}"[^>]*>{name}</a>', page), (url, code)
    more = table.client.get(game, headers=HX).get_data(as_text=True)
    assert f'/language/lo?next={table.url}"' in more  # back to the game screen, not to More


def test_the_choice_is_remembered_by_the_device_for_a_year(client: FlaskClient) -> None:
    response = client.get("/language/ro?next=/rules")
    assert response.status_code == 303
    assert response.location == "/rules"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=ro;")
    assert "Max-Age=31536000" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    # The device's choice beats what the browser asks for.
    page = client.get("/rules", headers={"Accept-Language": "lo"}).get_data(as_text=True)
    assert lang_of(page) == ("ro", "ltr")
    assert "/language/en?next=/rules" in page


def test_the_chosen_language_and_the_session_are_read_among_other_cookies(app: Flask) -> None:
    """A request's cookies are parsed only when one the app reads is named in them: the
    language and the session are found wherever they stand among a browser's others, and a
    cookie whose name merely contains theirs is not taken for them."""
    client = app.test_client()
    client.set_cookie("xlanguage", "ro")
    client.set_cookie("analytics", "1")
    assert lang_of(client.get("/").get_data(as_text=True))[0] == "en"
    client.set_cookie(COOKIE, "ro")
    client.set_cookie("zz", "2")
    assert lang_of(client.get("/").get_data(as_text=True))[0] == "ro"
    chosen = device(app)  # its session holds its CSRF token
    chosen.set_cookie("before", "x")
    with chosen.session_transaction() as session:
        assert session["csrf_token"]


def test_a_language_that_is_not_offered_changes_nothing(client: FlaskClient) -> None:
    response = client.get("/language/xx?next=/rules")
    assert response.status_code == 303 and response.location == "/rules"
    assert "Set-Cookie" not in response.headers
    assert lang_of(client.get("/").get_data(as_text=True))[0] == "en"


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example",
        "https://evil.example/",
        "/\\evil.example",
        "javascript:alert(1)",
        "evil.example",
        "/\t/evil.example",
        "",
    ],
)
def test_the_switch_goes_back_only_to_a_page_of_this_site(client: FlaskClient, target: str) -> None:
    response = client.get("/language/ha", query_string={"next": target})
    assert response.status_code == 303
    assert response.location == "/"


def test_a_page_that_answered_a_form_switches_back_to_the_home_page(table: Table) -> None:
    refused = table.create("Ana").get_data(as_text=True)  # one player: the form comes back
    assert "/language/ro?next=/&quot;" not in refused
    assert re.search(r'href="/language/ro\?next=/"', refused)


def test_the_service_worker_keeps_each_language_apart(client: FlaskClient) -> None:
    client.set_cookie(COOKIE, "lo")
    page = client.get("/").get_data(as_text=True)
    assert 'data-worker="/sw.js?lang=lo"' in page
    worker = client.get("/sw.js?lang=lo").get_data(as_text=True)
    assert 'var LANGUAGE = "lo";' in worker
    assert 'var PAGE_CACHE = "allfives-pages-" + VERSION + "-" + LANGUAGE;' in worker


@pytest.fixture
def pseudo_table(pseudo_app: Flask) -> Table:
    """A table on the app that also speaks the pseudo-language (English until switched)."""
    return Table(pseudo_app, device(pseudo_app))


def test_htmx_regions_and_the_api_answer_in_the_same_language(pseudo_table: Table) -> None:
    pseudo_table.create("Ana", "Ben")
    pseudo_table.start(leader="0")
    pseudo_table.play("3-2")
    pseudo_table.client.set_cookie(COOKIE, PSEUDO)
    region = pseudo_table.client.get(f"{pseudo_table.url}/more", headers=HX)
    assert region.headers["Content-Language"] == "en-001"
    assert "Ĝáɱé ĺóĝ" in region.get_data(as_text=True)  # "Game log"
    refused = pseudo_table.play("6-6", htmx=True)
    assert refused.status_code == 422 and "Ŕúĺé R5" in refused.get_data(as_text=True)
    api = pseudo_table.client.get(f"/api/games/{pseudo_table.game_id}")
    assert api.status_code == 200 and api.headers["Content-Language"] == "en-001"


def skeleton(page: str) -> str:
    """A page without its words: the markup, the forms, their fields and values, the links
    (the sentences app.js says are data-say-* attributes)."""
    page = re.sub(r'<details class="language">.*?</details>', "", page, flags=re.S)
    page = re.sub(r"<title>.*?</title>", "", page, flags=re.S)
    worded = r"lang|aria-label|alt|title|placeholder|data-worker|data-say-[\w-]+"
    page = re.sub(rf'\s(?:{worded})="[^"]*"', "", page)
    return re.sub(r">[^<]*<", "><", page)


def test_switching_language_mid_game_changes_the_words_and_nothing_else(
    pseudo_table: Table,
) -> None:
    pseudo_table.create("Ana", "Ben", "Cy")
    pseudo_table.start(leader="0")
    pseudo_table.play("3-2")
    pseudo_table.draw()
    pseudo_table.page()  # the last tap's notice is shown once, as after any reload
    before = pseudo_table.page().get_data(as_text=True)
    exported = pseudo_table.client.get(f"/api/games/{pseudo_table.game_id}/export").json
    seq = pseudo_table.seq

    switched = pseudo_table.client.get(f"/language/{PSEUDO}?next={pseudo_table.url}")
    assert switched.location == pseudo_table.url
    after = pseudo_table.client.get(switched.location).get_data(as_text=True)

    assert lang_of(before)[0] == "en" and lang_of(after)[0] == "en-001"
    assert ">Undo<" in before and ">Undo<" not in after and ">Úñďó ·<" in after
    assert "Keep the screen on" in before and "Ķééþ ţĥé šçŕééñ óñ" in after
    assert skeleton(after) == skeleton(before)
    assert pseudo_table.seq == seq
    assert pseudo_table.client.get(f"/api/games/{pseudo_table.game_id}/export").json == exported


# --- compiling the catalogs ---------------------------------------------------------------------


@pytest.fixture
def catalogs(tmp_path: Path) -> Path:
    messages = tmp_path / "ro" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    (messages / "messages.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Undo"\nmsgstr "Anulează"\n',
        encoding="utf-8",
    )
    return tmp_path


def translated(folder: Path, text: str) -> str:
    return Translations.load(str(folder), ["ro"]).gettext(text)


def test_a_catalog_is_compiled_when_its_compiled_copy_is_missing_or_older(catalogs: Path) -> None:
    compile_catalogs(catalogs)
    mo = catalogs / "ro" / "LC_MESSAGES" / "messages.mo"
    assert translated(catalogs, "Undo") == "Anulează"
    po = mo.with_suffix(".po")
    po.write_text(po.read_text(encoding="utf-8").replace("Anulează", "Înapoi"), encoding="utf-8")
    stamp = po.stat().st_mtime
    os.utime(mo, (stamp - 10, stamp - 10))  # compiled before the .po was changed
    compile_catalogs(catalogs)
    assert translated(catalogs, "Undo") == "Înapoi"
    again = mo.stat().st_mtime_ns
    compile_catalogs(catalogs)  # up to date: left alone
    assert mo.stat().st_mtime_ns == again


@pytest.mark.parametrize("umask", [0o077, 0o022])
def test_a_compiled_catalog_is_readable_by_every_user_whoever_compiled_it(
    catalogs: Path, umask: int
) -> None:
    """Root compiling them at the first start, then a service user serving the pages, used to
    get 500 on every page: the catalogs were the owner's alone."""
    before = os.umask(umask)
    try:
        compile_catalogs(catalogs)
    finally:
        os.umask(before)
    mo = catalogs / "ro" / "LC_MESSAGES" / "messages.mo"
    assert stat.S_IMODE(mo.stat().st_mode) == 0o644
    assert translated(catalogs, "Undo") == "Anulează"
    mo.chmod(0o600)  # as an earlier version left it
    compile_catalogs(catalogs)
    assert stat.S_IMODE(mo.stat().st_mode) == 0o644


def test_workers_starting_at_once_compile_safely(catalogs: Path) -> None:
    errors: list[BaseException] = []

    def start() -> None:
        try:
            compile_catalogs(catalogs)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    workers = [threading.Thread(target=start) for _ in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert not errors
    assert translated(catalogs, "Undo") == "Anulează"
    assert sorted(p.name for p in (catalogs / "ro" / "LC_MESSAGES").iterdir()) == [
        "messages.mo",
        "messages.po",
    ]


def test_a_fresh_clone_compiles_every_committed_catalog(tmp_path: Path) -> None:
    copy = tmp_path / "translations"
    shutil.copytree(TRANSLATIONS, copy, ignore=shutil.ignore_patterns("*.mo"))
    compile_catalogs(copy)
    for language in LANGUAGES:
        assert (copy / language / "LC_MESSAGES" / "messages.mo").exists(), language


def test_a_plural_not_yet_translated_in_every_form_reads_in_english(tmp_path: Path) -> None:
    messages = tmp_path / "lo" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    (messages / "messages.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=1; plural=0;\\n"\n\n'
        'msgid "holds %(num)d tile"\nmsgid_plural "holds %(num)d tiles"\nmsgstr[0] ""\n',
        encoding="utf-8",
    )
    compile_catalogs(tmp_path)
    loaded = Translations.load(str(tmp_path), ["lo"])
    assert loaded.ngettext("holds %(num)d tile", "holds %(num)d tiles", 2) == "holds %(num)d tiles"


def test_a_language_forced_for_a_moment_leaves_the_other_readers_their_own_words(
    app: Flask,
) -> None:
    """Words written in another language for a moment (``force_locale``: a message for
    someone else) are kept as that language's, never as the reader's: the next English
    reader still reads "Undo", and a Romanian one "Anulează"."""
    from flask_babel import force_locale

    from webapp.i18n.words import catalog, get_locale

    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert str(get_locale()) == "en"
        with force_locale("ro"):
            catalog()
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert catalog().gettext("Undo") == "Undo"
    with app.test_request_context(headers={"Accept-Language": "ro"}):
        assert catalog().gettext("Undo") == "Anulează"
