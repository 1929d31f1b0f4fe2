"""The engine's messages said in the reader's language.

The rules engine says what happened as a :class:`~webapp.rules.messages.Message`: an English
template, its parameters and, for a plural, the count. :func:`say` looks the template up in the
request's catalog (Flask-Babel's translations: gettext, or ngettext with the real count, so a
language with three plural forms gets the right one), then says each parameter: a nested
message in turn, a list joined the language's way (CLDR, ``babel.lists.format_list``), a number
written by the locale. Tiles ("6-4"), rule ids and player names are parameters and pass through
as they are. Anything that is not a message (a name, a tile) is returned unchanged.

A translation whose placeholders do not match the English cannot break a page: the English
template is used instead.

Views put text already said into their view models. A template that prints an engine value
itself (an option's title, an audit sentence) gets it said too: :func:`register` makes every
``{{ ... }}`` that prints a message print it in the reader's language.
"""

from __future__ import annotations

from datetime import timedelta
from functools import lru_cache
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Final

import flask_babel
from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.support import NullTranslations
from flask.globals import _cv_app  # the app context itself, without a proxy's lookups
from flask_babel import LazyString, get_translations
from jinja2 import pass_context

from ..rules import Arm, Options
from ..rules.layout import arm_name
from ..rules.messages import LIST_STYLES, Items, Message

if TYPE_CHECKING:
    from flask import Flask

SOURCE = "en"  # the language the engine's templates are written in
SOURCE_LOCALE: Final = Locale.parse(SOURCE)
CATALOGS: Final = "allfives_catalogs"  # each language's catalog, by its name

# An end named inside a sentence ("on the %(end)s end") may take another form than the end alone
# on a button: Romanian "Stânga" but "la capătul din stânga", "la capătul de sus". A parameter
# named ``end`` is said in this context, each of the engine's end names (rules/layout.py) by its
# translation here; a language that names an end the same way in both translates them alike.
IN_A_SENTENCE: Final = "an end, in a sentence"
_ENDS_IN_A_SENTENCE: Final = {
    "left": flask_babel.lazy_pgettext("an end, in a sentence", "left"),
    "right": flask_babel.lazy_pgettext("an end, in a sentence", "right"),
    "up": flask_babel.lazy_pgettext("an end, in a sentence", "up"),
    "down": flask_babel.lazy_pgettext("an end, in a sentence", "down"),
    "%(tile)s %(direction)s": flask_babel.lazy_pgettext(
        "an end, in a sentence", "%(tile)s %(direction)s"
    ),
}


def say(said: object) -> str:
    """``said`` in the reader's language: a message translated, anything else as text."""
    return _say(said, get_locale())


# Flask-Babel's own functions for the web layer's sentences, typed (the library has no type
# information); the extraction keywords stay theirs: gettext, ngettext:1,2, lazy_gettext.


def gettext(string: str, **variables: object) -> str:
    text = catalog().ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: object) -> str:
    variables.setdefault("num", num)
    return catalog().ungettext(singular, plural, num) % variables


def lazy_gettext(string: str, **variables: object) -> LazyString:
    """For a sentence kept in a module constant: said when it is printed."""
    return flask_babel.lazy_gettext(string, **variables)


def format_timedelta(delta: timedelta) -> str:
    """How long ago (negative) or from now, as the reader's language says it."""
    return str(flask_babel.format_timedelta(delta, add_direction=True))


def get_locale() -> Locale:
    """The request's locale, looked up once per request; the engine's own language outside a
    request. A play's answer asks a few dozen times: the app context is read from its context
    variable, not through the ``g`` and ``has_app_context`` proxies, and the first time the
    app's locale selector is asked directly, as Flask-Babel would (a locale forced by
    ``flask_babel.force_locale`` first), without its proxies and look-ups."""
    context = _cv_app.get(None)
    if context is None:
        return SOURCE_LOCALE
    found: Locale | None = context.g.get("reader_locale")
    if found is None:
        babel = context.g.get("_flask_babel")
        chosen = getattr(babel, "babel_locale", None)
        if chosen is None:
            chosen = context.app.extensions["babel"].locale_selector()
            if babel is None:  # where Flask-Babel keeps it, for its own functions
                context.g._flask_babel = babel = SimpleNamespace()
            babel.babel_locale = chosen
        if not isinstance(chosen, Locale):  # (a name, as Flask-Babel also allows)
            chosen = Locale.parse(chosen) if chosen else SOURCE_LOCALE
        found = context.g.reader_locale = chosen
    return found


def catalog() -> NullTranslations:
    """The request's catalog in the reader's language, looked up once per request: every
    sentence of the request, the templates' too, is translated through it. Each language's
    is kept by the app (Flask-Babel keeps them too, behind several look-ups a request)."""
    context = _cv_app.get(None)
    if context is None:
        return NullTranslations()
    found: NullTranslations | None = context.g.get("reader_catalog")
    if found is None:
        kept: dict[str, NullTranslations] = context.app.extensions.setdefault(CATALOGS, {})
        language = str(get_locale())
        found = kept.get(language)
        if found is None:  # (read in that very language, whatever Flask-Babel's is just now)
            with flask_babel.force_locale(language):
                found = kept[language] = get_translations()
        context.g.reader_catalog = found
    return found


def rules_said(options: Options) -> str:
    """The rules in force ("Muggins, rounding up") in the reader's language: the same for every
    action of a game, so worked out once per rules, language and catalog, not per answer."""
    return _rules_said(options, str(get_locale()), catalog())


@lru_cache(maxsize=256)
def _rules_said(options: Options, _language: str, _catalog: NullTranslations) -> str:
    return say(options.title)


def say_capitalized(said: object) -> str:
    """``said`` as the start of a sentence (a refusal shown on its own)."""
    text = say(said)
    return text[:1].upper() + text[1:]


def register(app: Flask) -> None:
    """Messages printed by templates said in the reader's language (Flask-Babel is set up by
    :mod:`webapp.i18n`)."""
    app.jinja_env.finalize = _printed
    app.jinja_env.filters["end_name"] = end_name
    # Flask-Babel's own callables look the catalog up afresh for every sentence.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda string: catalog().ugettext(string),
        ngettext=lambda singular, plural, n: catalog().ungettext(singular, plural, n),
        newstyle=True,
        pgettext=lambda context, string: catalog().upgettext(context, string),
        npgettext=lambda context, singular, plural, n: catalog().unpgettext(
            context, singular, plural, n
        ),
    )
    # A message given to a template's _() or {% trans %} as a parameter is said too, in the
    # reader's language, before the sentence is filled in.
    for name in ("gettext", "ngettext"):
        app.jinja_env.globals[name] = _saying_parameters(app.jinja_env.globals[name])


def _saying_parameters(made: Any) -> Any:
    """Jinja's gettext callable ``made``, with each message among its parameters said."""

    @pass_context
    def call(context: Any, *args: Any, **variables: Any) -> Any:
        said = {
            key: _printed(value, in_a_sentence=key == "end") for key, value in variables.items()
        }
        return made(context, *args, **said)

    return call


def end_name(arm: Arm, in_a_sentence: bool = False) -> str:
    """An open end's name (``left``, ``6-6 up``) in the reader's language, alone or (with
    ``in_a_sentence``) as a sentence names it; its form value stays ``arm.value``."""
    return _say(arm_name(arm), get_locale(), in_a_sentence)


SAID: Final = (Message, Items)  # what a template's ``{{ }}`` says (a tuple: checked on every print)


def _printed(value: object, in_a_sentence: bool = False) -> object:
    """What ``{{ value }}`` prints: a message said; anything else (Markup too) untouched."""
    if isinstance(value, SAID):
        return _say(value, get_locale(), in_a_sentence)
    return value


def _list_style(style: str, locale: Locale) -> Any:
    """``style`` if the locale's CLDR data has it whole, else its standard list: a list of
    units is a plain list in a language that has no pattern of its own for one."""
    patterns = locale.list_patterns.get(style, {})
    return style if all(key in patterns for key in ("start", "middle", "end", "2")) else "standard"


def _say(said: object, locale: Locale, in_a_sentence: bool = False) -> str:
    if type(said) is str:  # a name or a tile, said as it is: most parameters are
        return said
    if isinstance(said, Message):
        return _message(said, locale, in_a_sentence)
    if isinstance(said, Items):
        words = [_say(value, locale) for value in said.values]
        if locale.language == SOURCE:
            return said.joined(words)
        return format_list(words, style=_list_style(LIST_STYLES[said.style], locale), locale=locale)
    if isinstance(said, int) and not isinstance(said, bool):
        return _number(said, locale)
    return str(said)


@lru_cache(maxsize=1024)
def _number(number: int, locale: Locale) -> str:
    """A score or a count of pips as a table writes it (no thousands separator), in
    ``locale``'s digits: worked out once per number and language (Babel reads the locale's
    pattern anew each time), as a play's answer says a few."""
    return str(format_decimal(number, locale=locale, group_separator=False))


def _message(said: Message, locale: Locale, in_a_sentence: bool = False) -> str:
    """``said`` in ``locale``; ``in_a_sentence``: an end's name inside a sentence (its
    ``direction`` too)."""
    params = {
        name: _say(value, locale, name == "end" or (in_a_sentence and name == "direction"))
        for name, value in said.params.items()
    }
    translations = catalog()
    if in_a_sentence and said.template in _ENDS_IN_A_SENTENCE:
        template = str(_ENDS_IN_A_SENTENCE[said.template])
        english = said.template
    elif said.plural is None:
        template = translations.ugettext(said.template)
        english = said.template
    else:
        assert said.num is not None
        template = translations.ungettext(said.template, said.plural, said.num)
        english = said.template if said.num == 1 else said.plural
    try:
        return str(template % params)
    except (KeyError, ValueError, TypeError):  # a translation with other placeholders
        return english % params
