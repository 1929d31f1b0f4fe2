"""The house rules through the pages, without JavaScript: starts, plays, settling (R17–R25)."""

from __future__ import annotations

from tests.scripts import EXAMPLE_G, EXAMPLE_H
from tests.tables import CSRF_TOKEN, Table, text


def test_the_highest_double_leads_through_the_forms(table: Table) -> None:
    """R21: a random start is refused; the table may say nobody holds a double."""
    table.create("Ana", "Ben", first_lead="highest-double")
    refused = table.start("random")
    assert refused.status_code == 422
    assert "highest double" in text(refused) and "Rule R21" in text(refused)
    table.start(1)
    refused = table.play("6-5")
    assert refused.status_code == 422 and "6-5 is not a double" in text(refused)
    table.undo()
    table.start(1, no_double="1")
    table.play("6-5")
    assert table.state.hand.layout.count == 11


def test_a_later_spinners_end_is_chosen_by_its_name(table: Table) -> None:
    """R17: the picker's choice posts '6-6 up', and the log says it."""
    table.create("Ana", "Ben", preset="five-up")
    table.start(0)
    table.enter(EXAMPLE_H[:6])
    # 6-5 fits only the 6-6's up and down, both empty: mirror images, so it is not asked.
    assert "choose" not in table.play("6-5").location
    page = table.page()
    assert "Ana played 6-5 on the 6-6 up end: 3 + 2 + 1 + 5 = 11" in text(page)
    table.undo()
    table.play("6-5", "6-6 down")  # named, the other end is taken as said
    assert "Ana played 6-5 on the 6-6 down end" in text(table.page())


def test_the_settle_form_says_how_this_table_rounds(table: Table) -> None:
    """R22: the hint and learning mode's reasons follow the rounding."""
    table.create("Ana", "Ben", rounding="up")
    table.start(0)
    table.play("6-6")
    table.draw(10)
    table.pass_turn()
    table.post("pass", confirm="1")  # example E: the record says Ana holds a 6 (R7a)
    assert "any remainder rounded up to a five and taken off their score" in text(table.page())


def test_rescore_names_the_play_the_other_rules_refuse(table: Table) -> None:
    """Example H under five-up rescored as seed: the 6-5 on 6-6 up is refused (R9)."""
    table.create("Ana", "Ben", preset="five-up")
    table.start(0)
    table.enter(EXAMPLE_H[:7])
    page = table.client.get(f"{table.url}/rescore?preset=seed")
    assert page.status_code == 200
    shown = text(page)
    assert "As played Five Up; to 61" in shown
    assert "Under these rules Ana’s play of 6-5 on the 6-6 up end in hand 1, move 7" in shown
    assert "only the first double played, 4-4, spins (R9)" in shown


def test_the_practice_board_plays_a_presets_rules(client) -> None:
    """R17: the practice board under Muggins refuses up; under Five Up a later spinner opens."""
    muggins = f"/practice?rules=muggins&p={EXAMPLE_G[:3].board()}"
    refused = client.get(muggins + "&add=4-3:up")
    assert refused.status_code == 422
    assert "with no spinner (Muggins)" in text(refused) and "Rule R17" in text(refused)
    assert 'name="rules" value="muggins"' in client.get(muggins).text
    board, seventh = EXAMPLE_H[:6].board(), EXAMPLE_H[6].step()
    added = client.get(f"/practice?rules=five-up&p={board}&add={seventh}")
    assert added.status_code == 303 and "rules=five-up" in added.location
    page = client.get(added.location)
    assert "3 + 2 + 1 + 5 = 11" in text(page)
    assert client.get("/practice?rules=sniff").status_code == 200  # unknown: the standard rules


def test_the_game_screen_says_which_rules_are_in_force(table: Table) -> None:
    table.create("Ana", "Ben", preset="muggins", rounding="up")
    table.start(0)
    assert "Muggins, rounding up" in text(table.page())


def test_a_reserve_shows_the_tiles_left_and_those_that_may_be_drawn_R20(table: Table) -> None:
    table.create("Ana", "Ben", reserve="by-players")  # two tiles are never drawn
    table.start(0)
    assert "Boneyard 10 (8 to draw)" in text(table.page())


def test_the_highest_double_leads_or_the_table_says_nobody_holds_one_R21(table: Table) -> None:
    table.create("Ana", "Ben", first_lead="highest-double")
    page = text(table.page())
    assert "Who holds the highest double?" in page and "Pick at random" not in page
    response = table.client.post(
        f"{table.url}/start?no_double=1",
        data={"seq": table.seq, "csrf_token": CSRF_TOKEN, "leader": "1"},
    )
    assert response.status_code == 303
    assert "Hand 1: Ben leads" in text(table.page())
    assert table.state.hand is not None


def test_the_audit_shows_a_higher_double_than_the_one_led_R21(table: Table) -> None:
    """Ana was named as holding the highest double and led 5-5; Ben's tile at the end is the
    6-6: the hand's audit says so, with its rule."""
    table.create("Ana", "Ben", first_lead="highest-double", deal="5")
    table.start(0)
    plays = [
        ("5-5", None),
        ("5-4", "left"),
        ("5-3", "right"),
        ("4-4", "left"),
        ("5-2", "up"),
        ("4-1", "left"),
        ("5-1", "down"),
        ("1-0", "left"),
        ("3-3", "right"),
    ]
    for tile, end in plays:
        assert table.play(tile, end).status_code == 303, tile
    assert table.state.status.value == "hand_over"
    assert table.settle(tiles_1="6-6").status_code == 303
    shown = text(table.more())  # the audits, in the More sheet
    assert "Ben held 6-6, a higher double than the 5-5 Ana led: the highest double leads" in shown
