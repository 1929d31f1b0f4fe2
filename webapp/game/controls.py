"""The controls region (Draw, Pass, Undo, Time), written once per state of the controls and
kept: it is sent with nearly every play whose Draw or Pass changed, and its four forms through
the form macro were the largest part of a play's templates.

What is kept is the region as the template writes it, per language (the templates' compiled
set), game's link, state of the controls and whether it is sent out of band; the game's
revision and the device's CSRF token, which differ from one answer to the next, are written
as markers no page can hold and filled in each time, escaped as the template escapes them.
So the answer is the same, byte for byte, as the template's (``tests/web/test_same_html.py``).
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from types import SimpleNamespace

from flask import g, request
from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from ..web.security import csrf_token, tokens_printed_as
from . import bp
from .regions import Controls

TEMPLATE = "game/_controls.html"
# Made anew by every process: no game, name or page can know them, so none can hold them.
_SEQ = f"seq-{secrets.token_hex(16)}"
_TOKEN = f"token-{secrets.token_hex(16)}"


@bp.app_template_global()
@pass_context
def controls_region(context: Context, oob: bool) -> Markup:
    """The controls of ``screen`` in the context, as ``{% include "game/_controls.html" %}``
    writes them."""
    screen = context["screen"]
    game: tuple[str | bool, ...] = ()
    if screen.controls:  # (a watcher has none, and no addresses for them)
        table = g.table  # the game the request names (web/game.py), which the forms post to
        game = (table.key, table.viewer, request.script_root)
    written = _written(context.environment, screen.controls, game, oob)
    written = written.replace(_SEQ, str(int(screen.seq)))
    if _TOKEN in written:  # (asked for only where a form prints it: it may start a session)
        written = written.replace(_TOKEN, str(escape(csrf_token())))
    return Markup(written)


@lru_cache(maxsize=256)
def _written(
    environment: Environment, controls: Controls | None, game: tuple[str | bool, ...], oob: bool
) -> str:
    """The region with markers for the revision and the token (``game``: what the addresses
    the forms post to are made of, the game's key on its link, whether that is the watch link,
    and where the app is mounted, as the template's ``url_for`` makes them: web/game.py)."""
    stand_in = SimpleNamespace(seq=_SEQ, controls=controls)
    with tokens_printed_as(_TOKEN):  # (the form macro prints the token it asks for itself)
        return environment.get_template(TEMPLATE).render(screen=stand_in, oob=oob)
