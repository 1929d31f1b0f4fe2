"""Fixing an earlier move from the game log, without JavaScript: the fix page, its choices and
the outcome back on the game screen (R5, R6, R7, R11)."""

from __future__ import annotations

import re

from tests.scripts import FIX_KEPT, FIX_STOPPED, Script
from tests.tables import CSRF_TOKEN, HX, Table, text

# The hands of tests/scripts.py: in FIX_KEPT, Ana leads 6-4 (+10) and Cy's 3-5 at move 6 makes
# 0 + 5 (+5); move 3 was really 6-5. In FIX_STOPPED, move 5 (Ben's 0-3 on the left) needs the
# 0 that move 3 left open.


def played(table: Table, script: Script) -> Table:
    table.create("Ana", "Ben", "Cy")
    table.start(0)
    table.enter(script)
    return table


def test_the_log_lists_the_hand_as_it_stands_with_a_fix_link_per_move(table: Table) -> None:
    played(table, FIX_KEPT)
    page = table.more(headers=HX).text  # with More's content, when the sheet opens
    links = re.findall(rf'href="/g/{table.game_id}/fix/(\d+)"', page)
    assert links == ["1", "2", "3", "4", "5", "6"]
    assert "3 Cy played 6-0 on the left end Fix move 3" in text(table.more())  # without JavaScript
    assert "/fix/" not in table.page().text  # not in every first load: a long hand, a long page
    watch = table.client.get(f"/v/{table.store.get(table.game_id).view_id}").text
    assert "/fix/" not in watch


def test_the_fix_page_shows_the_move_the_layout_then_and_every_tile(table: Table) -> None:
    played(table, FIX_KEPT)
    page = table.client.get(f"{table.url}/fix/3")
    assert page.status_code == 200
    words = text(page)
    assert "Fix move 3 of 6, hand 1" in words
    assert "Entered: Cy played 6-0 on the left end" in words
    assert "Count 7" in words  # the layout before move 3: 6 + 1 (R11)
    assert page.text.count('name="tile" value=') == 28
    # 6-4 and 4-1 were on the table then; 6-0 and every other tile with a 6 or a 1 fitted.
    assert re.search(r'value="6-4" aria-label="6-4" disabled', page.text)
    assert re.search(r'class="tile fits[^"]*" name="tile" value="6-5"', page.text)


def test_choosing_a_tile_shows_each_end_it_fitted_with_its_points_and_effect_R5(
    table: Table,
) -> None:
    played(table, FIX_KEPT[:4])
    # Before move 4 the ends were 0 (left) and 1 (right): 1-0 fitted both.
    words = text(table.client.get(f"{table.url}/fix/4?tile=1-0"))
    assert "Where did 1-0 go?" in words
    assert "Left end 0 points 1 + 1 = 2" in words
    assert "Right end 0 points 0 + 0 = 0" in words
    assert "Fixed move 4: Ana played 1-0 on the left end, not 2-1 on the right end" in words
    assert "next player's tile" not in words  # R7: 7 tiles in the boneyard, so no pass then
    assert "3-3 fitted no open end then: no open end shows 3" in text(
        table.client.get(f"{table.url}/fix/4?tile=3-3")
    )


def test_fixing_a_tile_three_moves_back_keeps_the_later_moves_and_says_so(table: Table) -> None:
    played(table, FIX_KEPT)
    response = table.post("fix/3", what="play", tile="6-5", end="left")
    assert response.status_code == 303 and response.location == table.url
    words = text(table.page())
    assert "Fixed move 3: Cy played 6-5 on the left end, not 6-0; moves 4–6 kept" in words
    assert table.state.scores == (10, 0, 10)  # Cy's 3-5 now makes 5 + 5 (R11)
    # The log keeps the move as entered and adds the fix; the hand as it stands reads 6-5.
    log = table.more().text
    assert "Cy played 6-0 on the left end" in log and "Cy played 6-5 on the left end" in log


def test_a_later_move_that_no_longer_fits_is_named_and_taken_back(table: Table) -> None:
    played(table, FIX_STOPPED)
    table.post("fix/3", what="play", tile="6-5", end="left")
    words = text(table.page())
    assert (
        "move 5 (Ben played 3-0 on the left end) no longer fits: the left end shows 5, "
        "and 0-3 has no 5 — moves from there on taken back (R5)"
    ) in words
    assert "Ben to play" in words
    assert table.state.hand is not None and len(table.state.hand.moves) == 4


def test_a_draw_a_pass_or_nothing_at_all_R6_R7(table: Table) -> None:
    table.create("Ana", "Ben", "Cy")
    table.start(0)
    table.play("6-4")
    table.draw(2)
    table.play("4-1", "right")
    page = text(table.client.get(f"{table.url}/fix/2"))
    assert "7 in the boneyard then" in page
    assert (
        "Not allowed: move 2 cannot be fixed that way: the boneyard still has 7 tiles, "
        "so Ben must draw, not pass"
    ) in page
    table.post("fix/2", what="draw", count=1)
    assert table.state.hand is not None and table.state.hand.boneyard == 6
    assert "Fixed move 2: Ben drew a tile, not 2; move 3 kept" in text(table.page())
    table.post("fix/2", what="remove")
    assert table.state.hand is not None and table.state.hand.boneyard == 7
    assert "Removed move 2 (Ben drew a tile); move 3 kept" in text(table.page())


def test_a_refused_fix_says_why_on_the_fix_page_and_changes_nothing(table: Table) -> None:
    played(table, FIX_KEPT)
    seq = table.seq
    response = table.post("fix/3", what="play", tile="1-2", end="left")
    assert response.status_code == 422
    assert "Move 3 cannot be fixed that way: the left end shows 6, and 1-2 has no 6" in text(
        response
    )
    assert table.seq == seq
    response = table.post("fix/3", what="draw", count="lots")
    assert response.status_code == 422 and table.seq == seq


def test_a_stale_fix_is_409_and_applies_nothing(table: Table) -> None:
    played(table, FIX_KEPT)
    seq = table.seq
    table.undo()
    response = table.post("fix/3", seq=seq, what="play", tile="6-5", end="left")
    assert response.status_code == 409
    assert "Someone else got there first" in text(response)
    assert table.seq == seq + 1


def test_only_the_hand_being_played_has_moves_to_fix(table: Table) -> None:
    played(table, FIX_KEPT)
    assert table.client.get(f"{table.url}/fix/7").status_code == 404
    view_id = table.store.get(table.game_id).view_id
    assert table.client.get(f"/v/{view_id}/fix/3").status_code in (404, 405)
    write = table.client.post(f"/v/{view_id}/fix/3", data={"csrf_token": CSRF_TOKEN})
    assert write.status_code == 403


def test_the_replay_shows_the_hand_as_corrected_and_the_correction(table: Table) -> None:
    played(table, FIX_STOPPED)
    table.post("fix/3", what="play", tile="6-5", end="left")
    words = text(table.client.get(f"{table.url}/replay/1/3", follow_redirects=True))
    assert "Move 3 Cy played 6-5 on the left end" in words
    assert "Fixed move 3: Cy played 6-5 on the left end, not 6-0" in words


def test_a_stale_fix_of_a_move_that_is_gone_says_so_with_a_409(table: Table) -> None:
    played(table, FIX_KEPT)
    seq = table.seq
    for _ in range(3):
        table.undo()
    response = table.post("fix/5", seq=seq, what="pass")
    assert response.status_code == 409
    assert "Someone else got there first" in text(response)
    assert table.seq == seq + 3


def test_a_settled_hand_has_no_fix_links_and_no_fix_page(table: Table) -> None:
    played(table, FIX_KEPT)
    table.play_out()
    assert table.state.hand is not None and table.state.hand.end is not None
    hand = table.state.hand
    unplayed = [str(tile) for tile in hand.unplayed]
    held = {}
    for seat, count in enumerate(hand.held):  # R14: the tiles each still holds, as tiles
        held[f"tiles_{seat}"], unplayed = unplayed[:count], unplayed[count:]
    table.settle(step="confirm", **{name: tiles for name, tiles in held.items() if tiles})
    assert table.state.results, "the hand is settled"
    assert "/fix/" not in table.page().text
    assert table.client.get(f"{table.url}/fix/1").status_code == 404


def test_fixing_the_lead_offers_it_as_a_lead_and_no_draw_or_pass_R4(table: Table) -> None:
    played(table, FIX_KEPT[:3])
    words = text(table.client.get(f"{table.url}/fix/1?tile=6-5"))
    # R4: any tile leads; R11: 6 + 5 = 11 scores nothing.
    assert "Lead 6-5 Lead it 0 points 6 + 5 = 11" in words
    assert "move 2 (Ben played 4-1 on the right end) no longer fits" in words
    assert (
        "Not allowed: move 1 cannot be fixed that way: Ana leads, and any tile can be led: "
        "nobody draws (R4)"
    ) in words
    table.post("fix/1", what="play", tile="6-5", end="")
    assert table.state.hand is not None and len(table.state.hand.moves) == 1
    assert table.state.scores == (0, 0, 0)


def test_it_was_the_next_players_tile_after_a_pass_R7(table: Table) -> None:
    table.create("Ana", "Ben")
    table.start(0)
    table.play("6-4")
    # Ben takes the whole boneyard (R1: 10 tiles with two players); the table insists (R7a).
    table.post("draw", count=10, confirm="1")
    table.play("4-1", "right")
    table.play("6-3", "left")
    words = text(table.client.get(f"{table.url}/fix/3?tile=4-1"))
    assert "Or it was the next player's tile: Ben passed first" in words
    assert "Ana: right end Ben passed first" in words
    response = table.post("fix/3", what="pass_play", tile="4-1", end="right")
    assert response.status_code == 303
    hand = table.state.hand
    assert hand is not None
    assert [(m.kind, m.seat) for m in hand.moves] == [
        ("play", 0),
        ("draw", 1),
        ("pass", 1),
        ("play", 0),
        ("play", 1),
    ]
    assert "Fixed move 3: Ben passed; then Ana played 4-1 on the right end" in text(table.page())
