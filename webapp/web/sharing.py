"""A link to share with its QR code: a game's or a circle's players' and watch links."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from markupsafe import Markup

from ..store import Part
from ..ui.tiles import qr_svg
from .game import store


@dataclass(frozen=True, slots=True)
class ShareLink:
    label: str
    hint: str
    url: str
    qr: Markup


def share_link(owner: str, label: str, hint: str, url: str) -> ShareLink:
    """``url`` with its QR code, drawn once and kept with ``owner``'s pieces in the cache."""
    qr = store().cache.get_or_make(owner, (Part.QR, url), 0, partial(qr_svg, url))
    return ShareLink(label, hint, url, qr)
