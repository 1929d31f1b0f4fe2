"""The app's colours are written once, in static/app.css's palette: each a colour of its own or
``light-dark(light, dark)``, so the dark set cannot drift between the phone's dark setting and
the device panel's Dark (tests/browser/test_colours.py checks both in Chromium)."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent.parent / "static"
APP_CSS = STATIC / "app.css"
PAGES_CSS = STATIC / "pages.css"  # the other pages' rules: colours from app.css's palette too
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b")


def declarations() -> list[tuple[str, str, str, int]]:
    """Every declaration of the stylesheets: (the selectors and at-rules around it, property,
    value, line), comments dropped."""
    css = re.sub(
        r"/\*.*?\*/",
        lambda m: "\n" * m.group().count("\n"),
        APP_CSS.read_text() + PAGES_CSS.read_text(),
        flags=re.S,
    )
    found, stack, text, line = [], [], "", 1
    for char in css:
        if char == "{":
            stack.append(" ".join(text.split()))
            text = ""
        elif char in ";}":
            prop, colon, value = text.partition(":")
            if colon and stack:
                found.append((" / ".join(stack), prop.strip(), value.strip(), line))
            text = ""
            if char == "}" and stack:
                stack.pop()
        else:
            text += char
        line += char == "\n"
    return found


def palette() -> dict[str, list[tuple[str, str, int]]]:
    """Each colour custom property: where it is declared, with what value."""
    colours: dict[str, list[tuple[str, str, int]]] = {}
    for where, prop, value, line in declarations():
        if prop.startswith("--") and (COLOUR.search(value) or "light-dark(" in value):
            colours.setdefault(prop, []).append((where, value, line))
    return colours


def test_each_colour_is_declared_once_light_and_dark_together() -> None:
    colours = palette()
    assert len(colours) > 50  # the palette was read
    twice = {name: places for name, places in colours.items() if len(places) > 1}
    assert not twice, f"declared more than once (write light-dark(light, dark) once): {twice}"
    rules = {where for places in colours.values() for where, _, _ in places}
    assert rules == {":root"}, rules


def test_a_colour_the_same_in_both_sets_is_written_plain() -> None:
    pairs = [
        f"{name}: {value}"
        for name, places in palette().items()
        for _, value, _ in places
        if (pair := re.fullmatch(r"light-dark\((.+),(.+)\)", value))
        and pair.group(1).strip() == pair.group(2).strip()
    ]
    assert not pairs, pairs


def test_no_colour_is_written_outside_the_palette() -> None:
    """A colour written in a rule would not change with the theme: it belongs in the palette."""
    stray = [
        f"app.css:{line}: {prop}: {value}"
        for where, prop, value, line in declarations()
        if not prop.startswith("--") and COLOUR.search(value)
    ]
    assert not stray, stray


def test_only_the_scheme_follows_the_phone_and_the_switch() -> None:
    """The media query and data-theme choose light or dark; neither writes a colour."""
    chosen = [
        (where, prop, value)
        for where, prop, value, _ in declarations()
        if "prefers-color-scheme" in where or "data-theme" in where
    ]
    assert sorted(chosen) == [
        (':root[data-theme="dark"]', "color-scheme", "dark"),
        (
            '@media (prefers-color-scheme: dark) / :root:not([data-theme="light"])',
            "color-scheme",
            "dark",
        ),
    ]
