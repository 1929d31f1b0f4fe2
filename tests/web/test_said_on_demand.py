"""What the game screen's keys o, s and n say (static/app.js reads them from ``[data-read]``):
the open ends and the count, the scores, and what each side still needs to win (R15; under an
exact finish, R25, exactly that)."""

from __future__ import annotations

import re

from tests.tables import Table


def said(page: str, key: str) -> str:
    found = re.search(rf'<p hidden data-read="{key}">([^<]*)</p>', page)
    assert found, f"nothing for the key {key}"
    return found.group(1)


def test_the_ends_the_scores_and_what_each_needs_are_there_to_be_said(table: Table) -> None:
    assert table.create("Ana", "Ben", target="20").status_code == 303
    table.start(leader="0")
    assert said(table.page().text, "o") == "Any tile can lead."
    table.play("5-0")  # R11: the lead counts 5 + 0
    page = table.page().text
    assert said(page, "o") == "Open ends: left 5, right 0. Count 5."
    assert said(page, "s") == "Scores: Ana 5, Ben 0."
    assert said(page, "n") == "To reach 20: Ana 15, Ben 20."


def test_under_an_exact_finish_each_side_needs_exactly_its_points(table: Table) -> None:
    assert table.create("Ana", "Ben", target="20", finish="exact").status_code == 303
    table.start(leader="0")
    table.play("5-0")
    assert said(table.page().text, "n") == "To reach 20: Ana exactly 15, Ben exactly 20."


def test_what_the_keys_say_is_new_after_every_tap_even_when_the_scores_are_not_sent(
    table: Table,
) -> None:
    """A tap's answer carries only what changed (game/delta.py); what s and n say comes with
    the board, which every answer carries, so they never say the scores before the tap."""
    assert table.create("Ana", "Ben", target="20").status_code == 303
    table.start(leader="0")
    lead = table.post("play", htmx=True, tile="5-0", hints="0")  # R11: Ana 5
    assert said(lead.text, "s") == "Scores: Ana 5, Ben 0."
    quiet = table.post("play", htmx=True, tile="0-0", hints="0")  # 5 + 0: Ben scores 5
    assert 'id="scores"' not in quiet.text  # only the cards that changed
    assert said(quiet.text, "s") == "Scores: Ana 5, Ben 5."
    assert said(quiet.text, "n") == "To reach 20: Ana 15, Ben 15."
