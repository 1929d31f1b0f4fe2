"""A game of All Fives as a fold over actions (R3, R12–R16, R21–R30).

``GameState.apply`` takes an action and returns the next state with an :class:`Outcome`, or
raises a :class:`RuleError` and changes nothing. Replaying the same actions rebuilds the same
state; :class:`Undo` is an action too.

>>> game = GameState.new(Options.make(["Ana", "Ben", "Cy"]))
>>> game, outcome = game.apply(StartHand(leader=0))
>>> game, outcome = game.apply(Play(Tile(3, 2)))
>>> outcome.points, outcome.breakdown, outcome.next
(5, '3 + 2 = 5', 'Ben to play')
>>> game.scores
(5, 0, 0)
>>> game.apply(Play(Tile(6, 6)))
Traceback (most recent call last):
...
webapp.rules.errors.IllegalAction: no open end shows 6: open ends are 3, 2
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from . import evidence
from .actions import (
    Action,
    ActionKind,
    CallTime,
    Correct,
    Draw,
    EndGame,
    EndHand,
    Pass,
    Play,
    Rename,
    StartHand,
    Undo,
    bad_draw,
    in_effect,
)
from .correction import Fixed, correct
from .errors import IllegalAction, RuleError
from .hand import Hand, HandEnd, MoveKind
from .house_rules import Finish, NextLead
from .layout import Arm, Placement, arm_name
from .messages import N_, NP_, Items, Message
from .options import Options, check_name, name_key
from .progress import HandResult, Status, stored_seat, stored_whole, stored_wholes
from .records import replace
from .settlement import Report, check_reports
from .symmetry import distinct_placements, place_without_end
from .tiles import Tile

#: The version of the rules a state kept as data (``GameState.to_dict``) is read by: a change
#: of the rules that would fold a log to another state must change it, so that snapshots
#: written before are passed over and rebuilt from the log.
STATE_FORMAT = "allfives-state/1"


class BeyondTheMark(LookupError):
    """An undo reaches back before the state a fold holds: fold the log from an earlier one."""


def nothing_to_undo() -> IllegalAction:
    return IllegalAction("nothing_to_undo", N_("there is nothing to undo"))


def _leads(number: int, name: str) -> Message:
    """What starting hand ``number`` says (R3)."""
    return N_("Hand %(number)s: %(name)s leads", number=number, name=name)


def _no_such_seat(seat: int) -> IllegalAction:
    """The refusal of a seat number (from 0) that is not at this table (R2), said from 1."""
    return IllegalAction("bad_seat", N_("seat %(seat)s is not at this table", seat=seat + 1))


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an accepted action did: points, the count, and what happens next."""

    kind: ActionKind
    seat: int | None = None
    points: int = 0
    count: int | None = None
    breakdown: str = ""
    message: str = ""
    next: str = ""
    result: HandResult | None = None
    fixed: Fixed | None = None  # for a correction: what it did to the hand's record


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything about a game at one moment. Immutable; ``apply`` makes the next one."""

    options: Options
    scores: tuple[int, ...]
    status: Status = Status.AWAITING_START
    hand: Hand | None = None
    hand_number: int = 0
    next_leader: int | None = None  # None: R3 calls for a random pick
    winner: int | None = None  # a side
    winners: tuple[int, ...] = ()  # every winning side: two when they share an exact win (R25)
    results: tuple[HandResult, ...] = ()
    time_called: bool = False  # R30: time was called (the game is over, or in overtime)
    overtime: tuple[int, ...] = ()  # R30: the sides tied at the top that play on
    renames: int = 0  # players renamed so far (each an action in effect)
    ended_early: bool = False  # the table ended the game with the scores as they stood
    done: str = field(default="", compare=False)  # the action that made this state, in words

    @classmethod
    def new(cls, options: Options) -> GameState:
        return cls(options, (0,) * options.side_count)

    @classmethod
    def replay(cls, options: Options, actions: list[Action]) -> GameState:
        """Rebuild a state from its actions (each already resolved, see ``resolve``), undos
        included: each undo cancels the last action still in effect (``in_effect``)."""
        state = cls.new(options)
        for action in in_effect(actions):
            state, _ = state.apply(action)
        return state

    def dealt_again(self) -> GameState:
        """The state just after the current hand's :class:`StartHand`, on the scores the last
        settlement left, rebuilt through the rules (fixing a move folds the hand from there)."""
        hand = self.hand
        if hand is None:
            raise ValueError("no hand has been dealt")
        before = self.results[-1].scores if self.results else (0,) * len(self.scores)
        waiting = replace(
            self,
            status=Status.AWAITING_START,
            scores=before,
            hand_number=hand.number - 1,
            winner=None,
        )
        started, _ = waiting.apply(StartHand(hand.leader))
        return started

    # --- a state at a hand boundary as data (snapshots) --------------------------------------

    def to_dict(self) -> dict[str, object]:
        """This state as JSON data, if it is at a hand boundary: before the first hand, or a
        hand just dealt (every settled hand is in the scores and results; nothing played yet).

        >>> state = GameState.new(Options.make(["Ana", "Ben"])).apply(StartHand(1))[0]
        >>> GameState.from_dict(state.options, state.to_dict()) == state
        True
        """
        hand = self.hand
        if hand is not None and (hand.moves or self.status is not Status.PLAYING):
            raise ValueError("only a state before the first play of a hand is kept as data")
        return {
            "scores": list(self.scores),
            "status": self.status.value,
            "hand_number": self.hand_number,
            "next_leader": self.next_leader,
            "winner": self.winner,
            "winners": list(self.winners),
            "results": [result.to_dict() for result in self.results],
            "hand": None if hand is None else {"leader": hand.leader, "double": hand.lead_double},
            "time_called": self.time_called,
            "overtime": list(self.overtime),
            "done": self.done,
            "players": list(self.options.players),
            "renames": self.renames,
        }

    @classmethod
    def from_dict(cls, options: Options, data: dict[str, object]) -> GameState:
        """The state ``to_dict`` gave under ``options``; ValueError if ``data`` is not one."""
        try:
            hand = data["hand"]
            number = stored_whole(data["hand_number"])
            dealt = None
            if hand is not None:
                assert isinstance(hand, dict)
                dealt = Hand.deal(
                    options, number, stored_whole(hand["leader"]), bool(hand["double"])
                )
            results = data["results"]
            assert isinstance(results, list)
            state = cls(
                options,
                stored_wholes(data["scores"]),
                Status(data["status"]),
                dealt,
                number,
                stored_seat(data["next_leader"]),
                stored_seat(data["winner"]),
                stored_wholes(data["winners"]),
                tuple(HandResult.from_dict(result) for result in results),
                bool(data.get("time_called", False)),
                stored_wholes(data.get("overtime", [])),
                renames=stored_whole(data.get("renames", 0)),
                done=str(data["done"]),
            )
            players = data.get("players")
            if players is not None:  # the names as they were then (players may be renamed)
                assert isinstance(players, list) and len(players) == options.player_count
                names = tuple(check_name(name) for name in players)
                state = replace(state, options=replace(options, players=names))
            if dealt is not None:  # said again in the reader's language, not as it was stored
                state = replace(state, done=_leads(number, state.name(dealt.leader)))
        except (AssertionError, KeyError, TypeError, ValueError, RuleError) as wrong:
            raise ValueError(f"not a state kept as data: {wrong!r}") from None
        if len(state.scores) != options.side_count:
            raise ValueError("not a state kept as data: the scores are not one per side")
        return state

    # --- questions the app asks ---------------------------------------------------------------

    def name(self, seat: int) -> str:
        return self.options.players[seat]

    @property
    def turn(self) -> int | None:
        return self.hand.turn if self.status is Status.PLAYING and self.hand else None

    @property
    def can_undo(self) -> bool:
        """Whether any action is in effect: every one but the first start and a rename needs a
        hand begun, and undoing that start leaves none."""
        return self.hand_number > 0 or self.renames > 0

    @property
    def can_draw(self) -> bool:
        hand = self.hand
        return (
            self._playing
            and hand is not None
            and hand.layout.lead is not None
            and hand.drawable > 0
        )

    @property
    def can_pass(self) -> bool:
        hand = self.hand
        return (
            self._playing
            and hand is not None
            and hand.layout.lead is not None
            and hand.drawable == 0
        )

    @property
    def _playing(self) -> bool:
        return self.status is Status.PLAYING

    def placements(self, tile: Tile) -> tuple[Placement, ...]:
        """Every place ``tile`` can be played now, with count and points; () if none.

        The checks of a play by whoever's turn it is (see ``why_not`` for the reason), without
        building a refusal: screens ask all 28 tiles after every play."""
        hand = self.hand
        if not self._playing or hand is None or tile in hand.layout.tiles:
            return ()
        if hand.lead_double and hand.layout.lead is None and not tile.is_double:
            return ()  # R21: the highest double leads
        return hand.layout.placements(tile)  # () when it fits no open end

    def places(self, tile: Tile) -> tuple[Placement, ...]:
        """The places worth asking about for ``tile`` now: ``placements`` with mirror images
        once (a spinner's empty up and down, the two sides of a lone double lead, which score
        alike); () if none. A play of ``tile`` with no end goes where it fits when this has
        one place; the table chooses only between places that differ (R5)."""
        found = self.placements(tile)
        hand = self.hand
        return distinct_placements(hand.layout, found) if hand is not None and found else found

    def why_not(self, tile: Tile, arm: Arm | None = None) -> IllegalAction | None:
        """The refusal a play of ``tile`` (on ``arm``) would meet now, or ``None`` if legal."""
        try:
            if arm is None:
                self._check_can_play(tile, None)
            else:
                self._check_can_play(tile, None, check_fit=False)
                assert self.hand is not None
                if self.hand.layout.lead is not None:
                    self.hand.layout.check(tile, arm)
        except IllegalAction as refusal:
            return refusal
        return None

    # --- actions -------------------------------------------------------------------------------

    def resolve(self, action: Action) -> Action:
        """Fill in what the rules leave to chance: R3's random leader, by ``secrets`` (never
        under R21, where the table names who holds the highest double)."""
        random_pick = (
            self.next_leader is None
            and self.status is Status.AWAITING_START
            and not self.options.variant.leads_highest_double
        )
        if isinstance(action, StartHand) and action.leader is None and random_pick:
            return StartHand(secrets.randbelow(self.options.player_count))
        return action

    def apply(self, action: Action) -> tuple[GameState, Outcome]:
        """The state after ``action`` and what it did, or a :class:`RuleError` whose ``still``
        says what the table still does next, since a refusal changes nothing.

        A state keeps no earlier states, so it cannot undo: a
        :class:`~webapp.rules.scorebook.Scorebook` does (it raises :class:`BeyondTheMark`).

        >>> state = GameState.replay(Options.make(["Ana", "Ben"]), [StartHand(0), Play(Tile(3, 2))])
        >>> try:
        ...     state.apply(Play(Tile(6, 6)))
        ... except IllegalAction as refusal:
        ...     print(f"{refusal}. Still: {refusal.still}")
        no open end shows 6: open ends are 3, 2. Still: Ben to play
        """
        try:
            return self._apply(action)
        except RuleError as refusal:
            refusal.still = self.next_step()
            raise

    def _apply(self, action: Action) -> tuple[GameState, Outcome]:
        if isinstance(action, Undo):
            if not self.can_undo:
                raise nothing_to_undo()
            raise BeyondTheMark(action)
        if isinstance(action, StartHand):
            new, outcome = self._start(action)
        elif isinstance(action, Play):
            new, outcome = self._play(action)
        elif isinstance(action, Draw):
            new, outcome = self._draw(action)
        elif isinstance(action, Pass):
            new, outcome = self._pass(action)
        elif isinstance(action, EndHand):
            new, outcome = self._end_hand(action)
        elif isinstance(action, Correct):
            new, outcome = self._correct(action)
        elif isinstance(action, CallTime):
            new, outcome = self._call_time()
        elif isinstance(action, Rename):
            new, outcome = self._rename(action)
        elif isinstance(action, EndGame):
            new, outcome = self._end_game()
        else:
            raise IllegalAction(
                "bad_action", N_("%(action)s is not an action", action=repr(action))
            )
        return replace(new, done=outcome.message), outcome

    def _correct(self, action: Correct) -> tuple[GameState, Outcome]:
        state, fixed = correct(self, action)
        count = state.hand.layout.count if state.hand else None
        return state, Outcome(
            ActionKind.CORRECT,
            count=count,
            message=fixed.message,
            next=state.next_step(),
            fixed=fixed,
        )

    def _start(self, action: StartHand) -> tuple[GameState, Outcome]:
        if self.status is not Status.AWAITING_START:
            raise self._status_refusal(N_("start a hand"))
        leader = action.leader if action.leader is not None else self.next_leader
        by_double = self.next_leader is None and self.options.variant.leads_highest_double
        if leader is None and by_double:
            raise IllegalAction(
                "leader_needed",
                N_(
                    "say who holds the highest double: they lead it (R21); if nobody holds a "
                    "double, say so and name who holds the heaviest tile"
                ),
                "R21",
            )
        if leader is None:
            raise IllegalAction(
                "leader_needed", N_("say who leads, or let the app pick at random (R3)"), "R3"
            )
        if action.no_double and not by_double:
            raise IllegalAction(
                "no_double_unneeded",
                N_(
                    "whether anyone holds a double matters only when the highest double leads "
                    "the first hand or a hand after a block (R21)"
                ),
                "R21",
            )
        if not 0 <= leader < self.options.player_count:
            raise _no_such_seat(leader)
        if self.next_leader is not None and leader != self.next_leader:
            if self._rotates:
                said = N_(
                    "the lead passes to the next seat every hand, so %(name)s leads (R29)",
                    name=self.name(self.next_leader),
                )
            else:
                said = N_(
                    "%(name)s went out last hand, so %(name)s leads (R3)",
                    name=self.name(self.next_leader),
                )
            raise IllegalAction("wrong_leader", said, "R29" if self._rotates else "R3")
        number = self.hand_number + 1
        hand = Hand.deal(self.options, number, leader, by_double and not action.no_double)
        state = replace(self, status=Status.PLAYING, hand=hand, hand_number=number)
        return state, Outcome(
            ActionKind.START_HAND,
            leader,
            message=_leads(number, self.name(leader)),
            next=state.next_step(),
        )

    def _check_turn(self, seat: int | None, doing: Message) -> Hand:
        if self.status is not Status.PLAYING or self.hand is None:
            raise self._status_refusal(doing)
        if seat is not None and not 0 <= seat < self.options.player_count:
            raise _no_such_seat(seat)
        if seat is not None and seat != self.hand.turn:
            raise IllegalAction(
                "not_your_turn",
                N_(
                    "it is %(turn)s's turn, not %(name)s's",
                    turn=self.name(self.hand.turn),
                    name=self.name(seat),
                ),
                "R5",
            )
        return self.hand

    def _check_can_play(self, tile: Tile, seat: int | None, check_fit: bool = True) -> Hand:
        hand = self._check_turn(seat, N_("play"))
        if tile in hand.layout.tiles:
            raise IllegalAction(
                "already_played", N_("%(tile)s was already played", tile=str(tile)), "R1"
            )
        if check_fit and hand.layout.lead is not None and not hand.layout.fits(tile):
            raise IllegalAction("no_match", hand.layout.why_not(tile), "R5")
        if hand.layout.lead is None:
            hand.check_lead(tile)
        return hand

    def _play(self, action: Play) -> tuple[GameState, Outcome]:
        # A named end is checked by the layout, which says why that end refuses the tile.
        hand = self._check_can_play(action.tile, action.seat, check_fit=action.arm is None)
        arm = action.arm
        if hand.layout.lead is not None and arm is None:
            arm = place_without_end(hand.layout, action.tile).arm  # R5, mirror images once
        seat = hand.turn
        after = hand.play(action.tile, arm)
        move = after.moves[-1]
        side = self.options.side_of(seat)
        short = bool(move.points) and not self._is_in(side, move.points)
        past = after.layout.rules.passes_target(self.scores[side], move.points, self.options.goal)
        if short or past:
            move = replace(move, points=0)
            after = replace(after, moves=(*after.moves[:-1], move))
        scores = self._add(self.scores, side, move.points)
        state = replace(self, hand=after, scores=scores)
        name = self.name(seat)
        if move.arm is None:
            message = N_(
                "%(name)s led %(tile)s: %(breakdown)s",
                name=name,
                tile=str(move.tile),
                breakdown=move.breakdown,
            )
        else:
            # Named as on the picker (high half first), whichever way it lies on the table.
            named = Tile(*move.tile.key) if move.tile else move.tile
            message = N_(
                "%(name)s played %(tile)s on the %(end)s end: %(breakdown)s",
                name=name,
                tile=str(named),
                end=arm_name(move.arm),
                breakdown=move.breakdown,
            )
        if move.points:
            message = N_("%(play)s, scores %(points)s", play=message, points=move.points)
        if short:
            message = N_(
                "%(play)s, but %(side)s needs %(least)s or more to get in: the points are not "
                "scored (R30)",
                play=message,
                side=self.options.side_name(side),
                least=self.options.variant.in_points(self.options.get_in),
            )
        elif past:
            message = N_(
                "%(play)s, but %(side)s must reach %(goal)s exactly: the points are not scored "
                "(R25)",
                play=message,
                side=self.options.side_name(side),
                goal=self.options.goal,
            )
        scorer = side if move.points else None
        if self.time_called:
            state = state._check_overtime({side: move.points})
        else:
            state = state._check_target(immediate=True, scorer=scorer)
        if state.status is Status.PLAYING and after.end is HandEnd.DOMINO:
            state = replace(state, status=Status.HAND_OVER)
        outcome = Outcome(
            ActionKind.PLAY,
            seat,
            move.points,
            move.count,
            move.breakdown,
            message,
            state.next_step(),
        )
        return state, outcome

    def _draw(self, action: Draw) -> tuple[GameState, Outcome]:
        hand = self._check_turn(action.seat, N_("draw"))
        if action.count < 1:
            raise bad_draw()
        after = hand.draw(action.count, self.options.players)
        self._check_record(hand, after, action.confirm)
        state = replace(self, hand=after)
        drawn = NP_("a tile", "%(num)s tiles", action.count)
        return state, Outcome(
            ActionKind.DRAW,
            hand.turn,
            message=N_("%(name)s drew %(drawn)s", name=self.name(hand.turn), drawn=drawn),
            next=state.next_step(),
        )

    def _pass(self, action: Pass) -> tuple[GameState, Outcome]:
        hand = self._check_turn(action.seat, N_("pass"))
        after = hand.pass_turn(self.options.players)
        self._check_record(hand, after, action.confirm)
        state = replace(self, hand=after)
        if after.end is HandEnd.BLOCKED:
            state = replace(state, status=Status.HAND_OVER)
        if self.options.variant.draws_never:  # R27: a pass is a knock
            message = N_("%(name)s knocked", name=self.name(hand.turn))
        else:
            message = N_("%(name)s passed", name=self.name(hand.turn))
        return state, Outcome(
            ActionKind.PASS,
            hand.turn,
            message=message,
            next=state.next_step(),
        )

    def _check_record(self, before: Hand, after: Hand, confirm: bool) -> None:
        """R7a: a draw or pass the record proves wrong needs the table to confirm it."""
        if not confirm:
            draws_count = not self.options.variant.draws_any_time  # R19: a draw proves nothing
            refusal = evidence.refusal(before, after, self.options.players, draws_count)
            if refusal is not None:
                raise refusal

    def _end_hand(self, action: EndHand) -> tuple[GameState, Outcome]:
        hand = self.hand
        if self.status is not Status.HAND_OVER or hand is None or hand.end is None:
            raise self._status_refusal(N_("settle the hand"))
        reports = action.by_seat
        for seat in reports:
            if not 0 <= seat < self.options.player_count:
                raise _no_such_seat(seat)
        variant = self.options.variant
        check_reports(
            reports,
            hand.held,
            hand.unplayed,
            hand.boneyard,
            self.options.players,
            required=variant.counts_pips,
        )
        pips = tuple(reports.get(seat, Report(0)).pips for seat in range(len(hand.held)))
        sides = [self.options.side_of(seat) for seat in range(len(hand.held))]
        deltas = tuple(
            delta if delta <= 0 or self._is_in(side, delta) else 0
            for side, delta in enumerate(
                variant.settle(dict(enumerate(pips)), sides, hand.went_out)
            )
        )
        scores = tuple(
            variant.after(score, delta, self.options.goal)
            for score, delta in zip(self.scores, deltas, strict=True)
        )
        settled = tuple(new - old for new, old in zip(scores, self.scores, strict=True))
        scored = [0] * self.options.side_count
        for seat, points in enumerate(hand.scored()):
            scored[sides[seat]] += points
        result = HandResult(
            hand.number,
            hand.end,
            hand.went_out,
            pips,
            tuple(variant.rounded(p) for p in pips),
            tuple(scored),
            settled,
            scores,
        )
        state = replace(
            self,
            scores=scores,
            status=Status.AWAITING_START,
            results=(*self.results, result),
            next_leader=variant.next_leader(hand.leader, hand.went_out, self.options.player_count),
        )
        if self.time_called:
            state = state._check_overtime(dict(enumerate(settled)))
        else:
            state = state._check_target(immediate=False)
        changes = Items(
            tuple(
                N_("%(side)s %(delta)s", side=self.options.side_name(side), delta=signed)
                for side, signed in enumerate(f"{delta:+d}" for delta in settled)
            )
        )
        return state, Outcome(
            ActionKind.END_HAND,
            message=N_("Hand %(number)s settled: %(changes)s", number=hand.number, changes=changes),
            next=state.next_step(),
            result=result,
        )

    # --- the players' housekeeping ------------------------------------------------------------

    def _rename(self, action: Rename) -> tuple[GameState, Outcome]:
        """A typo fixed: the player at a seat gets a new name, checked as names are when a game
        starts (R2: given, printable, not too long, no other player's in any case or form).

        >>> game = GameState.new(Options.make(["Ana", "Ben", "Cy"]))
        >>> game, outcome = game.apply(Rename(2, "  Cyrus "))
        >>> outcome.message, game.options.players, game.can_undo
        ('Cy renamed to Cyrus', ('Ana', 'Ben', 'Cyrus'), True)
        >>> game.apply(Rename(1, "ANA"))
        Traceback (most recent call last):
        ...
        webapp.rules.errors.IllegalAction: each player needs a different name: Ana already plays
        """
        if self.status is Status.GAME_OVER:
            raise self._status_refusal(N_("rename a player"))
        if not 0 <= action.seat < self.options.player_count:
            raise _no_such_seat(action.seat)
        name = check_name(action.name)
        old = self.name(action.seat)
        if name == old:
            raise IllegalAction("same_name", N_("%(name)s is already called %(name)s", name=old))
        for seat, other in enumerate(self.options.players):
            if seat != action.seat and name_key(other) == name_key(name):
                raise IllegalAction(
                    "duplicate_name",
                    N_("each player needs a different name: %(name)s already plays", name=other),
                    "R2",
                )
        players = tuple(
            name if seat == action.seat else player
            for seat, player in enumerate(self.options.players)
        )
        state = replace(
            self, options=replace(self.options, players=players), renames=self.renames + 1
        )
        message = N_("%(old)s renamed to %(new)s", old=old, new=name)
        return state, Outcome(
            ActionKind.RENAME, action.seat, message=message, next=state.next_step()
        )

    def _end_game(self) -> tuple[GameState, Outcome]:
        """The table stops before the target: as when time is called (R30), the hand in
        progress is not settled and the side ahead wins; sides level at the top tie (nobody
        plays on: the table has stopped).

        >>> game = GameState.new(Options.make(["Ana", "Ben"])).apply(StartHand(1))[0]
        >>> game, outcome = game.apply(Play(Tile(5, 5)))
        >>> game, outcome = game.apply(EndGame())
        >>> outcome.message, game.status.value, game.winners
        ('Game ended early: Ben won with the scores as they stand', 'game_over', (1,))
        """
        if self.status is Status.GAME_OVER:
            raise self._status_refusal(N_("end the game"))
        if self.hand_number == 0:
            raise IllegalAction(
                "nothing_played",
                N_("nothing has been played yet, so there are no scores to end the game on"),
            )
        top = max(self.scores)
        leaders = tuple(side for side, score in enumerate(self.scores) if score == top)
        state = replace(
            self, status=Status.GAME_OVER, winner=leaders[0], winners=leaders, ended_early=True
        )
        if len(leaders) == 1:
            message = N_(
                "Game ended early: %(side)s won with the scores as they stand",
                side=self.options.side_name(leaders[0]),
            )
        else:
            message = N_(
                "Game ended early: %(sides)s are level, a tie", sides=state._winner_names()
            )
        return state, Outcome(ActionKind.END_GAME, message=message, next=state.next_step())

    def _winner_names(self) -> Items:
        return Items(tuple(self.options.side_name(side) for side in self.winners), "and")

    # --- R29, R30 ------------------------------------------------------------------------------

    @property
    def _rotates(self) -> bool:
        return self.options.variant.next_lead is NextLead.ROTATES

    def _is_in(self, side: int, points: int) -> bool:
        """R30: whether ``points`` count for ``side``: it got in with an earlier score (in a
        settled hand or this one), or these are enough to get it in."""
        variant = self.options.variant
        if not variant.get_in or variant.gets_in(points):
            return True
        if any(r.scored[side] > 0 or r.settled[side] > 0 for r in self.results):
            return True
        hand = self.hand
        if hand is None or (self.results and self.results[-1].number == hand.number):
            return False
        return any(
            move.points > 0 and self.options.side_of(move.seat) == side for move in hand.moves
        )

    def _call_time(self) -> tuple[GameState, Outcome]:
        """R30: time is called: the highest side wins; sides tied at the top play on."""
        if self.status is Status.GAME_OVER:
            raise self._status_refusal(N_("call time"))
        if not self.options.variant.timed:
            raise IllegalAction(
                "no_time_limit",
                N_("this game has no time limit, so nobody calls time (R30)"),
                "R30",
            )
        if self.time_called:
            raise IllegalAction(
                "time_called",
                N_(
                    "time was already called: %(sides)s play on until one of them scores (R30)",
                    sides=self._overtime_names(),
                ),
                "R30",
            )
        hand = self.hand
        if hand is None or (hand.number == 1 and hand.layout.lead is None):
            raise IllegalAction(
                "clock_not_started",
                N_("the clock starts with the first hand’s lead: time cannot be called yet (R30)"),
                "R30",
            )
        top = max(self.scores)
        leaders = tuple(side for side, score in enumerate(self.scores) if score == top)
        state = replace(self, time_called=True, overtime=leaders)
        if len(leaders) == 1:
            state = replace(state, status=Status.GAME_OVER, winner=leaders[0], winners=leaders)
            message = N_("Time: %(side)s won", side=self.options.side_name(leaders[0]))
        else:
            message = N_(
                "Time: %(sides)s are level and play on; the first of them to score wins (R30)",
                sides=state._overtime_names(),
            )
        return state, Outcome(ActionKind.CALL_TIME, message=message, next=state.next_step())

    def _overtime_names(self) -> Items:
        return Items(tuple(self.options.side_name(side) for side in self.overtime), "and")

    def _check_overtime(self, points: dict[int, int]) -> GameState:
        """R30: in overtime, the first of the sides tied at the top to score wins; if two of
        them score at the same moment (a settlement), the higher wins, or those still level
        play on."""
        scorers = [side for side in self.overtime if points.get(side, 0) > 0]
        if not scorers:
            return self
        top = max(self.scores[side] for side in scorers)
        best = tuple(side for side in scorers if self.scores[side] == top)
        if len(best) > 1:
            return replace(self, overtime=best)
        return replace(self, status=Status.GAME_OVER, winner=best[0], winners=best)

    # --- R15, R16 ------------------------------------------------------------------------------

    def _check_target(self, immediate: bool, scorer: int | None = None) -> GameState:
        if self.options.finish is Finish.EXACT:
            if immediate and scorer is None:
                return self
            return self._check_exact(scorer if immediate else None)
        top = max(self.scores)
        if top < self.options.goal:
            return self
        leaders = [side for side, score in enumerate(self.scores) if score == top]
        if immediate:
            # Only the side that just scored can reach the target at this moment. Sides tied
            # at the top after a hand are past it already: a play that scores nothing, or for
            # someone else, must not hand one of them the game; a play that breaks the tie does.
            if self.options.finish is not Finish.IMMEDIATE or leaders != [scorer]:
                return self
            assert scorer is not None
            return replace(self, status=Status.GAME_OVER, winner=scorer, winners=(scorer,))
        if len(leaders) > 1:
            return self  # R16: a tie at the top plays another hand
        return replace(self, status=Status.GAME_OVER, winner=leaders[0], winners=(leaders[0],))

    def _check_exact(self, scorer: int | None) -> GameState:
        """R25: the first side to reach the target exactly wins at once; sides that reach it
        at the same moment (a settlement) share the win."""
        goal = self.options.goal
        if scorer is not None:
            reached = [scorer] if self.scores[scorer] == goal else []
        else:
            reached = [side for side, score in enumerate(self.scores) if score == goal]
        if not reached:
            return self
        return replace(self, status=Status.GAME_OVER, winner=reached[0], winners=tuple(reached))

    # --- words ---------------------------------------------------------------------------------

    def _status_refusal(self, doing: Message) -> IllegalAction:
        reasons = {
            Status.AWAITING_START: (
                "hand_not_started",
                N_("cannot %(doing)s: the hand has not started: start it first", doing=doing),
            ),
            Status.PLAYING: (
                "hand_in_progress",
                N_("cannot %(doing)s: the hand is still being played", doing=doing),
            ),
            Status.HAND_OVER: (
                "hand_over",
                N_(
                    "cannot %(doing)s: the hand is over: enter what each player still holds",
                    doing=doing,
                ),
            ),
            Status.GAME_OVER: ("game_over", N_("cannot %(doing)s: the game is over", doing=doing)),
        }
        code, reason = reasons[self.status]
        if self.status is Status.GAME_OVER and self.time_called:
            said = N_("cannot %(doing)s: time was called and the game is over (R30)", doing=doing)
            return IllegalAction(code, said, "R30")
        return IllegalAction(code, reason, "R12")

    def next_step(self) -> Message:
        """What the table does next, in a sentence."""
        if self.status is Status.GAME_OVER:
            assert self.winner is not None
            if self.ended_early and len(self.winners) > 1:
                return N_("Game over, ended early: %(names)s tie", names=self._winner_names())
            if self.ended_early:
                return N_(
                    "Game over, ended early: %(side)s won", side=self.options.side_name(self.winner)
                )
            if len(self.winners) > 1:
                names = Items(tuple(self.options.side_name(side) for side in self.winners), "and")
                return N_("Game over: %(names)s share the win (R25)", names=names)
            return N_("Game over: %(side)s won", side=self.options.side_name(self.winner))
        if self.status is Status.AWAITING_START:
            if self.next_leader is None:
                if self.hand_number == 0:
                    return N_("Start the first hand: pick the leader or draw lots (R3)")
                return N_("Start the next hand: pick the leader or draw lots (R3)")
            if self._rotates:
                return N_(
                    "Start the next hand: %(name)s leads (R29)", name=self.name(self.next_leader)
                )
            return N_("Start the next hand: %(name)s leads (R3)", name=self.name(self.next_leader))
        hand = self.hand
        assert hand is not None
        if self.status is Status.HAND_OVER and not self.options.variant.counts_pips:
            if hand.end is HandEnd.DOMINO:  # R28: a five for going out, no pips counted
                assert hand.went_out is not None
                return N_(
                    "%(name)s went out: settle the hand (a five for going out)",
                    name=self.name(hand.went_out),
                )
            return N_("Blocked: nobody can play. Settle the hand: nobody scores")
        if self.status is Status.HAND_OVER:
            if hand.end is HandEnd.DOMINO:
                assert hand.went_out is not None
                return N_(
                    "%(name)s went out: enter the pips left in each hand",
                    name=self.name(hand.went_out),
                )
            return N_("Blocked: nobody can play. Enter the pips left in each hand")
        name = self.name(hand.turn)
        if hand.layout.lead is None:
            return N_("%(name)s leads", name=name)
        if hand.moves and hand.moves[-1].kind == MoveKind.DRAW and hand.moves[-1].seat == hand.turn:
            if hand.drawable:
                return N_("%(name)s to play, or draw again", name=name)
            return N_("%(name)s to play or pass", name=name)
        return N_("%(name)s to play", name=name)

    @staticmethod
    def _add(scores: tuple[int, ...], side: int, points: int) -> tuple[int, ...]:
        return tuple(score + points if i == side else score for i, score in enumerate(scores))
