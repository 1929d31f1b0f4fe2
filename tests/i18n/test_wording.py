"""Wording a reviewer corrected, kept from coming back: words that must differ on one screen,
an end named the way a sentence of its language names it, and a refusal headed for any action.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask_babel import force_locale, gettext

from tests.tables import Table
from webapp.i18n import COOKIE, LANGUAGES, TRANSLATIONS
from webapp.i18n.words import say
from webapp.rules import Arm, GameState, Options, Play, StartHand, Tile
from webapp.rules.layout import arm_name
from webapp.rules.messages import N_
from webapp.ui.labels import end_label


def said_in(app: Flask, language: str, said: object) -> str:
    with app.test_request_context(), force_locale(language):
        return say(said)


@pytest.mark.parametrize("language", LANGUAGES)
def test_cancel_and_undo_are_different_words(app: Flask, language: str) -> None:
    """The end choice shows both: Cancel drops the question, Undo takes the last play back."""
    with app.test_request_context(), force_locale(language):
        assert gettext("Cancel") != gettext("Undo")


def played_on(end: Arm) -> object:
    """The log line of Ben's 4-1 played on ``end``, as the engine says it."""
    return N_(
        "%(name)s played %(tile)s on the %(end)s end", name="Ben", tile="4-1", end=arm_name(end)
    )


@pytest.mark.parametrize(
    ("language", "end", "line"),
    [
        ("en", Arm.RIGHT, "Ben played 4-1 on the right end"),
        ("ro", Arm.RIGHT, "Ben a pus 4-1 la capătul din dreapta"),
        ("ro", Arm.UP, "Ben a pus 4-1 la capătul de sus"),
        ("ro", Arm("down", Tile(6, 6)), "Ben a pus 4-1 la capătul de jos de la 6-6"),
        ("lo", Arm.RIGHT, "Ben ລົງ 4-1 ທາງຂວາ"),
        ("lo", Arm("up", Tile(6, 6)), "Ben ລົງ 4-1 ທາງເທິງຂອງ 6-6"),
    ],
)
def test_an_end_in_a_log_line_reads_as_the_language_says_it(
    app: Flask, language: str, end: Arm, line: str
) -> None:
    assert said_in(app, language, played_on(end)) == line


def test_an_end_alone_on_a_button_keeps_its_bare_name(app: Flask) -> None:
    with app.test_request_context(), force_locale("ro"):
        assert [end_label(arm) for arm in (Arm.LEFT, Arm.UP)] == ["Stânga", "Sus"]
    with app.test_request_context(), force_locale("lo"):
        assert end_label(Arm.RIGHT) == "ຂວາ"


def test_no_romanian_sentence_names_an_end_as_capatul_dreapta() -> None:
    path = TRANSLATIONS / "ro" / "LC_MESSAGES" / "messages.po"
    machine_made = re.compile(r"capătul (?:<b>)?(?:stânga|dreapta|sus|jos)\b")
    with Path(path).open("rb") as source:
        catalog = read_po(source, locale="ro")
    found = [
        form
        for message in catalog
        if message.id
        for form in ([message.string] if isinstance(message.string, str) else message.string)
        if machine_made.search(form)
    ]
    assert not found, found


def test_a_refused_pass_is_not_headed_as_a_refused_play_in_lao(table: Table) -> None:
    """R7: Ben may not pass while the boneyard has tiles. The heading fits any refused action:
    in Lao it is not "ລົງບໍ່ໄດ້" (cannot play), which would read "cannot play: … must draw"."""
    table.create("Ana", "Ben")
    table.start(leader="0")
    table.play("6-4")
    table.client.set_cookie(COOKIE, "lo")
    refused = table.pass_turn(htmx=True)
    assert refused.status_code == 422
    heading = re.search(r'<b class="notice-title">([^<]*)</b>', refused.get_data(as_text=True))
    assert heading, refused.get_data(as_text=True)[:400]
    assert "ລົງ" not in heading.group(1)


def test_lao_heads_a_refused_fix_of_any_kind_as_not_possible(app: Flask) -> None:
    """Fixing a move offers draws, passes and removals too: "Not allowed: …" heads them all."""
    with app.test_request_context(), force_locale("lo"):
        assert "ລົງ" not in gettext("Not allowed: %(reason)s", reason="")


def test_a_real_plays_log_line_names_its_end_as_a_sentence_does(app: Flask) -> None:
    """R11: Ana leads 6-4, Ben's 4-1 fits only the right end: 6 + 1 = 7, no score."""
    game = GameState.new(Options.make(["Ana", "Ben"]))
    game, _ = game.apply(StartHand(leader=0))
    game, _ = game.apply(Play(Tile.parse("6-4")))
    game, outcome = game.apply(Play(Tile.parse("4-1")))
    assert said_in(app, "ro", outcome.message) == "Ben a pus 4-1 la capătul din dreapta: 6 + 1 = 7"
    assert said_in(app, "lo", outcome.message) == "Ben ລົງ 4-1 ທາງຂວາ: 6 + 1 = 7"
