"""The code is laid out as the app's architecture (README, "How the code is laid out"): each
package imports only the packages beneath it, no area imports another, and no module of the
web layer grows past what can be read at once. Read from the source with ``ast``, every import
counted: at the top, inside functions, and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

WEBAPP = Path(__file__).resolve().parent.parent / "webapp"
AREAS = frozenset({"home", "game", "disputes", "sheet", "teaching", "api", "circles"})
BELOW_AREAS = frozenset({"rules", "store", "config", "i18n", "ui", "web"})
#: Which parts each part may import (itself always). The app factory (``webapp/__init__``)
#: puts them together and may import any.
ALLOWED: dict[str, frozenset[str]] = {
    "rules": frozenset(),
    "store": frozenset({"rules"}),
    "config": frozenset({"store"}),
    "i18n": frozenset({"rules", "config"}),
    "ui": frozenset({"rules", "i18n"}),
    "web": frozenset({"rules", "store", "config", "i18n", "ui"}),
    **{area: BELOW_AREAS for area in AREAS},
    "serve": frozenset({"app", "config", "store", "web"}),
    "app": frozenset({*BELOW_AREAS, *AREAS, "serve"}),
}
MOST_LINES = 400


def modules() -> list[Path]:
    return sorted(WEBAPP.rglob("*.py"))


def dotted(path: Path) -> str:
    parts = path.relative_to(WEBAPP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(module: str) -> str:
    """``webapp.game.views`` → ``game``; ``webapp`` and a name of its own (``create_app``) →
    ``app``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ALLOWED else "app"


def imported(path: Path) -> set[str]:
    """Every module of ``webapp`` that ``path`` imports, wherever the import is written."""
    module = dotted(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return imported_by(path.read_text(), package)


def imported_by(source: str, package: str) -> set[str]:
    """Every module of ``webapp`` that ``source``, a module of ``package``, imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.add(name)
            found.update(f"{name}.{alias.name}" for alias in node.names)
    return {name for name in found if name == "webapp" or name.startswith("webapp.")}


def test_the_layout_has_a_package_for_each_part() -> None:
    packages = {path.parent.name for path in WEBAPP.glob("*/__init__.py")}
    assert packages == (BELOW_AREAS - {"config"}) | AREAS | {"serve"}


@pytest.mark.parametrize("path", modules(), ids=lambda path: dotted(path))
def test_each_part_imports_only_the_parts_beneath_it(path: Path) -> None:
    here = part_of(dotted(path))
    allowed = ALLOWED[here] | {here}
    breaches = sorted(
        name
        for name in imported(path)
        if part_of(name) not in allowed and not _is_module_of(name, path)
    )
    assert not breaches, f"{dotted(path)} ({here}) imports {breaches}"


def _is_module_of(name: str, path: Path) -> bool:
    """``from . import bp`` in an area names the area's own package: that is itself."""
    return name == dotted(path)


def test_no_area_imports_another() -> None:
    crossing = sorted(
        (dotted(path), name)
        for path in modules()
        if part_of(dotted(path)) in AREAS
        for name in imported(path)
        if part_of(name) in AREAS and part_of(name) != part_of(dotted(path))
    )
    assert not crossing


@pytest.mark.parametrize(
    "path",
    [path for path in modules() if part_of(dotted(path)) != "rules"],
    ids=lambda path: dotted(path),
)
def test_no_module_of_the_web_layer_is_longer_than_can_be_read_at_once(path: Path) -> None:
    lines = len(path.read_text().splitlines())
    assert lines <= MOST_LINES, f"{dotted(path)} has {lines} lines"


def test_the_import_reader_sees_every_kind_of_import() -> None:
    """The checks above would pass on anything if the reader missed imports: it must not."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from ..game import views\n"
        "if TYPE_CHECKING:\n    from webapp.disputes import check\n"
        "def later():\n    from ..api import shapes\n    import webapp.home\n"
    )
    parts = {part_of(name) for name in imported_by(source, "webapp.ui")}
    assert {"game", "disputes", "api", "home"} <= parts
