"""Valeria: Card Kingdoms views: the terminal table, the browser board and the rules help.

The views are drawn from ``observation(seat)`` only (docs/views.md). These tests play seeded
random games for every player count (1-5) and every value of every option, and check over the
states met: the terminal table fits 120x40 (26 lines) and 80x24 (12 lines, 80 columns) for every
viewer and every ``show N`` seat; the board is well-formed HTML whose clickable pieces are
exactly legal actions, focusable and named; both views are identical for two states that look
the same to the seat (``determinize``) and show no secret (another player's Duke before the end,
face-down Domains, the Dark Lord's Duke); and every Decision kind of rules.py has a help section.
"""

from __future__ import annotations

import re
from html import escape
from html.parser import HTMLParser
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from dicetable.engine import Rng, get_game, new_game
from dicetable.engine.markup import as_parts, assemble
from dicetable.engine.testing import random_step
from dicetable.games.valeria_card_kingdoms import rules
from dicetable.games.valeria_card_kingdoms.board import board_view
from dicetable.games.valeria_card_kingdoms.components import CIT_NAME, DOM_NAME, DUKE_NAME, MON_NAME, N_CIT
from dicetable.games.valeria_card_kingdoms.rules import DOM0, N_POS, P_OVER
from dicetable.games.valeria_card_kingdoms.text import text_view

GAME = "valeria-card-kingdoms"
SPEC = get_game(GAME)
SETUPS = SPEC.option("setup").choices
CITIZEN_STACKS = SPEC.option("citizens").choices
WIDE_LINES, COMPACT_LINES = 26, 12
#: Decision kinds whose every legal action concerns a piece, so all of them sit on the board.
ALL_ON_BOARD = {"choose-duke", "roll", "action", "pay", "free-resource", "monster-six", "capture"}
#: Actions with no piece (the page's action bar shows them): choosing a side of an "or",
#: declining, taking nothing, a solo steal from the Bank, accepting a one-off trade, finishing.
NO_PIECE = re.compile(r"^(choose:\d+|decline|steal:none|steal:the-bank:.*|exchange:accept|exchange:done)$")


# ------------------------------------------------------------------ sampled states
def _tables():
    """(players, options) covering every option value for every player count."""
    for n in range(1, 6):
        for i, setup in enumerate(SETUPS):
            yield n, {"setup": setup, "citizens": CITIZEN_STACKS[(n + i) % len(CITIZEN_STACKS)]}


def _snapshots(players: int, options: dict, seed: int, keep: int = 3) -> list:
    """States along one random game: the Dukes, ``keep - 2`` spread over the play, and the end."""
    state = new_game(GAME, players, seed=seed, options=options)
    rng = Rng(seed)
    seen = [state.clone()]
    while not state.is_over:
        random_step(state, rng)
        seen.append(state.clone())
    inner = [seen[k * len(seen) // (keep - 1)] for k in range(1, keep - 1)]
    return [seen[0], *inner, seen[-1]]


SAMPLES = [(n, opts, s) for i, (n, opts) in enumerate(_tables()) for s in _snapshots(n, opts, seed=100 + i)]


def _lines(renderable, width: int) -> list[str]:
    console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)
    console.print(renderable)
    return console.export_text().rstrip("\n").split("\n")


def _check_fits(obs: dict, seat, width: int, focus=None) -> list[str]:
    lines = _lines(text_view(obs, seat, width=width, focus=focus), width)
    limit = WIDE_LINES if width >= 120 else COMPACT_LINES
    where = f"{obs['players']} players, {obs['phase']}, seat {seat}, focus {focus}, width {width}"
    assert len(lines) <= limit, f"{where}: {len(lines)} lines\n" + "\n".join(lines)
    assert max(len(line) for line in lines) <= width, f"{where}: too wide\n" + "\n".join(lines)
    return lines


# ------------------------------------------------------------------ help
def _decision_kinds_in_rules() -> set[str]:
    source = "".join(f.read_text(encoding="utf-8") for f in sorted(Path(rules.__file__).parent.glob("*.py")))
    return set(re.findall(r'Decision\(\s*seat,\s*"([a-z-]+)"', source))


def test_every_decision_kind_has_a_help_section():
    kinds = _decision_kinds_in_rules()
    # the kinds of the rulebook's decisions: Dukes, Roll, Action, paying, Harvest trades, the
    # free resource, solo Monsters (a 6, a capture) and card effects
    assert kinds == {"choose-duke", "roll", "action", "pay", "harvest-exchange", "free-resource",
                     "monster-six", "capture", "effect"}
    for kind in sorted(kinds):
        assert SPEC.help.for_decision(kind), f"no help section explains {kind!r}"
    met = {s.decision(s.to_move[0]).kind for _, _, s in SAMPLES if s.to_move}
    assert met <= kinds


def test_help_sections_name_rulebook_sections_and_components_are_unique():
    help_ = SPEC.help
    assert len(help_.section) >= 10 and len(help_.component) >= 15
    ids = [s.id for s in help_.section]
    assert len(ids) == len(set(ids))
    for section in help_.section:
        assert section.source == f"rulebook: {section.title}", section.id
        assert len(section.text.split()) >= 8, section.id
    comp_ids = [c.id for c in help_.component]
    names = [c.name.lower() for c in help_.component]
    assert len(comp_ids) == len(set(comp_ids)) and len(names) == len(set(names))
    for key in ("Monster", "Citizen", "Domain", "Duke", "Exhausted card", "Magic", "Dark Lord", "Rest token"):
        assert help_.component_info(key) is not None, key


# ------------------------------------------------------------------ terminal
def test_text_view_fits_for_every_viewer_and_focus():
    for n, opts, state in SAMPLES:
        spectator = state.observation(None)
        _check_fits(spectator, None, 120)
        _check_fits(spectator, None, 80)
        for seat in range(n):
            _check_fits(state.observation(seat), seat, 80)  # the viewer's own tableau, compact
            _check_fits(spectator, None, 120, focus=seat)  # show N, full
        _check_fits(state.observation(n - 1), n - 1, 120)
        _check_fits(state.observation(0), 0, 80, focus=n - 1)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(1, 5), setup=st.sampled_from(SETUPS), citizens=st.sampled_from(CITIZEN_STACKS),
       seed=st.integers(0, 2**32), steps=st.integers(0, 400), width=st.sampled_from([80, 100, 119, 120, 150]))
def test_text_view_fits_any_state(players, setup, citizens, seed, steps, width):
    state = new_game(GAME, players, seed=seed, options={"setup": setup, "citizens": citizens})
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        random_step(state, rng)
    seat = seed % players
    _check_fits(state.observation(seat), seat, width, focus=(seed // 7) % players)


def _crowded(obs: dict) -> dict:
    """The observation with the longest things a table can show: every Citizen type, many
    Domains and Monsters for every player, steals in the last Harvest."""
    obs = dict(obs)
    players = []
    for p in obs["player"]:
        p = dict(p)
        p["citizens"] = {name: 3 for name in CIT_NAME[:N_CIT]} | {"Starter Peasant": 1, "Starter Knight": 1}
        p["domains"] = list(DOM_NAME[:8])
        p["victory"] = list(MON_NAME[::2])
        p["vp_tokens"] = 12
        players.append(p)
    obs["player"] = players
    n = obs["players"]
    obs["last_harvest"] = [[-3, 14, -2, 1] for _ in range(n)]
    obs["last_harvest_steals"] = [{"thief": s, "victim": (s + 1) % n, "resource": "magic", "amount": 3,
                                   "card": "Thief"} for s in range(n)] if n > 1 else []
    return obs


def test_text_view_fits_a_crowded_table():
    for n in range(1, 6):
        state = new_game(GAME, n, seed=n)
        rng = Rng(n)
        while not state.is_over:
            random_step(state, rng)
            if state.turn >= 3 and state.to_move and state.decision(state.to_move[0]).kind == "action":
                break
        for seat in (None, 0):
            obs = _crowded(state.observation(seat))
            for width in (120, 80):
                lines = _check_fits(obs, seat, width)
                assert any("Archer" in line for line in lines)  # the focus tableau is shown


def test_text_view_shows_the_table_and_only_the_own_duke():
    state = next(s for n, _, s in SAMPLES if n == 5 and s.phase not in (rules.P_DUKES, P_OVER))
    for seat in range(5):
        text = "\n".join(_lines(text_view(state.observation(seat), seat), 120))
        assert f"Your Duke: {DUKE_NAME[state.dukes[seat]]}" in text
        for other in range(5):
            if DUKE_NAME[state.dukes[other]] != DUKE_NAME[state.dukes[seat]]:
                assert DUKE_NAME[state.dukes[other]] not in text
        top = state.stacks[0][-1] if state.stacks[0] else None
        assert top is None or MON_NAME[top] in text
    shown = "\n".join(_lines(text_view(state.observation(0), 0, focus=3), 120))
    assert "Player 4's Citizens" in shown


def test_the_end_names_the_winner_and_every_score_whole_in_an_80_column_terminal():
    """At the end (rules R8.4-R8.6) the compact view says who won and every seat's score with its
    cards in the tableau (the tie-break), wrapped within 80 columns, never cut off with an ellipsis."""
    for n in range(2, 6):
        final = next(s for m, _, s in SAMPLES if m == n and s.is_over)
        obs = final.observation(None)
        lines = _check_fits(obs, None, 80)
        start = next(i for i, line in enumerate(lines) if line.startswith("Winner"))
        verdict = " ".join(line.strip() for line in lines[start:start + 2])
        assert "…" not in verdict, "\n".join(lines)
        assert verdict.startswith(("Winners: " if len(final.winners) > 1 else "Winner: ") + ", ".join(f"Player {s + 1}" for s in final.winners))
        for s in range(n):
            assert f"Player {s + 1} {obs['scores'][s]} ({obs['player'][s]['tableau_cards']} cards)" in verdict


def test_text_view_rejects_a_focus_that_is_no_seat():
    obs = SAMPLES[0][2].observation(0)
    for bad in (1, -1, True, "1", 1.0):
        try:
            text_view(obs, 0, focus=bad)
        except ValueError as exc:
            assert "no seat" in str(exc)
        else:  # pragma: no cover - the assertion names the bad value
            raise AssertionError(f"focus={bad!r} accepted")


# ------------------------------------------------------------------ board
VOID = {"br", "img", "input", "hr", "meta", "link", "wbr", "col", "area", "base", "source", "track"}


class _Board(HTMLParser):
    """Collects tags (checking they nest) and the data-action elements with their names."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.actions: list[dict] = []
        self.text: list[str] = []
        self._open_action: list[dict | None] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in VOID:
            return
        self.stack.append(tag)
        entry = None
        if "data-action" in attrs:
            entry = {"tag": tag, "attrs": attrs, "text": ""}
            self.actions.append(entry)
        self._open_action.append(entry)

    def handle_startendtag(self, tag, attrs):
        if "data-action" in dict(attrs):
            self.errors.append(f"empty action element <{tag}/>")

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()
        self._open_action.pop()

    def handle_data(self, data):
        self.text.append(data)
        for entry in self._open_action:
            if entry is not None:
                entry["text"] += data


def _parse(html: str) -> _Board:
    board = _Board()
    board.feed(html)
    board.close()
    assert not board.errors, board.errors
    assert not board.stack, f"unclosed: {board.stack}"
    return board


def _actions(state, seat):
    return [{"id": a.id, "label": a.label} for a in state.legal_actions(seat)] if seat is not None else []


def _board(state, seat) -> str:
    """The whole board ``seat`` sees, its parts assembled as the page does."""
    return assemble(as_parts(board_view(state.observation(seat), _actions(state, seat), seat)))


def test_board_is_wellformed_and_its_pieces_are_legal_named_focusable():
    for n, opts, state in SAMPLES:
        for seat in [None, *range(n)]:
            html = _board(state, seat)
            assert html.startswith(f'<div class="board board-{GAME}')
            assert "<script" not in html.lower()
            board = _parse(html)
            legal = {a["id"] for a in _actions(state, seat)}
            ids = [a["attrs"]["data-action"] for a in board.actions]
            assert len(ids) == len(set(ids)), "an action placed twice"
            assert set(ids) <= legal, set(ids) - legal
            if seat is None or not legal:
                assert not ids
            for a in board.actions:
                focusable = a["tag"] == "button" or (a["attrs"].get("tabindex") == "0"
                                                     and a["attrs"].get("role") == "button")
                assert focusable, a
                assert (a["attrs"].get("aria-label") or a["text"]).strip(), a


def test_board_places_every_action_that_concerns_a_piece():
    kinds_met = set()
    for n, opts, state in SAMPLES:
        for seat in state.to_move:
            kind = state.decision(seat).kind
            kinds_met.add(kind)
            placed = {a["attrs"]["data-action"] for a in _parse(_board(state, seat)).actions}
            legal = {a["id"] for a in _actions(state, seat)}
            if kind in ALL_ON_BOARD:
                assert placed == legal, (kind, legal - placed)
            else:
                assert {i for i in legal - placed if not NO_PIECE.match(i)} == set(), (kind, legal - placed)
    assert {"choose-duke", "action"} <= kinds_met


def _decision_states(kinds: set[str], limit: int = 400):
    """States of seeded random games where a decision of each kind waits (a few of each)."""
    found: dict[str, list] = {k: [] for k in kinds}
    for seed in range(60):
        n = 1 + seed % 5
        setup = SETUPS[seed % len(SETUPS)] if seed % 3 else "mastery-over-magic"  # the Thief
        state = new_game(GAME, n, seed=seed, options={"setup": setup, "citizens": CITIZEN_STACKS[seed % 2]})
        rng = Rng(seed)
        for _ in range(limit):
            if state.is_over:
                break
            kind = state.decision(state.to_move[0]).kind
            if kind in found and len(found[kind]) < 3:
                found[kind].append(state.clone())
            random_step(state, rng)
        if all(len(v) >= 3 for v in found.values()):
            break
    return found


def test_board_places_actions_of_every_decision_kind():
    found = _decision_states(_decision_kinds_in_rules())
    for kind, states in found.items():
        assert states, f"no random game met a {kind!r} decision"
        for state in states:
            seat = state.to_move[0]
            placed = {a["attrs"]["data-action"] for a in _parse(_board(state, seat)).actions}
            legal = {a["id"] for a in _actions(state, seat)}
            if kind in ALL_ON_BOARD:
                assert placed == legal, (kind, legal - placed)
            else:
                assert all(NO_PIECE.match(i) for i in legal - placed), (kind, legal - placed)
                if kind == "effect" and any(i.startswith(("steal:p", "take:", "slay:", "target:")) for i in legal):
                    assert placed, kind


def test_views_are_the_same_for_states_that_look_the_same_and_hide_secrets():
    for n, opts, state in SAMPLES:
        for seat in range(n):
            other = state.determinize(seat, 12345 + seat)
            assert state.observation(seat) == other.observation(seat)
            html = _board(state, seat)
            assert html == _board(other, seat)
            assert html == _board(state, seat)  # deterministic
            text = _lines(text_view(state.observation(seat), seat, width=80), 80)
            assert text == _lines(text_view(other.observation(seat), seat, width=80), 80)
            if state.phase == P_OVER:
                continue
            secrets = {DOM_NAME[d] for p in range(DOM0, N_POS) for d in state.stacks[p][:-1]}
            secrets |= {DOM_NAME[d] for d in state.dom_box}
            own = {DUKE_NAME[d] for d in state.offers[seat]} | (
                {DUKE_NAME[state.dukes[seat]]} if state.dukes[seat] >= 0 else set())
            secrets |= {DUKE_NAME[state.dukes[s]] for s in range(n) if s != seat and state.dukes[s] >= 0} - own
            if state.dark_lord >= 0:
                secrets |= {DUKE_NAME[state.dark_lord]} - own
            joined = "\n".join(text)
            for secret in secrets:
                assert escape(secret) not in html and secret not in joined, (secret, seat)


def test_spectator_board_has_no_actions_and_no_duke_before_the_end():
    for n, opts, state in SAMPLES:
        html = assemble(board_view(state.observation(None), [{"id": "gain:gold", "label": "Gain"}], None))
        assert "data-action" not in html
        if state.phase != P_OVER:
            assert not any(escape(DUKE_NAME[d]) in html for d in state.dukes if d >= 0)
        else:
            assert all(escape(DUKE_NAME[d]) in html for d in state.dukes)


def test_the_last_move_is_marked_on_its_stack_and_card():
    """Recruit a Citizen takes the top card of its stack (Recruit a Citizen): the Cleric stack is
    slot 1, the first Citizen stack; the board marks that stack and the new card in the tableau,
    the terminal says who took what."""
    from vck_helpers import action_phase, act, set_res

    s = action_phase(2, prep=lambda st: set_res(st, 0, g=3, m=0))
    assert s.observation(0)["last_move"] is None
    act(s, "recruit:cleric")
    last = s.observation(1)["last_move"]
    assert last == {"seat": 0, "move": "citizen", "row": "citizens", "index": 0, "card": "Cleric"}
    html = _board(s, 1)
    stacks = re.findall(r'<div class="vck-stack vck-cstack[^"]*"', html)
    assert "vck-last" in stacks[0] and not any("vck-last" in x for x in stacks[1:])
    assert re.search(r'class="vck-chip vck-holy vck-lastcard"[^>]*>.*?Cleric', html)
    text = "\n".join(_lines(text_view(s.observation(1), 1), 120))
    assert "Last: Player 1 took a Cleric" in text


def test_the_first_player_mark_shows_during_play_and_not_at_the_end():
    """"1st" marks who started (R3) while the game runs; at the end it would read like a final
    placing, so the player lines drop it there (the verdict line says who won)."""
    for n in range(2, 6):
        states = [s for m, _, s in SAMPLES if m == n]
        live = next(s for s in states if not s.is_over and s.observation(None)["phase"] != "choose-duke")
        final = next(s for s in states if s.is_over)
        first = live.observation(None)["first_player"]
        for width in (80, 120):
            during = _lines(text_view(live.observation(None), None, width=width), width)
            assert any(re.search(rf"Player {first + 1} 1st\b", line) for line in during), "\n".join(during)
            after = _lines(text_view(final.observation(None), None, width=width), width)
            assert not any(re.search(r"Player \d 1st\b", line) for line in after), "\n".join(after)
