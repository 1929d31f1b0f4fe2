"""The templates say each thing one way, in lines that can be read: every form that changes
something is written by one macro (``templates/_macros/form.html``), which gives it its real
action, the device's CSRF token and, for a game's action, the game's ``seq``; the presets are
written once; no line is wider than a screen."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

from .conftest import Table

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"
FORM_MACRO = TEMPLATES / "_macros" / "form.html"
# The game's actions in its log: a form posting one of them must carry the seq it was drawn at,
# so a stale or repeated tap is refused (the settings switches and "play again" are not moves).
MOVES = {"game.start", "game.play", "game.draw", "game.pass_turn", "game.undo", "game.settle"}
MOVES |= {"game.fix"}
WIDEST = 160  # characters; Jinja's whitespace control wraps a line where no space may appear


def template_lines() -> list[tuple[str, int, str]]:
    """Every line of every template: (path under templates/, line number, line)."""
    found = []
    for path in sorted(TEMPLATES.rglob("*")):
        if path.suffix in {".html", ".js"}:
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                found.append((str(path.relative_to(TEMPLATES)), number, line))
    return found


def test_only_the_form_macro_writes_a_post_form_or_a_csrf_field() -> None:
    mine = str(FORM_MACRO.relative_to(TEMPLATES))
    written = [
        f"{path}:{number}: {line.strip()}"
        for path, number, line in template_lines()
        if path != mine and re.search(r'method="post"|csrf_token', line, flags=re.I)
    ]
    assert not written, (
        "write a form that posts with {% call post_form(url, ...) %} from _macros/form.html:\n"
        + "\n".join(written)
    )


def forms(page: str) -> list[tuple[str, str]]:
    """Each form of a page: its opening tag and what it holds."""
    return re.findall(r"(<form[^>]*>)(.*?)</form>", page, flags=re.S)


def test_every_post_form_carries_the_token_once_and_a_move_the_games_seq(
    app: Flask, table: Table
) -> None:
    table.create("Ana", "Ben", "Cy")
    pages = {"new game": (table.client.get("/new").text, None)}
    pages["who leads"] = (table.page().text, table.seq)
    table.start(leader="0")
    table.play("5-5")
    pages["playing"] = (table.page().text, table.seq)
    pages["check"] = (table.client.get(f"{table.url}/check?tile=5-0&end=left").text, table.seq)
    pages["fix"] = (table.client.get(f"{table.url}/fix/1?tile=5-0").text, table.seq)
    adapter = app.url_map.bind("localhost")
    seen = set()
    for name, (page, seq) in pages.items():
        for tag, inside in forms(page):
            if 'method="post"' not in tag:
                continue
            action = re.search(r' action="([^"]+)"', tag)
            assert action, (name, tag)
            endpoint, _ = adapter.match(action.group(1), method="POST")
            seen.add(endpoint)
            assert len(re.findall(r'name="csrf_token" value="[^"]+"', inside)) == 1, (name, tag)
            seqs = re.findall(r'name="seq" value="([^"]*)"', inside)
            if endpoint in MOVES:
                assert seqs == [str(seq)], (name, tag)
            else:
                assert not seqs, (name, tag)
    assert {"home.create", "game.start", "game.play", "game.draw", "game.fix"} <= seen


def test_the_preset_choices_are_written_once_for_the_new_game_form_and_rescoring() -> None:
    writing = sorted({path for path, _, line in template_lines() if 'name="preset"' in line})
    assert writing == ["_macros/rule_field.html"], writing


def test_no_template_line_is_over_160_characters() -> None:
    wide = [
        f"templates/{path}:{number}: {len(line)} characters"
        for path, number, line in template_lines()
        if len(line) > WIDEST
    ]
    assert not wide, f"wrap these lines (at most {WIDEST} characters):\n" + "\n".join(wide)


def test_a_template_sees_the_globals_as_jinja_layers_them(app: Flask) -> None:
    """The templates' globals are kept as a dictionary's names for speed (``web/pages.py``),
    but layered as Jinja layers them: a template's own globals over the app's, and a global
    the app gains after a template was loaded seen by it and by what it imports."""
    env = app.jinja_env
    page = env.from_string("{{ own }} {{ shared }} {{ late }}", {"own": "mine", "shared": "page"})
    env.globals.update(shared="app", late="later")
    assert page.render() == "mine page later"
    assert env.from_string("{{ shared }}").render() == "app"
    assert {"own", "shared", "late", "url_for"} <= set(page.globals.keys())
    importing = env.from_string('{% from "_macros/form.html" import post_form %}{{ late }}')
    assert importing.render() == "later"
