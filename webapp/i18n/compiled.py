"""Templates compiled once per language: every sentence a template writes out as a literal
(``_('…')``, ``gettext``, ``pgettext``, ``{% trans %}``) is looked up in the reader's catalog
as the template is compiled, not as it is rendered.

A play's answer prints a few dozen such sentences; looked up at render time, each went through
five calls and two context proxies (about a quarter of the answer's time). Compiled in, a
sentence with nothing to fill in is text of the template like any other (Jinja joins it to the
markup around it), and one with parameters is filled in by one call (:func:`filled`), each
parameter said in the reader's language as before (``words._printed``). A plural keeps its
choice of form for when the count is known (:func:`plural`), from the catalog the template
was compiled with.

The web layer keeps one compiled set per language (``web/pages.py``); outside a request,
templates are compiled in the engine's own language (no catalog).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from babel.support import NullTranslations
from jinja2 import nodes, pass_context
from jinja2.runtime import Context
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from .words import _printed

if TYPE_CHECKING:
    from flask import Flask

FILLED = "_allfives_filled"  # the template globals the compiled calls name
PLURAL = "_allfives_plural"
CATALOG = "allfives_catalog"  # the environment's attribute: the catalog it was compiled with


def translated(tree: nodes.Template, catalog: NullTranslations) -> nodes.Template:
    """``tree`` with each literal sentence it translates looked up in ``catalog``."""
    return _Translating(catalog).visit(tree)  # type: ignore[no-any-return]


def register(app: Flask) -> None:
    """Give ``app``'s templates the calls their compiled sentences make."""
    app.jinja_env.globals.update({FILLED: filled, PLURAL: plural})


@pass_context
def filled(context: Context, text: str, **variables: Any) -> str:
    """A translated sentence with its parameters filled in, each said in the reader's language
    (as Jinja's newstyle ``gettext`` does, the sentence is a format string even without
    them)."""
    said = {key: _printed(value, in_a_sentence=key == "end") for key, value in variables.items()}
    sentence = Markup(text) if context.eval_ctx.autoescape else text
    return sentence % said


@pass_context
def plural(context: Context, singular: str, plural: str, num: int, **variables: Any) -> str:
    """The form of a sentence for ``num`` in the catalog the template was compiled with,
    filled in as :func:`filled` does (``num`` too, unless given)."""
    said = {key: _printed(value, in_a_sentence=key == "end") for key, value in variables.items()}
    said.setdefault("num", num)
    catalog: NullTranslations = getattr(context.environment, CATALOG)
    sentence = catalog.ungettext(singular, plural, num)
    if context.eval_ctx.autoescape:
        sentence = Markup(sentence)
    return sentence % said


def _literals(call: nodes.Call, count: int) -> list[str] | None:
    """The call's first ``count`` arguments if they are all literal text (nothing else may be
    passed but names), else None."""
    if call.dyn_args is not None or call.dyn_kwargs is not None or len(call.args) < count:
        return None
    first = call.args[:count]
    if not all(isinstance(arg, nodes.Const) and isinstance(arg.value, str) for arg in first):
        return None
    return [arg.value for arg in first]  # type: ignore[attr-defined]


class _Translating(NodeTransformer):
    def __init__(self, catalog: NullTranslations) -> None:
        self.catalog = catalog

    def visit_Call(self, call: nodes.Call) -> nodes.Node:  # (Jinja names a visit by the node)
        node = self.generic_visit(call)  # a sentence given to another as a parameter too
        if not isinstance(node, nodes.Call) or not isinstance(node.node, nodes.Name):
            return node
        name = node.node.name
        if name in ("_", "gettext") and len(node.args) == 1:
            said = _literals(node, 1)
            return node if said is None else self._sentence(node, self.catalog.ugettext(*said))
        if name == "pgettext" and len(node.args) == 2 and not node.kwargs:
            said = _literals(node, 2)
            return node if said is None else self._sentence(node, self.catalog.upgettext(*said))
        if name == "ngettext" and len(node.args) == 3 and _literals(node, 2) is not None:
            return self._made(
                nodes.Call(nodes.Name(PLURAL, "load"), node.args, node.kwargs, None, None), node
            )
        return node

    def _sentence(self, node: nodes.Call, text: str) -> nodes.Node:
        if node.kwargs:
            call = nodes.Call(
                nodes.Name(FILLED, "load"), [nodes.Const(text)], node.kwargs, None, None
            )
            return self._made(call, node)
        try:
            whole = text % {}  # as gettext fills in a sentence with no parameters ("%%": "%")
        except (KeyError, ValueError, TypeError):
            return node  # left to fail as it would have at render time
        return self._made(nodes.MarkSafeIfAutoescape(nodes.Const(whole)), node)

    @staticmethod
    def _made(new: nodes.Node, old: nodes.Node) -> nodes.Node:
        new.set_lineno(old.lineno)
        if old.environment is not None:
            new.set_environment(old.environment)
        return new
