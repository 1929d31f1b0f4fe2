"""How much a request may ask of the server: body sizes and rate limits (README, "Limits").

The limits are counted per client address (the proxy's client once trusted proxy headers are
on), in memory by default; ``ALLFIVES_RATE_LIMIT_STORAGE`` (a storage URI of the ``limits``
library, such as ``redis://host:6379``) shares the counts between processes.

Each setting is parsed once, when the app starts, into the ``limits`` library's items, which
count in fixed windows; a request then costs a look-up of its counts and nothing more.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

from flask import current_app, g, request
from limits import RateLimitItem, parse_many
from limits.errors import ConfigurationError
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

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
EXTENSION = "allfives_limits"
RECHECK = 30.0  # seconds between two tries of a shared store that stopped answering
View = TypeVar("View", bound=Callable[..., Any])
log = logging.getLogger(__name__)


class Counts:
    """One app's limits, parsed, and the store their counts are kept in: the configured one,
    or memory while it does not answer (``RATELIMIT_IN_MEMORY_FALLBACK_ENABLED``)."""

    def __init__(self, app: Flask, items: dict[str, list[RateLimitItem]]) -> None:
        self.items = items
        self.counter = FixedWindowRateLimiter(storage_from_string(_storage_uri(app)))
        fallback = app.config["RATELIMIT_IN_MEMORY_FALLBACK_ENABLED"]
        self.fallback = FixedWindowRateLimiter(MemoryStorage()) if fallback else None
        self.swallow = bool(app.config["RATELIMIT_SWALLOW_ERRORS"])
        self.failed_at: float | None = None  # when the configured store last failed

    def within(self, setting: str, scope: str, count: bool) -> bool:
        """Whether this request's address is within ``setting``'s limits in ``scope``, each
        counting this request first if ``count`` (the shortest window first: the first one
        broken refuses it, and says when it lets the address through again)."""

        def within(counter: FixedWindowRateLimiter, key: str, items: list[RateLimitItem]) -> bool:
            for item in items:
                if not (counter.hit(item, key, scope) if count else counter.test(item, key, scope)):
                    g.allfives_retry_at = counter.get_window_stats(item, key, scope).reset_time
                    return False
            return True

        return self._counted(setting, within, True)

    def count(self, setting: str, scope: str) -> None:
        """Count this request against each of ``setting``'s limits in ``scope``."""

        def count(counter: FixedWindowRateLimiter, key: str, items: list[RateLimitItem]) -> bool:
            for item in items:
                counter.hit(item, key, scope)
            return True

        self._counted(setting, count, True)

    def _counted(
        self,
        setting: str,
        look: Callable[[FixedWindowRateLimiter, str, list[RateLimitItem]], bool],
        unanswered: bool,
    ) -> bool:
        """``look`` at the counts of this request's address, in the store that answers; what
        a store that fails answers (``unanswered``) when none does (no request is refused
        for it)."""
        key = request.remote_addr or "127.0.0.1"
        items = self.items[setting]
        counter = self._counter()
        try:
            return look(counter, key, items)
        except Exception:
            if self.fallback is None or counter is self.fallback:
                if not self.swallow:
                    raise
                log.exception("rate limits: their store failed; the request goes on")
                return unanswered
            log.warning("rate limits: their store does not answer; counting in memory meanwhile")
            self.failed_at = time.monotonic()
            return look(self.fallback, key, items)

    def _counter(self) -> FixedWindowRateLimiter:
        """The configured store, or memory while the configured one did not answer lately."""
        if self.failed_at is None or self.fallback is None:
            return self.counter
        if time.monotonic() - self.failed_at < RECHECK:
            return self.fallback
        try:
            back = self.counter.storage.check()
        except Exception:
            back = False
        if back:
            self.failed_at = None
            return self.counter
        self.failed_at = time.monotonic()
        return self.fallback


class SharedLimit:
    """Limits counted together by every view it decorates (or block it is entered around),
    per client address: ``setting`` names them; ``counted_when`` (the response) counts only
    answers it accepts, checked before and counted after; ``exempt_when`` skips them."""

    def __init__(
        self,
        setting: str,
        scope: str,
        counted_when: Callable[[Response], bool] | None = None,
        exempt_when: Callable[[], bool] | None = None,
    ) -> None:
        self.setting, self.scope = setting, scope
        self.counted_when, self.exempt_when = counted_when, exempt_when

    def __call__(self, view: View) -> View:
        @wraps(view)
        def limited(*args: Any, **kwargs: Any) -> Any:
            self.check()
            return view(*args, **kwargs)

        return limited  # type: ignore[return-value]

    def __enter__(self) -> None:
        self.check()

    def __exit__(self, *_exc: object) -> None:
        return None

    def check(self) -> None:
        counts: Counts | None = current_app.extensions.get(EXTENSION)
        if counts is None or (self.exempt_when is not None and self.exempt_when()):
            return
        counted = self.counted_when is None
        if not counts.within(self.setting, self.scope, count=counted):
            raise TooManyRequests()
        if not counted:
            g.setdefault("allfives_count_after", []).append(self)


def _not_found(response: Response) -> bool:
    return response.status_code == 404


def _created(response: Response) -> bool:
    # A game made (the API's 201, the new-game form's redirect), not a refused form.
    return response.status_code in (201, 303)


# Every answer "no such game", on any route but a static file's (the 429 page needs its
# stylesheet): checked before every request, counted after one answered 404.
lookups = SharedLimit("RATE_LIMIT_LOOKUPS", "global", counted_when=_not_found)
# Games made from the page and from the API count together; a refused form does not count.
creating = SharedLimit("RATE_LIMIT_CREATE", "create", counted_when=_created)
# Every import counts, refused ones too: checking one costs the rules a replay of its log.
importing = SharedLimit("RATE_LIMIT_IMPORT", "import")
# The pages that replay a game's past (More, replay, rescore, check) count together.
heavy = SharedLimit("RATE_LIMIT_HEAVY", "heavy")
# Whole game screens, apart from the heavy pages: the game's players' and watchers' links
# together; an htmx request (a region, a poll) is never refused by it.
game_pages = SharedLimit("RATE_LIMIT_PAGES", "game-page", exempt_when=is_htmx)
# A whole game replayed for a request (``with replaying:`` around it): a rescore under rules
# whose totals are not kept yet.
replaying = SharedLimit("RATE_LIMIT_REPLAY", "replay")


def retry_after() -> str:
    """Seconds until the limit this request broke lets it through again."""
    reset_at: float | None = g.get("allfives_retry_at")
    if reset_at is None:
        return "60"
    return str(max(1, int(reset_at) - int(time.time())))


def _storage_uri(app: Flask) -> str:
    return str(app.config.get("RATELIMIT_STORAGE_URI") or "memory://")


def register(app: Flask) -> None:
    """Rate limits on ``app``; ``RATELIMIT_ENABLED`` (``ALLFIVES_RATE_LIMITS=off``) turns
    them off. Every answer "no such game" counts against the address that asked, on any
    route, so ids cannot be guessed at speed."""
    items: dict[str, list[RateLimitItem]] = {}
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, os.environ.get(f"ALLFIVES_{name}", value))
        try:
            items[name] = sorted(parse_many(str(app.config[name])))
        except ValueError as error:
            raise StartupError(
                f"ALLFIVES_{name} must be limits such as {value!r}, not {app.config[name]!r}"
            ) from error
    # A shared store that stops answering: count in memory meanwhile, never refuse for it.
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)
    if not app.config.get("RATELIMIT_ENABLED", True):
        return
    try:
        app.extensions[EXTENSION] = Counts(app, items)
    except ConfigurationError as error:
        uri = _storage_uri(app)
        shown = uri.partition(":")[0] + ":…"  # the URI may hold a password
        raise StartupError(
            f"ALLFIVES_RATE_LIMIT_STORAGE ({shown}) cannot be used: install its client library "
            "(pip install redis, or pymemcache), or leave it unset to count in memory"
        ) from ConfigurationError(str(error).replace(uri, shown))

    @app.before_request
    def check_lookups() -> None:
        if request.endpoint not in (None, "static"):  # (no route: nothing looked up)
            lookups.check()

    @app.after_request
    def count(response: Response) -> Response:
        for limit in g.pop("allfives_count_after", ()):
            assert limit.counted_when is not None
            if limit.counted_when(response):
                current_app.extensions[EXTENSION].count(limit.setting, limit.scope)
        return response
