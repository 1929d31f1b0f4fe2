"""Settling a hand (R13, R14): what the table entered for each player still holding tiles,
the reports the rules take from it, and the settlement previewed before it is stored."""

from __future__ import annotations

from collections.abc import Mapping

from flask import request

from ..rules import (
    EndHand,
    GameState,
    RuleError,
    Status,
    deduced_pips,
)
from ..ui.labels import rounding_reasons
from .regions import Entry, Preview
from .screen import preview_of


def entered(state: GameState) -> dict[int, Entry]:
    """What was entered for each seat still holding tiles: pips typed, or tiles tapped; and the
    pips of the one player the rules can work out (R14), marked as deduced."""
    hand = state.hand
    if hand is None or state.status is not Status.HAND_OVER:
        return {}
    found = {seat: _typed(seat) for seat, held in enumerate(hand.held) if held}
    try:
        known = reports(state, found)
    except RuleError:
        return found
    deduced = deduced_pips(known.by_seat, hand.held, hand.unplayed, hand.boneyard)
    if deduced is not None:
        seat, pips = deduced
        found[seat] = Entry(pips=str(pips), deduced=True)
    return found


def as_sent(state: GameState) -> EndHand:
    """The settlement as a form for an earlier revision sent it, every seat's fields read (its
    hand may be settled since): what it asks for, to know it if it was already recorded."""
    found = {seat: _typed(seat) for seat in range(state.options.player_count)}
    try:
        return reports(state, found)
    except RuleError:
        return EndHand(())


def _typed(seat: int) -> Entry:
    """What the form says for ``seat``: the pips typed, the tiles tapped."""
    source = request.values
    return Entry(
        pips=source.get(f"pips_{seat}", "").strip()[:4],
        tiles=tuple(t[:5] for t in source.getlist(f"tiles_{seat}"))[:28],
    )


def reports(state: GameState, found: Mapping[int, Entry]) -> EndHand:
    """The entries as the rules take them: tiles, or a whole number of pips (R14)."""
    entered = {seat: (entry.pips, entry.tiles) for seat, entry in found.items()}
    return EndHand.parse(entered, state.options.players)


def preview(
    state: GameState, found: Mapping[int, Entry]
) -> tuple[Preview | None, RuleError | None]:
    """The settlement as the rules would make it, or why they would refuse it; nothing before
    every player's entry is in."""
    required = state.options.variant.counts_pips  # R28: the tiles left are only for the audit
    if required and not all(entry.given for entry in found.values()):
        return None, None
    try:
        after, outcome = state.apply(reports(state, found))
    except RuleError as refusal:
        return None, refusal
    assert outcome.result is not None
    why = rounding_reasons(outcome.result.pips, state.options.rounding)
    return preview_of(state, outcome, after, why), None
