"""Recorded games and what undo, the game log, replay, the audit and rescore said about them.

``tests/data/golden_games.json`` holds a handful of games (options and the whole stored log,
undos included) with every answer the app gave for them when the file was written: after each
action the outcome and, after each undo, the state it left; the game log after each undo and at
the end; every step of every hand's replay; each settled hand's audit; the game rescored under
two other sets of rules. ``test_golden_games.py`` plays each log again through the store and
compares. Write the file again (only when an answer is meant to change) with::

    PYTHONPATH=. python3 tests/web/golden_games.py

The games: the four of ``previous_version.sqlite3``, two scripted games of the load test, and
random games (options drawn by the random-games test's strategy, then played at random with
undos across hand boundaries, undone settlements and corrections), all with fixed seeds.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

from flask import Flask

from webapp import create_app
from webapp.game.more import _log
from webapp.rules import (
    DOUBLE_SIX,
    Action,
    Arm,
    Correct,
    Draw,
    EndHand,
    GameState,
    Options,
    Pass,
    Play,
    RuleError,
    StartHand,
    Status,
    Undo,
    from_dict,
    to_dict,
)
from webapp.rules.correction import words
from webapp.rules.history import PlayedHand, replay
from webapp.rules.progress import HandResult
from webapp.rules.rescore import Rescore, changed
from webapp.rules.scorebook import Scorebook
from webapp.store import Snapshot, options_from_dict, options_to_dict
from webapp.store.history import hand_audit
from webapp.ui.labels import AuditView
from webapp.web.game import Table, store

DATA = Path(__file__).parent.parent / "data"
GOLDEN = DATA / "golden_games.json"
RESCORES = ({"preset": "pagat"}, {"preset": "muggins", "target": "100", "floor": "zero"})


# --- the games ----------------------------------------------------------------------------------


def stored_games() -> list[dict[str, Any]]:
    """The games of the database the version before the house rules wrote."""
    connection = sqlite3.connect(DATA / "previous_version.sqlite3")
    games = []
    for game_id, options in connection.execute("SELECT id, options FROM games ORDER BY id"):
        rows = connection.execute(
            "SELECT action FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        actions = [json.loads(action) for (action,) in rows]
        games.append({"name": f"stored {game_id}", "options": json.loads(options), "log": actions})
    connection.close()
    return games


def scripted_games() -> list[dict[str, Any]]:
    from tests.scripts import scripted_actions

    games = []
    for seed, players, length in ((1, 3, 160), (2, 4, 240)):
        options = Options.make(["Ana", "Ben", "Cy", "Di"][:players], target=10_000)
        actions = scripted_actions(random.Random(seed), players, length)
        games.append(
            {
                "name": f"scripted {seed}",
                "options": options_to_dict(options),
                "log": [to_dict(action) for action in actions],
            }
        )
    return games


def drawn_options(count: int) -> list[Options]:
    """``count`` options drawn by the random-games test's strategy, the same every run."""
    from hypothesis import HealthCheck, given, settings

    sys.path.insert(0, str(Path(__file__).parent.parent / "rules"))  # as pytest sees it
    from test_rules_random_games import game_options

    found: list[Options] = []

    # Not a test but a recording (tests/conftest.py's profiles are for tests): the same options
    # every time the file is written, so derandomized and never from a database, and no health
    # check, as nothing here is under test.
    @settings(
        derandomize=True,
        max_examples=count,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(game_options())
    def collect(options: Options) -> None:
        if len(found) < count:
            found.append(options)

    collect()
    return found


def random_game(options: Options, seed: int, length: int) -> list[Action]:
    """A game played at random through the rules, with undos (some across hand boundaries and
    of settlements) and corrections: the log as the store keeps it."""
    rng = random.Random(seed)
    book = Scorebook.new(options)
    state = book.state
    log: list[Action] = []
    standing: list[Action] = []

    def take(action: Action) -> bool:
        nonlocal book, state
        try:
            book, _ = book.apply(action, lambda undo: Scorebook.replay(options, [*log, *undo]))
        except RuleError:
            return False
        state = book.state
        log.append(action)
        if isinstance(action, Undo):
            standing.pop()
        else:
            standing.append(action)
        return True

    while len(log) < length:
        roll = rng.random()
        boundary = bool(standing) and isinstance(standing[-1], StartHand | EndHand)
        if standing and (roll < 0.04 or (boundary and roll < 0.25)):
            for _ in range(rng.choice((1, 1, 2, 3))):
                if state.can_undo:
                    take(Undo())
            continue
        if state.status is Status.GAME_OVER:
            break
        if state.status is Status.AWAITING_START:
            leader = state.next_leader
            if leader is None:
                leader = rng.randrange(options.player_count)
            take(StartHand(leader)) or take(StartHand(leader, no_double=True))
            continue
        hand = state.hand
        assert hand is not None
        if state.status is Status.HAND_OVER:
            unplayed = list(hand.unplayed)
            rng.shuffle(unplayed)
            reports: dict[int, Any] = {}
            for seat, held in enumerate(hand.held):
                tiles, unplayed = unplayed[:held], unplayed[held:]
                reports[seat] = tiles if rng.random() < 0.7 else sum(t.pips for t in tiles)
            take(EndHand.of(reports))
            continue
        if hand.moves and rng.random() < 0.05:
            entry = rng.randrange(1, len(hand.moves) + 1)
            fixes = [Play(tile, arm) for tile in DOUBLE_SIX for arm in (None, *Arm)]
            rng.shuffle(fixes)
            for fix in fixes[:40]:
                if take(Correct(entry, (fix,))):
                    break
            continue
        plays = [(tile, place.arm) for tile in DOUBLE_SIX for place in state.placements(tile)]
        if plays and (not state.can_draw or rng.random() < 0.85):
            tile, arm = rng.choice(plays)
            take(Play(tile, arm))
        elif state.can_draw:
            take(Draw(rng.choice((1, 1, 2)), confirm=True)) or take(Draw(1, confirm=True))
        elif state.can_pass:
            take(Pass(confirm=True))
        else:
            take(Undo())
    return log


def random_games() -> list[dict[str, Any]]:
    games = []
    for number, options in enumerate(drawn_options(5)):
        log = random_game(options, 100 + number, 260)
        games.append(
            {
                "name": f"random {number}",
                "options": options_to_dict(options),
                "log": [to_dict(action) for action in log],
            }
        )
    return games


# --- what the app says about them --------------------------------------------------------------


def plain(value: Any) -> Any:
    """``value`` as JSON would hold it: dataclasses and enums by their fields and values."""
    if hasattr(value, "__dataclass_fields__"):
        return {name: plain(getattr(value, name)) for name in value.__dataclass_fields__}
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if hasattr(value, "value") and not isinstance(value, int | str):
        return plain(value.value)
    return value


def state_view(state: GameState) -> dict[str, Any]:
    hand = state.hand
    return {
        "scores": list(state.scores),
        "status": state.status.value,
        "hand_number": state.hand_number,
        "next_leader": state.next_leader,
        "winners": list(state.winners),
        "done": state.done,
        "next": state.next_step(),
        "can_undo": state.can_undo,
        "results": len(state.results),
        "moves": [words(move, state.options.players) for move in hand.moves] if hand else None,
        "layout": hand.layout.breakdown if hand else None,
    }


def log_view(snapshot: Snapshot) -> Any:
    return plain(_log(Table(snapshot.id, viewer=False)))


def hand_view(played: PlayedHand, options: Options) -> dict[str, Any]:
    moves = played.hand.moves
    steps = []
    for step in range(len(moves) + 1):
        layout = moves[step].before if step < len(moves) else played.hand.layout
        steps.append(
            {
                "layout": layout.breakdown,
                "count": layout.count,
                "scores": list(played.scores_at(step, options)),
            }
        )
    found = hand_audit(played, options)
    return {
        "number": played.number,
        "scores_before": list(played.scores_before),
        "moves": [words(move, options.players) for move in moves],
        "steps": steps,
        "result": plain(played.result),
        "fixes": [fixed.message for fixed in played.fixes],
        "audit": plain(AuditView.of(found, options)) if found else None,
    }


def rescore_view(found: Rescore) -> dict[str, Any]:
    return {
        "same": found.same,
        "endings": [found.ending_as_played(), found.ending(found.other)],
        "rows": [
            [
                number,
                *(plain(p if isinstance(p, HandResult) else p.result) if p else None for p in pair),
            ]
            for number, *pair in found.rows()
        ],
    }


def answers(app: Flask, game: dict[str, Any], cold: bool = False) -> dict[str, Any]:
    """Everything the app says about ``game``, played action by action through the store
    (``cold``: with nothing cached before each action, as in a fresh process)."""
    options = options_from_dict(game["options"])
    log = [from_dict(action) for action in game["log"]]
    with app.app_context():
        snapshot = store().create(options)
        steps: list[dict[str, Any]] = []
        for action in log:
            if cold:
                store().cache.clear()
            snapshot, outcome = store().apply(snapshot.id, snapshot.seq, action)
            step: dict[str, Any] = {"message": outcome.message, "next": outcome.next}
            if isinstance(action, Undo):
                step["state"] = state_view(snapshot.state)
                step["log"] = log_view(snapshot)
            steps.append(step)
        history = store().history(snapshot)
        return {
            "steps": steps,
            "state": state_view(snapshot.state),
            "log": log_view(snapshot),
            "hands": [hand_view(played, options) for played in history.hands],
            "rescores": [
                rescore_view(Rescore(snapshot.state, replay(changed(options, **change), log)))
                for change in RESCORES
            ],
        }


def make_app(database: Path) -> Flask:
    return create_app({"TESTING": True, "DATABASE": f"sqlite:///{database}", "SECRET_KEY": "t"})


def write(folder: Path) -> None:
    games = [*stored_games(), *scripted_games(), *random_games()]
    app = make_app(folder / "golden.sqlite3")
    for game in games:
        game["answers"] = answers(app, game)
    app.extensions["allfives_store"].close()
    GOLDEN.write_text(json.dumps(games, indent=None, separators=(",", ":")) + "\n")
    for game in games:
        undos = sum(1 for action in game["log"] if action.get("type") == "undo")
        print(game["name"], len(game["log"]), "actions,", undos, "undos")


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        write(Path(folder))
    sys.exit(0)
