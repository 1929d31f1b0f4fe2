"""Replay any hand move by move: the layout, the count and who scored what after each move,
with the hand's audit (R6, R7) once it is settled; each moment a link to share. A hand is
replayed from the snapshot of its start, and picked by its number (the one before, the one
after, or any): a page costs the same in a game's two-hundredth hand as in its first."""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, redirect, request, url_for
from flask.typing import ResponseReturnValue

from ..i18n.words import gettext, ngettext, say
from ..rules import Move, Options, Status
from ..rules.correction import words
from ..rules.history import PlayedHand
from ..store import played_hand
from ..store.history import hand_audit
from ..ui.labels import AuditView, BreachView
from ..ui.layouts import Picture
from ..web.game import Table, both_links, store
from ..web.limits import heavy
from ..web.pages import render_page
from ..web.security import public_url
from . import bp


@dataclass(frozen=True, slots=True)
class ReplayMove:
    """A move in words: who did what, for a play the points and the count after it, and the
    breach of R6 or R7 the hand's audit found at it."""

    kind: str
    who: str
    text: str
    tile: str | None
    points: int
    breakdown: str
    breach: BreachView | None


@dataclass(frozen=True, slots=True)
class SideNow:
    """A side's score at this moment of the hand, and what the hand has brought it so far."""

    name: str
    score: int
    this_hand: int
    moved: bool  # its player made the move shown


@dataclass(frozen=True, slots=True)
class HeldTiles:
    """What a player held at the end of the hand (R13): the tiles reported, the pips and
    their rounding."""

    name: str
    tiles: tuple[str, ...]  # none when only the pips were reported
    pips: int
    rounded: int


@dataclass(frozen=True, slots=True)
class SideSettled:
    name: str
    scored: int
    settled: int
    score: int


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How the hand ended, and how it was settled (if it was)."""

    end: str | None  # None: the hand is still being played
    settled: bool
    game_over: bool  # the game is over (a hand not settled then never will be)
    players: tuple[HeldTiles, ...] = ()
    sides: tuple[SideSettled, ...] = ()


@dataclass(frozen=True, slots=True)
class ReplayPage:
    """Hand ``number`` after ``step`` of its ``total`` moves."""

    hands: int  # how many hands the game has had: 1 to ``hands``, each in the hand picker
    number: int
    step: int
    total: int
    leader: str
    partnership: bool
    move: ReplayMove | None  # the move just made (none before the lead)
    moves: tuple[ReplayMove, ...]
    picture: Picture
    sides: tuple[SideNow, ...]
    result: HandEnd | None  # at the end of the hand
    audit: AuditView | None  # at the end of a settled hand
    fixes: tuple[str, ...]  # the corrections of its moves, in words
    share: str  # this moment on the watch link


@both_links(bp, "/replay", endpoint="replay_latest")
def replay_latest(table: Table) -> ResponseReturnValue:
    if table.state.hand_number == 0:
        abort(404, gettext("No hand has been played in this game yet: there is nothing to replay."))
    return redirect(url_for(".replay_hand", number=table.state.hand_number))


@both_links(bp, "/replay/<int:number>", endpoint="replay_hand")
def replay_hand(table: Table, number: int) -> ResponseReturnValue:
    played = _played(table, number)
    return redirect(url_for(".replay", number=number, step=min(1, len(played.hand.moves))))


@both_links(bp, "/replay/<int:number>/<int:step>", endpoint="replay")
@heavy
def replay_step(table: Table, number: int, step: int) -> ResponseReturnValue:
    """Hand ``number`` after ``step`` of its moves: the layout, the count, who scored what."""
    options = table.state.options
    played = _played(table, number)
    moves = played.hand.moves
    if not 0 <= step <= len(moves):
        abort(
            404,
            ngettext(
                "Hand %(number)s has %(num)s move: there is no move %(step)s.",
                "Hand %(number)s has %(num)s moves: there is no move %(step)s.",
                len(moves),
                number=number,
                step=step,
            ),
        )
    layout = moves[step].before if step < len(moves) else played.hand.layout
    move = moves[step - 1] if step else None
    last = move.tile if move is not None and move.kind == "play" else None
    found = hand_audit(played, options)
    audit = AuditView.of(found, options) if found else None
    breaches = {breach.move: breach for breach in (audit.breaches if audit else ())}
    scores = played.scores_at(step, options)
    replayed = tuple(_move(options, m, breaches.get(n)) for n, m in enumerate(moves, start=1))
    page = ReplayPage(
        hands=table.state.hand_number,
        number=number,
        step=step,
        total=len(moves),
        leader=options.players[played.hand.leader],
        partnership=options.partnership,
        move=replayed[step - 1] if step else None,
        moves=replayed,
        picture=Picture.of(layout, last),
        sides=tuple(
            SideNow(
                name=options.side_name(side),
                score=score,
                this_hand=score - played.scores_before[side],
                moved=move is not None and options.side_of(move.seat) == side,
            )
            for side, score in enumerate(scores)
        ),
        result=_end(table, played) if step == len(moves) else None,
        audit=audit if step == len(moves) else None,
        fixes=tuple(say(fixed.message) for fixed in played.fixes),
        share=public_url(".replay", view_id=table.snapshot.view_id, number=number, step=step),
    )
    return render_page("disputes/replay.html", page)


@both_links(bp, "/replay/pick", endpoint="replay_pick")
def replay_pick(table: Table) -> ResponseReturnValue:
    """The hand picker's answer (a GET form, so it works without JavaScript): that hand."""
    number = request.args.get("hand", type=int)
    if number is None:
        abort(404, gettext("Say which hand to replay: a number from 1."))
    _played(table, number)  # a friendly 404 for a hand the game has not had
    return redirect(url_for(".replay_hand", number=number))


def _played(table: Table, number: int) -> PlayedHand:
    """Hand ``number`` replayed from its start (``store.hands``), not the game from its own."""
    played = played_hand(store(), table.snapshot, number)
    if played is None:
        abort(404, gettext("There is no hand %(number)s in this game.", number=number))
    return played


def _move(options: Options, move: Move, breach: BreachView | None) -> ReplayMove:
    """A move in words: who did what, and for a play the count after it and the points."""
    return ReplayMove(
        kind=move.kind,
        who=options.players[move.seat],
        text=say(words(move, options.players)),
        tile=str(move.tile) if move.tile else None,
        points=move.points,
        breakdown=move.breakdown,
        breach=breach,
    )


def _end(table: Table, played: PlayedHand) -> HandEnd:
    options = table.state.options
    game_over = table.state.status is Status.GAME_OVER
    result = played.result
    hand = played.hand
    if hand.end is None:
        return HandEnd(end=None, settled=False, game_over=game_over)
    ended = (
        gettext("%(name)s went out (domino)", name=options.players[hand.went_out])
        if hand.went_out is not None
        else gettext("Blocked: nobody could play")
    )
    if result is None:
        return HandEnd(end=ended, settled=False, game_over=game_over)
    reports = {
        seat: tuple(str(tile) for tile in report.tiles or ())
        for seat, report in (played.reports.reports if played.reports else ())
    }
    return HandEnd(
        end=ended,
        settled=True,
        game_over=game_over,
        players=tuple(
            HeldTiles(
                name=name,
                tiles=reports.get(seat, ()),
                pips=result.pips[seat],
                rounded=result.rounded[seat],
            )
            for seat, name in enumerate(options.players)
        ),
        sides=tuple(
            SideSettled(
                name=options.side_name(side),
                scored=result.scored[side],
                settled=result.settled[side],
                score=result.scores[side],
            )
            for side in range(options.side_count)
        ),
    )
