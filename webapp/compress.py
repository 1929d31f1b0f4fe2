"""Gzip for every response worth it: a phone on a weak connection waits for bytes, not CPU.

Static files are compressed once per file version and kept in memory.
"""

from __future__ import annotations

import gzip
from functools import lru_cache

from flask import Flask, request
from flask.wrappers import Response

MIN_SIZE = 512
COMPRESSIBLE = ("text/", "application/json", "application/javascript", "image/svg+xml")


@lru_cache(maxsize=64)
def _static_gzip(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)


def register(app: Flask) -> None:
    @app.after_request
    def compress(response: Response) -> Response:
        response.vary.add("Accept-Encoding")
        if (
            "gzip" not in request.headers.get("Accept-Encoding", "")
            or response.status_code < 200
            or response.status_code in (204, 304)
            or "Content-Encoding" in response.headers
            or not (response.mimetype or "").startswith(COMPRESSIBLE)
        ):
            return response
        static = response.direct_passthrough
        response.direct_passthrough = False
        data = response.get_data()
        if len(data) < MIN_SIZE:
            return response
        packed = _static_gzip(data) if static else gzip.compress(data, compresslevel=6, mtime=0)
        response.set_data(packed)
        response.headers["Content-Encoding"] = "gzip"
        if response.headers.get("ETag"):
            response.headers["ETag"] = response.headers["ETag"].rstrip('"') + '-gz"'
        return response
