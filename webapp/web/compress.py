"""Gzip for every response worth it: a phone on a weak connection waits for bytes, not CPU.

Static files are compressed once per file version, by Zopfli (gzip any browser reads, 3–5%
smaller than gzip's highest level: about 1.1 KB of the game screen's first load, for about
0.8 s of CPU), kept in memory, and kept in the instance folder (``packed/``, named by a hash
of what was packed) so that a process started later, a worker replaced or the server
restarted, reads them instead of packing them again; the stylesheets and
scripts written here are minified first (rcssmin, rjsmin: comments and
spaces dropped, nothing renamed), so that their comments, kept for whoever reads the source,
cost a phone nothing (the game screen's first load: 6.5 KB less);
pages, made anew each time, at level 6 (their first load is weighed: ``test_compression.py``);
htmx answers, a few KB each, at level 2 with a window and hash table sized for a few KB: zlib
clears its hash table and builds its code trees for every answer whatever its size, and at
level 6 searches harder, so a 4.6 KB answer to a lead costs about 520,000 instructions at
level 6 and 340,000 so (callgrind), for 1,550 bytes instead of 1,465 (a mid-hand play: 400,000
and 276,000, 1,176 bytes instead of 1,113); these bytes are an answer's own (its headers come
to about 550 more), and either way it takes the same packets.
A page or an answer under ``MIN_SIZE`` is sent as it is: it fits in one packet of a typical
network (1,500 bytes, less the headers) either way, so compressing it costs time and saves no
wait. A static file is packed however small (theme.js, the icon: 1,069 bytes as they are, 417
packed), since it is packed only once; it is sent packed when that is smaller.

A part of a file (a 206 answer to a ``Range`` request) is sent as it is: its byte range is
of the file itself, so compressing it would break it. A compressed answer's ETag is the file's
with ``-gz``, and a request naming that ETag is answered 304 like any other. (Flask-Compress was
measured against this: it compresses a 206 too, and compresses static files again on every
request, as a stream.)
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import os
import threading
import zlib
from functools import lru_cache
from pathlib import Path

import rcssmin
import rjsmin
import zopfli.gzip
from flask import Flask, current_app, request
from flask.wrappers import Response

from .htmx import is_htmx

MIN_SIZE = 1500
COMPRESSIBLE = ("text/", "application/json", "application/javascript", "image/svg+xml")
STATIC_ITERATIONS = 15  # Zopfli's default: more shaves a few bytes for several times the time
PAGE_LEVEL = 6
ANSWER_LEVEL = 2
ANSWER_MEMORY = 6  # zlib's memLevel: a hash table of 2**(6 + 7) entries (the default's: 2**15)
PACKED = "packed"  # the instance folder's packed static files


@lru_cache(maxsize=64)
def _static_gzip(data: bytes, kind: str, folder: str) -> bytes:
    """A static file's bytes as sent compressed; ``kind``: "css" or "js" to minify them; the
    packed bytes read from ``folder`` if an earlier process packed the same, else written there
    (a folder that cannot be read or written only costs the packing)."""
    name = hashlib.sha256(b"%s:%d:" % (kind.encode(), STATIC_ITERATIONS) + data).hexdigest()
    kept = Path(folder) / f"{name}.gz"
    with contextlib.suppress(OSError):
        return kept.read_bytes()
    if kind == "css":
        data = rcssmin.cssmin(data)
    elif kind == "js":
        data = rjsmin.jsmin(data)
    packed: bytes = zopfli.gzip.compress(data, numiterations=STATIC_ITERATIONS)
    fresh = kept.with_suffix(f".{os.getpid()}.{threading.get_ident()}")
    try:
        kept.parent.mkdir(exist_ok=True)
        fresh.write_bytes(packed)
        os.replace(fresh, kept)  # whole or not at all, for a process reading it meanwhile
    except OSError:  # a full disk, a read-only folder: nothing half-written is left
        with contextlib.suppress(OSError):
            fresh.unlink()
    return packed


def _answer_gzip(data: bytes) -> bytes:
    """An htmx answer gzipped (``ANSWER_LEVEL``), its window no larger than the answer."""
    window = min(15, max(9, (len(data) - 1).bit_length()))
    packer = zlib.compressobj(ANSWER_LEVEL, zlib.DEFLATED, 16 + window, ANSWER_MEMORY)
    return packer.compress(data) + packer.flush()


def _minified(path: str, mimetype: str) -> str:
    """Which minifier a static file takes: none for one already minified (``.min.js``)."""
    if mimetype == "text/css":
        return "css"
    if mimetype.endswith("javascript") and not path.endswith(".min.js"):
        return "js"
    return ""


def register(app: Flask) -> None:
    @app.after_request
    def compress(response: Response) -> Response:
        # (That it varies with Accept-Encoding is said with the rest of Vary: web/headers.py.)
        status = response.status_code
        mimetype = response.mimetype or ""
        if (
            "gzip" not in request.headers.get("Accept-Encoding", "")
            or status < 200
            or status in (204, 206, 304)
            or mimetype == "text/event-stream"  # a game's stream: each event as it comes
            or not mimetype.startswith(COMPRESSIBLE)
            or "Content-Range" in response.headers
            or "Content-Encoding" in response.headers
        ):
            return response
        static = response.direct_passthrough
        response.direct_passthrough = False
        data = response.get_data()
        if static:  # packed once per version: worth it however small, if it comes out smaller
            kind = _minified(request.path, mimetype)
            packed = _static_gzip(data, kind, os.path.join(current_app.instance_path, PACKED))
            if len(packed) >= len(data):
                return response
        elif len(data) < MIN_SIZE:
            return response
        elif is_htmx():
            packed = _answer_gzip(data)
        else:
            packed = gzip.compress(data, PAGE_LEVEL, mtime=0)
        response.set_data(packed)
        response.headers["Content-Encoding"] = "gzip"
        etag, weak = response.get_etag()
        if etag:
            response.set_etag(f"{etag}-gz", bool(weak))
            # The file's own check saw the ETag without -gz: answer the one the phone sent.
            response.make_conditional(request)
        return response
