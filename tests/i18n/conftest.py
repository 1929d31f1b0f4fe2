"""Fixtures for the catalogs and the pseudo-language: a fresh extraction of every marked
message, and an app serving a pseudo-language built from it."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask

from tests.conftest import AppMaker
from webapp.i18n import LANGUAGES, TRANSLATIONS

ROOT = Path(__file__).resolve().parents[2]
# A locale Babel knows that no table plays in: English as spoken worldwide. Its plural rule is
# English's, so the pseudo catalog's forms line up with the messages' own.
PSEUDO = "en_001"
# What a translation must keep as it is: placeholders, escaped percent signs, HTML tags and
# entities. Everything between them is words.
KEPT = re.compile(r"%\(\w+\)[sdif]|%%|\{\w*\}|<[^>]*>|&#?\w+;")


def catalogs_tool() -> ModuleType:
    """tools/catalogs.py, the one place that says how messages are extracted."""
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "tools" / "catalogs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """Every message marked in the code now, extracted as ``tools/catalogs.py`` does."""
    target = tmp_path_factory.mktemp("extracted") / "messages.pot"
    catalogs_tool().extract(target)
    with target.open("rb") as source:
        return read_po(source)


ACCENTED = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "áƀçďéƒĝĥíĵķĺɱñóþǫŕšţúṽŵẋýžÁƁÇĎÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ",
        strict=True,
    )
)


def pseudo(text: str) -> str:
    """``text`` with every letter accented and a third longer, its placeholders and markup
    kept: how a translation that was never written looks different from one that was."""
    words = KEPT.split(text)
    kept = KEPT.findall(text)
    out = []
    for index, part in enumerate(words):
        out.append("".join(ACCENTED.get(char, char) for char in part))
        if index < len(kept):
            out.append(kept[index])
    letters = sum(char.isalpha() for char in text)
    return "".join(out) + ("" if not letters else " " + "·" * max(1, letters // 3))


@pytest.fixture(scope="session")
def pseudo_folder(tmp_path_factory: pytest.TempPathFactory, extracted: Catalog) -> Path:
    folder = tmp_path_factory.mktemp("pseudo")
    catalog = Catalog(locale=PSEUDO)
    for message in extracted:
        if not message.id:
            continue
        if isinstance(message.id, str):
            catalog.add(
                message.id, pseudo(message.id), flags=message.flags, context=message.context
            )
        else:
            forms = tuple(pseudo(form) for form in message.id)
            catalog.add(message.id, forms, flags=message.flags, context=message.context)
    messages = folder / PSEUDO / "LC_MESSAGES"
    messages.mkdir(parents=True)
    with (messages / "messages.mo").open("wb") as target:
        write_mo(target, catalog)
    return folder


@pytest.fixture
def pseudo_app(make_app: AppMaker, pseudo_folder: Path) -> Flask:
    """The app with the pseudo-language as one more language to choose."""
    return make_app(
        LANGUAGES=(*LANGUAGES, PSEUDO),
        BABEL_TRANSLATION_DIRECTORIES=f"{TRANSLATIONS};{pseudo_folder}",
    )
