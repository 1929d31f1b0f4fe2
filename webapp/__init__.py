"""The All Fives table companion: a Flask app over the rules engine in ``webapp.rules``."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app factory: ``flask --app webapp run`` and ``allfives serve`` both use it.

    Flask and the database are imported here, not at the top, so that ``webapp.rules`` can be
    used on its own without them."""
    from flask import Flask

    from . import limits
    from .db import database_url, open_store

    instance = os.environ.get("ALLFIVES_INSTANCE")  # default: Flask's instance/ folder
    app = Flask(
        __name__,
        instance_path=str(Path(instance).resolve()) if instance else None,
        instance_relative_config=True,
        template_folder="../templates",
        static_folder="../static",
    )
    app.config.from_mapping(
        DATABASE=os.environ.get("ALLFIVES_DATABASE", ""),
        SQLITE_SYNCHRONOUS=os.environ.get("ALLFIVES_SQLITE_SYNCHRONOUS", "NORMAL"),
        # The bytes of replayed games kept in memory, per process (webapp/cache.py).
        CACHE_BYTES=os.environ.get("ALLFIVES_CACHE_BYTES", str(64 * 1024 * 1024)),
        MAX_CONTENT_LENGTH=limits.BODY_LIMIT,
        # Behind a reverse proxy (README, "On a public host"): the address players reach,
        # the Host names accepted without it, and how many proxies' X-Forwarded-* to trust.
        PUBLIC_URL=os.environ.get("ALLFIVES_PUBLIC_URL", ""),
        ALLOWED_HOSTS=os.environ.get("ALLFIVES_ALLOWED_HOSTS", ""),
        TRUSTED_PROXIES=os.environ.get("ALLFIVES_TRUSTED_PROXIES", "0"),
        RATELIMIT_STORAGE_URI=os.environ.get("ALLFIVES_RATE_LIMIT_STORAGE", "memory://"),
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 365,
        # The cookie is re-sent when it changes (opening a game renews its year), not on every
        # play and poll: that saved re-signing it and ~250 bytes on each response.
        SESSION_REFRESH_EACH_REQUEST=False,
        SEND_FILE_MAX_AGE_DEFAULT=60 * 60 * 24 * 30,
    )
    if test_config:
        app.config.from_mapping(test_config)
    if "RATELIMIT_ENABLED" not in app.config:  # tests turn them on where they test them
        off = os.environ.get("ALLFIVES_RATE_LIMITS", "on").lower() in ("off", "0", "no")
        app.config["RATELIMIT_ENABLED"] = not (off or app.testing)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("ALLFIVES_SECRET_KEY") or _instance_secret(app)
    if not app.config["DATABASE"]:
        _instance_folder(app)
    url = database_url(app.config["DATABASE"] or str(Path(app.instance_path) / "allfives.sqlite3"))
    app.config["DATABASE_URL"] = url
    app.extensions["allfives_store"] = open_store(
        url, app.config["SQLITE_SYNCHRONOUS"], _cache_bytes(app.config["CACHE_BYTES"])
    )

    from . import (
        api,
        compress,
        disputes,
        errors,
        fixes,
        i18n,
        pages,
        security,
        shell,
        teaching,
        words,
    )

    security.behind_proxy(app)
    limits.register(app)
    i18n.register(app)  # the reader's language, before any page is rendered
    words.register(app)  # engine messages printed by templates, in that language

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(disputes.bp)
    app.register_blueprint(teaching.bp)
    app.register_blueprint(fixes.bp)
    shell.register(app)  # the installable app: manifest, service worker, offline page
    errors.register(app)
    security.register(app)
    compress.register(app)
    return app


def _cache_bytes(value: object) -> int:
    """The cache's budget from its setting; :class:`StartupError` if it is no size."""
    from .errors import StartupError

    text = str(value).strip()
    if not text.isdigit() or int(text) < 1:
        raise StartupError(
            f"ALLFIVES_CACHE_BYTES must be a whole number of bytes, such as 67108864, not {text!r}"
        )
    return int(text)


def _instance_folder(app: Flask) -> Path:
    """The instance folder, made if missing; :class:`StartupError` if it cannot be."""
    from .errors import StartupError

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
    from .errors import StartupError

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
