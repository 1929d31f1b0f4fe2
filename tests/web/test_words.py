"""The engine's messages said in the reader's language (``webapp/words.py``).

No real catalog is needed: each test builds one (``babel.support.Translations``) from the
messages ``pybabel extract`` finds in ``webapp/`` with the marker keywords, and the app is made
to use it. A pseudo-language accents every letter of a template outside its placeholders, so
a sentence that comes out with English words in it was never translated, and a tile, a name or
a number that comes out accented was translated by mistake.
"""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path

import flask_babel
import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.support import Translations
from flask import Flask
from flask.testing import FlaskClient

from tests.tables import Table, text
from webapp.i18n.words import say
from webapp.rules import Draw, GameState, Options, Play, StartHand, Tile
from webapp.rules.audit import Audit
from webapp.rules.messages import Message
from webapp.rules.options import SPECS

#: The extraction keywords of babel.cfg: the engine's markers and Flask-Babel's functions.
KEYWORDS = {"N_": None, "NP_": (1, 2), "gettext": None, "ngettext": (1, 2), "lazy_gettext": None}
WEBAPP = Path(__file__).resolve().parents[2] / "webapp"
_ACCENTS = str.maketrans("aeiouyAEIOUYcnsz", "áéíóúýÁÉÍÓÚÝçñšž")
_PLACEHOLDER = re.compile(r"(%\([a-z_]+\)s|%%)")


def pseudo(template: str) -> str:
    """Every letter accented, placeholders kept."""
    parts = _PLACEHOLDER.split(template)
    return "".join(p if _PLACEHOLDER.fullmatch(p) else p.translate(_ACCENTS) for p in parts)


def extracted() -> list[str | tuple[str, str]]:
    found = extract_from_dir(str(WEBAPP), method_map=[("**.py", "python")], keywords=KEYWORDS)
    return [message for _file, _line, message, _comments, _context in found]


def catalog(locale: str, translate) -> Translations:
    built = Catalog(locale=locale)
    for message in extracted():
        said = translate(message)
        if isinstance(said, tuple):  # as many forms as the language has (fr: one, many, other)
            said = (*said, *(said[-1:] * (built.num_plurals - len(said))))
        built.add(message, said)
    mo = BytesIO()
    write_mo(mo, built)
    mo.seek(0)
    return Translations(mo)


def speak(monkeypatch: pytest.MonkeyPatch, locale: str, translations: Translations) -> None:
    """Make the app read ``translations`` in ``locale`` (what Flask-Babel's locale selector and
    compiled catalogs do in production)."""
    monkeypatch.setattr(flask_babel, "get_locale", lambda: Locale.parse(locale))
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: translations)


def pseudo_catalog() -> Translations:
    def translate(message: str | tuple[str, str]) -> str | tuple[str, ...]:
        if isinstance(message, tuple):
            return tuple(pseudo(form) for form in message)
        return pseudo(message)

    return catalog("fr", translate)  # two plural forms, like English


def test_every_marked_template_is_found_by_extraction() -> None:
    found = extracted()
    assert "%(tile)s was already played" in found  # a refusal (R1)
    assert ("a tile", "%(num)s tiles") in found  # a plural of the engine
    assert SPECS["rounding"].sentence in found  # a house rule's sentence
    assert "just now" in found  # a web-layer sentence


def test_a_refusal_comes_out_translated_with_its_tile_untouched(
    monkeypatch: pytest.MonkeyPatch, client: FlaskClient
) -> None:
    speak(monkeypatch, "fr", pseudo_catalog())
    game = client.post("/api/games", json={"players": ["Ana", "Ben"]}).json
    actions = f"/api/games/{game['id']}/actions"
    client.post(actions, json={"seq": 0, "type": "start_hand", "starter": "Ana"})
    client.post(actions, json={"seq": 1, "type": "play", "tile": "6-4"})
    refused = client.post(actions, json={"seq": 2, "type": "play", "tile": "4-6"})
    assert refused.status_code == 422
    error = refused.json["error"]
    assert (error["code"], error["rule"]) == ("already_played", "R1")
    assert error["message"] == pseudo("%(tile)s was already played") % {"tile": "4-6"}
    assert error["message"].startswith("4-6 ") and "already" not in error["message"]


def test_an_outcome_is_translated_with_names_tiles_and_numbers_intact(
    monkeypatch: pytest.MonkeyPatch, client: FlaskClient
) -> None:
    speak(monkeypatch, "fr", pseudo_catalog())
    game = client.post("/api/games", json={"players": ["Ana", "Ben"]}).json
    actions = f"/api/games/{game['id']}/actions"
    client.post(actions, json={"seq": 0, "type": "start_hand", "starter": "Ana"})
    played = client.post(actions, json={"seq": 1, "type": "play", "tile": "5-5"}).json
    outcome = played["outcome"]
    led = pseudo("%(name)s led %(tile)s: %(breakdown)s") % {
        "name": "Ana",
        "tile": "5-5",
        "breakdown": "[5|5] 10 = 10",
    }
    assert outcome["message"] == pseudo("%(play)s, scores %(points)s") % {
        "play": led,
        "points": "10",
    }
    assert outcome["next"] == pseudo("%(name)s to play") % {"name": "Ben"}
    assert outcome["next"].startswith("Ben ")  # a name is a parameter: never translated
    assert played["state"]["next"] == outcome["next"]


def test_an_audit_line_is_translated_with_its_count(app: Flask, monkeypatch) -> None:
    speak(monkeypatch, "fr", pseudo_catalog())
    audit = Audit(number=1, breaches=(), checked=3, known=(), unknown=(1,))
    with app.test_request_context():
        said = say(audit.summary(["Ana", "Ben"]))
    checked = pseudo("No draw or pass broke R6 or R7 (%(num)s draws and passes checked)")
    unknown = pseudo(
        "%(summary)s (%(who)s: tiles at the end entered as pips, so only the tiles played count)"
    )
    line = pseudo("%(summary)s.") % {
        "summary": unknown % {"summary": checked % {"num": "3"}, "who": "Ben"}
    }
    assert said == line
    assert "(3 " in said and "(Ben: " in said and "checked" not in said


def test_the_new_game_form_shows_house_rules_translated(
    monkeypatch: pytest.MonkeyPatch, client: FlaskClient
) -> None:
    speak(monkeypatch, "fr", pseudo_catalog())
    page = text(client.get("/new"))
    rounding = SPECS["rounding"]
    assert pseudo(rounding.sentence) in page and rounding.sentence not in page
    assert pseudo(rounding.title) in page
    assert pseudo(rounding.label("up")) in page  # "Up: 1 → 5": the numbers stay


def test_the_game_screen_is_translated_mid_hand(
    monkeypatch: pytest.MonkeyPatch, table: Table
) -> None:
    speak(monkeypatch, "fr", pseudo_catalog())
    table.create("Ana", "Ben")
    table.start(leader="0")
    table.play("6-4")
    page = text(table.page())
    led = pseudo("%(name)s led %(tile)s: %(breakdown)s") % {
        "name": "Ana",
        "tile": "6-4",
        "breakdown": "6 + 4 = 10",
    }
    assert pseudo("%(play)s, scores %(points)s") % {"play": led, "points": "10"} in page
    assert pseudo("%(name)s to play") % {"name": "Ben"} in page
    assert "Ana led" not in page and "Ben to play" not in page


def test_a_translation_with_other_placeholders_falls_back_to_english(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(message: str | tuple[str, str]) -> str | tuple[str, ...]:
        if message == "%(tile)s was already played":
            return "%(piece)s déjà jouée"  # a translator's slip: the placeholder renamed
        return message

    speak(monkeypatch, "fr", catalog("fr", broken))
    state = GameState.replay(Options.make(["Ana", "Ben"]), [StartHand(0), Play(Tile(6, 4))])
    refusal = state.why_not(Tile(6, 4))
    assert refusal is not None
    with app.test_request_context():
        assert say(refusal.message) == "6-4 was already played"


ROMANIAN = {
    "a tile": ("o piesă", "%(num)s piese", "%(num)s de piese"),
    "%(name)s drew %(drawn)s": "%(name)s a tras %(drawn)s",
}


@pytest.mark.parametrize(
    ("count", "said"),
    [(1, "Ben a tras o piesă"), (2, "Ben a tras 2 piese"), (20, "Ben a tras 20 de piese")],
)
def test_romanian_plurals_take_the_form_of_the_real_count(
    app: Flask, monkeypatch: pytest.MonkeyPatch, count: int, said: str
) -> None:
    """Romanian has three forms (1; 2 to 19; 20 and more): Babel's plural rule for ``ro``
    picks one from the count the engine put in the message."""

    def translate(message: str | tuple[str, str]) -> str | tuple[str, ...]:
        key = message[0] if isinstance(message, tuple) else message
        return ROMANIAN.get(key, message)

    speak(monkeypatch, "ro", catalog("ro", translate))
    state = GameState.replay(
        Options.make(["Ana", "Ben"]), [StartHand(0), Play(Tile(3, 2)), Draw(1)]
    )
    drew = state.done  # the undo button's label: "Ben drew a tile"
    assert isinstance(drew, Message)
    drawn = drew.params["drawn"]
    assert isinstance(drawn, Message) and drawn.num == 1
    counted = Message(drawn.template, {"num": count}, drawn.plural, count)  # as for a draw of n
    with app.test_request_context():
        assert say(Message(drew.template, {**drew.params, "drawn": counted})) == said


def test_relative_times_are_said_in_the_readers_language(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import UTC, datetime, timedelta

    from webapp.home import ago as _ago

    speak(monkeypatch, "ro", catalog("ro", lambda message: message))
    now = datetime.now(UTC).replace(tzinfo=None)
    with app.test_request_context():
        assert _ago(now - timedelta(minutes=5)) == "acum 5 minute"
        assert _ago(now - timedelta(hours=1, minutes=2)) == "acum 1 oră"
        assert _ago(now - timedelta(seconds=20)) == "just now"  # the catalog leaves it English
