"""What the engine says, as data: an English template, its parameters, and (for plurals) a count.

A :class:`Message` *is* its English text (a ``str``), so the Python shell, doctests and every
caller that only wants English keep working; it also keeps the template and parameters, so the
web layer (``webapp/words.py``) can say it again in the reader's language with gettext.

Templates are written once, here in the engine, with named ``%(name)s`` placeholders. The two
constructors double as extraction markers for ``pybabel extract`` (babel.cfg keywords
``N_`` and ``NP_:1,2``)::

    N_("%(tile)s was already played", tile="6-4")
    NP_("%(num)s tile", "%(num)s tiles", 3)

A parameter is a tile, a rule id, a player's name or a number (never translated), another
message (translated in turn), or :class:`Items` (a list joined the reader's way).

>>> said = N_("%(name)s drew %(drawn)s", name="Ana", drawn=NP_("a tile", "%(num)s tiles", 2))
>>> said, said.template, said.params["drawn"].num
('Ana drew 2 tiles', '%(name)s drew %(drawn)s', 2)
>>> str(N_("open ends are %(ends)s", ends=Items((3, 2))))
'open ends are 3, 2'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

Param: TypeAlias = "str | int | Message | Items"

# The CLDR list style (babel.lists.format_list) a list is said in, in languages other than
# English; English keeps the engine's own joiners below ("3, 2", "a or b or c", "a, b and c").
LIST_STYLES: Final[Mapping[str, Literal["unit", "or", "standard"]]] = {
    "unit": "unit",
    "or": "or",
    "and": "standard",
}


@dataclass(frozen=True, slots=True)
class Items:
    """A list shown in a sentence: ``unit`` (``3, 2``), ``or`` (``left or right``), ``and``
    (``Ana, Ben and Cy``).

    >>> [str(Items(("Ana", "Ben", "Cy"), style)) for style in ("unit", "or", "and")]
    ['Ana, Ben, Cy', 'Ana or Ben or Cy', 'Ana, Ben and Cy']
    """

    values: tuple[Param, ...]
    style: Literal["unit", "or", "and"] = "unit"

    def __str__(self) -> str:
        return self.joined([str(value) for value in self.values])

    def joined(self, words: list[str]) -> str:
        """``words`` (the values, already said) joined as English joins this list."""
        if self.style == "or":
            return " or ".join(words)
        if self.style == "and" and len(words) > 1:
            return ", ".join(words[:-1]) + " and " + words[-1]
        return ", ".join(words)


class Message(str):
    """English text that remembers how it was made: ``template`` % ``params``; for a plural,
    ``plural`` is the other English form and ``num`` chooses between them."""

    template: str
    plural: str | None
    num: int | None
    params: Mapping[str, Param]

    def __new__(
        cls,
        template: str,
        params: Mapping[str, Param],
        plural: str | None = None,
        num: int | None = None,
    ) -> Message:
        chosen = template if plural is None or num == 1 else plural
        english = {name: str(value) for name, value in params.items()}
        made = super().__new__(cls, chosen % english)
        for name, value in (
            ("template", template),
            ("plural", plural),
            ("num", num),
            ("params", dict(params)),
        ):
            object.__setattr__(made, name, value)
        return made

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("messages are immutable")

    def __reduce__(self) -> tuple[object, ...]:
        return (Message, (self.template, dict(self.params), self.plural, self.num))


def N_(template: str, **params: Param) -> Message:
    """A message from an English template; its name is the extraction keyword ``N_``."""
    return Message(template, params)


def NP_(singular: str, plural: str, num: int, **params: Param) -> Message:
    """A message with a singular and a plural form chosen by ``num`` (also the ``%(num)s``
    parameter, as in Flask-Babel's ``ngettext``); extraction keyword ``NP_:1,2``."""
    return Message(singular, {"num": num, **params}, plural, num)


def listed(items: Items) -> Message:
    """A message that is only a list ("Muggins, rounding up"): nothing of its own to translate,
    its items are (so no extraction keyword: its template is never in a catalog)."""
    return Message("%(items)s", {"items": items})
