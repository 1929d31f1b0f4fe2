"""What pages and the API share: the store of the running app, and starting a game."""

from __future__ import annotations

import unicodedata
from typing import Any

from flask import current_app, session

from .rules import PRESETS, BadOptions, Options
from .rules.messages import N_, Items
from .store import Snapshot, Store

RECENT_GAMES = 12


def store() -> Store:
    found: Store = current_app.extensions["allfives_store"]
    return found


def create_game(players: object, partnership: object, rules: dict[str, Any]) -> Snapshot:
    """A new game from names and rule options; :class:`BadOptions` says what is wrong."""
    if not isinstance(players, list):
        raise BadOptions("player_count", N_("list 2 to 4 player names"), "R2")
    # One spelling per name: "José" typed with a combining accent is the same player.
    players = [unicodedata.normalize("NFC", p) if isinstance(p, str) else p for p in players]
    if not isinstance(partnership, bool):
        raise BadOptions("partnership", N_("partnership is true or false"), "R2")
    rules = dict(rules)
    preset = rules.pop("preset", "seed") or "seed"
    if not isinstance(preset, str):
        raise BadOptions(
            "preset", N_("the preset is a name: %(presets)s", presets=Items(tuple(PRESETS)))
        )
    options = Options.make(players, partnership, preset, **rules)
    snapshot = store().create(options)
    remember(snapshot.id)
    return snapshot


def remember(game_id: str) -> None:
    """Keep ``game_id`` in this device's list of recent games (a signed cookie, never a
    server-side list of everyone's games)."""
    recent = [gid for gid in session.get("recent", []) if gid != game_id]
    session["recent"] = [game_id, *recent][:RECENT_GAMES]
    session.permanent = True


def recent_games() -> list[Snapshot]:
    return store().many(session.get("recent", []))
