"""The modules of ``webapp/rules`` import one another without a cycle.

Every import counts: at the top of a module, inside a function, and under ``if TYPE_CHECKING:``.
A cycle hidden in a function still means neither module can be read, tested or moved without
the other; this test names the cycle so the one who adds it sees where to cut.
"""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "webapp" / "rules"
PACKAGE = "webapp.rules"


def package_imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of the package (by file stem) that the module at ``path`` imports anywhere
    in its code: relative imports and absolute ``webapp.rules.…`` ones."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                named = node.module
            elif node.level == 0 and node.module and node.module.startswith(PACKAGE + "."):
                named = node.module.removeprefix(PACKAGE + ".")
            elif node.level == 0 and node.module == PACKAGE:
                named = None
            else:
                continue
            if named is None:  # ``from . import evidence``: each name a module, or the package's
                found |= {
                    alias.name if alias.name in modules else "__init__" for alias in node.names
                }
            else:
                found.add(named.split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE + "."):
                    found.add(alias.name.removeprefix(PACKAGE + ".").split(".")[0])
    return found - {path.stem}


def import_graph(folder: Path) -> dict[str, set[str]]:
    paths = sorted(folder.glob("*.py"))
    modules = {path.stem for path in paths}
    return {path.stem: package_imports(path, modules) & modules for path in paths}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each module that is on one, each written from its first module (in
    name order) back to it: ``["correction", "game", "correction"]``."""
    found: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    for start in sorted(graph):
        path = _path_back(graph, start)
        if path is None:
            continue
        loop = path[:-1]
        first = loop.index(min(loop))
        turned = (*loop[first:], *loop[:first])
        if turned not in seen:
            seen.add(turned)
            found.append([*turned, turned[0]])
    return found


def _path_back(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """The shortest chain of imports from ``start`` back to itself, if there is one."""
    frontier = [[start]]
    reached = {start}
    while frontier:
        following = []
        for chain in frontier:
            for imported in sorted(graph[chain[-1]]):
                if imported == start:
                    return [*chain, start]
                if imported not in reached:
                    reached.add(imported)
                    following.append([*chain, imported])
        frontier = following
    return None


def test_the_rules_modules_import_one_another_without_a_cycle() -> None:
    graph = import_graph(RULES)
    assert {"game", "correction", "scorebook"} <= set(graph)
    assert [" → ".join(cycle) for cycle in cycles(graph)] == []


def test_the_engine_the_fold_and_the_fix_depend_one_way() -> None:
    """game folds actions and fixes moves through correction; scorebook keeps game's states."""
    graph = import_graph(RULES)
    assert "correction" in graph["game"]
    assert "game" in graph["scorebook"]
    assert "game" not in graph["correction"] and "scorebook" not in graph["game"]


def test_the_check_finds_a_cycle_hidden_in_a_function_or_for_type_checking(tmp_path) -> None:
    (tmp_path / "__init__.py").write_text("from .fold import Fold\n")
    (tmp_path / "fold.py").write_text("from . import tiles\n\ndef fix():\n    from .fix import x\n")
    (tmp_path / "fix.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .book import Book\n"
    )
    (tmp_path / "book.py").write_text("import webapp.rules.fold\n")
    (tmp_path / "tiles.py").write_text("import re\n")
    graph = import_graph(tmp_path)
    assert graph["fold"] == {"tiles", "fix"}
    assert [" → ".join(cycle) for cycle in cycles(graph)] == ["book → fold → fix → book"]


def test_the_check_finds_two_modules_that_import_each_other(tmp_path) -> None:
    (tmp_path / "game.py").write_text("def replay():\n    from .scorebook import Scorebook\n")
    (tmp_path / "scorebook.py").write_text("from webapp.rules.game import GameState\n")
    assert cycles(import_graph(tmp_path)) == [["game", "scorebook", "game"]]
