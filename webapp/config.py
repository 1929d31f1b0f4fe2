"""The app's settings: read from the environment (``ALLFIVES_*``, README "Running it"), then
checked, so that a server that cannot start says why in one sentence (:class:`StartupError`).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

# Every route but import: the biggest form or action body is a few hundred bytes.
BODY_LIMIT = 64 * 1024
# Import takes back anything export produced: a 10,000-action game (the most an import
# takes) exports as about 0.5 MB; 2 MB leaves room for long hands' tile lists.
IMPORT_BODY_LIMIT = 2 * 1024 * 1024
# The server refuses anything bigger before it reads (and so spools) a byte of the body.
SERVER_BODY_LIMIT = IMPORT_BODY_LIMIT


class StartupError(Exception):
    """The app cannot start: one sentence saying what is wrong and what to do. The error it
    came from is its ``__cause__``."""


def from_environment() -> dict[str, Any]:
    """The settings the environment gives, under the app's config names."""
    env = os.environ.get
    return {
        "DATABASE": env("ALLFIVES_DATABASE", ""),
        "SQLITE_SYNCHRONOUS": env("ALLFIVES_SQLITE_SYNCHRONOUS", "NORMAL"),
        # The bytes of replayed games kept in memory, per process (webapp/store/cache.py).
        "CACHE_BYTES": env("ALLFIVES_CACHE_BYTES", str(64 * 1024 * 1024)),
        # The most games changed in the last hour read into a new server's cache (serve/warm.py).
        "WARM_GAMES": env("ALLFIVES_WARM_GAMES", "100"),
        # Seconds between two heartbeats on a game screen's stream (README, "Live updates").
        "STREAM_HEARTBEAT": env("ALLFIVES_STREAM_HEARTBEAT", "20"),
        "MAX_CONTENT_LENGTH": BODY_LIMIT,
        # Behind a reverse proxy (README, "On a public host"): the address players reach,
        # the Host names accepted without it, and how many proxies' X-Forwarded-* to trust.
        "PUBLIC_URL": env("ALLFIVES_PUBLIC_URL", ""),
        "ALLOWED_HOSTS": env("ALLFIVES_ALLOWED_HOSTS", ""),
        "TRUSTED_PROXIES": env("ALLFIVES_TRUSTED_PROXIES", "0"),
        "RATELIMIT_STORAGE_URI": env("ALLFIVES_RATE_LIMIT_STORAGE", "memory://"),
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
        "PERMANENT_SESSION_LIFETIME": 60 * 60 * 24 * 365,
        # The cookie is re-sent when it changes (opening a game renews its year), not on every
        # play and poll: that saved re-signing it and ~250 bytes on each response.
        "SESSION_REFRESH_EACH_REQUEST": False,
        "SEND_FILE_MAX_AGE_DEFAULT": 60 * 60 * 24 * 30,
    }


def settle(app: Flask) -> str:
    """Fill in what the settings leave to the app (rate limits on or off, the signing key,
    the instance folder) and return the database URL; :class:`StartupError` if a setting
    cannot be used."""
    from .store import database_url

    if "RATELIMIT_ENABLED" not in app.config:  # tests turn them on where they test them
        off = os.environ.get("ALLFIVES_RATE_LIMITS", "on").lower() in ("off", "0", "no")
        app.config["RATELIMIT_ENABLED"] = not (off or app.testing)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("ALLFIVES_SECRET_KEY") or _instance_secret(app)
    if not app.config["DATABASE"]:
        _instance_folder(app)
    default = str(Path(app.instance_path) / "allfives.sqlite3")
    url = database_url(app.config["DATABASE"] or default)
    app.config["DATABASE_URL"] = url
    return url


def cache_bytes(value: object) -> int:
    """The cache's budget from its setting; :class:`StartupError` if it is no size."""
    text = str(value).strip()
    if not text.isdigit() or int(text) < 1:
        raise StartupError(
            f"ALLFIVES_CACHE_BYTES must be a whole number of bytes, such as 67108864, not {text!r}"
        )
    return int(text)


def warm_games(value: object) -> int:
    """How many games in play a new server reads before it serves; :class:`StartupError` if
    the setting is no count."""
    text = str(value).strip()
    if not text.isdigit():
        raise StartupError(
            f"ALLFIVES_WARM_GAMES must be a whole number of games, such as 100 (0: none), "
            f"not {text!r}"
        )
    return int(text)


def heartbeat(value: object) -> float:
    """The seconds between two heartbeats from its setting; :class:`StartupError` if it is no
    number of seconds from 0.05 to 60 (the server closes a connection quiet for 120 s, and
    proxies often sooner)."""
    text = str(value).strip()
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0.05 <= seconds <= 60:
        raise StartupError(
            f"ALLFIVES_STREAM_HEARTBEAT must be a number of seconds from 0.05 to 60, such as 20, "
            f"not {text!r}"
        )
    return seconds


def _instance_folder(app: Flask) -> Path:
    """The instance folder, made if missing; :class:`StartupError` if it cannot be."""
    folder = Path(app.instance_path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StartupError(
            f"cannot write to {folder}: set ALLFIVES_INSTANCE to a folder you can write to, "
            "or set ALLFIVES_DATABASE and ALLFIVES_SECRET_KEY"
        ) from error
    return folder


def _instance_secret(app: Flask) -> str:
    """A signing key kept in the instance folder, so devices stay remembered across restarts."""
    path = _instance_folder(app) / "secret_key"
    try:
        if not path.exists():
            path.write_text(secrets.token_hex(32))
            path.chmod(0o600)
        key = path.read_text().strip()
    except OSError as error:
        raise StartupError(
            f"cannot read or write the signing key {path}: make it readable and writable by "
            "this user, or set ALLFIVES_SECRET_KEY"
        ) from error
    if not key:
        raise StartupError(f"the signing key {path} is empty: delete it to make a new one")
    return key
