"""How much a request may ask of the server: body sizes and rate limits (README, "Limits").

The limits are counted per client address (the proxy's client once trusted proxy headers are
on), in memory by default; ``ALLFIVES_RATE_LIMIT_STORAGE`` (a Flask-Limiter storage URI such
as ``redis://host:6379``) shares the counts between processes.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from flask import current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from limits.errors import ConfigurationError

from ..config import StartupError
from .htmx import is_htmx

if TYPE_CHECKING:
    from flask import Flask
    from flask.wrappers import Response

# Generous for a table or a club, where one phone starts a game a night; a script guessing
# ids or filling the database meets them within a minute.
DEFAULTS = {
    "RATE_LIMIT_CREATE": "10 per minute; 100 per hour",
    "RATE_LIMIT_IMPORT": "5 per minute; 30 per hour",
    "RATE_LIMIT_LOOKUPS": "30 per minute; 300 per hour",
    # A table steps through a replay or tries a rescore a tap at a time; a script looping on
    # a long game's pages to keep the server busy meets this within seconds.
    "RATE_LIMIT_HEAVY": "20 per 10 seconds; 120 per minute; 1500 per hour",
    # A rescore under rules not yet worked out for the game replays every hand of it: a table
    # tries a few; a script trying every target in turn meets this at once.
    "RATE_LIMIT_REPLAY": "10 per minute; 60 per hour",
    # The whole game screen, loaded or reloaded (htmx's regions and polls never count): a
    # table's phones load it once and then swap regions; without JavaScript every tap reloads
    # it, a tap a second at most. A script reloading it in a loop meets this within seconds.
    "RATE_LIMIT_PAGES": "30 per 10 seconds; 600 per 10 minutes",
}


def _setting(name: str) -> str:
    return str(current_app.config[name])


def _not_found(response: Response) -> bool:
    return response.status_code == 404


def _created(response: Response) -> bool:
    # A game made (the API's 201, the new-game form's redirect), not a refused form.
    return response.status_code in (201, 303)


limiter = Limiter(
    get_remote_address,
    # No X-RateLimit-* headers on every answer (each would cost a look-up in the store): a
    # refused request says when to come back, in ``retry_after``.
    application_limits=[lambda: _setting("RATE_LIMIT_LOOKUPS")],
    application_limits_deduct_when=_not_found,
    # The 429 page needs its stylesheet, and a static file is nobody's game.
    application_limits_exempt_when=lambda: request.endpoint == "static",
)
# Games made from the page and from the API count together; a refused form does not count.
creating = limiter.shared_limit(
    lambda: _setting("RATE_LIMIT_CREATE"), scope="create", deduct_when=_created
)
# Every import counts, refused ones too: checking one costs the rules a replay of its log.
importing = limiter.shared_limit(lambda: _setting("RATE_LIMIT_IMPORT"), scope="import")
# The pages that replay a game's past (More, replay, rescore, check) count together.
heavy = limiter.shared_limit(lambda: _setting("RATE_LIMIT_HEAVY"), scope="heavy")
# Whole game screens, apart from the heavy pages: the game's players' and watchers' links
# together; an htmx request (a region, a poll) is never refused by it.
game_pages = limiter.shared_limit(
    lambda: _setting("RATE_LIMIT_PAGES"), scope="game-page", exempt_when=is_htmx
)
# A whole game replayed for a request (``with replaying:`` around it): a rescore under rules
# whose totals are not kept yet.
replaying = limiter.shared_limit(lambda: _setting("RATE_LIMIT_REPLAY"), scope="replay")


def retry_after() -> str:
    """Seconds until the limit this request broke lets it through again."""
    broken = [limit for limit in limiter.current_limits if limit.breached]
    if not broken:
        return "60"
    return str(max(1, max(limit.reset_at for limit in broken) - int(time.time())))


def register(app: Flask) -> None:
    """Rate limits on ``app``; ``RATELIMIT_ENABLED`` (``ALLFIVES_RATE_LIMITS=off``) turns
    them off. Every answer "no such game" counts against the address that asked, on any
    route, so ids cannot be guessed at speed."""
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, os.environ.get(f"ALLFIVES_{name}", value))
        try:
            parse_many(app.config[name])
        except ValueError as error:
            raise StartupError(
                f"ALLFIVES_{name} must be limits such as {value!r}, not {app.config[name]!r}"
            ) from error
    # A shared store that stops answering: count in memory meanwhile, never refuse for it.
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)
    try:
        limiter.init_app(app)
    except ConfigurationError as error:
        uri = str(app.config["RATELIMIT_STORAGE_URI"])
        shown = uri.partition(":")[0] + ":…"  # the URI may hold a password
        raise StartupError(
            f"ALLFIVES_RATE_LIMIT_STORAGE ({shown}) cannot be used: install its client library "
            "(pip install redis, or pymemcache), or leave it unset to count in memory"
        ) from ConfigurationError(str(error).replace(uri, shown))
