"""The catalogs cannot rot: the committed template holds every message marked in the code, and
every language translates every one of them, none fuzzy or empty, each with the placeholders of
the English, in as many plural forms as the language has.

These fail until the translations are written: each failure lists everything still missing."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from webapp.i18n import LANGUAGES, TRANSLATIONS

# %(name)s / %(num)d, and {name} (str.format); %% is a percent sign, not a placeholder.
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|\{\w*\}")
SHOWN = 8  # examples of each problem shown per language; the count says how many in all


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale)


def keys(catalog: Catalog) -> set[tuple[object, str | None]]:
    return {(message.id, message.context) for message in catalog if message.id}


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text.replace("%%", "")))


def english(message: Message, forms: int) -> tuple[set[str], set[str]]:
    """The placeholders each form of a translation must keep, and those it may: a message's
    own; for a plural, the English singular may say its count in words ("a tile", "one
    unplayed tile"), so a language with several forms must keep what both English forms
    share and may use the rest, while a language with one form says every count with it and
    keeps them all."""
    english_forms = [message.id] if isinstance(message.id, str) else list(message.id)
    found = [set(placeholders(form)) for form in english_forms]
    allowed = set().union(*found)
    return (allowed if forms == 1 else set.intersection(*found)), allowed


def test_the_committed_template_holds_every_marked_message(extracted: Catalog) -> None:
    committed = read(TRANSLATIONS / "messages.pot")
    missing = sorted(map(str, keys(extracted) - keys(committed)))
    stale = sorted(map(str, keys(committed) - keys(extracted)))
    assert not missing and not stale, (
        "webapp/i18n/translations/messages.pot is out of date: run `python3 tools/catalogs.py`.\n"
        f"Not in it ({len(missing)}): {missing[:SHOWN]}\nNo longer used ({len(stale)}): "
        f"{stale[:SHOWN]}"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_translates_every_message(extracted: Catalog, language: str) -> None:
    path = TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
    assert path.exists(), f"no catalog for {language}: pybabel init -l {language}"
    catalog = read(path, language)
    plurals = get_plural(Locale.parse(language))
    assert catalog.num_plurals == plurals.num_plurals, (
        f"{language}: the catalog has {catalog.num_plurals} plural forms, the language "
        f"{plurals.num_plurals} ({plurals.plural_expr})"
    )
    problems: dict[str, list[str]] = defaultdict(list)
    for key in sorted(keys(extracted) - keys(catalog), key=str):
        problems["missing"].append(str(key[0]))
    for message in catalog:
        if not message.id:
            continue
        shown = message.id if isinstance(message.id, str) else message.id[0]
        forms = [message.string] if isinstance(message.id, str) else list(message.string)
        if message.fuzzy:
            problems["fuzzy"].append(shown)
        if not isinstance(message.id, str) and len(forms) != plurals.num_plurals:
            problems["wrong number of plural forms"].append(shown)
        if not all(forms):
            problems["empty"].append(shown)
            continue
        required, allowed = english(message, plurals.num_plurals)
        for form in forms:
            if not required <= set(placeholders(form)) <= allowed:
                problems["placeholders differ from the English"].append(f"{shown!r} → {form!r}")
    assert not problems, f"{language} ({path.relative_to(TRANSLATIONS.parent.parent)}):\n" + (
        "\n".join(
            f"  {kind} ({len(found)}): " + "; ".join(found[:SHOWN])
            for kind, found in problems.items()
        )
    )
