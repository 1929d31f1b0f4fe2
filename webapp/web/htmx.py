"""htmx requests: told apart in one place, and every answer marked as varying with them.

An htmx request (``HX-Request: true``) gets only the regions that changed, swapped into
place out of band; a plain request (no JavaScript) gets the whole page, or a redirect after
a form. A cache must not give one the other's answer, hence ``Vary: HX-Request`` (set with
the other headers, ``web/headers.py``).
"""

from __future__ import annotations

from flask import request


def is_htmx() -> bool:
    """The one place that tells an htmx request from a plain one."""
    return request.headers.get("HX-Request") == "true"
