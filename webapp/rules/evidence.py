"""What a hand's record proves about the hidden hands, at the moment of a draw or pass (R7a).

The app never sees the tiles in the players' hands, but the record of a hand says a lot about
them. Every tile came into a hand one of two ways: dealt at the start (R1), or drawn (R6). A
player who passed held no tile that fitted (R7); a player who drew held none either, and of the
tiles one entry draws, none fitted except possibly the last (R6: a tile that fits is played at
once). A tile played was in its player's hand, dealt or drawn before it was played.

**The reasoning.** Think of the 28 tiles and the 28 *places* they came from: each player's
dealt tiles, the tiles of each draw (the last one apart, since it may fit), and the tiles still
face down. The record allows a tile in a place unless an entry says otherwise: a tile played by
Ben came from one of Ben's places, before he played it; a tile that fitted when Ben drew or
passed was not in Ben's hand then — not dealt to him, nor drawn by him earlier, unless he played
it before. The record can all be true exactly when every tile can be given a place of its own:
a matching, which exists unless some tiles have, between them, fewer places than they are
(Hall's condition). Those tiles and places are the proof, and the entries that closed the other
places are what it rests on. The audit of a finished hand (``audit.py``) asks the same question
of the tiles seen afterwards, through the same :func:`unplaced`.

Worked example E of RULES.md: Ana leads 6-6; Ben draws the whole boneyard and passes; Ana passes.

>>> from .hand import Hand
>>> from .options import Options
>>> from .tiles import Tile
>>> names = ("Ana", "Ben")
>>> hand = Hand.deal(Options.make(names), 1, 0).play(Tile(6, 6), None).draw(10, names)
>>> hand = hand.pass_turn(names)
>>> print(refusal(hand, hand.pass_turn(names), names).message)  # doctest: +NORMALIZE_WHITESPACE
Ana must hold a tile that fits, so cannot pass: 6-5, 6-4, 6-3, 6-2, 6-1 and 6-0 are not on the
table; the boneyard is empty; Ben drew 10 tiles at move 2 and passed at move 3, so holds none of
them (R7a)
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import NamedTuple

from .errors import RecordContradiction
from .hand import Hand, Move, MoveKind
from .messages import N_, NP_, Items, Message
from .tiles import DOUBLE_SIX

_INDEX = {tile: i for i, tile in enumerate(DOUBLE_SIX)}
# The tiles with each pip, as bits over DOUBLE_SIX.
_WITH_PIP = tuple(
    sum(1 << i for i, tile in enumerate(DOUBLE_SIX) if tile.has(pip)) for pip in range(7)
)


def unplaced(allowed: Sequence[int], capacity: Sequence[int]) -> tuple[tuple[int, ...], int] | None:
    """Hall's condition: can every item have a place of its own?

    Item ``i`` may go to the places whose bits are set in ``allowed[i]``; place ``p`` takes at
    most ``capacity[p]`` items. ``None`` when all can be placed; otherwise items (indexes) that
    have, between them, fewer places than they are, and those places (bits).

    >>> unplaced([0b01, 0b11], [1, 1]) is None
    True
    >>> unplaced([0b01, 0b01, 0b11], [1, 1])  # items 0 and 1 both need place 0
    ((0, 1), 1)
    """
    places = range(len(capacity))
    room = list(capacity)
    # Items with the same places are alike: place them as groups, the most constrained first.
    groups: dict[int, list[int]] = {}
    for item, mask in enumerate(allowed):
        groups.setdefault(mask, []).append(item)
    order = sorted(groups, key=lambda mask: (mask.bit_count(), mask))
    placed = {mask: [0] * len(capacity) for mask in order}  # per group, items in each place
    done = dict.fromkeys(order, 0)
    failed: list[int] = []
    for mask in order:
        for item in groups[mask]:
            if _place(mask, order, placed, room, places):
                done[mask] += 1
            else:
                failed.append(item)
    if not failed:
        return None
    # Every tile that found no place, and every tile that could give way to one: the largest
    # such set, so that a proof names all the tiles it is about.
    starts = list(dict.fromkeys(allowed[item] for item in failed))
    seen_groups, seen_places = _reachable(starts, order, placed, places)
    items = [groups[g][i] for g in seen_groups for i in range(done[g])]
    return tuple(sorted([*items, *failed])), seen_places


def _place(
    start: int,
    order: Sequence[int],
    placed: dict[int, list[int]],
    room: list[int],
    places: range,
) -> bool:
    """One more item of group ``start``, moving others along a path if need be (augmenting)."""
    for p in places:
        if start >> p & 1 and room[p]:
            room[p] -= 1
            placed[start][p] += 1
            return True
    came_from: dict[int, int] = {}  # place -> the group that reached it
    via: dict[int, int] = {start: -1}  # group -> the place it was reached through
    frontier = [start]
    while frontier:
        group = frontier.pop()
        for p in places:
            if not group >> p & 1 or p in came_from:
                continue
            came_from[p] = group
            if room[p]:
                room[p] -= 1
                while True:  # walk back: each group on the path moves one item forward
                    g = came_from[p]
                    placed[g][p] += 1
                    back = via[g]
                    if back < 0:
                        return True
                    placed[g][back] -= 1
                    p = back
            for other in order:
                if other not in via and placed[other][p]:
                    via[other] = p
                    frontier.append(other)
    return False


def _reachable(
    starts: list[int], order: Sequence[int], placed: dict[int, list[int]], places: range
) -> tuple[list[int], int]:
    groups, reached, frontier = list(starts), 0, list(starts)
    while frontier:
        group = frontier.pop()
        for p in places:
            if group >> p & 1 and not reached >> p & 1:
                reached |= 1 << p
                for other in order:
                    if other not in groups and placed[other][p]:
                        groups.append(other)
                        frontier.append(other)
    return groups, reached


# --- the places of a hand ------------------------------------------------------------------------


class _Place(NamedTuple):
    seat: int | None  # None: still face down
    move: int  # the draw that brought these tiles; -1: dealt (or face down)
    last: bool  # the last tile of that draw, which may fit
    size: int


class _Moment(NamedTuple):
    move: int
    seat: int
    fitting: int  # bits of the tiles off the table that fitted then


class _Record(NamedTuple):
    """A hand's entries so far as places and moments, and where each tile may have come from.

    Built entry by entry (:meth:`then`). A tile not yet played may have come from any
    place but those some entry ``closed`` to it; a tile played, from its player's places open
    to it then (``played``, fixed when it is played). A tile never played and never fitting at
    a draw or pass may be anywhere, so such tiles fill whatever room the others leave.

    The quick answer: the tiles played, each in the first place open to it (``spare`` is the
    room they leave), then every other tile that ever fitted in the first place open to it
    with room, face down first. A tile played may have come from a suffix of its player's
    places, up to the moment it is played, so placing each in the first one with room, in the
    order they are played, places them all if anything does. When the rest fit too, the record
    can all be true; when they do not, the matching decides.
    """

    length: int  # how many of the hand's moves it covers
    places: tuple[_Place, ...]  # face down first, then each seat's dealt tiles, then draws
    moments: tuple[_Moment, ...]
    table: int  # bits of the tiles played
    mine: tuple[int, ...]  # per seat, bits of its places
    closed: tuple[int, ...]  # per tile of DOUBLE_SIX, bits of the places entries ruled out
    played: tuple[int, ...]  # per tile: bits of the places it may have come from; 0 if unplayed
    draws_count: bool
    fitted: int  # bits of the tiles that fitted at some draw or pass
    spare: tuple[int, ...]  # per place, room left by the tiles played (placed first-fit)
    placed: bool  # whether first-fit found every tile played a place

    # A NamedTuple rather than a frozen dataclass: one is made per entry, and checks are
    # asked on every draw and pass.

    @classmethod
    def dealt(cls, dealt: Sequence[int], draws_count: bool) -> _Record:
        places = [_Place(None, -1, False, len(DOUBLE_SIX) - sum(dealt))]
        places += [_Place(seat, -1, False, size) for seat, size in enumerate(dealt)]
        mine = tuple(1 << seat + 1 for seat in range(len(dealt)))
        nothing = (0,) * len(DOUBLE_SIX)
        spare = tuple(place.size for place in places)
        return cls(0, tuple(places), (), 0, mine, nothing, nothing, draws_count, 0, spare, True)

    def then(self, moves: Sequence[Move]) -> _Record:
        """The record with more entries (worked on in place, then frozen once)."""
        index, places, mine = self.length, list(self.places), list(self.mine)
        table, closed, played = self.table, list(self.closed), list(self.played)
        fitted, spare, placed, moments = self.fitted, list(self.spare), self.placed, self.moments
        for move in moves:
            seat = move.seat
            if move.kind == MoveKind.PLAY:
                bit = _INDEX[move.tile]  # type: ignore[index]
                open_to = played[bit] = mine[seat] & ~closed[bit]  # the player's, still open
                table |= 1 << bit
                while placed:  # first fit: the earliest of its places with room
                    low = open_to & -open_to
                    if not low:
                        placed = False
                    elif spare[low.bit_length() - 1]:
                        spare[low.bit_length() - 1] -= 1
                        break
                    open_to ^= low
                index += 1
                continue
            fitting = 0
            if move.kind == MoveKind.PASS or self.draws_count:
                for pip in move.before.open_ends.values():
                    fitting |= _WITH_PIP[pip]
                fitting &= ~table
            shut = mine[seat]  # the player held none of the tiles that fitted (R6, R7)
            if move.kind == MoveKind.DRAW:
                places[0] = places[0]._replace(size=places[0].size - move.drawn)
                spare[0] -= move.drawn
                if move.drawn > 1:  # none of them fitted, but the last one may have (R6)
                    shut |= 1 << len(places)
                    mine[seat] |= 1 << len(places)
                    places.append(_Place(seat, index, False, move.drawn - 1))
                    spare.append(move.drawn - 1)
                mine[seat] |= 1 << len(places)
                places.append(_Place(seat, index, True, 1))
                spare.append(1)
            if fitting:
                for bit in _bits(fitting):
                    closed[bit] |= shut
                moments += (_Moment(index, seat, fitting),)
                fitted |= fitting
            index += 1
        return _Record(
            index,
            tuple(places),
            moments,
            table,
            tuple(mine),
            tuple(closed),
            tuple(played),
            self.draws_count,
            fitted,
            tuple(spare),
            placed,
        )

    def _fit_the_rest(self) -> bool:
        """First fit for the tiles not played that ever fitted, face down first, in the room
        the tiles played leave: when it succeeds, every tile has a place."""
        spare = list(self.spare)
        everywhere = (1 << len(spare)) - 1
        for tile in _bits(self.fitted & ~self.table):
            open_to = everywhere & ~self.closed[tile]
            while open_to:
                low = open_to & -open_to
                if spare[low.bit_length() - 1]:
                    spare[low.bit_length() - 1] -= 1
                    break
                open_to ^= low
            else:
                return False
        return True

    @property
    def allowed(self) -> dict[int, int]:
        """Tile index -> bits of the places it may have come from, for the tiles constrained."""
        everywhere = (1 << len(self.places)) - 1
        found = {}
        for tile in range(len(DOUBLE_SIX)):
            if self.table >> tile & 1:
                found[tile] = self.played[tile]
            elif self.closed[tile]:
                found[tile] = everywhere & ~self.closed[tile]
        return found

    def contradiction(self) -> tuple[tuple[int, ...], int] | None:
        """Tiles (indexes into DOUBLE_SIX) with fewer places than they are, and those places."""
        if self.placed and self._fit_the_rest():
            return None  # the quick answer (see above)
        room = [place.size for place in self.places]
        forced: dict[int, list[int]] = {}  # a tile with one possible place takes it
        tiles, allowed = [], []
        for tile, mask in self.allowed.items():
            if mask and not mask & (mask - 1):
                p = mask.bit_length() - 1
                forced.setdefault(p, []).append(tile)
                room[p] -= 1
            else:
                tiles.append(tile)
                allowed.append(mask)
        over = sum(1 << p for p, left in enumerate(room) if left < 0)
        if not over and _greedy(allowed, list(room)):
            return None
        if over:
            found: tuple[list[int], int] = ([], over)
        else:
            rest = unplaced(allowed, room)
            if rest is None:
                return None
            found = ([tiles[item] for item in rest[0]], rest[1])
        items, places = found
        items += [tile for p, some in forced.items() if places >> p & 1 for tile in some]
        return tuple(sorted(items)), places


def _greedy(allowed: list[int], room: list[int]) -> bool:
    """A quick try at placing every item, the most constrained first: usually enough, and
    never wrong when it succeeds (``unplaced`` decides when it does not)."""
    for mask in sorted(allowed, key=int.bit_count):
        while mask:
            low = mask & -mask
            p = low.bit_length() - 1
            if room[p]:
                room[p] -= 1
                break
            mask ^= low
        else:
            return False
    return True


def _bits(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


# Records of recent hands, by the last move they cover: a record grows by one entry per draw
# or pass, so a check costs the entries since the last one, not the whole hand. A move is made
# once, by one hand, so it stands for every move before it; it is kept with its record so that
# its id is not reused while the entry stands. Small: only the hands being played need one.
_RECENT: dict[tuple[int, bool], tuple[Move, _Record]] = {}
_RECENT_SIZE = 64
_RECENT_LOCK = threading.Lock()


def _record(moves: tuple[Move, ...], held: Sequence[int], draws_count: bool) -> _Record:
    """The record of ``moves``, from the longest prefix already worked out."""
    start, record = 0, None
    for end in range(len(moves), 0, -1):
        move = moves[end - 1]
        cached = _RECENT.get((id(move), draws_count))
        if cached is not None and cached[0] is move and cached[1].length == end:
            start, record = end, cached[1]
            break
        if move.kind != MoveKind.PLAY and end < len(moves):
            break  # every draw and pass was checked, so its record was kept (unless evicted)
    if record is None:
        dealt = list(held)
        for move in moves:
            dealt[move.seat] += 1 if move.kind == MoveKind.PLAY else -move.drawn
        record = _Record.dealt(dealt, draws_count)
    record = record.then(moves[start:])
    if start < len(moves):
        with _RECENT_LOCK:  # requests may be served by threads
            if len(_RECENT) >= _RECENT_SIZE:
                del _RECENT[next(iter(_RECENT))]
            _RECENT[id(moves[-1]), draws_count] = (moves[-1], record)
    return record


def consistent(hand: Hand, draws_count: bool = True) -> bool:
    """Whether the hand's record can all be true (R7a)."""
    return _record(hand.moves, hand.held, draws_count).contradiction() is None


def refusal(
    before: Hand, after: Hand, names: Sequence[str], draws_count: bool = True
) -> RecordContradiction | None:
    """The refusal R7a gives the draw or pass that takes ``before`` to ``after``, if any.

    Refused only when the record up to now can all be true and cannot with this entry; a draw
    is no evidence when ``draws_count`` is false (R19), and then never refused.
    """
    move = after.moves[-1]
    if move.kind == MoveKind.DRAW and not draws_count:
        return None
    record = _record(after.moves, after.held, draws_count)
    found = record.contradiction()
    if found is None or not consistent(before, draws_count):
        return None
    tiles, places = found
    name = names[move.seat]
    head: Message
    if move.kind == MoveKind.PASS:
        code = "must_hold_fitting"
        head = N_("%(name)s must hold a tile that fits, so cannot pass", name=name)
    elif move.drawn > 1 and refusal(before, before.draw(1, tuple(names)), names) is None:
        code = "draw_must_fit"
        head = N_(
            "%(name)s cannot draw %(drawn)s tiles without a tile that fits before the last",
            name=name,
            drawn=move.drawn,
        )
    else:
        code = "must_hold_fitting"
        head = N_("%(name)s must hold a tile that fits, so cannot draw", name=name)
    proof = _proof(record, tiles, places, before, move.seat, names)
    return RecordContradiction(code, N_("%(head)s: %(proof)s (R7a)", head=head, proof=proof), "R7a")


def _proof(
    record: _Record,
    tiles: tuple[int, ...],
    places: int,
    hand: Hand,
    seat: int,
    names: Sequence[str],
) -> Message:
    """Which tiles, where else they could be, and the entries that closed the other places."""
    on_table = set(hand.layout.tiles)
    shown = [DOUBLE_SIX[i] for i in tiles if DOUBLE_SIX[i] not in on_table]
    played_by: dict[int, int] = {}
    for move in hand.moves:
        if move.kind == MoveKind.PLAY and move.tile is not None and _INDEX[move.tile] in tiles:
            played_by[move.seat] = played_by.get(move.seat, 0) + 1
    room = dict.fromkeys([*range(len(hand.held)), None], 0)
    for p, place in enumerate(record.places):
        if places >> p & 1:
            where = None if place.seat is None or place.move >= len(hand.moves) else place.seat
            room[where] += place.size
    listed = Items(tuple(str(tile) for tile in shown), "and")
    parts = [
        NP_(
            "%(tiles)s is not on the table",
            "%(tiles)s are not on the table",
            len(shown),
            tiles=listed,
        )
    ]
    face_down = len(hand.unplayed) - sum(hand.held)
    if not face_down:
        parts.append(N_("the boneyard is empty"))
    elif room[None] < face_down:
        parts.append(N_("at most %(most)s of them can be in the boneyard", most=room[None]))
    else:
        parts.append(
            NP_("the boneyard holds %(num)s tile", "the boneyard holds %(num)s tiles", face_down)
        )
    elsewhere = room[None]
    for other in range(len(hand.held)):
        if other == seat or not hand.held[other]:
            continue
        can_hold = max(0, room[other] - played_by.get(other, 0))
        elsewhere += can_hold
        entries = _entries(record, tiles, other, hand.moves)
        holds = N_("none") if not can_hold else N_("at most %(most)s", most=can_hold)
        name = names[other]
        if entries:
            parts.append(
                N_(
                    "%(name)s %(entries)s, so holds %(holds)s of them",
                    name=name,
                    entries=entries,
                    holds=holds,
                )
            )
        elif can_hold < hand.held[other]:
            parts.append(N_("%(name)s can hold %(holds)s of them", name=name, holds=holds))
        else:
            parts.append(
                NP_(
                    "%(name)s holds %(num)s tile",
                    "%(name)s holds %(num)s tiles",
                    hand.held[other],
                    name=name,
                )
            )
    proof = parts[0]
    for part in parts[1:]:
        proof = N_("%(proof)s; %(part)s", proof=proof, part=part)
    if elsewhere:
        proof = N_(
            "%(proof)s — at most %(most)s of the %(tiles)s can be elsewhere",
            proof=proof,
            most=elsewhere,
            tiles=len(shown),
        )
    return proof


def _entries(
    record: _Record, tiles: tuple[int, ...], seat: int, moves: Sequence[Move]
) -> Items | None:
    """The draws and passes of ``seat`` at which some of ``tiles`` fitted, in words."""
    said: dict[int, list[int]] = {}  # tiles drawn (0: a pass) -> move numbers
    for moment in record.moments:
        if moment.seat != seat or moment.move >= len(moves):
            continue
        if any(moment.fitting >> tile & 1 for tile in tiles):
            move = moves[moment.move]
            said.setdefault(0 if move.kind == MoveKind.PASS else move.drawn, []).append(
                moment.move + 1
            )
    if not said:
        return None
    return Items(tuple(_at_moves(drawn, numbers) for drawn, numbers in said.items()), "and")


def _at_moves(drawn: int, numbers: list[int]) -> Message:
    """ "passed at move 3", "drew at moves 2 and 5", "drew 10 tiles at move 4"."""
    moves = Items(tuple(numbers), "and")
    if drawn == 0:
        return NP_(
            "passed at move %(moves)s", "passed at moves %(moves)s", len(numbers), moves=moves
        )
    if drawn == 1:
        return NP_("drew at move %(moves)s", "drew at moves %(moves)s", len(numbers), moves=moves)
    return NP_(
        "drew %(drawn)s tiles at move %(moves)s",
        "drew %(drawn)s tiles at moves %(moves)s",
        len(numbers),
        drawn=drawn,
        moves=moves,
    )
