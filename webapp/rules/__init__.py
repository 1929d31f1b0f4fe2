"""The rules of All Fives as RULES.md states them: standard library only.

>>> from webapp.rules import GameState, Options, StartHand, Play, Tile, Arm
>>> game = GameState.new(Options.make(["Ana", "Ben"]))
>>> game, _ = game.apply(StartHand(leader=1))
>>> game, outcome = game.apply(Play(Tile.parse("5-5")))
>>> outcome.points, game.hand.layout.breakdown
(10, '[5|5] 10 = 10')
"""

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
    from_dict,
    recorded,
    same_entry,
    to_dict,
)
from .errors import (
    BadOptions,
    IllegalAction,
    ImpossibleReport,
    NotationError,
    RecordContradiction,
    RuleError,
)
from .game import GameState, Outcome
from .hand import Hand, HandEnd, Move, MoveKind
from .house_rules import (
    Blocked,
    Deal,
    Doubles,
    Draws,
    Finish,
    FirstLead,
    Floor,
    Points,
    Rounding,
    RoundingOf,
    Settlement,
    Spinners,
)
from .layout import Arm, EndValue, Layout, Placement, points_for
from .numbers import whole_number
from .options import PRESETS, Options
from .progress import HandResult, Status
from .scorebook import Scorebook
from .settlement import Report, check_reports, deduced_pips, round_to_five
from .symmetry import distinct_placements
from .tiles import DOUBLE_SIX, TOTAL_PIPS, Tile

__all__ = [
    "DOUBLE_SIX",
    "PRESETS",
    "TOTAL_PIPS",
    "Action",
    "ActionKind",
    "Arm",
    "BadOptions",
    "Blocked",
    "CallTime",
    "Correct",
    "Deal",
    "Doubles",
    "Draw",
    "Draws",
    "EndGame",
    "EndHand",
    "EndValue",
    "Finish",
    "FirstLead",
    "Floor",
    "GameState",
    "Hand",
    "HandEnd",
    "HandResult",
    "IllegalAction",
    "ImpossibleReport",
    "Layout",
    "Move",
    "MoveKind",
    "NotationError",
    "Options",
    "Outcome",
    "Pass",
    "Placement",
    "Play",
    "Points",
    "RecordContradiction",
    "Rename",
    "Report",
    "Rounding",
    "RoundingOf",
    "RuleError",
    "Scorebook",
    "Settlement",
    "Spinners",
    "StartHand",
    "Status",
    "Tile",
    "Undo",
    "check_reports",
    "deduced_pips",
    "distinct_placements",
    "from_dict",
    "points_for",
    "recorded",
    "round_to_five",
    "same_entry",
    "to_dict",
    "whole_number",
]
