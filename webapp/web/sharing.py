"""A link to share with its QR code: a game's or a circle's players' and watch links.

The QR code is an image of its own (``/qr.svg?path=…``, a path of this site), fetched when the
share panel it sits in is opened: drawn inline, the two codes of a game were about a tenth of
the game screen's first load, in a panel that is closed until someone shares the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from flask import Flask, abort, request, url_for
from flask.wrappers import Response

from ..ui.tiles import qr_svg
from .limits import heavy
from .security import public_base

MAX_PATH = 512  # a share link's path is far shorter


@dataclass(frozen=True, slots=True)
class ShareLink:
    label: str
    hint: str
    url: str
    qr: str  # the address of its QR code's image


def share_link(label: str, hint: str, url: str) -> ShareLink:
    """``url`` (an address of this site, ``web.security.public_url``) with its QR code."""
    return ShareLink(label, hint, url, url_for("qr", path=urlsplit(url).path))


def register(app: Flask) -> None:
    app.add_url_rule("/qr.svg", "qr", heavy(qr_image))


def qr_image() -> Response:
    """The QR code of a page of this site, by its path, on the address its links start with
    (``PUBLIC_URL``, else the one the request came by, as ``public_url`` builds them)."""
    path = request.args.get("path", "")
    if not path.startswith("/") or path.startswith("//") or len(path) > MAX_PATH:
        abort(404)
    if any(ord(char) < 32 for char in path) or "\\" in path:
        abort(404)
    # Sent no-store like every page (a players' link's code is its key): kept here instead.
    return Response(_drawn(public_base() + path), mimetype="image/svg+xml")


@lru_cache(maxsize=64)
def _drawn(url: str) -> bytes:
    """``url``'s QR code, drawn once (about 7 ms) for the phones that open its share panel."""
    return qr_svg(url)
