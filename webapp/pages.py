"""The pages of the table app (HTML, htmx-enhanced)."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask.typing import ResponseReturnValue

bp = Blueprint("pages", __name__)


@bp.get("/")
def home() -> ResponseReturnValue:
    return render_template("error.html", title="All Fives", message="Coming soon")
