"""A page rendered from its view model: one frozen dataclass per page, built by keyword in the
page's area, whose fields are the names its template prints. The template is given nothing
else, so it prints words already said and numbers already counted, never an engine object.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING

from flask import render_template

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


def render_page(template: str, page: DataclassInstance) -> str:
    """``template`` with each field of ``page`` as a name of its own."""
    return render_template(
        template, **{field.name: getattr(page, field.name) for field in fields(page)}
    )
