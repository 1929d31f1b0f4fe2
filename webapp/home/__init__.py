"""The home page (this device's games), the new-game form, and the installable app's shell."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from flask import Blueprint, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ..i18n.words import format_timedelta, gettext, say
from ..rules import BadOptions, RuleError, Status
from ..rules.options import OPTION_SPECS, TARGET_SENTENCE
from ..store import CircleRefused, Snapshot
from ..ui.forms import RulesForm, preset_choices, rule_fields
from ..web.game import create_game, recent_circles, recent_games, store
from ..web.limits import creating

bp = Blueprint("home", __name__)

DEFAULT_NAME_FIELDS = 3
MOST_PLAYERS = 4
FEWEST_PLAYERS = 2


@dataclass(frozen=True, slots=True)
class SideSummary:
    name: str
    score: int
    won: bool


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game in this device's list: its sides' scores, how far it is, when it last changed."""

    id: str
    sides: tuple[SideSummary, ...]
    status: str
    finished: bool
    when: str

    @classmethod
    def of(cls, snapshot: Snapshot) -> GameSummary:
        state = snapshot.state
        options = state.options
        sides = tuple(
            SideSummary(options.side_name(side), score, side in state.winners)
            for side, score in enumerate(state.scores)
        )
        finished = state.status is Status.GAME_OVER
        if finished:
            status = gettext("Finished")
        elif state.hand_number == 0:
            status = gettext("Not started")
        elif state.status is Status.AWAITING_START:
            status = gettext("Hand %(number)s next", number=state.hand_number + 1)
        elif state.status is Status.HAND_OVER:
            status = gettext("Hand %(number)s to settle", number=state.hand_number)
        else:
            status = gettext("Hand %(number)s", number=state.hand_number)
        return cls(snapshot.id, sides, status, finished, ago(snapshot.updated_at))


def ago(when: datetime) -> str:
    """How long ago, as the reader's language says it ("5 minutes ago")."""
    since = datetime.now(UTC).replace(tzinfo=None) - when
    if since.total_seconds() < 60:
        return gettext("just now")
    return format_timedelta(-since)


@dataclass(frozen=True, slots=True)
class NewGameForm:
    """The new-game form as typed: the names in seat order, partnership, and the rules."""

    names: tuple[str, ...]
    partnership: bool
    rules: RulesForm
    circle: str  # the circle's id the game is started in ("" for none)
    circle_name: str

    @classmethod
    def read(cls) -> NewGameForm:
        """The form as posted (or empty, for a GET); ``resize`` adds or removes a name field."""
        source = request.form
        names = [str(name)[:40] for name in source.getlist("name")]
        count = len(names) or DEFAULT_NAME_FIELDS
        resize = source.get("resize")
        if resize == "add":
            count = min(MOST_PLAYERS, count + 1)
        elif resize == "remove":
            count = max(FEWEST_PLAYERS, count - 1)
        circle = str(source.get("circle") or request.args.get("circle", ""))[:40]
        found = store().circles.many([circle]) if circle else []
        return cls(
            circle=found[0].id if found else circle,
            circle_name=found[0].name if found else "",
            names=tuple((names + [""] * count)[:count]),
            partnership=bool(source.get("partnership", "")),  # offered with four names (R2)
            rules=RulesForm.read(lambda name: source.get(name, ""), OPTION_SPECS),
        )


@dataclass(frozen=True, slots=True)
class CircleLink:
    url: str
    name: str


@bp.get("/")
def home() -> ResponseReturnValue:
    games = tuple(GameSummary.of(snapshot) for snapshot in recent_games())
    circles = tuple(
        CircleLink(url_for("circles.page", circle_id=c.id), c.name) for c in recent_circles()
    )
    return render_template("home/home.html", games=games, circles=circles)


@bp.get("/new")
def new_game() -> ResponseReturnValue:
    return _new_page(NewGameForm.read())


@bp.post("/new")
@creating
def create() -> ResponseReturnValue:
    form = NewGameForm.read()
    if request.form.get("resize") in ("add", "remove"):
        return _new_page(form)
    players = [name for name in form.names if name.strip()]
    try:
        snapshot = create_game(players, form.partnership, form.rules.rules, form.circle or None)
    except (BadOptions, CircleRefused) as refusal:
        return _new_page(form, refusal)
    return redirect(url_for("game.screen", game_id=snapshot.id), 303)


def _new_page(form: NewGameForm, refusal: RuleError | None = None) -> ResponseReturnValue:
    """The new-game form: presets by what they do, every house rule from the one table."""
    page = render_template(
        "home/new.html",
        form=form,
        presets=preset_choices(),
        specs=rule_fields(OPTION_SPECS),
        target_sentence=say(TARGET_SENTENCE),
        error=say(refusal.message) if refusal else None,
        rule=refusal.rule if refusal else None,
    )
    return (page, 422) if refusal else page
