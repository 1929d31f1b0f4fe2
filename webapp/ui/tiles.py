"""Single dominoes drawn as SVG on the server: the picker's tiles, which a drawn layout's tiles
reference too (``layouts.Laid``), and a link's QR code. Nothing here decides a rule."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup

from ..rules import DOUBLE_SIX, Tile

UNIT = 20  # SVG units per half-tile square

# Where the pips sit in one square half, as fractions of its side.
_SPOTS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
}
_SIX_TALL = ((0.28, 0.22), (0.28, 0.5), (0.28, 0.78), (0.72, 0.22), (0.72, 0.5), (0.72, 0.78))
_SIX_WIDE = tuple((y, x) for x, y in _SIX_TALL)


@dataclass(frozen=True, slots=True)
class Piece:
    """One domino as drawn: its box, the dividing line, and the centres of its pips."""

    x: float
    y: float
    width: float
    height: float
    line: tuple[float, float, float, float]
    pips: tuple[tuple[float, float], ...]
    pip_radius: float


def domino(x: float, y: float, first: int, second: int, tall: bool, unit: float = UNIT) -> Piece:
    """A domino with its top-left corner at (x, y): ``first`` is the top (or left) half."""
    width, height = (unit, 2 * unit) if tall else (2 * unit, unit)
    pips: list[tuple[float, float]] = []
    for half, value in enumerate((first, second)):
        left = x + (0 if tall else half * unit)
        top = y + (half * unit if tall else 0)
        spots = _SPOTS.get(value) or ((_SIX_TALL if tall else _SIX_WIDE) if value == 6 else ())
        pips.extend((round(left + sx * unit, 2), round(top + sy * unit, 2)) for sx, sy in spots)
    if tall:
        line = (x + unit * 0.18, y + unit, x + unit * 0.82, y + unit)
    else:
        line = (x + unit, y + unit * 0.18, x + unit, y + unit * 0.82)
    return Piece(x, y, width, height, line, tuple(pips), unit * 0.095)


def tile_picture(tile: Tile) -> Piece:
    """A single upright tile for the picker, high half on top (view box ``PICTURE_BOX``)."""
    return domino(0, 0, tile.a, tile.b, True)


PICTURE_BOX = f"-1 -1 {UNIT + 2} {2 * UNIT + 2}"
# ``tile_symbols`` draws each tile about its centre, so that a layout places it by its cell's.
SYMBOL_BOX = f"{-UNIT // 2 - 1} {-UNIT - 1} {UNIT + 2} {2 * UNIT + 2}"


def piece_svg(piece: Piece) -> Markup:
    """One drawn domino as SVG elements: its box, its dividing line and its pips."""
    corner = min(piece.width, piece.height) * 0.14
    x1, y1, x2, y2 = piece.line
    pips = "".join(
        f'<circle cx="{x:g}" cy="{y:g}" r="{piece.pip_radius:g}"/>' for x, y in piece.pips
    )
    return Markup(
        f'<rect x="{piece.x:g}" y="{piece.y:g}" width="{piece.width:g}" '
        f'height="{piece.height:g}" rx="{corner:g}"/>'
        f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"/>{pips}'
    )


@lru_cache(maxsize=64)
def tile_svg(name: str) -> Markup:
    """A tile of the picker as a whole SVG, drawn once: the picker shows 28 on every play."""
    picture = tile_picture(Tile.parse(name))
    return Markup(
        f'<svg class="tile-svg" viewBox="{PICTURE_BOX}" aria-hidden="true">'
        f"{piece_svg(picture)}</svg>"
    )


def symbol_id(a: int, b: int) -> str:
    """The id of the drawing in ``tile_symbols`` of the tile of ``a`` and ``b``, in either order
    (the higher number first, as it is drawn: ``tile-6-4``)."""
    return f"tile-{max(a, b)}-{min(a, b)}"


@lru_cache(maxsize=1)
def tile_symbols() -> Markup:
    """The 28 tiles drawn once per page, for the picker's buttons (``tile_use``) and a drawn
    layout's tiles (``layouts.Laid``) to reference by ``symbol_id``. Drawn from shared pieces: a
    tile's face (its box and dividing line) once, each number's pips once, as the top half; a
    tile is its face, its top number's pips and its bottom number's moved down a half (the
    picture ``tile_picture`` draws, in a third of the bytes), its centre at the origin."""
    left, top = -UNIT / 2, -UNIT
    face = piece_svg(domino(left, top, 0, 0, True))  # pipless: the box and the line alone
    halves = "".join(
        f'<g id="pips-{value}">'
        + "".join(
            f'<circle cx="{x:g}" cy="{y:g}" r="{UNIT * 0.095:g}"/>'
            for x, y in domino(left, top, value, 0, True).pips
        )
        + "</g>"
        for value in range(1, 7)
    )
    drawn = "".join(
        f'<g id="{symbol_id(tile.a, tile.b)}"><use href="#tile-face"/>'
        + (f'<use href="#pips-{tile.a}"/>' if tile.a else "")
        + (f'<use href="#pips-{tile.b}" y="{UNIT}"/>' if tile.b else "")
        + "</g>"
        for tile in DOUBLE_SIX
    )
    return Markup(
        '<svg class="tile-symbols" aria-hidden="true">'
        f'<defs><g id="tile-face" class="face">{face}</g>{halves}{drawn}</defs></svg>'
    )


@lru_cache(maxsize=64)
def tile_use(name: str) -> Markup:
    """A tile drawn by reference to ``tile_symbols``: a few dozen bytes instead of a picture."""
    tile = Tile.parse(name)
    return Markup(
        f'<svg class="tile-svg" viewBox="{SYMBOL_BOX}" aria-hidden="true">'
        f'<use href="#{symbol_id(tile.a, tile.b)}"/></svg>'
    )


def qr_svg(text: str) -> bytes:
    """A QR code of ``text`` as an SVG image of its own (no script, no style attribute)."""
    import io

    import segno

    image = io.BytesIO()
    segno.make(text, error="m").save(
        image, kind="svg", scale=4, dark="#17432f", border=2, xmldecl=False, omitsize=True
    )
    return image.getvalue()
