"""Every page and every refusal in a pseudo-language: each letter accented, each message a
third longer (conftest.py). A text a player sees with a plain Latin letter left in it was never
marked for translation (or was marked and never extracted).

Left alone, because they are never translated: the players' names, tile notation (6-4, [6|6]),
rule ids (R7a), numbers, addresses (share links), the language switcher's language names (each
in its own language, marked by its own ``lang``), the page's language code it shows and the
keys of the keyboard (``<kbd>``: the same letters in every language).

The test reports every such text at once, grouped by page, so what is left can be seen."""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.scripts import EXAMPLE_A, EXAMPLE_C
from tests.tables import CSRF_TOKEN, HX, Table, device
from webapp.i18n import COOKIE, LANGUAGES
from webapp.rules import to_dict

from .conftest import PSEUDO

# The engine's refusals, each with the game it is refused in (tests/rules imports its helpers
# by their bare module name, as pytest puts that folder on the path).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from test_rules_refusals import (
    ENGINE_REFUSALS,
    R7A_REFUSALS,
    R14_REFUSALS,
    SCENARIOS,
)

NAMES = ("Ana", "Ben", "Cy", "Dee")
NEVER_TRANSLATED = re.compile(
    r"https?://\S+"  # addresses
    r"|\b[0-6]-[0-6]\b|\[[0-6]\|[0-6]\]"  # tile notation
    r"|\bR\d+[a-z]?\b"  # rule ids
    r"|\b(?:" + "|".join(NAMES) + r")\b"  # player names
    r"|\bEN[_-]001\b"  # the language switcher shows the page's language code
    # The pseudo-language is English underneath: its lists are joined by CLDR's English words,
    # as each real language's lists are by its own (babel.lists.format_list).
    r"|\b(?:or|and)\b"
)
ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")
UNSEEN = {"script", "style", "template"}


class Texts(HTMLParser):
    """The texts a player sees or hears on a page: text nodes and the labelling attributes,
    except inside an element in another language (``lang``) or hidden from everyone."""

    def __init__(self, page_lang: str) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # tag, and whether its text is skipped
        self.page_lang = page_lang

    def skipping(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        lang = named.get("lang")
        skip = (
            self.skipping()
            or tag in UNSEEN
            or tag == "kbd"
            or (tag != "html" and lang is not None and lang != self.page_lang)
        )
        if not skip:
            for name in ATTRIBUTES:
                if named.get(name):
                    self.found.append(str(named[name]))
            if tag == "input" and named.get("type") in ("submit", "button") and named.get("value"):
                self.found.append(str(named["value"]))
        if tag not in ("input", "meta", "link", "br", "img", "hr", "source", "use", "path"):
            self.stack.append((tag, skip))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break

    def handle_data(self, data: str) -> None:
        if not self.skipping() and data.strip():
            self.found.append(data)


def untranslated(page: str) -> list[str]:
    """The texts of ``page`` that still have a plain Latin letter once names, tiles, rule ids
    and numbers are set aside."""
    lang = re.search(r'<html lang="([^"]+)"', page)
    reader = Texts(lang.group(1) if lang else "")
    reader.feed(page)
    left = []
    for found in reader.found:
        said = " ".join(found.split())
        if re.search(r"[A-Za-z]", NEVER_TRANSLATED.sub("", said)):
            left.append(said)
    return left


def _messages(data: Any) -> Any:
    """Every ``message`` an API answer holds, however deep (its text, not its JSON escapes)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "message" and isinstance(value, str):
                yield value
            else:
                yield from _messages(value)
    elif isinstance(data, list):
        for value in data:
            yield from _messages(value)


class Pages:
    """What the pseudo-reader saw: each page's untranslated texts, reported all together."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.offenders: dict[str, list[str]] = defaultdict(list)
        self.seen: list[str] = []

    def look(self, name: str, response: Any, expected: int | tuple[int, ...] = 200) -> str:
        codes = expected if isinstance(expected, tuple) else (expected,)
        assert response.status_code in codes, (name, response.status_code)
        body = response.get_data(as_text=True)
        self.seen.append(name)
        if 300 <= response.status_code < 400:
            return body  # a browser follows it: its body is never seen
        if response.mimetype == "application/json":
            messages = list(_messages(response.get_json()))
            found = [m for m in messages if re.search(r"[A-Za-z]", NEVER_TRANSLATED.sub("", m))]
        else:
            found = untranslated(body)
        for text in found:
            if text not in self.offenders[name]:
                self.offenders[name].append(text)
        return body

    def get(self, name: str, url: str, expected: int | tuple[int, ...] = 200, **kw: Any) -> str:
        return self.look(name, self.client.get(url, **kw), expected)

    def report(self) -> str:
        total = sum(map(len, self.offenders.values()))
        lines = [f"{total} untranslated texts on {len(self.offenders)} of {len(self.seen)} pages:"]
        for name, texts in self.offenders.items():
            lines.append(f"--- {name} ({len(texts)})")
            lines += [f"    {text[:160]}" for text in texts]
        return "\n".join(lines)


@pytest.fixture
def pseudo_client(pseudo_app: Flask) -> FlaskClient:
    """A device that chose the pseudo-language."""
    client = device(pseudo_app)
    client.set_cookie(COOKIE, PSEUDO)
    return client


def test_the_pseudo_language_is_served_where_it_is_chosen(pseudo_client: FlaskClient) -> None:
    page = pseudo_client.get("/").get_data(as_text=True)
    assert '<html lang="en-001"' in page
    assert "Ĝúíďéď ƒíŕšţ ĥáñď" in page  # "Guided first hand", from the pseudo catalog


@pytest.mark.parametrize("language", [PSEUDO, *LANGUAGES])
def test_every_page_and_every_refusal_is_translated(
    pseudo_app: Flask, pseudo_client: FlaskClient, language: str
) -> None:
    """In the pseudo-language, nothing is left untranslated; in every real language, every
    page and refusal is answered as it is in English (a language's own plural rules, lists
    and numbers can fail where English does not)."""
    pseudo_client.set_cookie(COOKIE, language)
    pages = Pages(pseudo_client)
    table = Table(pseudo_app, pseudo_client)
    get = pages.get

    get("home, no games", "/")
    get("new game", "/new")
    pages.look("new game, refused", table.create("Ana"), 422)
    pages.look(
        "new game, four players",
        pseudo_client.post(
            "/new",
            data={"name": ["Ana", "Ben", "Cy", ""], "resize": "add", "csrf_token": CSRF_TOKEN},
        ),
    )
    get("rules", "/rules")
    for step in (1, 2, 4, 8, 12, 19):
        get(f"guided hand, step {step}", f"/learn/{step}", (200, 404))
    get("guided hand, last step", "/learn/999", (200, 404))
    get("practice, empty", "/practice")
    board = EXAMPLE_A[:3].board()  # 3-2, 2-2 right, 2-6 right: the spinner opens (R10)
    get("practice, a board", f"/practice?p={board}")
    # 3-6 fits the left (3) and the right (6): places that differ, so the page asks which.
    get("practice, a choice", f"/practice?p={board}&add=3-6")
    get("practice, refused", "/practice?p=3-2&add=6-6", 422)
    get("offline page", "/offline")
    get("404 page", "/g/no-such-game", 404)
    pages.look("400 page", pseudo_client.post("/new", data={"name": ["Ana", "Ben"]}), 400)

    # A game of three, mid-hand: the start, a play that scores, a refusal, the More sheet.
    assert table.create("Ana", "Ben", "Cy").status_code == 303
    get("game, before the first hand", table.url)
    table.start(leader="0")
    get("game, to lead", table.url)
    table.move(EXAMPLE_C[0])  # worked example C, as Ana, Ben and Cy play it
    get("game, after the lead", table.url)
    pages.look("game, a refused play", table.play("6-6"), 422)
    pages.look("game, a refused play (htmx)", table.play("6-6", htmx=True), 422)
    pages.look("game, a stale play (409)", table.move(EXAMPLE_C[1], seq=0), 409)
    table.move(EXAMPLE_C[1])
    pages.look("game, a choice of ends", table.play("3-0"), (200, 303))
    get("game, the choice of ends", table.url)
    get("More sheet", f"{table.url}/more", headers=HX)
    get("check a play", f"{table.url}/check")
    get("check a legal play", f"{table.url}/check?tile=6-3&end=left")
    get("check a refused play", f"{table.url}/check?tile=5-5")
    get("check a tile for two ends", f"{table.url}/check?tile=3-0")
    snapshot = table.store.get(table.game_id)
    get("watch link", f"/v/{snapshot.view_id}")
    watched = pseudo_client.post(f"/v/{snapshot.view_id}/play")
    pages.look("watch link, a change refused", watched, 403)
    for number, move in enumerate(EXAMPLE_C[2:], start=3):
        response = table.move(move)
        assert response.status_code == 303, move
        get(f"game, after move {number}", table.url)
    get("game, the settlement", table.url)
    get("settlement preview", f"{table.url}/settle/preview?tiles_1=6-5&tiles_1=1-1&pips_2=7")
    pages.look("settlement refused", table.settle(step="confirm", pips_1="200"), 422)
    table.settle(step="confirm", tiles_1=["3-0", "6-5"], tiles_2=["3-4"])
    get("game, next hand with the audit", table.url)
    get("More sheet with the audit and the log", f"{table.url}/more", headers=HX)
    get("replay, a move", f"{table.url}/replay/1/17")
    get("replay, the start", f"{table.url}/replay/1/0")
    get("replay, the end", f"{table.url}/replay/1/20")
    get("rescore", f"{table.url}/rescore")
    get("rescore under Muggins", f"{table.url}/rescore?preset=muggins&rounding=up")
    table.start(leader="0")
    table.play("6-6")
    table.play("6-5", "right")
    get("fix a move", f"{table.url}/fix/1")
    get("fix a move, a tile chosen", f"{table.url}/fix/2?tile=6-4")
    get("home, a game", "/")

    # A short game, over at once: a lead that reaches the target (R16).
    short = Table(pseudo_app, pseudo_client)
    assert short.create("Ana", "Ben", target="5").status_code == 303
    short.start(leader="0")
    short.play("3-2")
    get("game over", short.url)
    get("home, a game over", "/")

    # A circle: the game kept in one from game over, its page, names, filters and refusals.
    get("a game into a circle", f"{short.url}/circle")
    kept = pseudo_client.post(f"{short.url}/circle", data={"name": "", "csrf_token": CSRF_TOKEN})
    pages.look("a circle without a name, refused", kept, 422)
    made = pseudo_client.post(f"{short.url}/circle", data={"name": "Dee", "csrf_token": CSRF_TOKEN})
    circle = made.headers["Location"].rsplit("/", 1)[-1]
    get("circle", f"/c/{circle}")
    get("circle, a date that is no date", f"/c/{circle}?since=x", 422)
    get("circle, filtered", f"/c/{circle}?preset=pagat&since=2026-01-01")
    get("circle's names", f"/c/{circle}/people")
    get("new circle", "/circles/new")
    get("home, a circle", "/")
    get("404 circle", "/c/no-such-circle", 404)

    # Every refusal of the engine, through the API, in the reader's language.
    store = pseudo_app.extensions["allfives_store"]
    refused = 0
    for param in ENGINE_REFUSALS + R7A_REFUSALS + R14_REFUSALS:
        scenario, action = param.values[0], param.values[1]
        if action is None:
            continue
        options, actions = SCENARIOS[scenario]()
        game = store.create(options, [to_dict(step) for step in actions])
        response = pseudo_client.post(
            f"/api/games/{game.id}/actions", json={"seq": game.seq, **to_dict(action)}
        )
        if response.status_code == 200:
            continue  # the API's form of this action is a different, legal one
        refused += 1
        pages.look(f"refusal {param.id}", response, (400, 409, 422))
    assert refused >= 40, refused

    if language == PSEUDO:
        assert not pages.offenders, pages.report()
