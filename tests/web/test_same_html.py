"""The pieces of the game screen kept for the process (README, "Performance") change nothing a
phone is sent: every page and answer below is the same, byte for byte, whether its pieces
came from the caches, filled by other games, languages and states before it, or were made
afresh with the caches cleared.

Two games are played alike, move for move; each request is sent to the first with the caches
as earlier requests left them, then, the caches cleared, to the second (the games' ids put
aside, the answers must match).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.scripts import EXAMPLE_C
from tests.tables import CSRF_TOKEN, Table
from webapp import i18n
from webapp.game import controls, pieces, regions
from webapp.i18n import words
from webapp.ui import picker
from webapp.web import game
from webapp.web.security import signed

KEPT = (
    picker._plain_tiles,
    picker._plain_tile,
    regions.count_options,
    game._game_address,
    controls._written,
    pieces._written,
    picker._hinted,
    words._number,
    i18n._best_match,
)


def clear() -> None:
    for function in KEPT:
        function.cache_clear()


class Pair:
    """Two tables entering the same game, one the caches' way and one afresh."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        self.kept, self.fresh = Table(app, client), Table(app, client)
        for table in (self.kept, self.fresh):
            table.create("Ana", "Ben", "Cy")
            table.start(leader="0")

    def same(self, ask: Callable[[Table], TestResponse]) -> str:
        """``ask`` of each game; the answers, ids aside, must be the same. The kept one's."""
        kept = self._said(self.kept, ask)
        clear()
        fresh = self._said(self.fresh, ask)
        assert kept == fresh
        assert kept.count("<") > 5  # a page or regions, not an error
        return kept

    def both(self, act: Callable[[Table], TestResponse]) -> None:
        for table in (self.kept, self.fresh):
            assert act(table).status_code in (200, 303)

    @staticmethod
    def _said(table: Table, ask: Callable[[Table], TestResponse]) -> str:
        response = ask(table)
        assert response.status_code == 200, response.status_code
        body = response.get_data(as_text=True)
        view = table.store.get(table.game_id).view_id
        return body.replace(table.game_id, "GAME").replace(view, "VIEW")


def page(table: Table) -> TestResponse:
    return table.page()


def with_cookie(name: str, value: str) -> Callable[[Table], TestResponse]:
    def ask(table: Table) -> TestResponse:
        table.client.set_cookie(name, value)
        try:
            return table.page()
        finally:
            table.client.delete_cookie(name)

    return ask


def in_language(code: str) -> Callable[[Table], TestResponse]:
    return with_cookie("language", code)


turned = with_cookie("turned", "1")  # the layout as seen from across the table


def watched(table: Table) -> TestResponse:
    """The game by its watch link: every link on it a watch link."""
    return table.client.get(f"/v/{table.store.get(table.game_id).view_id}")


def htmx_play(tile: str, end: str | None = None, **form: str) -> Callable[[Table], TestResponse]:
    return lambda table: table.play(tile, end, htmx=True, **form)


@pytest.fixture
def pair(app: Flask, client: FlaskClient) -> Pair:
    return Pair(app, client)


def test_a_new_hand_and_its_lead_are_sent_alike_from_the_caches(pair: Pair) -> None:
    for code in ("ro", "ha", "en"):
        assert f'<html lang="{code}"' in pair.same(in_language(code))
    pair.same(turned)
    assert "/g/GAME" not in pair.same(watched)
    first = pair.same(page)
    assert 'id="pick-5-5"' in first
    answer = pair.same(htmx_play("5-5"))  # the lead: the picker's tile and the controls sent
    assert 'id="pick-5-5"' in answer and "<option>7</option></select>" in answer
    pair.same(page)


def test_a_hand_in_play_a_choice_and_a_settlement_are_sent_alike(pair: Pair) -> None:
    for tile, end in (("5-5", None), ("5-3", "left"), ("5-2", "right")):
        pair.both(lambda table, tile=tile, end=end: table.play(tile, end))
    choice = pair.same(htmx_play("3-2"))  # it fits the left end and the right: which one?
    assert "3-2" in choice
    pair.same(turned)
    pair.same(htmx_play("3-2", "left"))
    pair.same(htmx_play("2-2", "left"))  # a double on the left, mid-hand
    pair.same(in_language("lo"))
    pair.same(watched)
    pair.same(htmx_play("5-0", "up"))
    pair.same(lambda table: table.draw(3, htmx=True))
    pair.same(page)


def test_a_whole_hand_and_its_settlement_are_sent_alike(app: Flask, client: FlaskClient) -> None:
    pair = Pair(app, client)
    for move in EXAMPLE_C[:-1]:
        pair.same(lambda table, move=move: table.move(move, htmx=True))
        pair.same(page)
    pair.both(lambda table: table.move(EXAMPLE_C[-1]))  # Ana goes out: the hand is settled
    pair.same(page)
    pair.same(in_language("su"))
    pair.both(lambda table: table.settle(step="confirm", tiles_1=["6-5", "1-1"], tiles_2=["3-4"]))
    pair.same(page)  # the hand settled: its scores
    pair.both(lambda table: table.start())
    second = pair.same(page)
    assert 'id="pick-2-0"' in second and "tile played" not in second  # a whole picker again


def test_a_hand_played_with_hints_is_sent_alike(pair: Pair) -> None:
    """The picker with hints is kept per state: each answer compares the picker the phone
    tapped (the previous answer's state) with the one after the play, each the same as made
    afresh, an undo's too."""
    for table in (pair.kept, pair.fresh):
        table.store.set_screen(table.game_id, "coaching", True)
    hinted = pair.same(page)
    assert 'class="pick fits' in hinted or " fits" in hinted
    for tile, end in (("5-5", None), ("5-3", "left"), ("5-2", "right"), ("3-2", "left")):
        pair.same(htmx_play(tile, end, hints="1"))
    pair.same(lambda table: table.undo(htmx=True))
    pair.same(htmx_play("3-2", "left", hints="1"))
    pair.same(htmx_play("2-2", None, hints="1"))
    pair.same(page)


def test_a_games_addresses_follow_the_path_the_app_is_served_under(pair: Pair) -> None:
    """Kept per path too: the same game under ``/tables`` (a proxy's prefix) links there."""
    pair.both(lambda table: table.play("5-5"))
    table = pair.kept
    at_root = table.client.get(table.url).get_data(as_text=True)
    assert f'action="/g/{table.game_id}/draw"' in at_root
    prefixed = table.client.get(table.url, base_url="http://localhost/tables/")
    assert f'action="/tables/g/{table.game_id}/draw"' in prefixed.get_data(as_text=True)


def test_two_games_in_the_same_state_each_post_their_controls_to_their_own_address(
    pair: Pair,
) -> None:
    """The controls are kept per state and per game: a game whose controls are the same as
    another's, kept, still posts them to its own address."""
    pair.both(lambda table: table.play("5-5", htmx=True))
    for table in (pair.kept, pair.fresh):
        body = table.page().get_data(as_text=True)
        region = body[body.index('<section id="controls"') :]
        assert f'action="/g/{table.game_id}/draw"' in region[: region.index("</section>")]
        assert f'action="/g/{table.game_id}/undo"' in region[: region.index("</section>")]


def test_each_device_is_sent_its_own_token_and_the_games_revision_in_kept_controls(
    app: Flask, client: FlaskClient
) -> None:
    """The controls are kept per state, not per device: two phones of the same game, the
    second with a token of its own made by its session, each get their own token and the
    game's current revision in every form of the controls, from the same kept region (a
    token is printed escaped, as the template prints it)."""
    clear()
    table = Table(app, client)
    table.create("Ana", "Ben", "Cy")
    table.start(leader="0")
    other, own = app.test_client(), signed("another-phone", "test")
    with other.session_transaction() as session:
        session["csrf_token"] = own
    pages = [device.get(table.url).get_data(as_text=True) for device in (client, other)]
    assert controls._written.cache_info().hits >= 1  # the second page's controls were kept
    for body, token in zip(pages, (CSRF_TOKEN, own), strict=True):
        region = body[body.index('<section id="controls"') :]
        region = region[: region.index("</section>")]
        print(region)
        assert region.count(f'name="csrf_token" value="{token}"') == 3  # Draw, Pass, Undo
        assert region.count(f'name="seq" value="{table.seq}"') == 3
    answer = table.play("5-5", htmx=True).get_data(as_text=True)
    region = answer[answer.index('<section id="controls"') :]
    assert f'name="seq" value="{table.seq}"' in region and table.seq == 2
    assert f'name="csrf_token" value="{CSRF_TOKEN}"' in region and own not in answer
