"""Who may change what: security headers on every response, CSRF checks on every form, and
what to believe of a request behind a reverse proxy.

Pages carry no inline script or style, so the Content-Security-Policy can forbid both. Every
state-changing form carries a per-device token (htmx sends it as a header); the JSON API takes
only JSON bodies, which a cross-site form cannot send. A browser that says a request comes from
a page of this site (Fetch Metadata: ``Sec-Fetch-Site: same-origin``, sent by every current
browser) needs no token checked: no other site can send that. Then a play never decodes the
signed session cookie, which is decoded only when a request reads or changes the session.
Pages and API answers carry edit ids and tokens, so none may be stored by a browser or a cache;
only static files may.
"""

from __future__ import annotations

import contextlib
import hmac
import secrets
import socket
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, g, request, session, url_for
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from flask.wrappers import Request, Response
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.sansio.utils import host_is_trusted

from ..config import StartupError
from ..i18n.words import gettext, lazy_gettext

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # game links must not leak to other sites
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"
FETCH_SITE = "Sec-Fetch-Site"  # set by the browser, never by a page's script
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
HSTS = "max-age=31536000"
WRONG_HOST = lazy_gettext(
    "This server does not answer to that address. Use the address the players' link gives, "
    "or set ALLFIVES_PUBLIC_URL or ALLFIVES_ALLOWED_HOSTS on the server."
)
NO_STORE = "no-store"
HOSTS = "allfives_hosts"  # the Host names the app answers to, when it does not answer any


def csrf_token() -> str:
    """This device's token, made on first use and kept in its signed session cookie. A request
    a page of this site sent carries it back (in its form, or htmx's header): that one is
    printed again, so answering a play needs no session, but only if this server issued it
    (its signature says so); any other is never printed back. Worked out once per request:
    every form prints it."""
    printed: str | None = g.get("csrf_printed")
    if printed is None:
        printed = g.csrf_printed = _csrf_token()
    return printed


@contextlib.contextmanager
def tokens_printed_as(stand_in: str) -> Iterator[None]:
    """Forms written meanwhile print ``stand_in`` for this device's token: a region written
    once for every device (``game/controls.py``), each device's token filled in after."""
    printed = g.get("csrf_printed")
    g.csrf_printed = stand_in
    try:
        yield
    finally:
        g.csrf_printed = printed
        if printed is None:
            g.pop("csrf_printed")


def _csrf_token() -> str:
    if from_this_site():
        sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD)
        if sent and _issued(sent):
            return sent
    token = session.get(CSRF_FIELD)
    if not isinstance(token, str):
        token = session[CSRF_FIELD] = signed(secrets.token_urlsafe(24), current_app.secret_key)
    return token


def signed(nonce: str, secret: str | bytes | None) -> str:
    """A token as this server issues it: ``nonce.signature``, signed with the secret key."""
    key = secret if isinstance(secret, bytes) else (secret or "").encode()
    return f"{nonce}.{hmac.new(key, nonce.encode(), 'sha256').hexdigest()[:32]}"


def _issued(token: str) -> bool:
    """Whether ``token`` is one this server made."""
    if len(token) > 80 or not token.isascii():
        return False
    return _signed_with(token, current_app.secret_key)


@lru_cache(maxsize=1024)
def _signed_with(token: str, secret: str | bytes | None) -> bool:
    """Whether ``token`` is signed with ``secret``: kept for the tokens of the phones at play,
    each of which sends its own with every tap."""
    nonce = token.partition(".")[0]
    return bool(nonce) and hmac.compare_digest(token.encode(), signed(nonce, secret).encode())


def from_this_site() -> bool:
    """Whether the browser says a page of this site sent the request (Fetch Metadata)."""
    return request.headers.get(FETCH_SITE) == "same-origin"


def register(app: Flask) -> None:
    app.jinja_env.globals["csrf_token"] = csrf_token

    @app.before_request
    def check_csrf() -> None:
        if request.method not in UNSAFE_METHODS or request.path.startswith(("/api/", "/v/")):
            return  # the API takes only JSON; a watch link changes nothing and says so (403)
        if app.config.get("CSRF_DISABLED") or from_this_site():
            return
        sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD, "")
        expected = session.get(CSRF_FIELD)
        # Compared as bytes: compare_digest refuses str with anything but ASCII in it.
        if not isinstance(expected, str) or not hmac.compare_digest(
            sent.encode("utf-8", "surrogateescape"), expected.encode()
        ):
            abort(
                400,
                gettext(
                    "This page was out of date, so nothing was changed. "
                    "Go back, reload the page and try again."
                ),
            )

    # The security headers themselves are set with the others, in one pass (web/headers.py).


def public_url(endpoint: str, **values: Any) -> str:
    """The absolute URL of a page for players to open: on ``PUBLIC_URL`` when it is set, never
    on the Host header then; without it, only an allowed Host gets this far."""
    return public_base() + url_for(endpoint, **values)


def public_base() -> str:
    """The address players' links start with: ``PUBLIC_URL`` when it is set, else the one
    this request came by (only an allowed Host gets this far)."""
    return str(current_app.config["PUBLIC_URL"]) or request.host_url.rstrip("/")


class _LazySession(SecureCookieSession):
    """A signed-cookie session decoded the first time it is read or changed (decoding and
    checking the signature costs about 0.2 ms)."""

    def __init__(self, load: Callable[[], Mapping[str, Any]]) -> None:
        super().__init__()
        self._load: Callable[[], Mapping[str, Any]] | None = load

    @property
    def decoded(self) -> bool:
        return self._load is None

    def _decode(self) -> None:
        load, self._load = self._load, None
        if load is not None:
            dict.update(self, load())  # as it was sent: not a change to save


def _decoding(name: str) -> Callable[..., Any]:
    method = getattr(SecureCookieSession, name)

    def decoded(self: _LazySession, *args: Any, **kwargs: Any) -> Any:
        self._decode()
        return method(self, *args, **kwargs)

    return decoded


for _name in (
    *("__contains__", "__delitem__", "__eq__", "__getitem__", "__ior__", "__iter__", "__len__"),
    *("__repr__", "__setitem__", "clear", "copy", "get", "items", "keys", "pop", "popitem"),
    *("setdefault", "update", "values"),
):
    setattr(_LazySession, _name, _decoding(_name))


class _SessionInterface(SecureCookieSessionInterface):
    """The session cookie is ``Secure`` whenever the page was served over HTTPS, and decoded
    only when the request uses the session."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        # Parsing the request's cookies costs about a tenth of a bare request: a phone's
        # cookies are parsed only if the session cookie's name is in them, and then only once
        # the session is read or changed. Without it, the session is a new one, as Flask's
        # would be (None without a secret key: Flask's null session then says why).
        name = self.get_cookie_name(app)
        if name not in request.environ.get("HTTP_COOKIE", ""):
            return None if self.get_signing_serializer(app) is None else self.session_class()
        return _LazySession(lambda: super(_SessionInterface, self).open_session(app, request) or {})

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if isinstance(session, _LazySession) and not session.decoded:
            return  # neither read nor changed: the cookie the phone holds stands
        super().save_session(app, session, response)


def behind_proxy(app: Flask) -> None:
    """Apply the deployment settings (README, "On a public host").

    ``TRUSTED_PROXIES`` (default 0) is how many proxies in front set ``X-Forwarded-For``,
    ``-Proto``, ``-Host`` and ``-Port``: only then are they believed (Werkzeug's ProxyFix, the
    one place that reads them; ``allfives serve`` passes them through untouched).
    ``PUBLIC_URL`` is the address players reach; share links use it. Without it, requests
    naming a Host outside ``ALLOWED_HOSTS`` (default: this machine's own names and addresses)
    are refused, since links are then built from the Host header. ``*`` allows any.
    """
    public = app.config["PUBLIC_URL"].strip()
    if public:
        parts = urlsplit(public)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
            raise StartupError(
                f"ALLFIVES_PUBLIC_URL must be an address such as https://fives.example.org, "
                f"not {public!r}"
            )
        app.config["PUBLIC_URL"] = public.rstrip("/")
        if parts.scheme == "https":
            app.config["SESSION_COOKIE_SECURE"] = True
    try:
        proxies = int(app.config["TRUSTED_PROXIES"] or 0)
    except ValueError:
        proxies = -1
    if proxies < 0:
        raise StartupError(
            "ALLFIVES_TRUSTED_PROXIES must be the number of proxies in front of the app "
            f"(0 when none), not {app.config['TRUSTED_PROXIES']!r}"
        )
    app.config["TRUSTED_PROXIES"] = proxies  # the server reads it too (webapp/serve)
    if proxies:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies
        )
    hosts = [name.strip() for name in str(app.config["ALLOWED_HOSTS"]).split(",")]
    hosts = [name for name in hosts if name] or ([] if public else own_names())
    app.session_interface = _SessionInterface()
    if not hosts or "*" in hosts:
        return
    app.extensions[HOSTS] = allowed = tuple(hosts)

    @app.before_request
    def check_host() -> None:
        # Checked here rather than by Flask's TRUSTED_HOSTS, which leaves the request unable
        # to build any URL, so not even the page saying what is wrong could be shown.
        # Static files carry no links, and the refusal page needs its stylesheet.
        if request.endpoint != "static" and not _trusted(request.host, allowed):
            abort(400, str(WRONG_HOST))


@lru_cache(maxsize=256)
def _trusted(host: str, hosts: tuple[str, ...]) -> bool:
    """Whether ``host`` is one of ``hosts``: worked out once per Host header as sent (each
    name compared costs a parse of both), since every request asks."""
    return host_is_trusted(host, hosts)


def answers_host(app: Flask, host: str) -> bool:
    """Whether the app answers requests naming ``host`` (``ALLOWED_HOSTS``)."""
    hosts: tuple[str, ...] | None = app.extensions.get(HOSTS)
    return hosts is None or _trusted(host, hosts)


def plain_headers(app: Flask, secure: bool) -> list[tuple[str, str]]:
    """The headers every answer of the app carries, for one made without the app's hooks
    (``secure``: it was asked for over HTTPS)."""
    headers = [*HEADERS.items(), ("Cache-Control", NO_STORE)]
    if secure or app.config["SESSION_COOKIE_SECURE"]:
        headers.append(("Strict-Transport-Security", HSTS))
    return headers


def own_names() -> list[str]:
    """The names and IPv4 addresses by which this machine can be reached."""
    names = {"localhost", "127.0.0.1", lan_address(), *_addresses()}
    try:
        host = socket.gethostname()
        names.update({host, f"{host}.local", socket.getfqdn()})
    except OSError:
        pass
    return sorted(name for name in names if name)


def lan_address() -> str:
    """This machine's address on the local network, for phones to reach it."""
    for address in _addresses():
        if not address.startswith("127."):
            return address
    return "127.0.0.1"


def _addresses() -> list[str]:
    found = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the route
        found.append(str(probe.getsockname()[0]))
    try:
        named = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        named = []
    found += [str(address[0]) for *_, address in named]
    return found
