"""The game screen built from a snapshot, region by region (``regions.py``), for one reader:
the table (``viewer`` False, through the players' link) or an onlooker (the watch link).

Nothing here decides a rule: which tiles fit where, the points, the count and what happens
next all come from ``webapp.rules``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from ..i18n.words import gettext, ngettext, rules_said, say
from ..rules import GameState, HandEnd, Outcome, Placement, Status, Tile
from ..rules.layout import arm_name
from ..rules.messages import Items
from ..rules.sheet import score_sheet
from ..store import Snapshot
from ..ui.labels import Why, end_label, settled_players, winner_names
from ..ui.layouts import draw_layout
from ..ui.picker import tiles_of
from ..ui.race import race
from .circled import in_circle
from .delta import Shown
from .notice import Notice
from .regions import (
    Board,
    Choice,
    ChoicePlace,
    Controls,
    Entry,
    HandCell,
    HandRow,
    InCircle,
    Over,
    Picker,
    Preview,
    Report,
    Scores,
    Screen,
    Seat,
    Settle,
    Side,
    SideChange,
    Start,
)


def build(
    snapshot: Snapshot,
    viewer: bool,
    notice: Notice | None = None,
    choice: Choice | None = None,
    settle: Mapping[int, Entry] | None = None,
    preview: Preview | None = None,
    turned: bool = False,
    clock_ends: datetime | None = None,
) -> Screen:
    state = snapshot.state
    coaching = snapshot.hints
    work: Picker | Start | Settle | Over | None = None
    if state.status is Status.PLAYING and not viewer:
        work = picker(state, coaching, choice)
    elif state.status is Status.AWAITING_START and not viewer:
        work = start(state)
    elif state.status is Status.HAND_OVER and not viewer:
        work = settlement(snapshot, settle or {}, preview)
    elif state.status is Status.GAME_OVER:
        work = over(state, in_circle(snapshot, viewer))
    return Screen(
        viewer=viewer,
        public_id=snapshot.view_id if viewer else snapshot.id,
        seq=snapshot.seq,
        status=state.status.value,
        next_step=next_step(state, viewer) if notice is None else "",  # a notice says it
        scores=scores(state),
        board=board(state, turned),
        notice=notice,
        work=work,
        controls=None if viewer else controls(state, clock_ends),
        learning=snapshot.learning,
        coaching=coaching,
        turned=turned,
        title=" · ".join(state.options.players),
        rules=rules_said(state.options),
    )


def shown(
    snapshot: Snapshot, viewer: bool, picker_shown: bool, clock_ends: datetime | None = None
) -> Shown:
    """The regions of the game as a phone showed it that an answer compares (``delta.py``):
    the picker only if the phone tapped on it (``picker_shown``), the scores without their
    sentences (said from the sides compared)."""
    state = snapshot.state
    coaching = snapshot.hints
    playing = state.status is Status.PLAYING and not viewer
    return Shown(
        scores=scores(state, said=False),
        controls=None if viewer else controls(state, clock_ends),
        picker=picker(state, coaching) if picker_shown and playing else None,
    )


def next_step(state: GameState, viewer: bool) -> str:
    """What happens next; an onlooker is told what the table is doing, not what to enter."""
    if viewer and state.status is Status.HAND_OVER:
        hand = state.hand
        assert hand is not None
        return gettext(
            "Hand %(number)s is over: the table is counting what each player holds",
            number=hand.number,
        )
    return say(state.next_step())


def scores(state: GameState, said: bool = True) -> Scores:
    """The scores region; ``said``: with its sentences, read aloud (not needed by an answer's
    comparison, ``shown``: they follow from the sides)."""
    options = state.options
    hand = state.hand
    turn = state.turn
    sides = []
    for side, score in enumerate(state.scores):
        seats = options.seats_of(side)
        sides.append(
            Side(
                name=options.side_name(side),
                score=score,
                progress=min(max(score, 0), options.goal),
                turn=turn in seats,
                won=side in state.winners,
                players=tuple(
                    Seat(options.players[seat], hand.held[seat] if hand else None, seat == turn)
                    for seat in seats
                ),
            )
        )
    show_held = hand is not None and state.status in (Status.PLAYING, Status.HAND_OVER)
    if not said:
        return Scores(tuple(sides), options.goal, show_held)
    return Scores(tuple(sides), options.goal, show_held, *scores_said(state))


def scores_said(state: GameState) -> tuple[str, str]:
    """The scores, and what each side still needs to win (R15, R25), each in a sentence."""
    options = state.options
    variant = options.variant
    names = [options.side_name(side) for side in range(options.side_count)]
    scored = tuple(zip(names, state.scores, strict=True))
    each = Items(tuple(gettext("%(side)s %(score)s", side=n, score=s) for n, s in scored))
    said = gettext("Scores: %(scores)s.", scores=say(each))
    needs = []
    for name, score in scored:
        lacking = variant.still_needed(score, options.goal)
        if not lacking:
            needs.append(gettext("%(side)s has reached it", side=name))
        elif variant.finishes_exactly:
            exactly = "%(side)s exactly %(num)s"
            needs.append(ngettext(exactly, exactly, lacking, side=name))
        else:
            needs.append(ngettext("%(side)s %(num)s", "%(side)s %(num)s", lacking, side=name))
    needed = gettext(
        "To reach %(target)s: %(needs)s.", target=options.goal, needs=say(Items(tuple(needs)))
    )
    return said, needed


def board(state: GameState, turned: bool) -> Board:
    hand = state.hand
    options = state.options
    if hand is None or state.status is Status.AWAITING_START:
        number = state.hand_number + 1
        if state.hand_number:
            empty = ngettext(
                "Shuffle and deal %(num)s tile each for hand %(number)s.",
                "Shuffle and deal %(num)s tiles each for hand %(number)s.",
                options.hand_size,
                number=number,
            )
        else:
            empty = ngettext(
                "Shuffle and deal %(num)s tile each.",
                "Shuffle and deal %(num)s tiles each.",
                options.hand_size,
            )
        hint = ngettext(
            "%(num)s tile stays in the boneyard.",
            "%(num)s tiles stay in the boneyard.",
            options.boneyard_size,
        )
        return Board(
            ((gettext("Hand"), str(number)), (gettext("to"), str(options.goal))),
            None,
            "",
            None,
            "",
            empty,
            hint,
        )
    face_down = (gettext("Boneyard"), str(hand.boneyard))
    if options.variant.draws_never:  # R27: the tiles left after the deal are out of play
        face_down = (gettext("Out of play"), str(hand.boneyard))
    elif hand.drawable < hand.boneyard:  # R20: the last tiles are never drawn
        face_down = (
            gettext("Boneyard"),
            gettext(
                "%(boneyard)s (%(drawable)s to draw)",
                boneyard=hand.boneyard,
                drawable=hand.drawable,
            ),
        )
    facts = ((gettext("Hand"), str(hand.number)), (gettext("to"), str(options.goal)), face_down)
    layout = hand.layout
    if layout.lead is None:
        return Board(
            facts,
            None,
            "",
            None,
            "",
            gettext("Any tile can lead."),
            gettext("Its first number is the left end, the second the right."),
        )
    last = hand.moves[-1].tile if hand.moves and hand.moves[-1].kind == "play" else None
    drawing = draw_layout(layout, last, turned)
    ends = say(Items(tuple(f"{say(arm_name(arm))} {pip}" for arm, pip in layout.open_ends.items())))
    tiles = Items(tuple(p.label for p in drawing.pieces))
    title = gettext("Layout: %(tiles)s. Open ends: %(ends)s.", tiles=say(tiles), ends=ends)
    ends_said = gettext("Open ends: %(ends)s. Count %(count)s.", ends=ends, count=layout.count)
    return Board(
        facts, drawing, title, layout.count, layout.breakdown, turned=turned, ends=ends_said
    )


def picker(state: GameState, coaching: bool, choice: Choice | None = None) -> Picker:
    hand = state.hand
    assert hand is not None
    if hand.layout.lead is None:
        prompt = gettext("tap any tile to lead it")
    else:
        prompt = gettext("tap the tile they play")
    return Picker(prompt, tiles_of(state, coaching), coaching, choice)


def choice_of(tile: Tile, places: tuple[Placement, ...]) -> Choice:
    return Choice(
        str(tile),
        tuple(
            ChoicePlace(
                place.arm.value if place.arm else "",
                end_label(place.arm) if place.arm else gettext("Lead"),
                place.points,
                place.breakdown,
            )
            for place in places
        ),
    )


def start(state: GameState) -> Start:
    leader = state.next_leader
    return Start(
        leader=state.name(leader) if leader is not None else None,
        first=state.hand_number == 0,
        number=state.hand_number + 1,
        players=state.options.players,
        by_double=leader is None and state.options.variant.leads_highest_double,
    )


def settlement(snapshot: Snapshot, entered: Mapping[int, Entry], preview: Preview | None) -> Settle:
    state = snapshot.state
    hand = state.hand
    assert hand is not None
    options = state.options
    if hand.end is HandEnd.DOMINO:
        assert hand.went_out is not None
        heading = gettext("%(name)s went out!", name=state.name(hand.went_out))
    else:
        heading = gettext("Blocked: nobody can play")
    rounded = {
        "none": gettext("counted as they are"),
        "nearest": gettext("rounded to the nearest five"),
        "up": gettext("any remainder rounded up to a five"),
        "down": gettext("any remainder rounded down to a five"),
    }[options.rounding]
    if options.settlement.value == "subtract-own":
        how = gettext("%(rounded)s and taken off their score", rounded=rounded)
    else:
        how = gettext("%(rounded)s; the winner scores the others’ pips", rounded=rounded)
    reports = tuple(
        Report(
            seat,
            state.name(seat),
            held,
            entered.get(seat, Entry()).pips,
            entered.get(seat, Entry()).tiles,
            entered.get(seat, Entry()).deduced,
        )
        for seat, held in enumerate(hand.held)
        if held
    )
    hint = gettext("Enter the pips each player still holds, or tap their tiles: %(how)s.", how=how)
    if not state.options.variant.counts_pips:  # R28
        hint = gettext(
            "Going out scores one five; the tiles left count nothing. Enter them only if you "
            "want them in the audit."
        )
    return Settle(
        heading=heading,
        hint=hint,
        number=hand.number,
        reports=reports,
        unplayed=tuple(str(tile) for tile in hand.unplayed),
        preview=preview,
        storage_key=f"settle:{snapshot.id}:{snapshot.seq}",
        counts_pips=state.options.variant.counts_pips,
    )


def preview_of(
    before: GameState, outcome: Outcome, after: GameState, why: tuple[Why, ...]
) -> Preview:
    """The settlement as the rules computed it, before it is stored."""
    result = outcome.result
    assert result is not None
    options = before.options
    sides = tuple(
        SideChange(
            options.side_name(side), before.scores[side], result.settled[side], result.scores[side]
        )
        for side in range(options.side_count)
    )
    players = settled_players(options, result)
    return Preview(players, sides, say(outcome.next), after.winner is not None, why)


def over(state: GameState, circle: InCircle | None = None) -> Over:
    options = state.options
    winner = winner_names(state)
    named = winner if isinstance(winner, str) else " & ".join(winner or ())
    hand = state.hand
    return Over(
        winner=named,
        sides=scores(state, said=False).sides,
        side_names=tuple(options.side_name(side) for side in range(options.side_count)),
        hands=tuple(
            HandRow(
                r.number,
                gettext("%(name)s out", name=state.name(r.went_out))
                if r.went_out is not None
                else gettext("blocked"),
                tuple(
                    HandCell(r.scores[side], r.scored[side], r.settled[side])
                    for side in range(options.side_count)
                ),
            )
            for r in state.results
        ),
        unsettled=hand.number if hand and hand.end is None else None,
        race=race(score_sheet(state)),
        ended_early=state.ended_early,
        tied=say(Items(tuple(options.side_name(side) for side in state.winners), "and"))
        if state.ended_early and len(state.winners) > 1
        else "",
        circle=circle,
    )


def controls(state: GameState, clock_ends: datetime | None = None) -> Controls:
    hand = state.hand
    over = state.status is Status.GAME_OVER
    left = ""
    if clock_ends is not None and not state.time_called:
        seconds = max(0, int((clock_ends - datetime.now(UTC).replace(tzinfo=None)).total_seconds()))
        left = f"{seconds // 60}:{seconds % 60:02d}"
    overtime = Items(tuple(state.options.side_name(side) for side in state.overtime), "and")
    return Controls(
        playing=state.status is Status.PLAYING,
        can_draw=state.can_draw,
        can_pass=state.can_pass,
        can_undo=state.can_undo,
        undo_text=say(state.done),
        boneyard=hand.boneyard if hand else 0,
        draw_max=min(hand.boneyard, 28) if hand else 0,
        knocks=state.options.variant.draws_never,
        clock_ends="" if clock_ends is None else clock_ends.isoformat("T", "seconds") + "Z",
        clock_left=left,
        can_call_time=bool(clock_ends) and not state.time_called and not over,
        overtime=say(overtime) if state.overtime and not over else "",
    )
