"""The answer to a tap carries only the regions (and pieces of them) that changed on the
screen that sent it (webapp/game/delta.py), and still everything a player sees changing:
worked example A's plays (R8–R11) through htmx, as the picker's form sends them."""

from __future__ import annotations

import re

from werkzeug.test import TestResponse

from tests.tables import Table, text

SCRIPT = ("3-2", "2-2", "6-2", "4-2", "3-1", "6-6", "4-4", "5-2", "1-0")  # example A


def sent(response: TestResponse) -> list[str]:
    """The ids swapped out of band, in order."""
    return re.findall(r'<\w+ id="([\w-]+)"[^>]*hx-swap-oob="(?:true|innerHTML)"', response.text)


def tap(table: Table, tile: str, hints: str = "0") -> TestResponse:
    """A tile tapped on the picker, which says whether it showed the hints."""
    response = table.post("play", htmx=True, tile=tile, hints=hints)
    assert response.status_code == 200, text(response)
    return response


def test_a_play_that_scores_sends_the_new_score_and_one_that_does_not_sends_no_scores(
    playing: Table,
) -> None:
    lead = tap(playing, "3-2")  # Ana leads 3-2: 5 points (R11)
    assert "side-0" in sent(lead)
    assert re.search(r'id="side-0"[^>]*title="Ana: 5 of', lead.text)
    quiet = tap(playing, "2-2")  # Ben: 3 + [2|2] 4 = 7, nothing scored
    assert 'id="scores"' not in quiet.text
    # Only the cards that changed: Ben's (a tile fewer, his turn over) and Cy's (her turn).
    assert [i for i in sent(quiet) if i.startswith("side-")] == ["side-1", "side-2"]
    assert re.search(r'id="side-1"[^>]*title="Ben: 0 of', quiet.text)
    for tile in SCRIPT[2:-1]:
        tap(playing, tile)
    scored = tap(playing, "1-0")  # Cy: 0 + [6|6] 12 + [4|4] 8 + 5 = 25
    assert re.search(r'id="side-2"[^>]*title="Cy: 25 of', scored.text)
    assert "Cy scores 25" in text(scored)


def test_a_play_sends_the_board_the_notice_the_tile_played_and_undo_alone(
    playing: Table,
) -> None:
    tap(playing, "3-2")
    seq = playing.seq
    answer = tap(playing, "2-2")
    assert sent(answer) == ["live", "side-1", "side-2", "board", "notice", "pick-2-2", "undo"]
    assert re.search(r'<button id="pick-2-2"[^>]*class="tile played"[^>]*disabled', answer.text)
    assert 'id="work"' not in answer.text and 'id="controls"' not in answer.text
    assert 'aria-label="Undo: Ben played 2-2' in answer.text
    # The forms left in place (the picker's, Draw, Pass, Undo) take the new revision.
    field = f'<input type="hidden" name="seq" value="{seq + 1}" '
    assert field + 'hx-swap-oob="outerHTML:#game input[name=seq]">' in answer.text
    assert f'data-seq="{seq + 1}"' in answer.text


def test_the_lead_sends_what_to_tap_next_without_the_whole_picker(playing: Table) -> None:
    answer = tap(playing, "3-2")
    assert "picker-prompt" in sent(answer) and "Tap the tile they play" in answer.text
    assert 'id="work"' not in answer.text


def test_a_draw_sends_the_controls_with_the_boneyard(playing: Table) -> None:
    tap(playing, "3-2")
    answer = playing.draw(htmx=True)
    assert answer.status_code == 200
    assert "controls" in sent(answer) and "board" in sent(answer)


def test_the_picker_is_sent_whole_when_the_phone_may_show_something_else(
    playing: Table,
) -> None:
    tap(playing, "3-2")
    tap(playing, "2-2")
    tap(playing, "6-2")
    # An end chosen on the question's panel: the picker comes back in its place.
    chosen = playing.play("3-3", "left", htmx=True)
    assert chosen.status_code == 200
    assert "work" in sent(chosen) and 'id="pick-3-3"' in chosen.text
    # Another phone turned the hints on since this picker was drawn: drawn again, with them.
    playing.store.set_screen(playing.game_id, "coaching", True)
    answer = tap(playing, "4-2", hints="0")
    assert "work" in sent(answer) and "tiles coaching" in answer.text
    # A tap from the picker as drawn with the hints: tile by tile again.
    assert "work" not in sent(tap(playing, "5-3", hints="1"))


def test_a_stale_tap_and_a_form_without_javascript_are_answered_as_before(
    playing: Table,
) -> None:
    tap(playing, "3-2")
    stale = playing.post("play", htmx=True, seq=0, tile="2-2", hints="0")
    assert stale.status_code == 409
    assert sent(stale) == ["live", "scores", "board", "notice", "work", "controls"]
    plain = playing.play("2-2")  # no JavaScript: a redirect to the whole page
    assert plain.status_code == 303
    page = playing.page().text
    assert 'id="scores"' in page and 'id="pick-2-2"' in page and "hx-swap-oob" not in page


def test_every_piece_an_answer_may_send_has_an_id_of_its_own(playing: Table) -> None:
    """A piece is swapped into every element with its id: one id, one element of the page
    (the tiles' drawings, kept once in the page, are named otherwise)."""
    tap(playing, "3-2")
    ids = re.findall(r'\sid="([^"]+)"', playing.page().text)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert {"pick-2-2", "side-0", "undo", "picker-prompt"} <= set(ids)
