"""A whole hand entered with the keyboard alone, as a blind scorer enters it: a tile is its two
numbers typed ("6", "4"), an end its number in the end choice, d / p / u are Draw, Pass and
Undo, o / s / n say the open ends, the scores and what each side needs. Every result is read
from the one live region (the same node all hand long), and the focus is checked after each
kind of action. The keys each play took are printed: the budget is a median of 4 or fewer.

Speech, as this phone's choice (⚙): the browser's speech synthesis is stubbed in the page, so
what it would say is read back."""

from __future__ import annotations

import contextlib
import random
import re
import statistics
from typing import TYPE_CHECKING

import pytest

from tests.browser.phone import (
    _NOTE_SHOWN,
    ANSWER,
    _after_the_guard,
    answer_to,
    at_revision,
    revision,
    shown,
    status,
    tile,
    work,
)
from tests.browser.test_access import before_fifteen, mark_live_region, same_live_region
from tests.scripts import DOUBLE_SIX
from webapp.rules import Draw, GameState, Options, Pass, Play, StartHand

with contextlib.suppress(ImportError):  # the ``browser`` fixture skips (or fails under CI)
    from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.browser.phone import Console
    from tests.tables import HttpApi

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cy"]
TILE = "#work form.tiles button[name=tile]"  # the focus on a tile of the picker


def real_hand(seed: int) -> tuple[list[tuple[str, ...]], dict[str, int]]:
    """A hand of three players dealt 7 tiles each (R1) at random with ``seed``, each playing the
    first tile in hand that fits on the first end it fits, drawing when none fits (R6) and
    passing once the boneyard is empty (R7): each move ("play", tile, end), ("draw",) or
    ("pass",), and the pips each player still holds at the end."""
    rng = random.Random(seed)
    state = GameState.new(Options.make(PLAYERS)).apply(StartHand(0))[0]
    tiles = list(DOUBLE_SIX)
    rng.shuffle(tiles)
    size = state.options.hand_size
    hands = [tiles[i * size : (i + 1) * size] for i in range(len(PLAYERS))]
    boneyard = tiles[len(PLAYERS) * size :]
    moves: list[tuple[str, ...]] = []
    while state.turn is not None:
        hand = hands[state.turn]
        playable = [(t, state.placements(t)) for t in hand if state.placements(t)]
        if playable:
            played, places = playable[0]
            hand.remove(played)
            arm = places[0].arm
            moves.append(("play", str(played), arm.value if arm else ""))
            state = state.apply(Play(played, arm))[0]
        elif boneyard:
            hand.append(boneyard.pop())
            moves.append(("draw",))
            state = state.apply(Draw(1))[0]
        else:
            moves.append(("pass",))
            state = state.apply(Pass())[0]
    pips = {PLAYERS[seat]: sum(t.pips for t in hand) for seat, hand in enumerate(hands) if hand}
    return moves, pips


# Seed 52: Ana goes out with her seventh tile after 26 moves; Cy draws all 7 of the boneyard
# (R6) and later passes (R7); several tiles fit more than one end.
MOVES, LEFT = real_hand(52)


def focus_is(page: Page, selector: str, what: str) -> None:
    """The focus is on an element matching ``selector`` once the answer has settled, never on
    <body>."""
    page.wait_for_function(
        "s => document.activeElement && document.activeElement.matches(s)",
        arg=selector,
        timeout=ANSWER,
    )
    assert page.evaluate("document.activeElement !== document.body"), what


def keys(page: Page, *pressed: str) -> int:
    for key in pressed:
        page.keyboard.press(key)
    return len(pressed)


def said(page: Page) -> str:
    return " ".join(status(page).inner_text().split())


def test_a_whole_hand_with_the_keyboard_alone(
    phone: tuple[Page, Console], api: HttpApi, live_server: str
) -> None:
    page, console = phone
    kinds = [move[0] for move in MOVES]
    assert "draw" in kinds and "pass" in kinds, "the hand no longer shows every kind of action"
    game = api.new_game(PLAYERS)
    api.act(game, "start_hand", starter="Ana")
    page.goto(f"{live_server}/g/{game}")
    mark_live_region(page)
    picker = page.get_by_role("region", name="Tiles")

    # Into the game from the top of the page: Tab until a tile has the focus (one tab stop for
    # the 28 tiles: the arrows move among them).
    tabs = 0
    while not page.evaluate(f"document.activeElement.matches({TILE!r})"):
        tabs += keys(page, "Tab")
        assert tabs < 12, "the tiles are more than 11 Tabs from the top"
    print(f"\nTabs from the top of the page to the tiles: {tabs}")
    keys(page, "ArrowRight", "ArrowLeft")  # the arrows move among the tiles, and back
    focus_is(page, TILE, "the arrows lost the focus")

    per_play: list[int] = []
    choices = 0
    for index, move in enumerate(MOVES):
        seq = revision(page)
        if move[0] == "draw":
            keys(page, "d")
            at_revision(page, seq + 1)
            shown(status(page)).to_contain_text("drew")
            focus_is(page, TILE, "after a draw the focus is not on a tile")
            same_live_region(page)
            continue
        if move[0] == "pass":
            keys(page, "p")
            at_revision(page, seq + 1)
            shown(status(page)).to_contain_text("passed")
            focus_is(page, TILE, "after a pass the focus is not on a tile")
            same_live_region(page)
            continue
        _, name, end = move
        high, low = name.split("-")
        if index == 1:  # a refusal first (R5): a tile that fits no open end; the focus stays
            wrong = next(t for t in ("1-0", "4-0", "5-0", "1-1") if t not in name)
            with answer_to(page, "/play"):
                keys(page, *wrong.split("-"))
            shown(status(page)).to_contain_text("Not allowed")
            expect(tile(page, wrong)).to_be_focused()
            same_live_region(page)
            console.refusals = 0
        page.evaluate(_NOTE_SHOWN)
        pressed = keys(page, low, high)  # either order
        choice = picker.locator(".choice")
        page.wait_for_function(
            "seq => +document.getElementById('live').dataset.seq > seq"
            " || document.querySelector('#work .choice')",
            arg=seq,
            timeout=ANSWER,
        )
        if choice.count():  # it fits several ends: the question, said; the focus on its answers
            choices += 1
            shown(status(page)).to_contain_text(re.compile(rf"Where does\s+{name}\s+go\?"))
            focus_is(page, "#work .choice-button", "the end choice does not have the focus")
            same_live_region(page)
            buttons = choice.locator(".choice-button")
            ends = [buttons.nth(i).get_attribute("value") for i in range(buttons.count())]
            _after_the_guard(page)  # one reads the question first
            pressed += keys(page, str(ends.index(end) + 1))
        at_revision(page, seq + 1)
        per_play.append(pressed)
        text = said(page)
        assert f"played {name}" in text or f"led {name}" in text, text
        assert re.search(r"\d", text.split(name, 1)[1]), f"no count or points said: {text}"
        same_live_region(page)
        if index == len(MOVES) - 1:
            break
        assert re.search(r"(Ana|Ben|Cy) to play", text), f"who plays next is not said: {text}"
        focus_is(page, TILE, "after a play the focus is not on a tile")
        if index == 2:  # Undo, then the same play again
            seq = revision(page)
            keys(page, "u")
            at_revision(page, seq + 1)
            shown(status(page)).to_contain_text(name)
            focus_is(page, TILE, "after Undo the focus is not on a tile")
            seq = revision(page)
            keys(page, low, high)
            if choice.count():
                _after_the_guard(page)
                buttons = choice.locator(".choice-button")
                values = [buttons.nth(i).get_attribute("value") for i in range(buttons.count())]
                keys(page, str(values.index(end) + 1))
            at_revision(page, seq + 1)
        if index == 4:  # said on demand: the open ends, the scores, what each needs
            keys(page, "o")
            shown(status(page)).to_contain_text("Open ends:")
            keys(page, "s")
            shown(status(page)).to_contain_text("Scores: Ana")
            keys(page, "n")
            shown(status(page)).to_contain_text("To reach 200:")
            same_live_region(page)

    # Ana went out (R12): the settlement's first pips field has the focus.
    settle = work(page)
    shown(status(page)).to_contain_text("Ana went out!")
    focus_is(page, "#work input", "the settlement's field does not have the focus")
    same_live_region(page)
    # Ben's pips typed; Cy's, the last, follow from them with the boneyard empty (R14).
    first = next(iter(LEFT))
    with answer_to(page, "/settle/preview"):
        page.keyboard.type(str(LEFT[first]))
    seq = revision(page)
    keys(page, "Enter")
    at_revision(page, seq + 1)
    shown(status(page)).to_contain_text("Hand 1 settled")
    start = settle.get_by_role("button", name=re.compile("Start hand 2"))
    expect(start).to_be_focused()
    same_live_region(page)
    seq = revision(page)
    keys(page, "Enter")
    at_revision(page, seq + 1)
    focus_is(page, TILE, "in the next hand the focus is not on a tile")
    same_live_region(page)

    median = statistics.median(per_play)
    print(
        f"Keys per play over {len(per_play)} plays ({choices} end choices): {per_play}; "
        f"median {median}, most {max(per_play)}"
    )
    assert median <= 4, f"a play takes a median of {median} keys"


def test_keys_typed_while_an_answer_settles_are_not_lost(
    phone: tuple[Page, Console], api: HttpApi, live_server: str
) -> None:
    """A quick scorer types the next tile while the last one's answer is still being put on the
    screen (its played tile, which had the focus, already swapped out; the focus not yet handed
    on): the keys still play it. htmx's settling is slowed here so the gap is wide enough to
    type into every time."""
    page, _ = phone
    game = api.new_game(PLAYERS)
    api.act(game, "start_hand", starter="Ana")
    page.goto(f"{live_server}/g/{game}")
    page.evaluate("htmx.config.defaultSettleDelay = 600")
    into_game(page)
    seq = revision(page)
    keys(page, "6", "4")
    at_revision(page, seq + 1)  # the answer is on the page, still settling
    assert page.evaluate("document.activeElement === document.body"), "no gap to type into"
    keys(page, "4", "3")
    at_revision(page, seq + 2)
    shown(status(page)).to_contain_text("played 4-3")
    focus_is(page, TILE, "after the second play the focus is not on a tile")


SPEECH_STUB = """
window.__spoken = [];
window.__voices = window.__voices || [{lang: "en-GB", name: "Test", localService: true}];
const synth = {
  getVoices: () => window.__voices,
  speak: (utterance) => window.__spoken.push({text: utterance.text, lang: utterance.lang}),
  cancel: () => {},
  addEventListener: () => {},
};
Object.defineProperty(window, "speechSynthesis", {value: synth, configurable: true});
window.SpeechSynthesisUtterance = function (text) { this.text = text; this.lang = ""; };
"""


def into_game(page: Page) -> None:
    """The focus on the picker's first tile that can be played, where the keys work."""
    page.locator("#work button[name=tile]:not([disabled])").first.focus()


def settings(page: Page) -> None:
    page.locator("details.device > summary").click()  # ⚙, in any language


def test_results_are_spoken_in_the_page_language_as_this_phone_chooses(
    phone: tuple[Page, Console], api: HttpApi, live_server: str
) -> None:
    """Speak results on: Ben's 5-3 up makes 15 (R11) and the voice says so, with the scores,
    in English. Short: the points, the tile and its end, who is next; not the sum nor the scores
    (the live region hides them from the ear). Without a voice for the page's language (Hausa),
    nothing is said and ⚙ says why."""
    page, _ = phone
    page.add_init_script(SPEECH_STUB)
    game = before_fifteen(page, api, live_server)
    settings(page)
    speak = page.get_by_role("button", name="Speak results")
    expect(speak).to_have_attribute("aria-pressed", "false")
    speak.click()
    expect(speak).to_have_attribute("aria-pressed", "true")
    shown(page.locator("[data-speak-note]")).to_have_text(
        "Each result and the scores are said aloud."
    )
    settings(page)  # closed again
    seq = revision(page)
    tile(page, "5-3").focus()  # the keys work while the focus is in the game
    keys(page, "5", "3")
    at_revision(page, seq + 1)
    page.wait_for_function("window.__spoken.length > 0")
    spoken = page.evaluate("window.__spoken.at(-1)")
    assert spoken["lang"] == "en-GB"
    for words in ("Ben scores 15", "Ben played 5-3", "Ana to play", "Scores: Ana 0, Ben 15"):
        assert words in spoken["text"], spoken["text"]
    keys(page, "s")  # said on demand is spoken too
    page.wait_for_function("window.__spoken.at(-1).text.startsWith('Scores:')")

    settings(page)
    page.get_by_role("button", name="Short: points, tile, who is next").click()
    settings(page)
    seq = revision(page)
    into_game(page)
    keys(page, "u")
    at_revision(page, seq + 1)
    focus_is(page, TILE, "after Undo the focus is not on a tile")
    keys(page, "3", "5")
    at_revision(page, seq + 2)
    page.wait_for_function("window.__spoken.at(-1).text.startsWith('Ben scores 15')")
    spoken = page.evaluate("window.__spoken.at(-1).text")
    assert "5-3 up" in spoken and "Ana to play" in spoken, spoken
    assert "played" not in spoken and "Scores" not in spoken, spoken
    shown(status(page)).to_contain_text("Ben played 5-3 on the up end")  # still to the eye
    hidden = page.locator("#notice [data-long]")
    assert hidden.count() >= 2
    for i in range(hidden.count()):
        expect(hidden.nth(i)).to_have_attribute("aria-hidden", "true")

    page.goto(f"{live_server}/language/ha?next=/g/{game}")
    settings(page)
    note = page.locator("[data-speak-note]")
    shown(note).to_contain_text("Hausa")
    before = page.evaluate("window.__spoken.length")
    seq = revision(page)
    into_game(page)
    keys(page, "u")
    at_revision(page, seq + 1)
    page.wait_for_timeout(300)
    assert page.evaluate("window.__spoken.length") == before, "spoken with another language's voice"


def test_the_keys_are_turned_off_and_on_in_this_phones_settings(
    phone: tuple[Page, Console], api: HttpApi, live_server: str
) -> None:
    """Off (⚙, kept on this phone): typing a tile's numbers, d and ? do nothing, and each tile
    is a tab stop of its own; on again, "5" "3" plays 5-3. The switch's note is shown on the
    game screen only."""
    page, _ = phone
    before_fifteen(page, api, live_server)
    settings(page)
    switch = page.get_by_role("button", name="Keys on the game screen")
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    shown(page.locator("[data-keys-note]")).to_contain_text("Typing does nothing")
    settings(page)  # closed again

    page.reload()  # kept on this phone
    seq = revision(page)
    tile(page, "5-3").focus()
    keys(page, "5", "3", "d", "?")
    page.wait_for_timeout(500)  # long enough for a play's answer, were one sent
    assert revision(page) == seq, "a key played a tile with the keys off"
    expect(page.locator("#more")).not_to_have_attribute("open", "")
    expect(page.locator(".tile.keyed")).to_have_count(0)
    assert page.locator(f"{TILE}[tabindex='-1']").count() == 0, "tiles left out of the Tab order"

    settings(page)
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    settings(page)
    tile(page, "5-3").focus()
    keys(page, "5", "3")
    at_revision(page, seq + 1)
    shown(status(page)).to_contain_text("Ben played 5-3")

    page.goto(f"{live_server}/rules")  # the switch is in ⚙ on every page; its note is not
    settings(page)
    expect(page.get_by_role("button", name="Keys on the game screen")).to_be_visible()
    expect(page.locator("[data-keys-note]")).to_be_hidden()


def test_question_mark_opens_more_with_the_keys_and_says_so_offline(
    phone: tuple[Page, Console], api: HttpApi, live_server: str
) -> None:
    """The keys' list is not in the page: it comes with More's content. "?" opens More, and once
    the list has come the focus is on its heading, the list open. Offline, the list cannot
    come: the live region says so, with the keys in short."""
    page, console = phone
    before_fifteen(page, api, live_server)
    into_game(page)
    keys(page, "?")
    heading = page.locator("#keys > summary")
    expect(heading).to_be_focused()
    expect(heading).to_have_text("Keys")
    expect(page.locator("#more")).to_have_attribute("open", "")
    expect(page.locator("#keys")).to_have_attribute("open", "")
    expect(page.get_by_text("Draw, Pass, Undo", exact=True)).to_be_visible()

    page.reload()
    before = len(console.errors)
    page.context.set_offline(True)
    try:
        into_game(page)
        keys(page, "?")
        shown(status(page)).to_contain_text("The keys’ list comes with More")
        assert page.locator("#keys > summary").count() == 0
        # The sheet says why it holds only its links (its settings, share links and language
        # come with its content).
        expect(page.locator("#more-live .more-offline")).to_have_text("This phone is offline")
        focus_is(page, TILE, "the focus left the game")
    finally:
        page.context.set_offline(False)
    # More's request failing offline is reported (htmx, the browser): expected here, and only it.
    failed = console.errors[before:]
    assert all("sendError" in e or "afterRequest" in e or "/more" in e for e in failed), failed
    del console.errors[before:]
