"""The game screen as view models: one frozen dataclass per region, built from a snapshot.

The views build these; the templates only print them. Nothing here decides a rule: which
tiles fit where, the points, the count and what happens next all come from ``webapp.rules``.
A screen is built for one reader, the table (``viewer=False``, through the players' link) or an
onlooker (``viewer=True``, through the watch link); ``public_id`` is the id that reader may see,
so a watcher's screen never carries the edit id.

The regions, each its own partial with its own ``id``: ``scores``, ``board``, ``notice`` (what
the last tap did), ``work`` (the picker, or the start, settlement or game-over panel),
``controls`` (Draw, Pass, Undo) and ``live`` (the poll, with the revision shown).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from flask import url_for

from . import present
from .drawing import Drawing, draw_layout
from .rules import (
    DOUBLE_SIX,
    GameState,
    HandEnd,
    HandResult,
    Outcome,
    Placement,
    RuleError,
    Status,
    Tile,
    distinct_placements,
)
from .rules.layout import arm_name
from .rules.messages import Items
from .store import Snapshot
from .words import gettext, ngettext, say, say_capitalized

# --- what the last tap did ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Notice:
    """The result of the last action, shown just above the picker until the next action.

    ``tone`` is ``scored``, ``ok``, ``refused`` or ``stale``. Plain data: it travels in the
    session between a form POST and its redirect when the page runs without JavaScript."""

    tone: str
    text: str
    points: int = 0
    who: str | None = None
    next: str = ""
    rule: str | None = None
    why: tuple[dict[str, str], ...] = ()  # learning mode: each reason's rule and sentence
    # R7a: a refusal the table may overrule is recorded anyway by posting these fields there.
    confirm_url: str = ""
    confirm_fields: tuple[tuple[str, str], ...] = ()

    @property
    def title(self) -> str:
        if self.tone == "refused":
            return gettext("Not allowed")
        if self.tone == "scored" and self.who:
            return ngettext(
                "%(who)s scores %(num)s", "%(who)s scores %(num)s", self.points, who=self.who
            )
        return ""

    @property
    def shows_next(self) -> bool:
        return bool(self.next) and self.next not in self.text

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Notice | None:
        if not isinstance(data, dict):
            return None
        try:
            why = tuple({"rule": str(r["rule"]), "text": str(r["text"])} for r in data["why"])
            fields = tuple((str(name), str(value)) for name, value in data["confirm_fields"])
            return cls(**{**data, "why": why, "confirm_fields": fields})
        except (KeyError, TypeError, ValueError):
            return None  # a cookie from another version: show nothing rather than fail


def outcome_notice(state: GameState, outcome: Outcome, why: list[dict[str, str]]) -> Notice:
    return Notice(
        tone="scored" if outcome.points else "ok",
        text=say(outcome.message),
        points=outcome.points,
        who=state.name(outcome.seat) if outcome.seat is not None else None,
        next=say(outcome.next),
        why=tuple(why),
    )


def refusal_notice(refusal: RuleError, confirm: tuple[str, dict[str, str]] | None = None) -> Notice:
    """A refusal in words; with ``confirm`` (an address and the form's fields) the table may
    record it anyway (R7a)."""
    text = say_capitalized(refusal.message)
    if confirm is None:
        return Notice(tone="refused", text=text, rule=refusal.rule)
    url, fields = confirm
    return Notice(
        "refused", text, rule=refusal.rule, confirm_url=url, confirm_fields=tuple(fields.items())
    )


def change_notice(state: GameState, viewer: bool) -> Notice | None:
    """What another phone just did, for a screen that follows it."""
    if not state.done:
        return None
    return Notice(tone="ok", text=say(state.done), next=_next_step(state, viewer))


# --- the regions -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    held: int | None
    turn: bool


@dataclass(frozen=True, slots=True)
class Side:
    name: str
    score: int
    progress: int
    turn: bool
    won: bool
    players: tuple[Seat, ...]

    @property
    def held(self) -> str:
        """Tiles in hand, as a card shows it: ``5 tiles``, or per partner in a team."""
        if any(p.held is None for p in self.players):
            return ""
        if len(self.players) > 1:
            return " · ".join(f"{p.name} {p.held}" for p in self.players)
        held = self.players[0].held
        assert held is not None
        return ngettext("%(num)s tile", "%(num)s tiles", held)


@dataclass(frozen=True, slots=True)
class Scores:
    sides: tuple[Side, ...]
    goal: int
    show_held: bool


@dataclass(frozen=True, slots=True)
class Board:
    facts: tuple[tuple[str, str], ...]  # (label, value): hand, target, boneyard
    drawing: Drawing | None
    title: str  # the layout in words, for screen readers
    count: int | None
    breakdown: str
    empty: str = ""  # the sentence shown on an empty table
    empty_hint: str = ""
    turned: bool = False


@dataclass(frozen=True, slots=True)
class PickerTile:
    name: str
    played: bool
    fits: bool  # marked only when the table wants hints (coaching)
    best: int

    @property
    def value(self) -> str:
        """What a tap on it sends (an attribute the picker asks for: a missing one is slow)."""
        return self.name


@dataclass(frozen=True, slots=True)
class ChoicePlace:
    end: str  # the form value
    label: str
    points: int
    breakdown: str


@dataclass(frozen=True, slots=True)
class Choice:
    tile: str
    places: tuple[ChoicePlace, ...]


@dataclass(frozen=True, slots=True)
class Picker:
    kind: ClassVar[str] = "picker"

    prompt: str
    tiles: tuple[PickerTile, ...]
    coaching: bool
    choice: Choice | None = None


@dataclass(frozen=True, slots=True)
class Start:
    kind: ClassVar[str] = "start"

    leader: str | None  # the rules' leader, or None for a pick by lot
    first: bool
    number: int
    players: tuple[str, ...]
    by_double: bool = False  # R21: the holder of the highest double leads it


@dataclass(frozen=True, slots=True)
class Report:
    """One player still holding tiles at the end of a hand, as the settlement form shows them."""

    seat: int
    name: str
    held: int
    pips: str
    tiles: tuple[str, ...]
    deduced: bool = False


@dataclass(frozen=True, slots=True)
class Preview:
    players: tuple[dict[str, Any], ...]
    sides: tuple[dict[str, Any], ...]
    next: str
    over: bool
    why: tuple[dict[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Settle:
    kind: ClassVar[str] = "settle"

    heading: str
    hint: str
    number: int
    reports: tuple[Report, ...]
    unplayed: tuple[str, ...]
    preview: Preview | None = None
    storage_key: str = ""  # where the phone keeps what was typed, per game and revision


@dataclass(frozen=True, slots=True)
class Over:
    kind: ClassVar[str] = "over"

    winner: str
    sides: tuple[Side, ...]
    results: tuple[HandResult, ...]
    side_names: tuple[str, ...]
    went_out: tuple[str, ...]  # per result: who went out, or "blocked"
    unsettled: int | None  # a hand the target was reached in


@dataclass(frozen=True, slots=True)
class Controls:
    playing: bool
    can_draw: bool
    can_pass: bool
    can_undo: bool
    undo_text: str
    boneyard: int
    draw_max: int


@dataclass(frozen=True, slots=True)
class Links:
    """The game's URLs as this reader reaches them, built once per screen."""

    game: str
    poll: str
    rules: str
    play: str = ""
    draw: str = ""
    pass_turn: str = ""
    undo: str = ""
    start: str = ""
    settle: str = ""
    preview: str = ""
    again: str = ""
    learning: str = ""
    coaching: str = ""
    turn_board: str = ""
    more: str = ""


@dataclass(frozen=True, slots=True)
class Screen:
    viewer: bool
    public_id: str
    seq: int
    status: str
    next_step: str
    links: Links
    scores: Scores
    board: Board
    notice: Notice | None
    work: Picker | Start | Settle | Over | None
    controls: Controls | None
    learning: bool
    coaching: bool
    turned: bool
    title: str = field(default="")
    rules: str = ""  # the rules in force, as the table chose them ("Muggins, rounding up")


# --- building a screen -------------------------------------------------------------------------


def links_for(snapshot: Snapshot, viewer: bool) -> Links:
    if viewer:
        game = url_for("pages.view", view_id=snapshot.view_id)
        return Links(
            game=game,
            poll=f"{game}/poll?seq={snapshot.seq}",
            rules=url_for("pages.rules"),
            more=f"{game}/more",
        )
    game = url_for("pages.game", game_id=snapshot.id)
    return Links(
        game=game,
        poll=f"{game}/poll?seq={snapshot.seq}",
        rules=url_for("pages.rules"),
        play=f"{game}/play",
        draw=f"{game}/draw",
        pass_turn=f"{game}/pass",
        undo=f"{game}/undo",
        start=f"{game}/start",
        settle=f"{game}/settle",
        preview=f"{game}/settle/preview",
        again=f"{game}/again",
        learning=f"{game}/learning",
        coaching=f"{game}/coaching",
        turn_board=f"{game}/turn",
        more=f"{game}/more",
    )


def build(
    snapshot: Snapshot,
    viewer: bool,
    notice: Notice | None = None,
    choice: Choice | None = None,
    settle: dict[int, dict[str, Any]] | None = None,
    preview: Preview | None = None,
    turned: bool = False,
) -> Screen:
    state = snapshot.state
    coaching = snapshot.coaching or snapshot.learning
    work: Picker | Start | Settle | Over | None = None
    if state.status is Status.PLAYING and not viewer:
        work = picker(state, coaching, choice)
    elif state.status is Status.AWAITING_START and not viewer:
        work = start(state)
    elif state.status is Status.HAND_OVER and not viewer:
        work = settlement(snapshot, settle or {}, preview)
    elif state.status is Status.GAME_OVER:
        work = over(state)
    return Screen(
        viewer=viewer,
        public_id=snapshot.view_id if viewer else snapshot.id,
        seq=snapshot.seq,
        status=state.status.value,
        next_step=_next_step(state, viewer),
        links=links_for(snapshot, viewer),
        scores=scores(state),
        board=board(state, turned),
        notice=notice,
        work=work,
        controls=None if viewer else controls(state),
        learning=snapshot.learning,
        coaching=coaching,
        turned=turned,
        title=" · ".join(state.options.players),
        rules=say(state.options.title),
    )


def _next_step(state: GameState, viewer: bool) -> str:
    """What happens next; an onlooker is told what the table is doing, not what to enter."""
    if viewer and state.status is Status.HAND_OVER:
        hand = state.hand
        assert hand is not None
        return gettext(
            "Hand %(number)s is over: the table is counting what each player holds",
            number=hand.number,
        )
    return say(state.next_step())


def scores(state: GameState) -> Scores:
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
    return Scores(tuple(sides), options.goal, show_held)


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
    boneyard = str(hand.boneyard)
    if hand.drawable < hand.boneyard:  # R20: the last tiles are never drawn
        boneyard = gettext(
            "%(boneyard)s (%(drawable)s to draw)", boneyard=hand.boneyard, drawable=hand.drawable
        )
    facts = (
        (gettext("Hand"), str(hand.number)),
        (gettext("to"), str(options.goal)),
        (gettext("Boneyard"), boneyard),
    )
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
    ends = Items(tuple(f"{say(arm_name(arm))} {pip}" for arm, pip in layout.open_ends.items()))
    tiles = Items(tuple(p.label for p in drawing.pieces))
    title = gettext("Layout: %(tiles)s. Open ends: %(ends)s.", tiles=say(tiles), ends=say(ends))
    return Board(facts, drawing, title, layout.count, layout.breakdown, turned=turned)


def picker(state: GameState, coaching: bool, choice: Choice | None = None) -> Picker:
    hand = state.hand
    assert hand is not None
    if hand.layout.lead is None:
        prompt = gettext("tap any tile to lead it")
    else:
        prompt = gettext("tap the tile they play")
    return Picker(prompt, picker_tiles(state, coaching), coaching, choice)


def picker_tiles(state: GameState, coaching: bool) -> tuple[PickerTile, ...]:
    """The 28 tiles as the picker shows them: played or not and, when the table wants hints,
    whether each fits now and its best points (all from ``GameState.placements``)."""
    hand = state.hand
    leading = hand is None or hand.layout.lead is None
    on_table = set(hand.layout.tiles) if hand else set()
    tiles = []
    for tile in DOUBLE_SIX:
        played = tile in on_table
        places = () if played or not coaching else state.placements(tile)
        best = max((p.points for p in places), default=0)
        # Before the lead every tile fits: only the scoring leads are worth marking.
        fits = bool(places) and (not leading or best > 0)
        tiles.append(PickerTile(str(tile), played, fits, best))
    return tuple(tiles)


def choice_of(tile: Tile, places: tuple[Placement, ...]) -> Choice:
    return Choice(
        str(tile),
        tuple(
            ChoicePlace(
                place.arm.value if place.arm else "",
                present.end_label(place.arm) if place.arm else gettext("Lead"),
                place.points,
                place.breakdown,
            )
            for place in places
        ),
    )


def choices(state: GameState, tile: Tile) -> tuple[Placement, ...]:
    """The places worth asking about: mirror images of one another are asked once."""
    hand = state.hand
    places = state.placements(tile)
    return distinct_placements(hand.layout, places) if hand else places


def start(state: GameState) -> Start:
    leader = state.next_leader
    return Start(
        leader=state.name(leader) if leader is not None else None,
        first=state.hand_number == 0,
        number=state.hand_number + 1,
        players=state.options.players,
        by_double=leader is None and state.options.variant.leads_highest_double,
    )


def settlement(
    snapshot: Snapshot, entered: dict[int, dict[str, Any]], preview: Preview | None
) -> Settle:
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
            str(entered.get(seat, {}).get("pips", "")),
            tuple(entered.get(seat, {}).get("tiles", ())),
            bool(entered.get(seat, {}).get("deduced")),
        )
        for seat, held in enumerate(hand.held)
        if held
    )
    return Settle(
        heading=heading,
        hint=gettext(
            "Enter the pips each player still holds, or tap their tiles: %(how)s.", how=how
        ),
        number=hand.number,
        reports=reports,
        unplayed=tuple(str(tile) for tile in hand.unplayed),
        preview=preview,
        storage_key=f"settle:{snapshot.id}:{snapshot.seq}",
    )


def preview_of(before: GameState, outcome: Outcome, after: GameState, why: Any) -> Preview:
    """The settlement as the rules computed it, before it is stored."""
    result = outcome.result
    assert result is not None
    options = before.options
    sides = tuple(
        {
            "name": options.side_name(side),
            "before": before.scores[side],
            "change": result.settled[side],
            "after": result.scores[side],
        }
        for side in range(options.side_count)
    )
    players = tuple(present.settled_players(options, result))
    return Preview(players, sides, say(outcome.next), after.winner is not None, tuple(why or ()))


def over(state: GameState) -> Over:
    options = state.options
    winner = present.winner_names(state)
    named = winner if isinstance(winner, str) else " & ".join(winner or ())
    hand = state.hand
    return Over(
        winner=named,
        sides=scores(state).sides,
        results=state.results,
        side_names=tuple(options.side_name(side) for side in range(options.side_count)),
        went_out=tuple(
            gettext("%(name)s out", name=state.name(r.went_out))
            if r.went_out is not None
            else gettext("blocked")
            for r in state.results
        ),
        unsettled=hand.number if hand and hand.end is None else None,
    )


def controls(state: GameState) -> Controls:
    hand = state.hand
    return Controls(
        playing=state.status is Status.PLAYING,
        can_draw=state.can_draw,
        can_pass=state.can_pass,
        can_undo=state.can_undo,
        undo_text=say(state.done),
        boneyard=hand.boneyard if hand else 0,
        draw_max=min(hand.boneyard, 28) if hand else 0,
    )
