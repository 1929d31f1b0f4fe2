"""Reading whole numbers typed by people: ASCII digits only, and not too many of them.

``str.isdigit`` is also true of "²" and "١", which ``int`` then refuses (or reads as another
digit), and ``int`` refuses strings of over 4,300 digits: each would be an error page instead
of a refusal. Here both are simply not a number.
"""

from __future__ import annotations


def whole_number(text: object, digits: int = 6) -> int | None:
    """``text`` as a whole number 0 or more, or ``None`` unless it is 1 to ``digits`` ASCII
    digits (surrounding spaces allowed).

    >>> whole_number(" 42 "), whole_number("²"), whole_number("-3"), whole_number("1" * 7)
    (42, None, None, None)
    """
    if not isinstance(text, str):
        return None
    text = text.strip()
    if not 0 < len(text) <= digits or not text.isascii() or not text.isdigit():
        return None
    return int(text)
