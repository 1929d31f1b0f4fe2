"""The All Fives table companion: a Flask app over the rules engine in ``webapp.rules``.

The code is laid out as the app is (README, "How the code is laid out"): ``rules/`` the game,
``store/`` persistence, ``web/`` what every area uses, ``i18n/`` languages, ``ui/`` drawing
and shared words, one blueprint package per area (``home/``, ``game/``, ``disputes/``,
``teaching/``, ``api/``) and ``serve/`` for running it.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app factory: ``flask --app webapp run`` and ``allfives serve`` both use it.

    Flask and the database are imported here, not at the top, so that ``webapp.rules`` can be
    used on its own without them."""
    from . import config, i18n
    from .config import StartupError
    from .i18n import compiled, words
    from .store import Unusable, open_store
    from .ui import tiles
    from .web import answers, compress, errors, game, headers, limits, security, sharing
    from .web.pages import App

    instance = os.environ.get("ALLFIVES_INSTANCE")  # default: Flask's instance/ folder
    app = App(
        __name__,
        instance_path=str(Path(instance).resolve()) if instance else None,
        instance_relative_config=True,
        template_folder="../templates",
        static_folder="../static",
    )
    # Flask asks of every hook and view, at each request, whether it is a coroutine function
    # (seven looks at code flags for a play): asked once per function.
    app.ensure_sync = functools.lru_cache(maxsize=256)(app.ensure_sync)  # type: ignore[method-assign]
    app.config.from_mapping(config.from_environment())
    if test_config:
        app.config.from_mapping(test_config)
    url = config.settle(app)
    budget = config.cache_bytes(app.config["CACHE_BYTES"])
    app.config["STREAM_HEARTBEAT"] = config.heartbeat(app.config["STREAM_HEARTBEAT"])
    app.config["WARM_GAMES"] = config.warm_games(app.config["WARM_GAMES"])
    try:
        app.extensions["allfives_store"] = open_store(url, app.config["SQLITE_SYNCHRONOUS"], budget)
    except Unusable as error:
        raise StartupError(str(error)) from error.__cause__

    from . import api, circles, disputes, home, sheet, teaching
    from . import game as game_area
    from .home import shell

    game_area.live.register(app)  # polls that find nothing changed: before the app's work
    security.behind_proxy(app)  # (so that the proxy's headers are read before it)
    limits.register(app)
    i18n.register(app)  # the reader's language, before any page is rendered
    words.register(app)  # engine messages printed by templates, in that language
    compiled.register(app)  # and the templates' own sentences, compiled in per language
    game.register(app)  # the game named by the URL, read once per request
    answers.register(app)  # JSON written by orjson
    # Globals rather than context: the tile macros are imported without the template's context.
    app.jinja_env.globals.update(
        tile_svg=tiles.tile_svg,
        tile_symbols=tiles.tile_symbols,
        tile_use=tiles.tile_use,
    )

    for area in (api, home, game_area, disputes, sheet, teaching, circles):
        app.register_blueprint(area.bp)
    shell.register(app)  # the installable app: manifest, service worker, offline page
    errors.register(app)
    security.register(app)
    headers.register(app)  # Vary, the security headers and the language, in one pass
    sharing.register(app)  # a share link's QR code, an image of its own
    compress.register(app)
    return app
