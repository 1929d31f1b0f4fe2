"""Settling disputes through the test client: check a play, replay, audit, rescore."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.scripts import AUDITED_HAND, EXAMPLE_C
from tests.tables import HX, Table, text

# Worked example C of RULES.md: Ana, Ben and Cy; Ana leads and goes out at move 20; Ben draws at
# move 17 and plays 4-5 at once; Ben keeps 6-5 and 1-1, Cy 3-4.


@pytest.fixture
def hand_c(playing: Table) -> Table:
    playing.enter(EXAMPLE_C)
    return playing


def settle_c(table: Table, ben: list[str], cy: list[str] | None = None) -> None:
    response = table.settle(step="confirm", tiles_1=ben, tiles_2=cy or ["3-4"])
    assert response.status_code == 303, text(response)[:300]


def view_id(table: Table) -> str:
    return table.store.get(table.game_id).view_id


# --- check a play ---------------------------------------------------------------------------


def test_the_game_screen_links_to_check_a_play(playing: Table) -> None:
    """In More: its content when the sheet opens, or its page without JavaScript."""
    assert f'href="/g/{playing.game_id}/check"' in playing.more(headers=HX).text
    assert "Check a play" in text(playing.more())


def test_check_shows_the_board_and_every_tile(playing: Table) -> None:
    playing.play("5-5")
    page = playing.client.get(f"{playing.url}/check")
    assert page.status_code == 200
    assert "Tap the tile to check" in text(page)
    assert len(re.findall(r'name="tile" value="\d-\d"', page.text)) == 28
    assert 'method="get"' in page.text  # a look, not an action: no CSRF token needed
    assert "[5|5] 10 = 10" in text(page)


def test_check_a_legal_scoring_play_without_entering_it(playing: Table) -> None:
    playing.play("5-5")
    seq, state = playing.seq, playing.state
    page = playing.client.get(f"{playing.url}/check?tile=5-0&end=left")
    shown = text(page)
    assert "Legal: Ben may play 5-0 on the left end" in shown
    assert "Count after it: 0 + [5|5] 10 = 10" in shown
    assert "Ben would score 10" in shown
    assert 'href="/rules#R11"' in page.text
    assert "5-0 tried" in page.text and '<use class="last" href="#tile-5-0"' in page.text
    assert (playing.seq, playing.state) == (seq, state)  # nothing was entered


def test_checking_a_lead_keeps_the_halves_as_written(playing: Table) -> None:
    """A lead's first half is the left end: checking 3-6 after the game screen has asked every
    tile (each written high half first) must not answer for 6-3."""
    playing.page()
    shown = text(playing.client.get(f"{playing.url}/check?tile=3-6"))
    assert "Count after it: 3 + 6 = 9" in shown
    assert "6 + 3" not in shown


def test_check_a_play_that_scores_nothing_says_why(playing: Table) -> None:
    playing.play("3-2")
    shown = text(playing.client.get(f"{playing.url}/check?tile=2-2"))
    assert "Legal: Ben may play 2-2 on the right end" in shown
    assert "3 + [2|2] 4 = 7" in shown
    assert "Scores nothing: 7 is not a multiple of five" in shown


def test_check_a_tile_that_fits_two_ends_lists_both(playing: Table) -> None:
    playing.play("5-5")
    page = playing.client.get(f"{playing.url}/check?tile=5-3")
    shown = text(page)
    assert "5-3 fits 2 ends: pick an end below" in shown
    assert f"/g/{playing.game_id}/check?tile=5-3&amp;end=left" in page.text
    assert "Left 0 3 + [5|5] 10 = 13" in shown
    assert "Up ✗ R10" in shown  # the spinner's sides are not covered yet


@pytest.mark.parametrize(
    ("query", "message", "rule"),
    [
        ("tile=6-6", "No open end shows 6: open ends are 3, 2", "R5"),
        ("tile=2-1&end=up", "There is no up end yet", "R9"),
        ("tile=3-2", "3-2 was already played", "R1"),
        ("tile=2-4&end=left", "The left end shows 3, and 2-4 has no 3", "R5"),
    ],
)
def test_check_an_illegal_play_cites_the_rule(
    playing: Table, query: str, message: str, rule: str
) -> None:
    playing.play("3-2")
    page = playing.client.get(f"{playing.url}/check?{query}")
    assert page.status_code == 200
    shown = text(page)
    assert "Not allowed" in shown
    assert message in shown
    assert f'href="/rules#{rule}"' in page.text


def test_check_an_illegal_end_still_shows_the_ends_that_fit(playing: Table) -> None:
    playing.play("3-2")
    shown = text(playing.client.get(f"{playing.url}/check?tile=2-4&end=left"))
    assert "Right 0 3 + 4 = 7" in shown


def test_check_before_the_lead_and_between_hands(table: Table) -> None:
    table.create("Ana", "Ben", "")
    shown = text(table.client.get(f"{table.url}/check?tile=6-4"))
    assert "Cannot play: the hand has not started" in shown
    table.start(leader="0")
    shown = text(table.client.get(f"{table.url}/check?tile=6-4&end=up"))
    assert "Legal: Ana may lead 6-4" in shown
    assert "Count after it: 6 + 4 = 10" in shown


def test_check_something_that_is_no_tile(playing: Table) -> None:
    page = playing.client.get(f"{playing.url}/check?tile=9-9")
    assert page.status_code == 200
    assert "is not a tile of a double-six set" in text(page)
    page = playing.client.get(f"{playing.url}/check?tile=6-4&end=sideways")
    assert "is not an end" in text(page)


def test_a_checked_play_can_then_be_entered(playing: Table) -> None:
    playing.play("5-5")
    page = playing.client.get(f"{playing.url}/check?tile=5-0&end=right")
    assert f'action="/g/{playing.game_id}/play"' in page.text
    assert 'name="end" value="right"' in page.text
    playing.play("5-0", "right")  # what the form posts
    assert playing.state.scores == (10, 10, 0)


def test_check_on_the_watch_link_enters_nothing(app: Flask, playing: Table) -> None:
    playing.play("5-5")
    watcher = app.test_client()  # another device, no session, no CSRF token
    page = watcher.get(f"/v/{view_id(playing)}/check?tile=5-0&end=left")
    assert page.status_code == 200
    assert "Ben would score 10" in text(page)
    assert playing.game_id not in page.text
    assert "Enter this play" not in page.text


# --- replay -----------------------------------------------------------------------------------


def test_replay_redirects_to_the_first_move(hand_c: Table) -> None:
    response = hand_c.client.get(f"{hand_c.url}/replay/1")
    assert response.status_code == 302
    assert response.location.endswith(f"/g/{hand_c.game_id}/replay/1/1")
    latest = hand_c.client.get(f"{hand_c.url}/replay")
    assert latest.location.endswith("/replay/1")


def test_replay_a_scoring_play(hand_c: Table) -> None:
    page = hand_c.client.get(f"{hand_c.url}/replay/1/9")
    shown = text(page)
    assert "move 9 of 20" in shown
    assert "Move 9 Cy played 4-0 on the left" in shown
    assert "+10 Cy scores 10: 4 + 6 = 10" in shown
    assert "Cy 15 +15 this hand" in shown  # 5 at move 6, 10 now
    assert "Count 10" in shown
    assert page.text.count(' transform="matrix(') == 9  # the layout as it stood, a tile each
    assert f'href="/g/{hand_c.game_id}/replay/1/8" rel="prev"' in page.text
    assert f'href="/g/{hand_c.game_id}/replay/1/10" rel="next"' in page.text


def test_replay_shows_draws_and_the_start(hand_c: Table) -> None:
    shown = text(hand_c.client.get(f"{hand_c.url}/replay/1/17"))
    assert "Move 17 Ben drew a tile" in shown
    start = hand_c.client.get(f"{hand_c.url}/replay/1/0")
    assert "Ana leads hand 1" in text(start)
    assert 'aria-disabled="true">← Previous' in start.text


def test_replay_end_of_a_settled_hand(hand_c: Table) -> None:
    settle_c(hand_c, ben=["6-5", "1-1"])
    page = hand_c.client.get(f"{hand_c.url}/replay/1/20")
    shown = text(page)
    assert "Ana went out (domino)" in shown
    assert "Ben 6-5 1-1 13 15" in shown and "Cy 3-4 7 5" in shown
    assert "Ben +0 -15 -15" in shown
    assert "No draw or pass broke R6 or R7 (1 draw or pass checked)" in shown
    assert f'href="/g/{hand_c.game_id}/rescore?hand=1#hand-1"' in page.text
    assert 'aria-disabled="true">Next →' in page.text


def test_replay_links_to_share_use_the_watch_link(hand_c: Table) -> None:
    page = hand_c.client.get(f"{hand_c.url}/replay/1/5")
    shared = f"http://localhost/v/{view_id(hand_c)}/replay/1/5"
    assert f'href="{shared}"' in page.text
    watched = hand_c.client.get(shared)
    assert watched.status_code == 200
    assert "Move 5 Ben played 2-1 on the left" in text(watched)
    assert hand_c.game_id not in watched.text


def test_replay_unknown_hands_and_moves_are_404(hand_c: Table) -> None:
    assert hand_c.client.get(f"{hand_c.url}/replay/1/21").status_code == 404
    assert hand_c.client.get(f"{hand_c.url}/replay/2/0").status_code == 404
    assert hand_c.client.get("/g/no-such-game/replay/1/1").status_code == 404
    assert "There is no hand 2" in text(hand_c.client.get(f"{hand_c.url}/replay/2/0"))


def test_replay_is_reachable_from_the_log_and_shows_settled_hands(hand_c: Table) -> None:
    settle_c(hand_c, ben=["6-5", "1-1"])
    hand_c.start()
    hand_c.play("6-6")
    page = hand_c.more().text
    assert f'href="/g/{hand_c.game_id}/replay/1"' in page  # the log's hand 1
    assert f'href="/g/{hand_c.game_id}/replay/2"' in page
    settled = text(hand_c.client.get(f"{hand_c.url}/replay/1/20"))
    assert "Ana went out (domino)" in settled  # no longer in the current state: replayed
    tabs = hand_c.client.get(f"{hand_c.url}/replay/2/1").text
    assert f'href="/g/{hand_c.game_id}/replay/1"' in tabs


def test_replay_leaves_out_undone_moves(playing: Table) -> None:
    playing.play("5-5")
    playing.play("5-3", "left")
    playing.undo()
    playing.play("5-0", "right")
    shown = text(playing.client.get(f"{playing.url}/replay/1/2"))
    assert "Ben played 5-0 on the right" in shown
    assert "5-3" not in shown.split("All 2 moves")[1]


# --- the audit at hand end --------------------------------------------------------------------


def test_audit_certain_on_the_game_screen_the_log_and_the_replay(hand_c: Table) -> None:
    # Ben says he still holds 3-0: it fitted the left end (0) when he drew at move 17, and so
    # did 4-5, which he played next. One drawn tile cannot be both: a breach of R6, certainly.
    settle_c(hand_c, ben=["3-0", "6-5"])
    page = hand_c.more()
    shown = text(page)
    assert "Audit of hand 1" in shown
    assert "1 certain breach of R6 or R7" in shown
    assert "Ben drew at move 17 while holding 4-5 or 3-0" in shown
    assert 'href="/rules#R6"' in page.text
    assert f'href="/g/{hand_c.game_id}/replay/1/17"' in page.text
    assert shown.count("Ben drew at move 17 while holding") == 1  # in the panel, not again
    assert shown.count("1 certain breach of R6 or R7") == 1
    flagged = text(hand_c.client.get(f"{hand_c.url}/replay/1/17"))
    assert "certain Ben drew at move 17 while holding 4-5 or 3-0" in flagged


def test_audit_clean(hand_c: Table) -> None:
    settle_c(hand_c, ben=["6-5", "1-1"])
    shown = text(hand_c.more())
    assert "No draw or pass broke R6 or R7 (1 draw or pass checked)" in shown
    assert "breach" not in shown


def test_audit_possible(table: Table) -> None:
    # Two players, 5 tiles each: Ben draws 2 tiles at move 2 (ends 5 and 4) and plays 4-1; he
    # still holds 5-6 at the end, which fitted then — but it may have been one of the two drawn.
    table.create("Ana", "Ben", "", deal="5")
    table.start(leader="0")
    table.enter(AUDITED_HAND)
    response = table.settle(step="confirm", tiles_1=["5-6", "0-0", "1-1"])
    assert response.status_code == 303
    shown = text(table.more())
    assert "1 possible breach of R6 or R7" in shown
    assert (
        "Ben drew 2 tiles at move 2 and held 5-6 at the end, which fitted the left end (5) then"
        " — but Ben may have drawn it at move 2: possible — R6"
    ) in shown


def test_audit_with_pips_only_says_what_is_unknown(hand_c: Table) -> None:
    response = hand_c.settle(step="confirm", pips_1="13", pips_2="7")
    assert response.status_code == 303
    shown = text(hand_c.more())
    assert "Ben and Cy: tiles at the end entered as pips" in shown


# --- rescore ----------------------------------------------------------------------------------


def test_rescore_example_c_under_pagat_is_example_d(hand_c: Table) -> None:
    settle_c(hand_c, ben=["6-5", "1-1"])
    assert f'href="/g/{hand_c.game_id}/rescore"' in hand_c.more(headers=HX).text
    page = hand_c.client.get(f"{hand_c.url}/rescore")
    assert page.status_code == 200
    shown = text(page)
    assert "As played Standard; to 200" in shown
    assert "Rescored Pagat; to 200" in shown
    # Hand 1, each cell: score, points made, settlement. C: −0/−15/−5; D: Ana +20.
    assert "Ana 15 +15 +0 35 +15 +20" in shown
    assert "Ben -15 +0 -15 0 +0 +0" in shown
    assert "Cy 10 +15 -5 15 +15 +0" in shown
    assert hand_c.state.scores == (15, -15, 10)  # the game itself is untouched


def test_rescore_an_immediate_finish_ends_earlier(hand_c: Table) -> None:
    settle_c(hand_c, ben=["6-5", "1-1"])
    page = hand_c.client.get(f"{hand_c.url}/rescore?preset=seed&target=15&finish=immediate")
    shown = text(page)
    assert "Cy reaches 15 and wins during hand 1, at move 9 (R16)" in shown
    assert "the 12 actions after it would never happen" in shown
    assert "15 +15, not settled" in shown


def test_rescore_refuses_an_impossible_option(hand_c: Table) -> None:
    page = hand_c.client.get(f"{hand_c.url}/rescore?target=3")
    assert page.status_code == 422
    assert "Can’t rescore: The target is a number of points from 5 to 10000" in text(page)


def test_rescore_on_the_watch_link(app: Flask, hand_c: Table) -> None:
    settle_c(hand_c, ben=["6-5", "1-1"])
    page = app.test_client().get(f"/v/{view_id(hand_c)}/rescore")
    assert page.status_code == 200
    assert hand_c.game_id not in page.text
    assert f'href="/v/{view_id(hand_c)}/replay/1"' in page.text


def test_game_over_links_to_replay_and_rescore(table: Table) -> None:
    table.create("Ana", "Ben", "", target="10")
    table.start(leader="0")
    table.play("5-5")  # Ana reaches 10 at once (R16)
    assert "Ana wins" in text(table.page())
    more = table.more(headers=HX).text  # More's content, as the sheet opens
    assert f'href="/g/{table.game_id}/replay/1"' in more
    assert f'href="/g/{table.game_id}/rescore"' not in more  # no hand was settled
    shown = text(table.client.get(f"{table.url}/rescore?finish=end-of-hand"))
    assert "Nobody has won when the table stopped in hand 1" in shown


def test_audit_follows_an_undone_and_corrected_settlement(hand_c: Table) -> None:
    settle_c(hand_c, ben=["6-5", "1-1"])
    assert "No draw or pass broke R6 or R7" in text(hand_c.more())
    hand_c.undo()
    settle_c(hand_c, ben=["3-0", "6-5"])
    shown = text(hand_c.more())
    assert "1 certain breach of R6 or R7" in shown
    hand_c.start()
    hand_c.play("6-6")  # the next hand goes on; the settled hand's audit stays
    assert "Ben drew at move 17 while holding 4-5 or 3-0" in text(hand_c.more())
