"""Frozen records made anew with a field or two changed: ``dataclasses.replace``, but with
each record type's fields listed once rather than inspected at every call (a play makes three
or four such records; ``dataclasses.replace`` spent a third of the rules' time on them).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Point:
...     x: int
...     y: int = 0
>>> replace(Point(1, 2), y=5)
Point(x=1, y=5)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar

Record = TypeVar("Record")

# Each record type's fields, and a function reading them all from one record; None for a type
# with a field ``__init__`` does not take, or an init-only variable: ``dataclasses.replace``
# handles those itself.
_FIELDS: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]] | None] = {}


def replace(record: Record, /, **changes: Any) -> Record:
    """``record`` with ``changes``, made through its class's ``__init__`` as
    ``dataclasses.replace`` makes it."""
    kind = type(record)
    try:
        found = _FIELDS[kind]
    except KeyError:
        found = _FIELDS[kind] = _fields(kind)
    if found is None:
        return dataclasses.replace(record, **changes)  # type: ignore[type-var]
    names, read = found
    given = dict(zip(names, read(record), strict=True))
    given.update(changes)
    made: Record = kind(**given)
    return made


def _fields(kind: type) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]] | None:
    every = dataclasses.fields(kind)
    # (``fields`` leaves out a class's init-only variables and class variables: any there)
    declared = getattr(kind, "__dataclass_fields__", {})
    if len(every) != len(declared) or any(not field.init for field in every):
        return None
    names = tuple(field.name for field in every)
    if len(names) == 1:
        only = attrgetter(names[0])
        return names, lambda record: (only(record),)
    return names, attrgetter(*names)
