"""The words every front end shows, read from 50 random games of every title (issue 25, "Words").

Per title, 50 seeded random games spread over every configuration the title
allows (each player count, each option value: ``engine.testing.configurations``)
are walked; at every step every seat to move has its decision prompt and help
and the labels of its legal actions read, at the end every log line, and along
the way the board (the browser's parts, as text) every 40 steps and at the end.
The title's rules help, as the page shows it for every player count, is read
too. None of them may hold:

- a counted noun that disagrees with its number: "1 dice", "1 Cannons",
  "3 die" (:func:`dicetable.engine.counted` writes them all);
- a count above its maximum: "Exhausted 10 of 8" ("N of M" with N > M);
- a seat named twice: "Player 2 · Player 2 (greedy bot)";
- terminal wording ("type several choices", "enter the number", "press") in
  what the page shows: prompts, decision help, labels, log lines, boards and
  the rules help;
- an action id where words belong ("keep:crown" in the rules help).

The helper itself is checked against English (the rulebooks' words) first.
"""

from __future__ import annotations

import html
import re

import pytest

from dicetable.engine import Rng, asked_of, counted, names_text, new_game, plural_of
from dicetable.engine.markup import assemble
from dicetable.engine.testing import configurations, random_step, shipped_games
from dicetable.web.render import components_of

GAMES_PER_TITLE = 50
BOARD_EVERY = 80

#: Counted nouns the games write (singular forms); the check looks for each in the wrong number.
NOUNS = ("die", "card", "point", "move", "space", "pip", "Skull", "Cannon", "Map", "Action", "re-roll", "task",
         "marker", "token", "turn", "round", "step", "face", "stack", "player", "Monster", "Citizen", "Domain",
         "Scroll", "Manuscript", "Pigment", "Quill")
#: Those never used as a name after a number ("the 7 card", "Domain 2 stack", "the 5 Citizen" are names).
NEVER_NAMES = ("die", "point", "move", "space", "pip", "re-roll", "task", "marker", "token", "step")
#: A number after these is a name, not a count: "Player 1 moves", "Round 2 begins", "Die 1 shows".
_NAMING = re.compile(r"(?:(?:Player|Round|Turn|space|column|Die|Level|Road) |[\d.,/+−-])$")
_ONE_MANY = re.compile(r"\b1 (?:[A-Z][a-z]+ )?(" + "|".join(re.escape(plural_of(n)) for n in NOUNS) + r")\b")
_MANY_ONE = re.compile(r"\b(?:0|[2-9]|\d{2,}) (?:[A-Z][a-z]*[a-rt-z] )?("
                       + "|".join(re.escape(n) for n in NEVER_NAMES) + r")\b(?!-)")


def _counts(pattern: re.Pattern[str], text: str, names: tuple[str, ...] = ()) -> list[re.Match[str]]:
    """The matches of ``pattern`` whose number is a count: not after a naming word (:data:`_NAMING`, or one
    of ``names``) nor part of a longer number."""
    out = []
    for m in pattern.finditer(text):
        before = text[max(0, m.start() - 8):m.start()]
        if not _NAMING.search(before) and not before.endswith(names):
            out.append(m)
    return out


_N_OF_M = re.compile(r"\b(\d+) of (\d+)\b")
_SEAT_TWICE = re.compile(r"\b(Player \d+)\s*[·:(,-]?\s*\(?\1\b")
_MACHINE_ID = re.compile(r"\b(?!rulebook:|reconstructed:|https?:)[a-z]+:[a-z0-9][a-z0-9-]*\b")
_TERMINAL = re.compile(r"\b(?:type|typing)\s+(?:the\b|a\b|several\b|rules\b|yes\b|in\b|\d|['\"])"
                       r"|\benter the number|\bpress(?:es|ing)?\b|\bkeystroke", re.IGNORECASE)


def slips(text: str) -> list[str]:
    """The wording problems in one text (empty when it is clean); each pattern runs only where its
    cheap precondition holds (a digit, " of ", two "Player", a colon), which keeps the walk fast."""
    found: list[str] = []
    if any(c.isdigit() for c in text):
        found += [f"'1 {m.group(1)}'" for m in _counts(_ONE_MANY, text)]
        found += [f"'{m.group(0)}' (one {m.group(1)}, several counted)" for m in _counts(_MANY_ONE, text, ("the ",))]
        if " of " in text:
            found += [f"'{m.group(0)}' (a count above its maximum)" for m in _N_OF_M.finditer(text)
                      if int(m.group(1)) > int(m.group(2))]
        if text.count("Player ") > 1:
            found += [f"'{m.group(0)}' (a seat named twice)" for m in _SEAT_TWICE.finditer(text)]
    found += [f"'{m.group(0)}' (terminal wording)" for m in _TERMINAL.finditer(text)]
    if ":" in text:
        found += [f"'{m.group(0)}' (an action id, not words)" for m in _MACHINE_ID.finditer(text)]
    return found


def board_text(spec, state, seat) -> str:
    """The browser board of ``seat`` as the words a person reads (tags dropped, titles kept)."""
    actions = [a.to_json() for a in state.legal_actions(seat)] if seat is not None and seat in state.to_move else []
    parts = spec.board_view(state.observation(seat), actions, seat)
    markup = assemble(parts) if isinstance(parts, dict) else parts
    titles = " | ".join(re.findall(r'(?:title|aria-label)="([^"]*)"', markup))
    # an element's words end where it ends: "1" in one cell and "Citizens" in the next are not "1 Citizens"
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"(?:\s*<[^>]+>\s*)+", " | ", markup)) + " | " + titles)


def walk(spec, players: int, options: dict, seed: int) -> dict[str, set[str]]:
    """Every text one random game shows, by where it is shown."""
    state = new_game(spec.id, players, seed=seed, options=options)
    rng = Rng(seed)
    seen: dict[str, set[str]] = {"prompt": set(), "help": set(), "label": set(), "log": set(), "board": set()}
    steps = 0
    while not state.is_over:
        for seat in state.to_move:
            decision = state.decision(seat)
            assert decision is not None, f"{spec.id}: seat {seat} is to move without a decision"
            seen["prompt"].add(decision.prompt)
            seen["help"].add(decision.help)
            seen["label"].update(a.label for a in state.legal_actions(seat))
        if spec.board_view is not None and steps % BOARD_EVERY == 0:
            seen["board"].add(board_text(spec, state, state.to_move[0]))
        random_step(state, rng)
        steps += 1
    seen["log"].update(e.text for e in state.log)
    if spec.board_view is not None:
        for seat in (None, *range(players)):
            seen["board"].add(board_text(spec, state, seat))
    return seen


def test_counted_agrees_with_its_number():
    assert counted(1, "die") == "1 die" and counted(2, "die") == "2 dice" and counted(0, "die") == "0 dice"
    assert counted(1, "Ink die") == "1 Ink die" and counted(5, "Ink die") == "5 Ink dice"
    assert counted(3, "Cannon") == "3 Cannons" and counted(2, "re-roll") == "2 re-rolls"
    assert counted(2, "Gold") == "2 Gold" and counted(4, "VP") == "4 VP"          # units, not counted nouns
    assert counted(2, "box") == "2 boxes" and counted(2, "Bounty") == "2 Bounties" and counted(2, "day") == "2 days"
    assert counted(2, "die", word_only=True) == "dice" and counted(1, "pip", word_only=True) == "pip"
    assert counted(2, "person", "people") == "2 people"


def test_a_decision_shown_to_someone_else_is_the_question_its_player_was_asked():
    """A replay's reader is not the seat asked: the game's words to that seat are quoted after its name,
    never rewritten (the seat's own table keeps "Player 1: You won the auction...")."""
    won = "You won the auction: choose a group of dice."
    assert asked_of([(0, won)]) == "Player 1 is asked: “You won the auction: choose a group of dice.”"
    assert asked_of([(2, "Who gets die 1 (Skull)?")]) == "Player 3 is asked: “Who gets die 1 (Skull)?”"
    duke = "Keep one of your two Dukes; it stays secret until the end."
    assert asked_of([(0, duke), (1, duke)]) == f"Player 1 and Player 2 are asked: “{duke}”"
    bids = [(s, f"Place a Bidding Card face down (your Gold: {g}).") for s, g in ((0, 3), (1, 5), (2, 4))]
    assert asked_of(bids) == ("Player 1, Player 2 and Player 3 must decide; "
                              "Player 1 is asked: “Place a Bidding Card face down (your Gold: 3).”")
    assert asked_of([(1, None)]) == "Player 2 must decide"
    assert asked_of([]) == ""
    assert names_text([0]) == "Player 1" and names_text([0, 3]) == "Player 1 and Player 4"
    assert names_text([]) == ""


@pytest.mark.parametrize("text,problem", [
    ("Set aside more dice, reroll the other 1 dice, or stop.", "'1 dice'"),
    ("Player 1: 1 Skulls, places 1 Silver on Skull Island.", "'1 Skulls'"),
    ("Phase I: Player 1 rolls 1 Scrolls, 2 Ink; Mule Die 1.", "'1 Scrolls'"),
    ("Take the group of 3 die.", "one die"),
    ("Exhausted 10 of 8", "above its maximum"),
    ("Player 2 · Player 2 (greedy bot)", "named twice"),
    ("Tip: type several choices at once, e.g. '1 3 reroll'.", "terminal wording"),
    ("Enter the number of a choice.", "terminal wording"),
    ("Here dice are set aside one at a time (keep:crown, keep:3, ...).", "an action id"),
])
def test_the_check_finds_each_slip(text, problem):
    assert any(problem in found for found in slips(text)), slips(text)


@pytest.mark.parametrize("text", [
    "Player 1 converts 1 Ink die: re-rolled to Quills.", "Exhausted 8 of 8", "Player 2 · Anna",
    "Phase II: the Mule advances 1 to space 8 of 8.", "Each player takes every die of one type from the pool.",
    "Take the group of 1 die (Gold 3).", "Player 1 sails 2 spaces.",
])
def test_the_check_passes_clean_words(text):
    assert slips(text) == []


@pytest.mark.parametrize("spec", shipped_games(), ids=lambda s: s.id)
def test_no_wording_slips_in_fifty_random_games(spec):
    configs = configurations(spec)
    counts = {p for _, p, _ in configs}
    assert counts == set(range(spec.min_players, spec.max_players + 1))    # every player count is walked
    shown: dict[str, str] = {}                  # every text once, with where it was first shown
    for i in range(GAMES_PER_TITLE):
        name, players, options = configs[i % len(configs)]
        for where, texts in walk(spec, players, options, seed=9000 + i).items():
            for text in texts:
                shown.setdefault(text, f"{where} in {name} seed {9000 + i}")
    assert len(shown) > 100                     # the walk did read the games
    problems: dict[str, str] = {}
    for text, where in shown.items():
        for found in slips(text):
            problems.setdefault(found, f"{where}: {text[:200]!r}")
    for players in sorted(counts):
        rules = components_of(spec.id, players)
        for item in (*rules["sections"], *rules["components"]):
            for found in slips(item["text"]):
                problems.setdefault(found, f"rules help at {players}p, {item['id']}: {item['text'][:200]!r}")
        for found in slips(rules["score"]):
            problems.setdefault(found, f"rules help's score note: {rules['score'][:200]!r}")
    assert not problems, "\n".join(f"{found}: {where}" for found, where in problems.items())
