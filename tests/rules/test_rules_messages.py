"""The engine's messages are data: a template and its parameters behind the English text.

The web layer says them in the reader's language (``webapp/words.py``); here, that everything
a refusal or an outcome says can be rebuilt from its template and parameters, and that the
parameters are what a player would look for in the sentence (the tile, the ends, the names).
"""

from __future__ import annotations

import copy
import pickle

import pytest
from test_rules_refusals import ENGINE_REFUSALS, R7A_REFUSALS, R14_REFUSALS, build

from webapp.rules import Draw, GameState, IllegalAction, Options, Play, StartHand, Tile, Undo
from webapp.rules.messages import N_, NP_, Items, Message
from webapp.rules.scorebook import Scorebook


def english(said: object) -> str:
    """A message said again from its template and parameters alone, as a translator's
    catalog would be used, with the English templates as the catalog."""
    if isinstance(said, Message):
        params = {name: english(value) for name, value in said.params.items()}
        chosen = said.template if said.plural is None or said.num == 1 else said.plural
        return chosen % params
    if isinstance(said, Items):
        return said.joined([english(value) for value in said.values])
    return str(said)


@pytest.mark.parametrize(
    ("scenario", "action", "kind", "code", "rule", "message"),
    ENGINE_REFUSALS + R7A_REFUSALS + R14_REFUSALS,
)
def test_every_refusal_is_a_template_with_parameters(scenario, action, kind, code, rule, message):
    with pytest.raises(kind) as refused:
        build(scenario).apply(action)
    said = refused.value.message
    assert isinstance(said, Message)
    assert english(said) == message  # nothing of the sentence lives outside template and params
    assert refused.value.params == said.params


@pytest.mark.parametrize(
    ("scenario", "action", "kind", "code", "rule", "message"),
    ENGINE_REFUSALS + R7A_REFUSALS + R14_REFUSALS,
)
def test_every_refusal_says_what_the_table_still_does_next(
    scenario, action, kind, code, rule, message
):
    """A refusal changes nothing, so the turn is where it was: the refusal carries the state's
    own next step, a template with parameters like any message."""
    state = build(scenario)
    with pytest.raises(kind) as refused:
        state.apply(action)
    still = refused.value.still
    assert isinstance(still, Message)
    assert still == state.next_step() and still.template == state.next_step().template
    assert english(still) == str(still)


def test_a_refused_play_or_undo_names_the_player_still_to_play():
    """Ana leads 3-2 (R4); Ben's 6-6 fits no end (R5): still Ben to play. An undo with nothing
    to take back, in a scorebook, says what the table still does too (R3: pick the leader)."""
    state = GameState.replay(Options.make(["Ana", "Ben"]), [StartHand(0), Play(Tile(3, 2))])
    with pytest.raises(IllegalAction) as refused:
        state.apply(Play(Tile(6, 6)))
    still = refused.value.still
    assert (still.template, still.params, str(still)) == (
        "%(name)s to play",
        {"name": "Ben"},
        "Ben to play",
    )
    with pytest.raises(IllegalAction) as nothing:
        Scorebook.replay(Options.make(["Ana", "Ben"]), []).apply(Undo())
    assert nothing.value.code == "nothing_to_undo"
    assert nothing.value.still == "Start the first hand: pick the leader or draw lots (R3)"


def test_a_refusal_names_its_tile_and_ends_as_parameters():
    state = GameState.replay(Options.make(["Ana", "Ben"]), [StartHand(0), Play(Tile(3, 2))])
    with pytest.raises(IllegalAction) as refused:
        state.apply(Play(Tile(6, 6)))
    error = refused.value
    assert (error.code, error.rule) == ("no_match", "R5")
    assert error.message.template == "no open end shows %(halves)s: open ends are %(ends)s"
    assert error.params["halves"] == Items((6,), "or")
    assert error.params["ends"] == Items((3, 2))
    with pytest.raises(IllegalAction) as played:
        state.apply(Play(Tile(2, 3)))
    assert played.value.params == {"tile": "2-3"}


def test_an_outcome_and_the_undo_label_keep_their_parameters():
    book = Scorebook.replay(Options.make(["Ana", "Ben", "Cy"]), [StartHand(0)])
    book, outcome = book.apply(Play(Tile(3, 2)))
    assert outcome.message == "Ana led 3-2: 3 + 2 = 5, scores 5"
    assert outcome.message.params["points"] == 5
    led = outcome.message.params["play"]
    assert isinstance(led, Message)
    assert led.params == {"name": "Ana", "tile": "3-2", "breakdown": "3 + 2 = 5"}
    assert outcome.next.template == "%(name)s to play" and outcome.next.params == {"name": "Ben"}
    book, outcome = book.apply(Draw(2))
    drawn = outcome.message.params["drawn"]
    assert (outcome.message, drawn.num, drawn.plural) == ("Ben drew 2 tiles", 2, "%(num)s tiles")
    _, undone = book.apply(Undo())
    assert undone.message == "Undone: Ben drew 2 tiles"
    assert undone.message.params["done"].params["drawn"].num == 2


@pytest.mark.parametrize(("count", "said"), [(1, "Ana drew a tile"), (2, "Ana drew 2 tiles")])
def test_english_plurals_choose_by_the_count(count, said):
    drawn = NP_("a tile", "%(num)s tiles", count)
    assert N_("%(name)s drew %(drawn)s", name="Ana", drawn=drawn) == said
    assert drawn.params["num"] == count


def test_a_message_survives_copy_and_pickle_with_its_parameters():
    said = N_("%(name)s drew %(drawn)s", name="Ana", drawn=NP_("a tile", "%(num)s tiles", 3))
    for again in (copy.deepcopy(said), pickle.loads(pickle.dumps(said))):
        assert again == said == "Ana drew 3 tiles"
        assert again.template == said.template
        assert again.params["drawn"].num == 3
    with pytest.raises(AttributeError):
        said.template = "something else"  # type: ignore[misc]
