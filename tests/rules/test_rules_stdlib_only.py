"""``webapp/rules`` imports nothing outside the standard library (DESIGN, point 1)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "webapp" / "rules"
MODULES = sorted(RULES.glob("*.py"))


def test_the_rules_package_is_where_expected():
    assert {path.name for path in MODULES} >= {"__init__.py", "game.py", "layout.py", "tiles.py"}


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, top-level module) of every absolute import; relative imports stay in the package."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            assert node.module is not None
            found.append((node.lineno, node.module.split(".")[0]))
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_rules_module_imports_only_the_standard_library(path):
    outside = [
        f"{path.name}:{line} imports {module}"
        for line, module in imports_of(path)
        if module not in sys.stdlib_module_names
    ]
    assert outside == []


def test_the_check_catches_a_third_party_import(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text("import flask\nfrom sqlalchemy import orm\nfrom . import tiles\n")
    assert [name for _, name in imports_of(module)] == ["flask", "sqlalchemy"]


def test_importing_the_rules_loads_no_web_or_database_code() -> None:
    """The engine is usable from a Python shell without Flask or SQLAlchemy installed."""
    import subprocess
    import sys

    probe = (
        "import sys, webapp.rules; "
        "web = ('flask', 'sqlalchemy', 'jinja2', 'werkzeug'); "
        "print(sorted(m for m in web if m in sys.modules))"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert found.stdout.strip() == "[]"
