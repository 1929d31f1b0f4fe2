"""The templates' sentences are compiled in per language (``webapp/i18n/compiled.py``): phones
reading different languages from one server process each get their own, a sentence's plural is
still chosen by the count shown, and what a player typed is escaped inside a translated
sentence as anywhere else."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.scripts import EXAMPLE_C
from tests.tables import CSRF_TOKEN, HX, Table, device, text
from webapp.i18n import COOKIE


def reading(client: FlaskClient, language: str) -> FlaskClient:
    client.set_cookie(COOKIE, language)
    return client


def draw_button(page: str) -> str:
    found = re.search(r'<button class="button draw"[^>]*>(.*?)</button>', page, re.S)
    assert found, page[:300]
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_phones_reading_different_languages_each_get_their_own(table: Table) -> None:
    table.create("Ana", "Ben", "Cy")
    table.start(leader="0")
    romanian, english = reading(device(table.app), "ro"), reading(device(table.app), "en")
    for _ in range(2):  # and again, once both languages' templates are compiled
        assert draw_button(romanian.get(table.url).get_data(as_text=True)) == "Trage mai sunt 7"
        assert draw_button(english.get(table.url).get_data(as_text=True)) == "Draw 7 left"
    seq = table.seq
    play = {"seq": seq, "tile": "5-5", "hints": "0", "csrf_token": CSRF_TOKEN}
    answer = romanian.post(f"{table.url}/play", data=play, headers=HX).get_data(as_text=True)
    assert 'title="Ana: 10 din 200"' in answer  # a sentence with parameters, in Romanian
    table.undo()
    play["seq"] = seq + 2
    answer = english.post(f"{table.url}/play", data=play, headers=HX).get_data(as_text=True)
    assert 'title="Ana: 10 of 200"' in answer


def test_a_plural_is_chosen_by_the_count_shown(table: Table) -> None:
    """Worked example C ends with Ben holding two tiles and Cy one: Romanian says one tile
    otherwise than two ("piesă", "piese")."""
    table.create("Ana", "Ben", "Cy")
    table.start(leader="0")
    table.enter(EXAMPLE_C)
    page = text(reading(device(table.app), "ro").get(table.url))
    assert "Ben are 2 piese" in page
    assert "Cy are 1 piesă" in page


def test_a_name_inside_a_translated_sentence_is_escaped(table: Table) -> None:
    table.create("<b>Ana</b>", "Ben", "Cy")
    table.start(leader="0")
    page = reading(device(table.app), "ro").get(table.url).get_data(as_text=True)
    assert 'title="&lt;b&gt;Ana&lt;/b&gt;: 0 din 200"' in page
    assert "<b>Ana</b>" not in page
