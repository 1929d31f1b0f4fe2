"""A page rendered from its view model: one frozen dataclass per page, built by keyword in the
page's area, whose fields are the names its template prints. The template is given nothing
else, so it prints words already said and numbers already counted, never an engine object.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Iterator, KeysView, MutableMapping
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from babel.support import NullTranslations
from flask import Flask, has_app_context, render_template
from flask.sansio.app import App as SansioApp
from flask.templating import Environment
from jinja2 import Template, nodes

from ..i18n.compiled import translated
from ..i18n.words import catalog, get_locale

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


def render_page(template: str, page: DataclassInstance) -> str:
    """``template`` with each field of ``page`` as a name of its own."""
    return render_template(
        template, **{field.name: getattr(page, field.name) for field in fields(page)}
    )


class Globals(ChainMap[str, Any]):
    """A template's globals over the environment's, as Jinja makes them, whose names are a
    dictionary's keys: Jinja takes them from the names the render began with at every
    ``{% from %}`` and ``{% import %}`` (a play's answer has six), and a chain's own view
    does that in Python, a name at a time. Every render copies them into its context and
    every include takes their names: a name is looked up without raising and catching an
    exception for each layer that lacks it (a template's own, nearly always empty), which
    made that copy about a tenth of a play's answer."""

    def keys(self) -> KeysView[str]:
        return self._merged().keys()

    def __iter__(self) -> Iterator[str]:
        return iter(self._merged())

    def __getitem__(self, key: str) -> Any:
        for mapping in self.maps:
            if key in mapping:
                return mapping[key]
        return self.__missing__(key)

    def _merged(self) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        for mapping in reversed(self.maps):
            merged.update(mapping)
        return merged


class PageEnvironment(Environment):
    """The app's templates, compiled once per language (``i18n/compiled.py``): in a request,
    a template is taken from the reader's language's own set, made the first time that
    language is read (an overlay: the same loader, globals and filters, its own compiled
    templates); outside one, from this set, in the engine's language."""

    def __init__(self, app: SansioApp, **options: Any) -> None:
        super().__init__(app, **options)
        self.language: str | None = None  # None: the app's own set; its languages' below
        self.languages: dict[str, PageEnvironment] = {}
        self.allfives_catalog = NullTranslations()

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return Globals({} if d is None else d, self.globals)

    def in_language(self, language: str, words: NullTranslations) -> PageEnvironment:
        """This set in ``language``, its sentences from ``words``, made on first use."""
        found = self.languages.get(language)
        if found is None:
            made = self.overlay(cache_size=getattr(self.cache, "capacity", 400))
            made.language, made.languages, made.allfives_catalog = language, {}, words
            found = self.languages.setdefault(language, made)
        return found

    def _load_template(self, name: str, globals: MutableMapping[str, Any] | None) -> Template:
        if self.language is None and has_app_context():
            reader = self.in_language(str(get_locale()), catalog())
            return reader._load_template(name, globals)
        return super()._load_template(name, globals)

    def _generate(
        self,
        source: nodes.Template,
        name: str | None,
        filename: str | None,
        defer_init: bool = False,
    ) -> str:
        source = translated(source, self.allfives_catalog)
        return super()._generate(source, name, filename, defer_init)


class App(Flask):
    """The app, its templates' globals as :class:`Globals`."""

    jinja_environment = PageEnvironment
