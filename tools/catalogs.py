"""Bring the message catalogs up to date with the code: extract every marked string into
``webapp/i18n/translations/messages.pot``, then merge it into each language's ``.po`` (new messages
empty, changed ones marked fuzzy for a translator to check). Run after changing any marked
text::

    python3 tools/catalogs.py

``tests/i18n/test_catalogs.py`` runs the same extraction and fails while the committed
catalogs are behind it. The ``.mo`` files are compiled by the app when it starts.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "webapp" / "i18n" / "translations"
TEMPLATE = TRANSLATIONS / "messages.pot"
# The engine's no-op markers (webapp/rules): N_("...") and NP_("one", "many").
KEYWORDS = ("_", "gettext", "ngettext:1,2", "pgettext:1c,2", "lazy_gettext", "lazy_pgettext:1c,2")
KEYWORDS += ("N_", "NP_:1,2")
SOURCE = "en"  # the language the messages are written in: its catalog says them as they are


def extract(target: Path) -> None:
    """Every marked message of webapp/ and templates/ (babel.cfg), into ``target``."""
    arguments = ["pybabel", "-q", "extract", "-F", "babel.cfg", "--no-default-keywords"]
    # Folders starting with "_" (templates/_macros, templates/_base) hold words too: only
    # hidden folders and caches are passed over (Babel's default skips "_" folders).
    arguments += ["--ignore-dirs", ".* __pycache__"]
    for keyword in KEYWORDS:
        arguments += ["-k", keyword]
    arguments += [
        "--sort-by-file",
        "--no-wrap",
        "--project",
        "All Fives",
        "--copyright-holder",
        "the All Fives authors",
        "-o",
        str(target),
        ".",
    ]
    with contextlib.chdir(ROOT):  # locations relative to the repository
        CommandLineInterface().run(arguments)


def update() -> None:
    extract(TEMPLATE)
    CommandLineInterface().run(
        ["pybabel", "-q", "update", "--no-wrap", "-i", str(TEMPLATE), "-d", str(TRANSLATIONS)]
    )
    say_as_written(TRANSLATIONS / SOURCE / "LC_MESSAGES" / "messages.po")


def say_as_written(path: Path) -> None:
    """The source language's catalog: every message translated as itself."""
    with path.open("rb") as source:
        catalog = read_po(source, locale=SOURCE)
    for message in catalog:
        if message.id:
            message.string = message.id if isinstance(message.id, str) else tuple(message.id)
            message.flags.discard("fuzzy")
    with path.open("wb") as target:
        write_po(target, catalog, width=0)


if __name__ == "__main__":
    sys.exit(update())
