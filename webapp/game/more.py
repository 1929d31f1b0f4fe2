"""The game screen's "More" sheet: the dispute pages that apply now, the last settled hand's
audit, this hand move by move (each move with its Fix link), the game log, learning mode's
hints and the share links. Built here, in the view, so that no template reads the store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flask import render_template, url_for
from markupsafe import Markup

from ..i18n.words import get_locale, gettext, say
from ..rules import GameState, Status
from ..rules.correction import can_fix, words
from ..store import Part
from ..ui.labels import AuditView
from ..ui.picker import TileHint, tile_hints
from ..web.game import Table, store
from ..web.security import public_url
from ..web.sharing import ShareLink, share_link


@dataclass(frozen=True, slots=True)
class DisputeLink:
    label: str
    small: str
    url: str


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One action still in effect, in words; a move's kind and points for its style."""

    text: str
    kind: str = "info"  # play, draw, pass, start, settle or info
    points: int = 0


@dataclass(frozen=True, slots=True)
class LogHand:
    number: int
    entries: tuple[LogEntry, ...]


@dataclass(frozen=True, slots=True)
class FixEntry:
    """A move of the hand being played, with the address of its fix page."""

    number: int
    kind: str
    text: str
    points: int
    url: str


@dataclass(frozen=True, slots=True)
class Learning:
    """Learning mode: every tile that fits now, where, and what it would score."""

    hints: tuple[TileHint, ...]
    leading: bool


@dataclass(frozen=True, slots=True)
class MoreSheet:
    links: tuple[DisputeLink, ...]
    audit: AuditView | None  # the last settled hand's, between hands
    audit_hand: int | None
    audits: Mapping[int, AuditView]  # of the hands the log lists move by move, but the panel's
    log: tuple[LogHand, ...]  # the last two hands, move by move
    older: Markup  # the last settled hands before them, drawn once per settlement
    earlier: int  # the settled hands before those (each in Replay's hand picker)
    fixable: tuple[FixEntry, ...]
    learning: Learning | None
    built: bool = True  # False: the log and audits come when the sheet is opened


#: The settled hands the game log names after its last two, newest first; Replay's hand picker
#: reaches every other one, so the sheet costs the same whatever the game's length.
OLDER_SHOWN = 10


def more_of(table: Table, built: bool = True) -> MoreSheet:
    """The sheet for this reader (the watch link sees no Fix links and no hints); unless
    ``built``, without the dispute links, the log, the audits and this hand's moves with their
    Fix links, which the game screen's sheet loads when it is opened (or, without JavaScript,
    links to): a long hand would make every first load longer by every move."""
    snapshot = table.snapshot
    state = snapshot.state
    options = state.options
    if not built:
        return MoreSheet(
            links=(),
            audit=None,
            audit_hand=None,
            audits={},
            log=(),
            older=Markup(""),
            earlier=0,
            fixable=(),
            learning=_learning(state) if snapshot.learning and not table.viewer else None,
            built=False,
        )
    notes = store().audits(snapshot)
    audits = {number: AuditView.of(found, options) for number, found in notes.by_hand.items()}
    between = state.status in (Status.AWAITING_START, Status.GAME_OVER)
    last = audits.get(notes.last) if between and notes.last is not None else None
    panel = last if last and last.worth_showing else None
    log = _log(table)
    return MoreSheet(
        links=_dispute_links(state),
        audit=panel,
        audit_hand=notes.last,
        # the last hand's audit once: in its panel when there is one, else in the log
        audits={n: a for n, a in audits.items() if panel is None or n != notes.last},
        log=tuple(hand for hand in log if hand.entries or not hand.number),
        older=_older_hands(table, log),
        earlier=max(0, sum(1 for hand in log if not hand.entries and hand.number) - OLDER_SHOWN),
        fixable=_fixable(table),
        learning=_learning(state) if snapshot.learning and not table.viewer else None,
    )


def _dispute_links(state: GameState) -> tuple[DisputeLink, ...]:
    links = []
    if state.status is Status.PLAYING:
        url = url_for("disputes.check")
        links.append(DisputeLink(gettext("Check a play"), gettext("without entering it"), url))
    if state.hand_number:
        number = state.hand_number
        label = gettext("Replay hand %(number)s", number=number)
        links.append(DisputeLink(label, "", url_for("disputes.replay_hand", number=number)))
    if state.results:
        label = gettext("Rescore under other rules")
        links.append(DisputeLink(label, "", url_for("disputes.rescore")))
    return tuple(links)


def _older_hands(table: Table, log: tuple[LogHand, ...]) -> Markup:
    """The game log's last settled hands before the last two: each a heading and a link to its
    replay (which ends with its audit), drawn once per settlement, per link and language."""
    older = tuple(hand for hand in log if not hand.entries and hand.number)[:OLDER_SHOWN]
    if not older:
        return Markup("")

    def drawn() -> tuple[tuple[int, ...], str]:
        html = render_template("game/_log_older.html", hands=older, audits={})
        return tuple(hand.number for hand in older), html

    piece = (Part.OLDER_HANDS, table.key, str(get_locale()))
    revision = len(table.state.results)
    numbers, html = store().cache.get_or_make(table.snapshot.id, piece, revision, drawn)
    if numbers != tuple(hand.number for hand in older):  # a page of an earlier revision
        numbers, html = drawn()
    return Markup(html)


def _log(table: Table) -> tuple[LogHand, ...]:
    """Every action still in effect, grouped by hand, newest hand first (undone ones are gone).

    Only the last two hands are listed action by action, so a play costs the same in the
    twentieth hand as in the first; earlier hands keep their heading and a link to their
    replay. The hand being played is read from the scorebook kept with the game; the settled
    hand before it is worked out once per settlement (its states folded from the snapshot of
    its start, its actions put in words) and kept."""
    snapshot = table.snapshot
    state = snapshot.state
    newest = state.hand.number if state.hand else 0
    keep_from = max(1, newest - 1) if newest else 0
    hands: dict[int, tuple[LogEntry, ...]] = {
        result.number: () for result in state.results if result.number < keep_from
    }
    if keep_from < newest:

        def settled() -> dict[int, tuple[LogEntry, ...]]:
            return _entries(store().reaching(snapshot, keep_from).states, keep_from, newest)

        piece = (Part.SETTLED_LOG, str(get_locale()))
        revision = (store().settled(snapshot), keep_from, state.options)
        hands.update(store().cache.get_or_make(snapshot.id, piece, revision, settled))
    hands.update(_entries(store().reaching(snapshot, newest).states, newest, newest + 1))
    return tuple(LogHand(number, found) for number, found in sorted(hands.items(), reverse=True))


def _entries(states: Sequence[GameState], first: int, end: int) -> dict[int, tuple[LogEntry, ...]]:
    """The actions that led to ``states`` in words, by hand, for hands ``first`` to ``end``
    (not included). The states are a scorebook's from the start of a hand (its mark announces
    that hand)."""
    hands: dict[int, list[LogEntry]] = {}
    for before, current in zip((None, *states), states, strict=False):
        if before is None and not current.can_undo:
            continue  # a game not started yet: no action made it
        hand, earlier = current.hand, before.hand if before else None
        number = hand.number if hand else 0
        if not first <= number < end:
            continue
        entry = LogEntry(say(current.done))
        if before is not None and len(current.results) > len(before.results):
            entry = LogEntry(entry.text, "settle")
        elif hand and earlier is not None and earlier.number == hand.number:
            if hand.moves and hand.moves[:-1] == earlier.moves:  # one move added, not a fix
                move = hand.moves[-1]
                entry = LogEntry(entry.text, str(move.kind), move.points)
        else:
            entry = LogEntry(entry.text, "start")
        hands.setdefault(number, []).append(entry)
    return {number: tuple(found) for number, found in hands.items()}


def _fixable(table: Table) -> tuple[FixEntry, ...]:
    """The moves of the hand being played as they stand, each with the address of its fix
    page; none on a watch link, or once the hand is settled."""
    state = table.state
    hand = state.hand
    if table.viewer or hand is None or not can_fix(state):
        return ()
    names = state.options.players
    return tuple(
        FixEntry(
            number,
            str(move.kind),
            say(words(move, names)),
            move.points,
            url_for("game.fix", entry=number),
        )
        for number, move in enumerate(hand.moves, start=1)
    )


def _learning(state: GameState) -> Learning | None:
    hand = state.hand
    if state.status is not Status.PLAYING or hand is None:
        return None
    return Learning(tile_hints(hand.layout.tiles, state.placements), hand.layout.lead is None)


def share_links(table: Table) -> tuple[ShareLink, ...]:
    """The players' link and the watch link of a game, each with a QR code a phone camera can
    read. They start with the configured public address when there is one (see
    ``web.security.public_url``)."""
    snapshot = table.snapshot
    links = (
        (
            gettext("Players' link"),
            gettext("Lets another phone enter plays."),
            public_url("game.screen", game_id=snapshot.id),
        ),
        (
            gettext("Watch link"),
            gettext("Shows the game live, changes nothing."),
            public_url("game.screen", view_id=snapshot.view_id),
        ),
    )
    return tuple(share_link(*link) for link in links)
