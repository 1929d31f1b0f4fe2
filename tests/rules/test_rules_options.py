"""The options of a game as one typed set: enum members in the engine, RULES.md's words outside
(R1, R13–R25)."""

from __future__ import annotations

import enum
import json
import pickle

import pytest

from webapp.rules import (
    Blocked,
    Deal,
    Doubles,
    Draws,
    Finish,
    FirstLead,
    Floor,
    Options,
    Points,
    Rounding,
    RoundingOf,
    Settlement,
    Spinners,
)
from webapp.rules.options import OPTION_SPECS, SPECS
from webapp.rules.variant import Variant

NAMED = [spec for spec in OPTION_SPECS if isinstance(spec.default, enum.StrEnum)]


@pytest.mark.parametrize("spec", NAMED, ids=lambda spec: spec.name)
def test_each_named_value_is_its_enum_member_in_options_and_variant_and_plain_text_stored(spec):
    members = type(spec.default)
    assert spec.values == tuple(members)  # the table lists every member, the default first
    for member in members:
        text = member.value
        fives = {"points": "fives"} if spec.name == "count" else {}  # R26 needs fives
        options = Options.make(["Ana", "Ben"], **{spec.name: text}, **fives)
        held = getattr(options, spec.name)
        assert held is member and spec.read(text) is member
        if spec.name != "deal":  # the deal is the table's: it needs the number of players
            assert getattr(options.variant, spec.name) is member
        stored = options.rules_dict()[spec.name]
        assert stored == text and type(stored) is str
        assert options.value(spec.name) == text and type(options.value(spec.name)) is str


def test_the_rules_of_a_game_are_written_exactly_as_before():
    options = Options.make(
        ["Ana", "Ben"], preset="pagat", rounding="up", reserve="by-players", blocked="nobody"
    )
    assert json.dumps(options.rules_dict()) == (
        '{"preset": "pagat", "target": 250, "deal": "9-7-5", "spinner": "first-double", '
        '"doubles": "both-halves", "draw": "when-stuck", "reserve": "by-players", '
        '"first_lead": "by-lot", "settlement": "winner-takes", "rounding": "up", '
        '"rounding_of": "total", "blocked": "nobody", "floor": "none", "finish": "immediate", '
        '"points": "pips", "count": "fives", "next_lead": "went-out", "get_in": 0, '
        '"time_limit": 0}'
    )
    assert options.changes() == (
        ("reserve", "by-players"),
        ("rounding", "up"),
        ("blocked", "nobody"),
    )
    assert options.title == "Pagat, a reserve by players, rounding up, nobody scores a block"


def test_the_variant_is_built_from_the_options_by_name_with_the_reserve_resolved():
    two = Options.make(["Ana", "Ben"], preset="five-up", reserve="by-players", floor="zero")
    assert two.variant == Variant(
        spinner=Spinners.EVERY_DOUBLE,
        doubles=Doubles.BOTH_HALVES,
        draw=Draws.WHEN_STUCK,
        reserve=2,  # R20: two tiles never drawn with 2 players
        first_lead=FirstLead.BY_LOT,
        settlement=Settlement.WINNER_TAKES,
        rounding=Rounding.NEAREST,
        rounding_of=RoundingOf.TOTAL,
        blocked=Blocked.FEWEST_TAKES,
        floor=Floor.ZERO,
        finish=Finish.IMMEDIATE,
        points=Points.FIVES,
    )
    three = Options.make(["Ana", "Ben", "Cy"], preset="five-up", reserve="by-players")
    assert three.variant.reserve == 1 and three.deal is Deal.FIVE
    assert three.variant is Options.make(["Di", "Ed", "Flo"], preset="five-up", reserve=1).variant


def test_options_pickle_and_come_back_with_the_same_members_and_variant():
    options = Options.make(["Ana", "Ben", "Cy"], preset="muggins", rounding="down", reserve=2)
    again = pickle.loads(pickle.dumps(options))
    assert again == options
    assert again.spinner is Spinners.NONE and again.rounding is Rounding.DOWN
    assert again.variant is options.variant


def test_a_member_compares_and_prints_as_the_word_rules_md_uses():
    options = Options.make(["Ana", "Ben"], rounding="none")
    assert options.rounding == "none" and f"{options.rounding}" == "none"
    assert {"none": "counted as they are"}[options.rounding] == "counted as they are"
    assert SPECS["rounding"].label(options.rounding) == SPECS["rounding"].label("none")
