"""A client that plays legal-looking actions through the JSON API, as a phone at a table would."""

from __future__ import annotations

import random
from typing import Any

ALL_TILES = [(a, b) for a in range(6, -1, -1) for b in range(a, -1, -1)]


def on_table(state: dict[str, Any]) -> set[tuple[int, int]]:
    layout = state["hand"]["layout"]
    tiles = [layout["lead"], *(t for arm in layout["arms"].values() for t in arm)]
    found = set()
    for text in tiles:
        if text:
            a, b = (int(x) for x in text.split("-"))
            found.add((max(a, b), min(a, b)))
    return found


def next_action(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random action the rules should accept now (undo now and then)."""
    status = state["status"]
    if status == "awaiting_start":
        return {"type": "start_hand"}
    if status in ("hand_over", "game_over") or rng.random() < 0.05:
        return {"type": "undo"}
    hand = state["hand"]
    ends: dict[str, int] = hand["ends"]
    played = on_table(state)
    if not ends:
        tile = rng.choice(ALL_TILES)
        return {"type": "play", "tile": f"{tile[0]}-{tile[1]}"}
    options = [
        {"type": "play", "tile": f"{a}-{b}", "end": arm}
        for a, b in ALL_TILES
        if (a, b) not in played
        for arm, pip in ends.items()
        if pip in (a, b)
    ]
    if options and rng.random() < 0.8:
        return rng.choice(options)
    if hand["boneyard"]:
        return {"type": "draw", "count": 1}
    return {"type": "pass"} if not options else rng.choice(options)
