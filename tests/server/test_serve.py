"""What ``allfives serve`` does to a process before it takes its first request."""

from __future__ import annotations

from flask import Flask


def test_a_served_process_compiles_every_template_before_its_first_request(app: Flask) -> None:
    """Compiled on demand, templates made each new worker's first plays wait 0.2 to 0.6 s."""
    from webapp.serve.cli import _warm

    names = app.jinja_env.list_templates(extensions=["html"])
    assert "game/_regions.html" in names and "game/_work.html" in names
    _warm(app)
    cache = app.jinja_env.cache
    assert cache is not None
    compiled = {key[1] for key in cache}  # keyed by (loader, name)
    assert set(names) <= compiled
