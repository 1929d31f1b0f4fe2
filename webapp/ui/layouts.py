"""Geometry of the layout on the table, for the server-rendered SVG (single tiles: ``tiles.py``).

Nothing here decides a rule. The layout's arms, spinner and open ends come from
``webapp.rules.Layout``; this module only decides where each tile is drawn.

The layout is drawn as a pinwheel around its centre tile (the spinner, or the lead when there
is no spinner): the line runs west and east from it, the spinner's arms north and south. So that
it stays legible on a phone, each of those four chains turns a corner once it is a few tiles long
(west turns north, north turns east, east turns south, south turns west), which keeps the chains
apart. Doubles are drawn crosswise (R8).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup, escape

from ..rules import Arm, Layout, Tile
from .tiles import UNIT, symbol_id

GAP = 0.6  # SVG units of table showing between touching tiles
LINE_REACH = 7  # half-tiles from the centre tile before the west/east line turns a corner
ARM_REACH = 5  # half-tiles from the spinner before the up/down arms turn a corner
MIN_WIDTH = 10  # half-tiles: a short layout is not blown up to fill the screen
MIN_HEIGHT = 5


@dataclass(frozen=True, slots=True)
class EndMark:
    """An open end of the layout: where to draw its marker and the pips it shows."""

    arm: str
    x: float
    y: float
    pip: int
    radius: float


@dataclass(frozen=True, slots=True)
class Laid:
    """A tile of the layout where it lies: the top-left corner of its cell (SVG units), upright
    or across, and the numbers of its first half (the top or the left) and of its second."""

    x: float
    y: float
    tall: bool
    first: int
    second: int
    label: str  # the tile as the layout holds it, for the drawing's name
    classes: str = ""

    @property
    def width(self) -> float:
        return UNIT if self.tall else 2 * UNIT

    @property
    def height(self) -> float:
        return 2 * UNIT if self.tall else UNIT

    def markup(self) -> str:
        """The tile as the picker draws it (``tiles.tile_symbols``, about its centre), moved to
        its cell's centre: turned across, or half a circle when its first half shows the lower
        number (every number's pips look the same either way up), and drawn ``GAP`` smaller so
        that the table shows between touching tiles."""
        along, across = 1 - GAP / (2 * UNIT), 1 - GAP / UNIT
        sign = -1 if self.first < self.second else 1  # the picture holds the higher number first
        axes = (across, 0, 0, along) if self.tall else (0, across, along, 0)
        centre = (self.x + self.width / 2, self.y + self.height / 2)
        matrix = " ".join(f"{round(n, 3) + 0.0:g}" for n in (*(sign * a for a in axes), *centre))
        drawn = symbol_id(self.first, self.second)
        classes = f' class="{escape(self.classes)}"' if self.classes else ""
        return f'<use{classes} href="#{drawn}" transform="matrix({matrix})"/>'


@dataclass(slots=True)
class Drawing:
    """A layout's tiles and open-end markers, drawn by reference to the picker's tiles: a page
    that shows it holds ``tiles.tile_symbols()`` once."""

    pieces: list[Laid] = field(default_factory=list)
    marks: list[EndMark] = field(default_factory=list)
    box: tuple[float, float, float, float] = (0, 0, MIN_WIDTH * UNIT, MIN_HEIGHT * UNIT)

    @property
    def view_box(self) -> str:
        return " ".join(f"{value:g}" for value in self.box)

    def markup(self) -> Markup:
        """The tiles and the open-end markers as SVG elements, for inside the layout's <svg>."""
        marks = "".join(
            f'<g class="end-mark end-{escape(m.arm)}"><circle cx="{m.x:g}" cy="{m.y:g}" '
            f'r="{m.radius:g}"/><text x="{m.x:g}" y="{m.y:g}">{m.pip}</text></g>'
            for m in self.marks
        )
        return Markup("".join(piece.markup() for piece in self.pieces) + marks)


# --- the layout --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Link:
    """A tile in a chain walking away from the centre: ``near`` touches the previous tile."""

    tile: Tile
    near: int
    far: int


_WEST, _EAST, _NORTH, _SOUTH = (-1, 0), (1, 0), (0, -1), (0, 1)
_TURN = {_WEST: _NORTH, _NORTH: _EAST, _EAST: _SOUTH, _SOUTH: _WEST}


@dataclass(frozen=True, slots=True)
class Picture:
    """A layout as pages show it: drawn, with its open ends, its count and the sum behind it."""

    drawing: Drawing | None  # None while nothing is on the table
    ends: tuple[tuple[Arm, int], ...]
    count: int
    breakdown: str

    @property
    def empty(self) -> bool:
        return self.drawing is None

    @classmethod
    def of(cls, layout: Layout, last: Tile | None = None, turned: bool = False) -> Picture:
        """``layout`` drawn, ``last`` (the tile just played) marked."""
        drawing = draw_layout(layout, last, turned) if layout.lead is not None else None
        ends = tuple(layout.open_ends.items())
        return cls(drawing, ends, layout.count, layout.breakdown)


def draw_layout(layout: Layout, last: Tile | None = None, turned: bool = False) -> Drawing:
    """Where every tile of ``layout`` goes, and a marker at each open end (R5, R8–R10).

    ``turned``: the layout as seen from the other side of the table, turned half a circle, so
    the left end is drawn on the right (each domino's pips read the same either way up)."""
    drawing = _draw(layout, last)
    return _turn(drawing) if turned else drawing


def _turn(drawing: Drawing) -> Drawing:
    """The drawing turned by 180° about the origin; the end numbers stay upright."""
    pieces = [
        Laid(
            -(p.x + p.width),
            -(p.y + p.height),
            p.tall,
            p.second,
            p.first,
            p.label,
            p.classes,
        )
        for p in drawing.pieces
    ]
    marks = [EndMark(m.arm, -m.x, -m.y, m.pip, m.radius) for m in drawing.marks]
    x, y, width, height = drawing.box
    return Drawing(pieces, marks, (-(x + width), -(y + height), width, height))


def _draw(layout: Layout, last: Tile | None) -> Drawing:
    drawing = Drawing()
    if layout.lead is None:
        return drawing
    line, centre = _line(layout)
    middle = line[centre]
    spinner = layout.spinner
    spinners = frozenset(found.tile for found in layout.spinners)  # every one ringed (R17)
    is_spinner = spinner is not None and middle.tile == spinner and middle.tile.is_double
    half_w, half_h = (0.5, 1.0) if middle.tile.is_double else (1.0, 0.5)
    boxes: list[tuple[float, float, float, float]] = []
    corner = (-half_w, -half_h)
    tall = middle.tile.is_double
    _place(drawing, boxes, middle.tile, middle.near, middle.far, corner, tall, last, is_spinner)
    west = [_Link(link.tile, link.far, link.near) for link in reversed(line[:centre])]
    east = line[centre + 1 :]
    chains: dict[Arm, tuple[list[_Link], tuple[int, int], float, float]] = {
        Arm.LEFT: (west, _WEST, half_w, LINE_REACH),
        Arm.RIGHT: (east, _EAST, half_w, LINE_REACH),
    }
    if is_spinner:
        up = [_Link(t, t.a, t.b) for t in layout.arm(Arm.UP)]
        down = [_Link(t, t.a, t.b) for t in layout.arm(Arm.DOWN)]
        chains[Arm.UP] = (up, _NORTH, half_h, ARM_REACH)
        chains[Arm.DOWN] = (down, _SOUTH, half_h, ARM_REACH)
    ends = layout.open_ends
    # Where each double was drawn, for a later spinner's arms (R17, Five Up).
    doubles: dict[Tile, tuple[tuple[float, float], tuple[int, int]]] = {}
    for arm, (links, heading, start, reach) in chains.items():
        tip, direction = _walk(
            drawing, boxes, links, heading, start, reach, last, spinners, doubles=doubles
        )
        _mark(drawing, boxes, arm, ends, tip, direction)
    for later in layout.spinners[1:]:
        if later.tile not in doubles:
            continue
        origin, heading = doubles[later.tile]
        # Up is drawn north (or west, off a north-south arm), down the other way.
        across = (_NORTH, _SOUTH) if heading[1] == 0 else (_WEST, _EAST)
        for arm, branch_heading in zip(later.branches, across, strict=True):
            links = [_Link(t, t.a, t.b) for t in layout.arm(arm)]
            tip, direction = _walk(
                drawing,
                boxes,
                links,
                branch_heading,
                1.0,
                ARM_REACH,
                last,
                spinners,
                origin,
                doubles,
            )
            _mark(drawing, boxes, arm, ends, tip, direction)
    drawing.box = _frame(boxes)
    return drawing


def _mark(
    drawing: Drawing,
    boxes: list[tuple[float, float, float, float]],
    arm: Arm,
    ends: dict[Arm, int],
    tip: tuple[float, float],
    direction: tuple[int, int],
) -> None:
    """The marker of an open end, just beyond the tip of its arm."""
    if arm not in ends:
        return
    radius = 0.55
    x = tip[0] + direction[0] * (radius + 0.12)
    y = tip[1] + direction[1] * (radius + 0.12)
    drawing.marks.append(EndMark(arm.value, x * UNIT, y * UNIT, ends[arm], radius * UNIT))
    boxes.append((x - radius, y - radius, x + radius, y + radius))


def _line(layout: Layout) -> tuple[list[_Link], int]:
    """The left/right line from west to east (``near`` on the west side), and its centre."""
    assert layout.lead is not None
    left = [_Link(t, t.b, t.a) for t in reversed(layout.arm(Arm.LEFT))]
    right = [_Link(t, t.a, t.b) for t in layout.arm(Arm.RIGHT)]
    line = [*left, _Link(layout.lead, layout.lead.a, layout.lead.b), *right]
    centre = len(left)
    if layout.spinner_arm is Arm.LEFT:
        centre = len(left) - 1 - layout.spinner_index
    elif layout.spinner_arm is Arm.RIGHT:
        centre = len(left) + 1 + layout.spinner_index
    return line, centre


def _walk(
    drawing: Drawing,
    boxes: list[tuple[float, float, float, float]],
    links: list[_Link],
    heading: tuple[int, int],
    start: float,
    reach: float,
    last: Tile | None,
    spinners: frozenset[Tile],
    origin: tuple[float, float] = (0.0, 0.0),
    doubles: dict[Tile, tuple[tuple[float, float], tuple[int, int]]] | None = None,
) -> tuple[tuple[float, float], tuple[int, int]]:
    """Lay ``links`` out from the tile at ``origin``, turning one corner; return the tip and
    heading. Each double's centre and heading go into ``doubles``."""
    dx, dy = heading
    centre_x, centre_y = origin  # a point on the chain's centre line
    run = start  # distance from the centre line's origin to the current edge, along heading
    travelled = 0.0
    turned = False
    last_across = 0.5
    for link in links:
        length, across = (1.0, 2.0) if link.tile.is_double else (2.0, 1.0)
        if not turned and travelled > 0 and travelled + length > reach:
            # Turn: the new chain runs alongside the outer half of the tile just laid.
            edge_x, edge_y = centre_x + dx * run, centre_y + dy * run
            centre_x, centre_y = edge_x - dx * 0.5, edge_y - dy * 0.5
            dx, dy = _TURN[(dx, dy)]
            run = last_across / 2
            turned = True
        x0 = centre_x + dx * run
        y0 = centre_y + dy * run
        x1 = x0 + dx * length
        y1 = y0 + dy * length
        horizontal = dy == 0
        if horizontal:
            left, top = min(x0, x1), centre_y - across / 2
        else:
            left, top = centre_x - across / 2, min(y0, y1)
        # The half nearer the previous tile shows ``near``.
        first, second = (link.far, link.near) if dx + dy < 0 else (link.near, link.far)
        tall = not horizontal if not link.tile.is_double else horizontal
        is_spinner = link.tile in spinners
        _place(drawing, boxes, link.tile, first, second, (left, top), tall, last, is_spinner)
        if doubles is not None and link.tile.is_double:
            middle = ((x0 + x1) / 2, centre_y) if horizontal else (centre_x, (y0 + y1) / 2)
            doubles[link.tile] = (middle, (dx, dy))
        run += length
        travelled += length
        last_across = across
    return (centre_x + dx * run, centre_y + dy * run), (dx, dy)


def _place(
    drawing: Drawing,
    boxes: list[tuple[float, float, float, float]],
    tile: Tile,
    first: int,
    second: int,
    corner: tuple[float, float],
    tall: bool,
    last: Tile | None,
    is_spinner: bool,
) -> None:
    """Add one domino at ``corner`` (in half-tiles); ``tall`` matters only for the shape."""
    left, top = corner
    width, height = (1.0, 2.0) if tall else (2.0, 1.0)
    classes = " ".join(name for name, on in (("spinner", is_spinner), ("last", tile == last)) if on)
    drawing.pieces.append(Laid(left * UNIT, top * UNIT, tall, first, second, str(tile), classes))
    boxes.append((left, top, left + width, top + height))


def _frame(boxes: list[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    """The view box around everything drawn, never smaller than the minimum."""
    pad = 0.25
    x0 = min(b[0] for b in boxes) - pad
    y0 = min(b[1] for b in boxes) - pad
    x1 = max(b[2] for b in boxes) + pad
    y1 = max(b[3] for b in boxes) + pad
    if x1 - x0 < MIN_WIDTH:
        grow = (MIN_WIDTH - (x1 - x0)) / 2
        x0, x1 = x0 - grow, x1 + grow
    if y1 - y0 < MIN_HEIGHT:
        grow = (MIN_HEIGHT - (y1 - y0)) / 2
        y0, y1 = y0 - grow, y1 + grow
    return (
        round(x0 * UNIT, 2),
        round(y0 * UNIT, 2),
        round((x1 - x0) * UNIT, 2),
        round((y1 - y0) * UNIT, 2),
    )
