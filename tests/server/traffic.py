"""A client that plays legal-looking actions through the JSON API, as a phone at a table would."""

from __future__ import annotations

import random
from typing import Any

from tests.tables import on_table
from webapp.rules import DOUBLE_SIX


def next_action(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random action the rules should accept now (undo now and then)."""
    status = state["status"]
    if status == "awaiting_start":
        return {"type": "start_hand"}
    if status in ("hand_over", "game_over") or rng.random() < 0.05:
        return {"type": "undo"}
    hand = state["hand"]
    ends: dict[str, int] = hand["ends"]
    if not ends:
        return {"type": "play", "tile": str(rng.choice(DOUBLE_SIX))}
    played = on_table(state)
    options = [
        {"type": "play", "tile": str(tile), "end": arm}
        for tile in DOUBLE_SIX
        if str(tile) not in played
        for arm, pip in ends.items()
        if tile.has(pip)
    ]
    if options and rng.random() < 0.8:
        return rng.choice(options)
    if hand["boneyard"]:
        return {"type": "draw", "count": 1}
    return {"type": "pass"} if not options else rng.choice(options)
