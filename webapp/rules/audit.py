"""The audit of a finished hand: did anyone draw or pass while able to play (R6, R7)?

The app never sees the players' tiles, but it learns some of them afterwards: the tiles each
player still held at the end of the hand, when the table enters them as tiles (R14), and every
tile each player played. A tile a player is *seen* with — held at the end, or played at a later
move — fitted an open end at an earlier draw or pass of theirs; did they hold it then?

**The reasoning.** A tile comes into a player's hand only two ways: dealt at the start of the
hand (R1), or drawn (R6). So a tile seen in a player's hand at some point was in their hand at
an earlier moment *unless that player drew between the two*. Precisely, for a draw or pass by
player P at move *i*, and a tile *t* seen with P at point *k* (the move that played it, or the
end of the hand), the *window* of *t* is P's draws at moves *i* ≤ *j* < *k*. The moment's own
draw counts — the tile may be one of the tiles drawn by that very draw, so P may not have held
it just before drawing. Then:

- **certain** — *t*'s window is empty: P drew nothing from the moment until *t* was seen, so P
  held *t* at the moment, *t* fitted, and P drew or passed anyway. Every tile seen after a pass
  is certain: R7 allows a pass only with the boneyard empty, so nothing is drawn after it.
- **certain by counting** — no single tile is certain, but the tiles seen are more than the
  draws could have brought: if P drew only one tile at move 17 and is later seen with two tiles
  that fitted then, at most one of them came from that draw, so P held the other. (Hall's
  condition on the nested windows: the *m* tiles seen first need *m* drawn tiles within the
  window of the *m*-th. It is the matching R7a asks of the whole record before a draw or pass
  is entered, ``evidence.py``: one implementation for both.)
- **possible** — every fitting tile may have been drawn at or after the moment. Only tiles held
  at the end are reported this way: a tile played right after drawing is most likely the tile
  just drawn, which R6 says must be played at once, so it accuses no one.
- **clean** — no tile seen with P fitted an open end at that moment.

Seats whose remaining tiles were entered only as a number of pips are checked against the tiles
they played; their tiles at the end stay unknown (``Audit.unknown``).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .evidence import unplaced
from .hand import Hand, Move, MoveKind
from .layout import Arm, arm_name
from .messages import N_, NP_, Items, Message
from .settlement import Report
from .tiles import Tile


class Certainty(enum.Enum):
    CERTAIN = "certain"
    POSSIBLE = "possible"


@dataclass(frozen=True, slots=True)
class Seen:
    """A tile seen with the player after the moment, and the open ends it fitted at the moment."""

    tile: Tile
    ends: tuple[tuple[Arm, int], ...]  # the open ends it fitted then, with their pips
    played_at: int | None  # index of the move that played it; None: held at the end
    draws: tuple[int, ...]  # indexes of the player's draws from the moment until it was seen

    @property
    def certain(self) -> bool:
        return not self.draws


@dataclass(frozen=True, slots=True)
class Breach:
    """A draw (R6) or pass (R7) made while holding a tile that fitted, certainly or possibly."""

    move: int  # index in the hand's moves; people read ``move + 1``
    seat: int
    kind: MoveKind  # a draw or a pass
    drawn: int  # tiles drawn, for a draw
    ends: tuple[tuple[Arm, int], ...]  # every open end at that moment
    tiles: tuple[Seen, ...]  # the evidence: tiles that fitted then
    certainty: Certainty
    rule: str  # "R6" for a draw, "R7" for a pass
    sentence: Message


@dataclass(frozen=True, slots=True)
class Audit:
    """Every draw and pass of one hand checked against the tiles seen afterwards."""

    number: int
    breaches: tuple[Breach, ...]
    checked: int  # draws and passes checked
    known: tuple[int, ...]  # seats whose tiles at the end were entered as tiles
    unknown: tuple[int, ...]  # seats holding tiles at the end, entered only as pips
    doubles: tuple[str, ...] = ()  # R21: a double higher than the one led, seen at the end

    @property
    def certain(self) -> tuple[Breach, ...]:
        return tuple(b for b in self.breaches if b.certainty is Certainty.CERTAIN)

    @property
    def possible(self) -> tuple[Breach, ...]:
        return tuple(b for b in self.breaches if b.certainty is Certainty.POSSIBLE)

    def summary(self, names: Sequence[str]) -> Message:
        """One sentence for the hand's summary."""
        if self.doubles and not self.breaches:
            return N_("A double higher than the one led was held (R21).")
        if not self.checked:
            return N_("Nobody drew or passed in this hand: nothing to check (R6, R7).")
        if not self.breaches:
            said = NP_(
                "No draw or pass broke R6 or R7 (%(num)s draw or pass checked)",
                "No draw or pass broke R6 or R7 (%(num)s draws and passes checked)",
                self.checked,
            )
        else:
            parts = []
            if self.certain:
                parts.append(
                    NP_("%(num)s certain breach", "%(num)s certain breaches", len(self.certain))
                )
            if self.possible:
                parts.append(
                    NP_("%(num)s possible breach", "%(num)s possible breaches", len(self.possible))
                )
            said = N_("%(breaches)s of R6 or R7", breaches=Items(tuple(parts), "and"))
        if self.unknown:
            said = N_(
                "%(summary)s (%(who)s: tiles at the end entered as pips, so only the tiles played "
                "count)",
                summary=said,
                who=Items(tuple(names[seat] for seat in self.unknown), "and"),
            )
        return N_("%(summary)s.", summary=said)


def audit(hand: Hand, reports: Mapping[int, Report], names: Sequence[str]) -> Audit:
    """Check every draw and pass of ``hand`` against the tiles seen afterwards (see above).

    ``reports`` are the end-of-hand reports by seat; only those entered as tiles are evidence.
    """
    held = {seat: report.tiles for seat, report in reports.items() if report.tiles is not None}
    breaches = []
    checked = 0
    for index, move in enumerate(hand.moves):
        if move.kind not in (MoveKind.DRAW, MoveKind.PASS):
            continue
        checked += 1
        breach = _check(hand.moves, index, held.get(move.seat, ()), names)
        if breach is not None:
            breaches.append(breach)
    known = tuple(sorted(held))
    unknown = tuple(
        seat for seat, count in enumerate(hand.held) if count and seat not in held and checked
    )
    doubles = _higher_doubles(hand, held, names)
    return Audit(hand.number, tuple(breaches), checked, known, unknown, doubles)


def _higher_doubles(
    hand: Hand, held: Mapping[int, tuple[Tile, ...]], names: Sequence[str]
) -> tuple[str, ...]:
    """R21: when the highest double had to lead, a higher double in a hand at its end.

    >>> from .layout import Layout
    >>> hand = Hand(1, 0, 1, (0, 1), 10, Layout().place(Tile(5, 5), None), lead_double=True)
    >>> _higher_doubles(hand, {1: (Tile(6, 6),)}, ["Ana", "Ben"])
    ('Ben held 6-6, a higher double than the 5-5 Ana led: the highest double leads (R21)',)
    """
    lead = hand.layout.lead
    if not hand.lead_double or lead is None or not lead.is_double:
        return ()
    found = []
    for seat, tiles in sorted(held.items()):
        higher = sorted((t for t in tiles if t.is_double and t.pips > lead.pips), key=_weight)
        if higher:
            found.append(
                N_(
                    "%(name)s held %(doubles)s, a higher double than the %(lead)s %(leader)s "
                    "led: the highest double leads (R21)",
                    name=names[seat],
                    doubles=Items(tuple(str(tile) for tile in higher), "and"),
                    lead=str(lead),
                    leader=names[hand.leader],
                )
            )
    return tuple(found)


def _check(
    moves: tuple[Move, ...], index: int, held_at_end: Sequence[Tile], names: Sequence[str]
) -> Breach | None:
    move = moves[index]
    seat = move.seat
    layout = move.before
    draws = [
        j
        for j in range(index, len(moves))
        if moves[j].kind == MoveKind.DRAW and moves[j].seat == seat
    ]
    sightings: list[tuple[Tile, int | None]] = [
        (later.tile, k)
        for k, later in enumerate(moves[index + 1 :], start=index + 1)
        if later.kind == MoveKind.PLAY and later.seat == seat and later.tile is not None
    ]
    sightings += [(tile, None) for tile in held_at_end]
    ends = layout.open_ends
    seen = []
    for tile, played_at in sightings:
        fitted = layout.fits(tile)
        if not fitted:
            continue
        until = len(moves) if played_at is None else played_at
        window = tuple(j for j in draws if j < until)
        seen.append(Seen(tile, tuple((arm, ends[arm]) for arm in fitted), played_at, window))
    if not seen:
        return None
    rule = "R6" if move.kind == MoveKind.DRAW else "R7"
    certain = tuple(s for s in seen if s.certain)
    if certain:
        sentence = N_(
            "%(did)s while holding %(tiles)s: certain — %(rule)s",
            did=_did(move, index, names),
            tiles=_holding(certain),
            rule=rule,
        )
        return _breach(move, index, certain, Certainty.CERTAIN, rule, sentence)
    counted = _counted(seen, moves)
    if counted is not None:
        tiles, drawn = counted
        each: Message | None = None
        for s in tiles:
            one = N_(
                "%(tile)s (%(where)s) %(fitted)s",
                tile=str(s.tile),
                where=_where(s),
                fitted=_fitted(s),
            )
            each = one if each is None else N_("%(before)s; %(after)s", before=each, after=one)
        assert each is not None
        sentence = NP_(
            "%(did)s while holding %(tiles)s — %(each)s. Only %(num)s tile was drawn in "
            "between, so at least one of them was already in hand: certain — %(rule)s",
            "%(did)s while holding %(tiles)s — %(each)s. Only %(num)s tiles were drawn in "
            "between, so at least one of them was already in hand: certain — %(rule)s",
            drawn,
            did=_did(move, index, names),
            tiles=Items(tuple(str(s.tile) for s in tiles), "or"),
            each=each,
            rule=rule,
        )
        return _breach(move, index, tiles, Certainty.CERTAIN, rule, sentence)
    at_end = tuple(s for s in seen if s.played_at is None)
    if not at_end:
        return None  # a tile played after drawing was most likely the tile drawn (R6)
    name = names[seat]
    clauses: Message | None = None
    for s in at_end:
        clause = NP_(
            "%(tile)s at the end, which %(fitted)s then — but %(name)s may have drawn it at move "
            "%(moves)s",
            "%(tile)s at the end, which %(fitted)s then — but %(name)s may have drawn it at "
            "moves %(moves)s",
            len(s.draws),
            tile=str(s.tile),
            fitted=_fitted(s),
            name=name,
            moves=Items(tuple(j + 1 for j in s.draws), "or"),
        )
        if clauses is None:
            clauses = clause
        else:
            clauses = N_("%(before)s; and %(after)s", before=clauses, after=clause)
    assert clauses is not None
    sentence = N_(
        "%(did)s and held %(clauses)s: possible — %(rule)s",
        did=_did(move, index, names),
        clauses=clauses,
        rule=rule,
    )
    return _breach(move, index, at_end, Certainty.POSSIBLE, rule, sentence)


def _counted(seen: list[Seen], moves: tuple[Move, ...]) -> tuple[tuple[Seen, ...], int] | None:
    """The tiles seen that the draws in their windows cannot all explain, if any, and how many
    tiles those draws brought: Hall's condition, decided by the same matching as R7a
    (``evidence.unplaced``), each tile seen needing a tile drawn in its window.
    """
    ordered = sorted(seen, key=lambda s: len(moves) if s.played_at is None else s.played_at)
    draws = sorted({j for s in ordered for j in s.draws})
    place = {j: p for p, j in enumerate(draws)}
    allowed = [sum(1 << place[j] for j in s.draws) for s in ordered]
    found = unplaced(allowed, [moves[j].drawn for j in draws])
    if found is None:
        return None
    items, places = found
    drawn = sum(moves[j].drawn for p, j in enumerate(draws) if places >> p & 1)
    return tuple(ordered[item] for item in items), drawn


def _breach(
    move: Move,
    index: int,
    seen: tuple[Seen, ...],
    certainty: Certainty,
    rule: str,
    sentence: Message,
) -> Breach:
    ends = tuple(move.before.open_ends.items())
    return Breach(index, move.seat, move.kind, move.drawn, ends, seen, certainty, rule, sentence)


def _did(move: Move, index: int, names: Sequence[str]) -> Message:
    name = names[move.seat]
    if move.kind == MoveKind.PASS:
        return N_("%(name)s passed at move %(move)s", name=name, move=index + 1)
    if move.drawn == 1:
        return N_("%(name)s drew at move %(move)s", name=name, move=index + 1)
    return N_(
        "%(name)s drew %(drawn)s tiles at move %(move)s",
        name=name,
        drawn=move.drawn,
        move=index + 1,
    )


def _fitted(seen: Seen) -> Message:
    ends = tuple(
        N_("the %(end)s end (%(pip)s)", end=arm_name(arm), pip=pip) for arm, pip in seen.ends
    )
    return N_("fitted %(ends)s", ends=Items(ends, "and"))


def _where(seen: Seen) -> Message:
    if seen.played_at is None:
        return N_("held at the end")
    return N_("played at move %(move)s", move=seen.played_at + 1)


def _holding(tiles: tuple[Seen, ...]) -> Message:
    said: Message | None = None
    for s in tiles:
        if s.played_at is not None:
            part = N_(
                "%(tile)s (%(where)s), which %(fitted)s",
                tile=str(s.tile),
                where=_where(s),
                fitted=_fitted(s),
            )
        else:
            part = N_("%(tile)s, which %(fitted)s", tile=str(s.tile), fitted=_fitted(s))
        said = part if said is None else N_("%(before)s, and %(after)s", before=said, after=part)
    assert said is not None
    return said


def _weight(tile: Tile) -> int:
    """Heaviest first."""
    return -tile.pips
