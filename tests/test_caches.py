"""Memory a server process holds outside the games' byte budget (``webapp/store/cache.py``)
stays bounded however long it runs: every cache of a function kept for the process has a
maximum size, so a process that settles a million hands or meets every set of house rules
holds no more than a process that met a few (README, "Performance")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from flask import Flask

from tests.test_code_layout import dotted, modules


def unbounded_caches(path: Path) -> list[str]:
    """The functions of ``path`` kept for the whole process by a cache with no maximum size
    (``functools.cache``, ``lru_cache(maxsize=None)``); a cache on a function made inside
    another lives as long as that call, and is not counted."""
    found = []
    tree = ast.parse(path.read_text())
    nested = {
        id(inner)
        for outer in ast.walk(tree)
        if isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef)
        for inner in ast.walk(outer)
        if inner is not outer and isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or id(node) in nested:
            continue
        for decorator in node.decorator_list:
            if _unbounded(decorator):
                found.append(node.name)
    return found


def _unbounded(decorator: ast.expr) -> bool:
    name = ast.unparse(decorator)
    if name in ("cache", "functools.cache"):
        return True
    if isinstance(decorator, ast.Call) and ast.unparse(decorator.func).endswith("lru_cache"):
        sizes = [kw.value for kw in decorator.keywords if kw.arg == "maxsize"]
        sizes += decorator.args[:1]
        return any(isinstance(size, ast.Constant) and size.value is None for size in sizes)
    return False


@pytest.mark.parametrize("path", modules(), ids=lambda path: dotted(path))
def test_no_function_is_cached_without_a_bound_for_the_whole_process(path: Path) -> None:
    assert unbounded_caches(path) == []


def test_the_check_finds_an_unbounded_cache(tmp_path: Path) -> None:
    source = "from functools import cache, lru_cache\n@cache\ndef f(x): ...\n"
    source += "@lru_cache(maxsize=None)\ndef g(x): ...\n@lru_cache(maxsize=8)\ndef h(x): ...\n"
    source += "def outer():\n    @cache\n    def inner(x): ...\n"
    probe = tmp_path / "probe.py"
    probe.write_text(source)
    assert unbounded_caches(probe) == ["f", "g"]


def test_the_hands_played_are_remembered_in_a_bounded_number_of_entries() -> None:
    """R7a's record of a hand is kept per hand being played (``rules/evidence.py``), at most
    ``_RECENT_SIZE`` of them however many hands a process sees."""
    import random

    from tests.scripts import scripted_actions
    from webapp.rules import GameState, Options, evidence

    for seed in range(12):
        game = GameState.new(Options.make(["Ana", "Ben", "Cy"]))
        for action in scripted_actions(random.Random(seed), 3, 400):
            try:
                game, _ = game.apply(action)
            except Exception:  # a script may outrun the game's end
                break
    assert 0 < len(evidence._RECENT) <= evidence._RECENT_SIZE


def test_the_controls_are_kept_in_a_bounded_number_of_regions(app: Flask) -> None:
    """The controls region is kept per language, game's addresses and state of the controls
    (``game/controls.py``): one entry per game and state, the oldest let go past the bound,
    however many games a process serves."""
    from tests.tables import Table, device
    from webapp.game import controls

    controls._written.cache_clear()
    for _ in range(3):
        table = Table(app, device(app))
        table.create("Ana", "Ben", "Cy")
        table.start(leader="0")
        assert table.page().status_code == 200
        assert table.play("5-5", htmx=True).status_code == 200
    kept = controls._written.cache_info()
    assert kept.currsize == 6  # each game's controls before its lead and after it
    assert kept.maxsize is not None and kept.maxsize <= 1024
