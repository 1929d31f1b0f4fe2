"""Random games at a real table, checked after every step (DESIGN: a Hypothesis state machine).

Hypothesis deals real tiles and picks, at each step, one of the moves a real table could make:
a legal play from the hand of the player to move (found with ``state.placements``), a draw when
nothing in that hand fits, a pass when the boneyard is empty too, true reports at the end of a
hand. It also undoes now and then and throws arbitrary actions at the engine. After every step:

- the 28 tiles are all accounted for, and the engine's counts match the real hands;
- the layout and its count match the test's own model of RULES.md R8–R11 (``Line`` below);
- points come only from a count that is a positive multiple of five, and the scores add up;
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

from webapp.rules import (
    DOUBLE_SIX,
    Arm,
    Deal,
    Draw,
    EndHand,
    Finish,
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

NAMES = ["Ana", "Ben", "Cy", "Di"]
LEFT, RIGHT, UP, DOWN = Arm.LEFT, Arm.RIGHT, Arm.UP, Arm.DOWN


# --- the test's own model of the layout ----------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """The layout as RULES.md describes it, rebuilt from the plays alone.

    ``arms`` holds each arm's tiles as (inner, outer) pips; ``spinner`` is where the first
    double played lies: ``(None, 0)`` for the lead, else ``(arm, index)``.
    """

    lead: tuple[int, int] | None = None
    arms: tuple[tuple[tuple[int, int], ...], ...] = ((), (), (), ())
    spinner: tuple[Arm | None, int] | None = None

    def tiles_on(self, arm: Arm) -> tuple[tuple[int, int], ...]:
        return self.arms[list(Arm).index(arm)]

    def sides_covered(self) -> int:
        """R10: a led spinner needs a tile on each side; one on a line has the line on one."""
        if self.spinner is None:
            return 0
        arm, index = self.spinner
        if arm is None:
            return bool(self.tiles_on(LEFT)) + bool(self.tiles_on(RIGHT))
        return 1 + (len(self.tiles_on(arm)) > index + 1)

    def ends(self) -> dict[Arm, int]:
        if self.lead is None:
            return {}
        found = {}
        for arm, lead_half in ((LEFT, self.lead[0]), (RIGHT, self.lead[1])):
            tiles = self.tiles_on(arm)
            found[arm] = tiles[-1][1] if tiles else lead_half
        if self.spinner is not None and self.sides_covered() == 2:
            arm, index = self.spinner
            spinner_pip = self.lead[0] if arm is None else self.tiles_on(arm)[index][0]
            for branch in (UP, DOWN):
                tiles = self.tiles_on(branch)
                found[branch] = tiles[-1][1] if tiles else spinner_pip
        return found

    def count(self) -> int:
        """R11, with R8 for doubles at the end of an arm."""
        if self.lead is None:
            return 0
        led_spinner = self.spinner == (None, 0)
        total = 0
        for arm, lead_half in ((LEFT, self.lead[0]), (RIGHT, self.lead[1])):
            tiles = self.tiles_on(arm)
            if tiles:
                inner, outer = tiles[-1]
                total += inner + outer if inner == outer else outer
            elif not led_spinner:
                total += lead_half
        if led_spinner and self.sides_covered() <= 1:
            total += sum(self.lead)
        for branch in (UP, DOWN):
            if self.tiles_on(branch):
                inner, outer = self.tiles_on(branch)[-1]
                total += inner + outer if inner == outer else outer
        return total

    def place(self, tile: Tile, arm: Arm | None) -> Line:
        if self.lead is None:
            return Line((tile.a, tile.b), spinner=(None, 0) if tile.is_double else None)
        assert arm is not None
        pip = self.ends()[arm]
        laid = (pip, tile.b if tile.a == pip else tile.a)
        index = list(Arm).index(arm)
        arms = tuple((*tiles, laid) if i == index else tiles for i, tiles in enumerate(self.arms))
        spinner = self.spinner
        if spinner is None and tile.is_double:
            spinner = (arm, len(self.tiles_on(arm)))
        return replace(self, arms=arms, spinner=spinner)


def points_of(count: int) -> int:
    return count if count > 0 and count % 5 == 0 else 0


# --- strategies ---------------------------------------------------------------------------------


@st.composite
def game_options(draw: st.DrawFn) -> Options:
    players = draw(st.integers(min_value=2, max_value=4))
    return Options.make(
        NAMES[:players],
        partnership=players == 4 and draw(st.booleans()),
        preset=draw(st.sampled_from(["seed", "pagat"])),
        deal=draw(st.sampled_from([deal.value for deal in Deal])),
        finish=draw(st.sampled_from([finish.value for finish in Finish])),
        target=draw(st.sampled_from([None, 30, 60, 120])),
    )


seats = st.none() | st.integers(min_value=0, max_value=4)
any_action = st.one_of(
    st.builds(StartHand, seats),
    st.builds(Play, st.sampled_from(DOUBLE_SIX), st.none() | st.sampled_from(Arm), seats),
    st.builds(Draw, st.integers(min_value=0, max_value=30), seats),
    st.builds(Pass, seats),
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
        self.lines = [Line()]  # the model after each action in effect

    @property
    def state(self) -> GameState:
        return self.table.state

    def record(self, line: Line) -> None:
        self.lines.append(line)
        assert len(self.lines) == len(self.table.actions) + 1

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
        if leader is None:
            leader = data.draw(st.integers(min_value=0, max_value=players - 1), label="leader")
        elif data.draw(st.booleans(), label="leader implied"):
            leader = None  # R3: the one who went out leads anyway
        self.table.start(hands, shuffled[size * players :], leader)
        self.record(Line())

    def play_draw_or_pass(self, data: st.DataObject) -> None:
        line = self.lines[-1]
        hand = self.table.hands[self.table.turn]
        ends = line.ends()
        legal = []
        for tile in hand:
            placements = self.state.placements(tile)
            expected = {arm for arm, pip in ends.items() if tile.has(pip)} if ends else {None}
            assert {p.arm for p in placements} == expected, f"where {tile} may go (R5, R9, R10)"
            legal += [(tile, p) for p in placements]
        if legal:
            tile, placement = data.draw(st.sampled_from(legal), label="play")
            arm = named = placement.arm
            if arm is None and data.draw(st.booleans(), label="lead flipped"):
                tile = tile.flipped()
            elif len(self.state.placements(tile)) == 1 and data.draw(st.booleans(), label="no end"):
                named = None  # it fits one end only: the end need not be named
            after = line.place(tile, arm)
            outcome = self.table.play(tile, named)
            assert (outcome.count, outcome.points) == (after.count(), points_of(after.count()))
            assert outcome.points == placement.points
            self.record(after)
        elif self.state.can_draw:
            # R6: draw until a tile fits or the boneyard is empty, one by one or all at once.
            # The draw is legal, so R7a may not refuse it whatever the record says.
            fits = [any(tile.has(pip) for pip in ends.values()) for tile in self.table.boneyard]
            needed = fits.index(True) + 1 if any(fits) else len(fits)
            self.table.draw(needed if data.draw(st.booleans(), label="draw at once") else 1)
            self.record(line)
        else:
            assert self.state.can_pass
            self.table.pass_turn()  # legal, so never refused by R7a
            self.record(line)

    def settle(self, data: st.DataObject) -> None:
        reports: dict[int, Report | int | list[Tile]] = {}
        for seat, tiles in enumerate(self.table.hands):
            if tiles:
                as_tiles = data.draw(st.booleans(), label="report tiles")
                reports[seat] = list(tiles) if as_tiles else sum(t.pips for t in tiles)
            elif data.draw(st.booleans(), label="report empty hand"):
                reports[seat] = data.draw(st.sampled_from([0, []]), label="nothing held")
        before = self.state.scores
        # True reports, as tiles or as pips, are possible all together: R14 never refuses them.
        outcome = self.table.apply(EndHand.of(reports))
        result = outcome.result
        assert result.pips == tuple(sum(t.pips for t in tiles) for tiles in self.table.hands)
        assert self.state.scores == tuple(
            b + s for b, s in zip(before, result.settled, strict=True)
        )
        self.record(self.lines[-1])

    @precondition(lambda self: self.state.can_undo)
    @rule()
    def undo(self) -> None:
        self.table.undo()
        self.lines.pop()

    @rule(action=any_action)
    def anything(self, action) -> None:
        """Refused without a trace, or accepted and then undone exactly."""
        state = self.state
        seen = repr(state)
        try:
            after, _ = state.apply(action)
        except RuleError as refused:
            assert refused.message and refused.code
            assert repr(state) == seen
            if refused.rule == "R7a":
                self.really_illegal(action, refused)
        else:
            assert after.apply(Undo())[0] == state

    def really_illegal(self, action: Draw | Pass, refused: RuleError) -> None:
        """R7a refuses only what the real hands prove wrong: the player holds a tile that fits,
        or a draw of several would meet one before its last tile (the real boneyard's order)."""
        assert isinstance(refused, RecordContradiction) and refused.confirmable
        layout = self.state.hand.layout
        held = self.table.hands[self.table.turn]
        drawn = self.table.boneyard[: action.count - 1] if isinstance(action, Draw) else []
        assert any(layout.fits(tile) for tile in [*held, *drawn]), refused.message
        confirmed = replace(action, confirm=True)
        after, _ = self.state.apply(confirmed)  # the table may insist
        assert after.apply(Undo())[0] == self.state

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
        assert layout.open_ends == line.ends()
        assert layout.breakdown.endswith(f"= {layout.count}") or layout.lead is None

    @invariant()
    def points_come_from_multiples_of_five(self) -> None:
        hand = self.state.hand
        if hand is None:
            return
        for move in hand.moves:
            assert move.points == (points_of(move.count) if move.kind == "play" else 0)

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
        if state.status is Status.GAME_OVER:  # R16: the winner reached the target, alone on top
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


RandomGames.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestRandomGames = RandomGames.TestCase
