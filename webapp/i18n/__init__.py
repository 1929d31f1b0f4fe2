"""The reader's language: Flask-Babel, gettext catalogs, and the switch between languages.

The language is the one this device chose (a cookie kept for a year), else the browser's best
match among ``LANGUAGES`` (``Accept-Language``), else English. Pages, htmx regions and the JSON
API all read it the same way, per request. The catalogs are committed as ``.po`` files in
``webapp/i18n/translations``; each is compiled to its ``.mo`` when the app starts and the ``.mo`` is
missing or older, so a fresh clone needs no extra step.
"""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Blueprint, Flask, current_app, has_request_context, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import Babel, gettext
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..config import StartupError
from .words import get_locale

LANGUAGES = ("en", "ceb", "ro", "su", "lo", "ha")
DEFAULT = "en"
COOKIE = "language"
COOKIE_AGE = 60 * 60 * 24 * 365
TRANSLATIONS = Path(__file__).parent / "translations"
DOMAIN = "messages"

bp = Blueprint("i18n", __name__)


def compile_catalogs(folder: Path) -> None:
    """Compile every ``<lang>/LC_MESSAGES/messages.po`` under ``folder`` whose ``.mo`` is
    missing, older or not readable by every user. Several workers may start at once: each
    writes a temporary file beside the target and renames it into place, so none ever reads
    half a catalog, and every user may read it (mode 0644)."""
    for po in sorted(folder.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime and _readable(mo):
            continue
        try:
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            for message in list(catalog):
                # A plural not translated in every form is left out, so it reads in English
                # (write_mo keeps it, and gettext would print its empty forms).
                forms = message.string
                if message.id and isinstance(forms, tuple | list) and not all(forms):
                    catalog.delete(message.id, message.context)
            handle, temporary = tempfile.mkstemp(dir=po.parent, prefix=".messages-", suffix=".mo")
            try:
                with os.fdopen(handle, "wb") as target:
                    write_mo(target, catalog)
                # Readable by every user (mkstemp makes it the owner's alone): a service user
                # serves what root compiled at the first start.
                os.chmod(temporary, 0o644)
                os.replace(temporary, mo)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError as error:
            raise StartupError(
                f"cannot compile the translations in {po.parent}: make the folder writable "
                "by this user, or run `pybabel compile -d webapp/i18n/translations` once"
            ) from error


def _readable(path: Path) -> bool:
    """Whether every user may read ``path`` (one compiled before they were made so is made
    again)."""
    return path.stat().st_mode & 0o044 == 0o044


def language() -> str:
    """This request's language: the device's choice, else the browser's best match (outside
    a request, in the shell or a script: the default). Every request asks once."""
    if not has_request_context():
        return DEFAULT
    languages = current_app.config["LANGUAGES"]
    environ = request.environ
    # (the cookies parsed only if this one's name is among them: most requests have none)
    if COOKIE in environ.get("HTTP_COOKIE", ""):
        chosen = request.cookies.get(COOKIE, "")
        if chosen in languages:
            return chosen
    return _best_match(environ.get("HTTP_ACCEPT_LANGUAGE", ""), tuple(languages))


@functools.lru_cache(maxsize=256)
def _best_match(accepted: str, languages: tuple[str, ...]) -> str:
    """The browser's best match among ``languages`` for its ``Accept-Language``, worked out
    once per header as browsers send it (a few dozen calls each time: every request asks)."""
    return parse_accept_header(accepted, LanguageAccept).best_match(languages) or DEFAULT


def _reader_locale() -> Locale:
    """Flask-Babel's locale selector: this request's language as its ``Locale``, which
    Flask-Babel takes as it is (a language's name it would parse again on every request)."""
    return _locale(language())


@functools.lru_cache(maxsize=16)  # one per language offered
def _locale(code: str) -> Locale:
    return Locale.parse(code)


@functools.lru_cache(maxsize=16)  # one per language offered
def _own_name(code: str) -> str:
    """A language named in itself ("română", "ລາວ"), capitalised as a menu item."""
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


# The longest page address to come back to: a game's replay or rescore with its form is far
# shorter; a longer one is no page of this site, and would make every menu link as long.
MAX_NEXT = 512


def _here() -> str:
    """The page to come back to after switching: this one, unless it answered a form (or its
    address is too long to be one of this site's)."""
    here = request.full_path.rstrip("?")
    if request.method != "GET" or len(here) > MAX_NEXT:
        return url_for("home.home")
    return here


def _same_origin_path(target: str) -> str | None:
    """``target`` if it is a path on this site (no scheme, host or ``//``) of at most
    ``MAX_NEXT`` characters, else None."""
    if len(target) > MAX_NEXT:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return None
    if "\\" in target or any(ord(char) < 32 for char in target):
        return None
    return target


def menu(back: str | None = None) -> dict[str, Any]:
    """The language switcher's view model: the current language, and a link for each, each
    coming back to ``back`` (a path of this site), else to this page."""
    current = str(get_locale())
    here = _same_origin_path(back or "") or _here()
    return {
        "current": current,
        "choices": [
            {
                "code": code,
                "name": _own_name(code),
                "url": url_for("i18n.choose", code=code, next=here),
                "current": code == current,
            }
            for code in current_app.config["LANGUAGES"]
        ],
    }


@bp.get("/language/<code>")
def choose(code: str) -> ResponseReturnValue:
    """Remember this device's language and go back where the player was. Only a cookie
    changes, never a game, so a plain link does it (no form, no JavaScript)."""
    back = _same_origin_path(request.args.get("next", "")) or url_for("home.home")
    response = redirect(back, 303)
    if code in current_app.config["LANGUAGES"]:
        response.set_cookie(
            COOKIE,
            code,
            max_age=COOKIE_AGE,
            samesite="Lax",
            httponly=True,
            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE") or request.is_secure),
        )
    return response


def certainty_name(certainty: Any) -> str:
    """How sure an audit is of a breach (R6, R7): certain, or possible."""
    value = str(getattr(certainty, "value", certainty))
    words: dict[str, str] = {"certain": gettext("certain"), "possible": gettext("possible")}
    return words.get(value, value)


def register(app: Flask) -> None:
    app.config.setdefault("LANGUAGES", LANGUAGES)
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    for folder in app.config["BABEL_TRANSLATION_DIRECTORIES"].split(";"):
        compile_catalogs(Path(folder))
    Babel(app, locale_selector=_reader_locale)
    # {% trans %} blocks are extracted with their whitespace folded (babel.cfg): render so too.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.filters["certainty_name"] = certainty_name
    app.register_blueprint(bp)

    @app.context_processor
    def page_language() -> dict[str, Any]:
        locale = get_locale()
        return {
            "page_lang": str(locale).replace("_", "-"),
            "page_dir": locale.text_direction,
            "language_menu": menu,
        }

    # Each answer says its language (Content-Language, Vary): web/headers.py, with the others.
