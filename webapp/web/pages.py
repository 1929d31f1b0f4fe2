"""A page rendered from its view model: one frozen dataclass per page, built by keyword in the
page's area, whose fields are the names its template prints. The template is given nothing
else, so it prints words already said and numbers already counted, never an engine object.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import KeysView, MutableMapping
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from flask import Flask, render_template
from flask.templating import Environment

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
    does that in Python, a name at a time."""

    def keys(self) -> KeysView[str]:
        merged: dict[str, Any] = {}
        for mapping in reversed(self.maps):
            merged.update(mapping)
        return merged.keys()


class PageEnvironment(Environment):
    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return Globals({} if d is None else d, self.globals)


class App(Flask):
    """The app, its templates' globals as :class:`Globals`."""

    jinja_environment = PageEnvironment
