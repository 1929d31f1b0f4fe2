"""The small pieces of the game screen, each written once per language and value and kept: a
side's card in the scores, a tile of the picker, Undo and the picker's name. An answer to a play
sends a few of them alone (``delta.py``), a full page or region all of them, and each went
through a macro of its own: about a third of an answer's templates' time.

A piece is kept by its macro's name and arguments (frozen view models, numbers, words) in the
templates' compiled set of the reader's language. None of them prints a revision, a form's
token or a game's address, so one written for a game serves every game; its bytes are the
macro's (``tests/web/test_same_html.py``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from . import bp

#: The pieces kept, by macro, with the template that writes each.
PIECES = {
    "side_item": "game/_pieces.html",
    "undo_button": "game/_pieces.html",
    "prompt": "game/_pieces.html",
    "tile_button": "_macros/picker.html",
}


@bp.app_template_global()
@pass_context
def piece(context: Context, name: str, *args: Any, **kwargs: Any) -> Markup:
    """``{{ name(*args, **kwargs) }}`` of its template, as the macro writes it."""
    return _written(context.environment, name, *args, **kwargs)


@lru_cache(maxsize=1024)
def _written(environment: Environment, name: str, *args: Any, **kwargs: Any) -> Markup:
    macro = getattr(environment.get_template(PIECES[name]).module, name)
    return Markup(macro(*args, **kwargs))
