"""Random games at a real table, checked after every step (DESIGN: a Hypothesis state machine).

Hypothesis deals real tiles and picks, at each step, one of the moves a real table could make:
a legal play from the hand of the player to move (found with ``state.placements``), a draw when
nothing in that hand fits, a pass when the boneyard is empty too, true reports at the end of a
hand. It also undoes now and then and throws arbitrary actions at the engine. Each game is
played under a random preset and a random combination of every option of R1 and R13–R30
(spinners, doubles, drawing any time or never, a reserve, the highest double leading, rounding,
blocks, a floor, exact finishes, points in fives, threes counted, the five for going out, the
rotating lead, ten to get in, time called now and then). After every step:

- the 28 tiles are all accounted for, and the engine's counts match the real hands;
- the layout and its count match the test's own model of RULES.md R8–R11 and R17–R18, a tree
  of arms with every end named (``Line`` below), and each settlement matches the test's own
  model of R13, R13p, R22–R25 and R28 (``settlement``);
- points come only from a count that is a positive multiple of five, or of three under R26 (in
  fives under R25, or nothing past an exact target, or short of getting in, R30), and the
  scores add up; the lead rotates under R29; nobody draws under R27; when time is called the
  highest side wins, or those tied at the top play on and the first of them to score wins;
- a refused action changes nothing, and an accepted one is undone exactly;
- R7a never refuses the table's legal draws and passes, and whatever draw or pass it does
  refuse is one the real hands prove illegal (a confirmed one is then recorded); R14 accepts
  the true reports;
- replaying the actions in effect from ``GameState.new`` rebuilds the state (checked when a
  game ends and at the end of every run: replaying after every step would be quadratic).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from rules_table import Table

from tests.conftest import examples
from webapp.rules import (
    DOUBLE_SIX,
    PRESETS,
    Arm,
    Draw,
    EndHand,
    GameState,
    Options,
    Pass,
    Play,
    RecordContradiction,
    Report,
    RuleError,
    StartHand,
    Status,
    Tile,
    Undo,
)
from webapp.rules.actions import CallTime
from webapp.rules.options import OPTION_SPECS
from webapp.rules.scorebook import Scorebook

NAMES = ["Ana", "Ben", "Cy", "Di"]


# --- the test's own model of the layout ----------------------------------------------------------


def name_of(tile: tuple[int, int]) -> str:
    return f"{max(tile)}-{min(tile)}"


@dataclass(frozen=True)
class Line:
    """The layout as RULES.md describes it, rebuilt from the plays alone, under any R17/R18.

    ``arms`` maps each end's name (R17: ``left``, ``up``, ``6-6 up`` …) to its tiles as (inner,
    outer) pips; ``spinners`` lists each spinner as (its pips, the arm it lies on or None for
    the lead, its index there, the names of its up and down ends).
    """

    spinner_rule: str = "first-double"
    doubles: str = "both-halves"
    lead: tuple[int, int] | None = None
    arms: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()
    spinners: tuple[tuple[tuple[int, int], str | None, int, str, str], ...] = ()

    def tiles_on(self, arm: str) -> tuple[tuple[int, int], ...]:
        return dict(self.arms).get(arm, ())

    def covered(self, spinner: tuple[tuple[int, int], str | None, int, str, str]) -> int:
        """R10: a led spinner needs a tile on each side; one on a line has the line on one."""
        _, arm, index, _, _ = spinner
        if arm is None:
            return bool(self.tiles_on("left")) + bool(self.tiles_on("right"))
        return 1 + (len(self.tiles_on(arm)) > index + 1)

    def ends(self) -> dict[str, int]:
        if self.lead is None:
            return {}
        found = {}
        for arm, lead_half in (("left", self.lead[0]), ("right", self.lead[1])):
            tiles = self.tiles_on(arm)
            found[arm] = tiles[-1][1] if tiles else lead_half
        for spinner in self.spinners:
            if self.covered(spinner) == 2:
                pips, _, _, up, down = spinner
                for branch in (up, down):
                    tiles = self.tiles_on(branch)
                    found[branch] = tiles[-1][1] if tiles else pips[0]
        return found

    def as_double(self, half: int) -> int:
        """R8, R18: what a double counts where it counts as a double."""
        return half if self.doubles == "one-half" else 2 * half

    def count(self) -> int:
        """R11, with R8 and R18 for doubles at the end of an arm, for any number of spinners."""
        if self.lead is None:
            return 0
        lead_double = self.lead[0] == self.lead[1]
        total = 0
        for arm, lead_half in (("left", self.lead[0]), ("right", self.lead[1])):
            tiles = self.tiles_on(arm)
            if tiles:
                inner, outer = tiles[-1]
                total += self.as_double(inner) if inner == outer else outer
            elif not lead_double:
                total += lead_half
        if lead_double and not (self.tiles_on("left") and self.tiles_on("right")):
            total += self.as_double(self.lead[0])
        for _, _, _, up, down in self.spinners:
            for branch in (up, down):
                if self.tiles_on(branch):
                    inner, outer = self.tiles_on(branch)[-1]
                    total += self.as_double(inner) if inner == outer else outer
        return total

    def spins(self, tile: tuple[int, int]) -> bool:
        """R9, R17: whether a double just played is a spinner."""
        if tile[0] != tile[1] or self.spinner_rule == "none":
            return False
        return self.spinner_rule == "every-double" or not self.spinners

    def place(self, tile: Tile, arm: str | None) -> Line:
        if self.lead is None:
            lead = (tile.a, tile.b)
            spinners = ((lead, None, -1, "up", "down"),) if self.spins(lead) else ()
            return replace(self, lead=lead, spinners=spinners)
        assert arm is not None
        pip = self.ends()[arm]
        laid = (pip, tile.b if tile.a == pip else tile.a)
        before = self.tiles_on(arm)
        arms = dict(self.arms)
        arms[arm] = (*before, laid)
        spinners = self.spinners
        if self.spins(laid):
            first = not spinners
            up, down = ("up", "down") if first else (f"{name_of(laid)} up", f"{name_of(laid)} down")
            spinners = (*spinners, (laid, arm, len(before), up, down))
        return replace(self, arms=tuple(arms.items()), spinners=spinners)


def points_of(count: int, fives: bool = False, threes: bool = False) -> int:
    if count <= 0:
        return 0
    if threes:  # R26: a point per five in a multiple of 5, per three in a multiple of 3
        return (count // 5 if count % 5 == 0 else 0) + (count // 3 if count % 3 == 0 else 0)
    if count % 5:
        return 0
    return count // 5 if fives else count


def options_points(options: Options, count: int) -> int:
    return points_of(count, options.points == "fives", options.count == "fives-and-threes")


def get_in_least(options: Options) -> int:
    """R30: what a side's first score must be worth (10 pips, 2 in fives); 1 without get_in."""
    if not options.get_in:
        return 1
    return 2 if options.points == "fives" else 10


def rounded(pips: int, rounding: str) -> int:
    """R13, R22, written apart from the engine."""
    below = pips - pips % 5
    if rounding == "none" or pips % 5 == 0:
        return pips
    if rounding == "up":
        return below + 5
    if rounding == "down":
        return below
    return below if pips % 5 <= 2 else below + 5


def settlement(options: Options, pips: list[int], went_out: int | None) -> list[int]:
    """R13, R13p, R22, R23, R25: what each side's settlement is worth, before R24 and R25."""
    sides = options.side_count
    rnd = options.rounding
    held = [sum(pips[seat] for seat in options.seats_of(side)) for side in range(sides)]
    won = [0] * sides
    if options.settlement == "go-out-bonus":  # R28: one five for going out, nothing else
        if went_out is not None:
            won[options.side_of(went_out)] = 5
    elif options.settlement.value == "subtract-own":
        for seat, amount in enumerate(pips):
            won[options.side_of(seat)] -= rounded(amount, rnd)
    else:

        def paid(amounts: list[int]) -> int:
            if options.rounding_of == "each-hand":
                return sum(rounded(amount, rnd) for amount in amounts)
            return rounded(sum(amounts), rnd)

        if went_out is not None:
            winner = options.side_of(went_out)
            won[winner] = paid([held[side] for side in range(sides) if side != winner])
        elif options.blocked != "nobody":
            low = min(held)
            fewest = [side for side in range(sides) if held[side] == low]
            rest = [held[side] for side in range(sides) if held[side] != low]
            if len(fewest) == 1 and options.blocked == "difference":
                won[fewest[0]] = paid([amount - low for amount in rest])
            elif len(fewest) == 1:
                won[fewest[0]] = paid(rest)
            elif sides == 3 and len(fewest) == 2 and options.blocked == "fewest-takes":
                for side in fewest:
                    won[side] = rounded(rest[0] // 2, rnd)
    if options.points == "fives":
        won = [amount // 5 for amount in won]
    return won


# --- strategies ---------------------------------------------------------------------------------


@st.composite
def game_options(draw: st.DrawFn) -> Options:
    """Any preset, then any combination of the options of R1 and R13–R30 (R25 refuses
    rounding none in fives, R26 threes in pips)."""
    players = draw(st.integers(min_value=2, max_value=4))
    rules = {
        spec.name: draw(st.none() | st.sampled_from(spec.values), label=spec.name)
        for spec in OPTION_SPECS
    }
    preset = draw(st.sampled_from(list(PRESETS)))

    def chosen(name: str) -> object:
        value = rules[name]
        return PRESETS[preset].rules.get(name, "") if value is None else value

    if chosen("count") == "fives-and-threes":
        rules["points"] = "fives"
    if chosen("points") == "fives" and chosen("rounding") == "none":
        rules["rounding"] = "up"
    return Options.make(
        NAMES[:players],
        partnership=players == 4 and draw(st.booleans()),
        preset=preset,
        target=draw(st.sampled_from([None, 12, 30, 60, 120])),
        **rules,
    )


seats = st.none() | st.integers(min_value=0, max_value=4)
any_action = st.one_of(
    st.builds(StartHand, seats, st.booleans()),
    st.builds(
        Play,
        st.sampled_from(DOUBLE_SIX),
        st.none()
        | st.sampled_from(
            [*Arm, *(Arm(way, Tile(n, n)) for way in ("up", "down") for n in (0, 6))]
        ),
        seats,
    ),
    st.builds(Draw, st.integers(min_value=0, max_value=30), seats),
    st.builds(Pass, seats),
    st.just(CallTime()),
    st.dictionaries(
        st.integers(min_value=0, max_value=3),
        st.integers(min_value=-1, max_value=60) | st.lists(st.sampled_from(DOUBLE_SIX), max_size=4),
        max_size=4,
    ).map(EndHand.of),
)


# --- the machine --------------------------------------------------------------------------------


class RandomGames(RuleBasedStateMachine):
    @initialize(options=game_options())
    def new_game(self, options: Options) -> None:
        self.table = Table(options)
        self.empty = Line(options.spinner, options.doubles)
        self.lines = [self.empty]  # the model after each action in effect
        self.ins: list[frozenset[int]] = [frozenset()]  # R30: the sides in, after each action
        self.overtimes: list[tuple[int, ...]] = [()]  # R30: the sides playing on after time

    @property
    def state(self) -> GameState:
        return self.table.state

    def record(
        self,
        line: Line,
        scored: tuple[int, ...] = (),
        overtime: tuple[int, ...] | None = None,
    ) -> None:
        """The model after an action: its layout, the sides that scored (now in), overtime."""
        self.lines.append(line)
        self.ins.append(self.ins[-1] | set(scored))
        self.overtimes.append(self.overtimes[-1] if overtime is None else overtime)
        assert len(self.lines) == len(self.table.actions) + 1

    def counts_for(self, side: int, points: int) -> int:
        """R30: points a side scores, or 0 while it is not in and they are short of it."""
        if points > 0 and side not in self.ins[-1] and points < get_in_least(self.table.options):
            return 0
        return points

    @rule(data=st.data(), moves=st.integers(min_value=1, max_value=12))
    def play_on(self, data: st.DataObject, moves: int) -> None:
        """A few moves of a real table, whatever the game is waiting for."""
        for _ in range(moves):
            self.move(data)

    def move(self, data: st.DataObject) -> None:
        status = self.state.status
        if status is Status.GAME_OVER:
            assert self.table.replayed() == self.state
            self.new_game(self.table.options)
        elif self.table.options.time_limit and data.draw(st.integers(0, 30), label="time") == 0:
            self.call_time()
        elif status is Status.AWAITING_START:
            self.start(data)
        elif status is Status.HAND_OVER:
            self.settle(data)
        else:
            self.play_draw_or_pass(data)

    def start(self, data: st.DataObject) -> None:
        shuffled = data.draw(st.permutations(DOUBLE_SIX), label="shuffled")
        players = self.table.options.player_count
        size = self.table.options.hand_size
        hands = [shuffled[seat * size : (seat + 1) * size] for seat in range(players)]
        leader = self.state.next_leader
        no_double = False
        if leader is None and self.table.options.first_lead == "highest-double":
            # R21: the table names who holds the highest double, or says nobody holds one.
            doubles = [(t.a, seat) for seat, hand in enumerate(hands) for t in hand if t.is_double]
            heaviest = max((t.pips, seat) for seat, hand in enumerate(hands) for t in hand)
            leader = max(doubles)[1] if doubles else heaviest[1]
            no_double = not doubles
        elif leader is None:
            leader = data.draw(st.integers(min_value=0, max_value=players - 1), label="leader")
            assert self.state.hand_number == 0 or self.table.options.next_lead == "went-out"
        elif data.draw(st.booleans(), label="leader implied"):
            leader = None  # R3: the one who went out leads anyway
        self.table.start(hands, shuffled[size * players :], leader, no_double)
        self.record(self.empty)

    def play_draw_or_pass(self, data: st.DataObject) -> None:
        line = self.lines[-1]
        hand = self.table.hands[self.table.turn]
        ends = line.ends()
        legal = []
        must_lead = self.state.hand.lead_double and not ends
        highest = max((t for t in hand if t.is_double), default=None)
        for tile in hand:
            placements = self.state.placements(tile)
            expected = {arm for arm, pip in ends.items() if tile.has(pip)} if ends else {None}
            if must_lead and not tile.is_double:
                expected = set()  # R21: the highest double leads
            found = {None if p.arm is None else p.arm.value for p in placements}
            assert found == expected, f"where {tile} may go (R5, R9, R10, R17)"
            if not must_lead or tile == highest:
                legal += [(tile, p) for p in placements]
        any_time = self.table.options.draw == "any-time" and self.state.can_draw and ends
        if legal and any_time and data.draw(st.integers(0, 4), label="draw anyway") == 0:
            self.table.draw()  # R19: a tile fits, but the player draws
            self.record(line)
        elif legal:
            tile, placement = data.draw(st.sampled_from(legal), label="play")
            arm = named = placement.arm
            if arm is None and data.draw(st.booleans(), label="lead flipped"):
                tile = tile.flipped()
            elif len(self.state.placements(tile)) == 1 and data.draw(st.booleans(), label="no end"):
                named = None  # it fits one end only: the end need not be named
            after = line.place(tile, None if arm is None else arm.value)
            options = self.table.options
            side = options.side_of(self.table.turn)
            score = self.state.scores[side]
            outcome = self.table.play(tile, named)
            points = self.counts_for(side, options_points(options, after.count()))
            assert outcome.points == placement.points or outcome.points == 0
            if options.finish.value == "exact" and score + points > options.goal:
                points = 0  # R25: not scored past the target
            assert (outcome.count, outcome.points) == (after.count(), points)
            overtime = self.overtimes[-1]
            if overtime and points and side in overtime:  # R30: the first of them to score
                assert (self.state.status, self.state.winner) == (Status.GAME_OVER, side)
            elif overtime:
                assert self.state.status is not Status.GAME_OVER
            self.record(after, (side,) if points else ())
        elif self.state.can_draw:
            # R6: draw until a tile fits or the boneyard is empty, one by one or all at once;
            # R20: the reserve is never drawn. The draw is legal, so R7a may not refuse it
            # whatever the record says.
            drawable = self.table.boneyard[: self.state.hand.drawable]
            assert len(drawable) == len(self.table.boneyard) - self.table.options.reserve_size
            fits = [any(tile.has(pip) for pip in ends.values()) for tile in drawable]
            needed = fits.index(True) + 1 if any(fits) else len(fits)
            self.table.draw(needed if data.draw(st.booleans(), label="draw at once") else 1)
            self.record(line)
        else:
            assert self.state.can_pass
            if options_never := self.table.options.draw == "never":
                # R27: nobody draws; the undealt tiles stay face down all hand.
                size = self.table.options.hand_size * self.table.options.player_count
                assert self.state.hand.boneyard == 28 - size and not self.state.can_draw
            outcome = self.table.pass_turn()  # legal, so never refused by R7a
            assert outcome.message.endswith("knocked" if options_never else "passed")
            self.record(line)

    def settle(self, data: st.DataObject) -> None:
        reports: dict[int, Report | int | list[Tile]] = {}
        optional = self.table.options.settlement == "go-out-bonus"  # R28: for the audit only
        for seat, tiles in enumerate(self.table.hands):
            if optional and data.draw(st.booleans(), label="left out"):
                continue
            if tiles:
                as_tiles = data.draw(st.booleans(), label="report tiles")
                reports[seat] = list(tiles) if as_tiles else sum(t.pips for t in tiles)
            elif data.draw(st.booleans(), label="report empty hand"):
                reports[seat] = data.draw(st.sampled_from([0, []]), label="nothing held")
        before = self.state.scores
        went_out = self.state.hand.went_out
        leader = self.state.hand.leader
        # True reports, as tiles or as pips, are possible all together: R14 never refuses them.
        outcome = self.table.apply(EndHand.of(reports))
        result = outcome.result
        pips = [sum(t.pips for t in tiles) for tiles in self.table.hands]
        options = self.table.options
        assert result.pips == tuple(
            pips[seat] if seat in reports or not optional else 0 for seat in range(len(pips))
        )
        for side, (score, won) in enumerate(
            zip(before, settlement(options, pips, went_out), strict=True)
        ):
            won = self.counts_for(side, won)
            if won < 0 and options.floor == "zero":
                won = max(won, -max(score, 0))  # R24: no loss below zero
            if won > 0 and options.finish.value == "exact" and score + won > options.goal:
                won = 0  # R25: not scored past the target
            assert result.settled[side] == won, f"settlement of side {side}"
        assert self.state.scores == tuple(
            b + s for b, s in zip(before, result.settled, strict=True)
        )
        # R3, R29: who leads next: whoever went out, or the next seat when the lead rotates.
        rotated = (leader + 1) % options.player_count
        assert self.state.next_leader == (rotated if options.next_lead == "rotates" else went_out)
        scored = tuple(side for side, won in enumerate(result.settled) if won > 0)
        overtime = self.overtimes[-1]
        if overtime and not any(side in overtime for side in scored):
            assert self.state.status is not Status.GAME_OVER
        self.record(self.lines[-1], scored)

    def call_time(self) -> None:
        """R30: time called: the highest side wins, or those tied at the top play on."""
        state = self.state
        started = state.hand is not None and (state.hand_number > 1 or state.hand.layout.lead)
        if state.time_called or not started:
            return
        self.table.apply(CallTime())
        top = max(state.scores)
        leaders = tuple(side for side, score in enumerate(state.scores) if score == top)
        if len(leaders) == 1:
            assert (self.state.status, self.state.winners) == (Status.GAME_OVER, leaders)
        else:
            assert self.state.status is state.status and self.state.overtime == leaders
        self.record(self.lines[-1], (), leaders)

    @precondition(lambda self: self.state.can_undo)
    @rule()
    def undo(self) -> None:
        self.table.undo()
        self.lines.pop()
        self.ins.pop()
        self.overtimes.pop()

    @rule(action=any_action)
    def anything(self, action) -> None:
        """Refused without a trace, or accepted and then undone exactly."""
        state = self.state
        seen = repr(state)
        try:
            state.apply(action)
        except RuleError as refused:
            assert refused.message and refused.code
            assert repr(state) == seen
            if refused.rule == "R7a":
                self.really_illegal(action, refused)
        else:
            assert self.undone(action) == state

    def really_illegal(self, action: Draw | Pass, refused: RuleError) -> None:
        """R7a refuses only what the real hands prove wrong: the player holds a tile that fits,
        or a draw of several would meet one before its last tile (the real boneyard's order)."""
        assert isinstance(refused, RecordContradiction) and refused.confirmable
        layout = self.state.hand.layout
        held = self.table.hands[self.table.turn]
        drawn = self.table.boneyard[: action.count - 1] if isinstance(action, Draw) else []
        assert any(layout.fits(tile) for tile in [*held, *drawn]), refused.message
        confirmed = replace(action, confirm=True)
        self.state.apply(confirmed)  # the table may insist
        assert self.undone(confirmed) == self.state

    def undone(self, action) -> GameState:
        """The state after ``action`` and an undo of it."""
        after, _ = self.table.book.apply(action)
        log = [*self.table.actions, action]
        rebuild = lambda undo: Scorebook.replay(self.table.options, [*log, *undo])  # noqa: E731
        return after.apply(Undo(), rebuild)[0].state

    # --- after every step --------------------------------------------------------------------

    @invariant()
    def tiles_are_accounted_for(self) -> None:
        hand = self.state.hand
        if hand is None:
            return
        on_table = hand.layout.tiles
        assert len(set(on_table)) == len(on_table)
        assert sorted([*on_table, *hand.unplayed]) == sorted(DOUBLE_SIX)
        assert sum(hand.held) + hand.boneyard == len(hand.unplayed) == 28 - len(on_table)
        assert hand.held == tuple(len(tiles) for tiles in self.table.hands)
        assert hand.boneyard == len(self.table.boneyard)
        real = [*self.table.boneyard, *(tile for tiles in self.table.hands for tile in tiles)]
        assert sorted(real) == sorted(hand.unplayed)

    @invariant()
    def the_count_is_the_sum_of_the_open_ends(self) -> None:
        hand = self.state.hand
        if hand is None:
            return
        layout, line = hand.layout, self.lines[-1]
        assert layout.count == sum(term.value for term in layout.end_values) == line.count()
        assert {arm.value: pip for arm, pip in layout.open_ends.items()} == line.ends()
        assert layout.breakdown.endswith(f"= {layout.count}") or layout.lead is None

    @invariant()
    def points_come_from_multiples_of_five(self) -> None:
        hand = self.state.hand
        if hand is None:
            return
        options = self.table.options
        exact = options.finish.value == "exact"
        for move in hand.moves:
            expected = options_points(options, move.count) if move.kind == "play" else 0
            short = options.get_in and expected < get_in_least(options)
            assert move.points == expected or ((exact or short) and move.points == 0)

    @invariant()
    def the_scores_add_up(self) -> None:
        state, options = self.state, self.table.options
        expected = [0] * options.side_count
        for result in state.results:
            for side in range(options.side_count):
                expected[side] += result.scored[side] + result.settled[side]
        hand = state.hand
        if hand is not None and (not state.results or state.results[-1].number != hand.number):
            for seat, points in enumerate(hand.scored()):
                expected[options.side_of(seat)] += points
        assert state.scores == tuple(expected)
        if state.status is Status.GAME_OVER and state.time_called:
            # R30: time called: the winner was alone at the top then, or scored first after.
            assert state.winners == (state.winner,)
            assert state.winner in self.overtimes[-1]
        elif state.status is Status.GAME_OVER and options.finish.value == "exact":
            # R25: the winners reached the target exactly; nobody passed it.
            assert [state.scores[side] for side in state.winners] == [options.goal] * len(
                state.winners
            )
            assert max(state.scores) == options.goal
        elif state.status is Status.GAME_OVER:  # R16: the winner reached the target, alone on top
            top = state.scores[state.winner]
            assert top >= options.goal
            assert [score for score in state.scores if score >= top] == [top]

    @invariant()
    def only_the_player_to_move_moves(self) -> None:
        state = self.state
        assert (state.turn is not None) is (state.status is Status.PLAYING)

    def teardown(self) -> None:
        if hasattr(self, "table"):
            assert self.table.replayed() == self.state


# A game of 80 steps reaches the end of a hand or two and the undos across them; each example
# is a whole game, so 60% of the profile's examples. So long a game may draw more data than
# Hypothesis likes (each step picks a rule and its tiles): that check is for this test alone.
RandomGames.TestCase.settings = settings(
    max_examples=examples(0.6),
    stateful_step_count=80,
    suppress_health_check=[*settings.default.suppress_health_check, HealthCheck.data_too_large],
)
TestRandomGames = RandomGames.TestCase
