"""Biblios Dice views: terminal fit, browser board contract and secrecy, rules help (docs/views.md)."""

from __future__ import annotations

import re

import pytest
from rich.text import Text

from dicetable import get_game, new_game
from dicetable.engine import Rng
from dicetable.engine.markup import as_parts, assemble, check_key
from dicetable.engine.testing import random_step
from dicetable.games.biblios_dice import rules
from dicetable.games.biblios_dice.board import board_view
from dicetable.games.biblios_dice.components import CARD_VALUES, NRES
from dicetable.games.biblios_dice.text import text_view

from .helpers import TRACK, game, put
from ..viewkit import (
    action_elements,
    assert_text_fits,
    board_for,
    kinds_met,
    parse_board,
    parts_for,
    placed_ids,
    sampled_states,
    text_lines,
)

GAME = "biblios-dice"
KINDS = {rules.REROLL, rules.SELECT, rules.SPLIT, rules.BID, rules.CHOOSE, rules.RESOLVE,
         "adjust", "bishop-token", "convert"}
#: Decisions whose every action sits on a piece; the Conversion Rule has no piece (action bar).
ON_BOARD = KINDS - {"convert"}
CONFIGS = [(p, {"hidden_objectives": h}) for p in (2, 3, 4, 5) for h in (False, True)]
# Rulebook setup 3 players: seat 0 has 15 Gold, seats 1 and 2 have 16 (position bonuses).
POOL_3P = ["ink", "ink", "ink", "scrolls", "manuscripts", "bishop", 3, 1, "+1"]


# ------------------------------------------------------------------ help
def test_help_explains_every_decision_kind_and_loads():
    help_ = get_game(GAME).help
    met = set()
    for players in (2, 3, 5):
        met |= kinds_met(GAME, players, seeds=(1, 2), options={"hidden_objectives": True})
    assert met <= KINDS, f"decision kinds missing from this test's list: {met - KINDS}"
    for kind in KINDS:
        assert help_.for_decision(kind), f"no help section explains {kind!r}"
    named = {k for section in help_.section for k in section.decisions}
    assert named <= KINDS, named - KINDS


def test_help_ids_unique_sources_and_pieces():
    help_ = get_game(GAME).help
    for items in (help_.section, help_.component):
        ids = [i.id for i in items]
        assert len(ids) == len(set(ids)), ids
        assert all(i.source.startswith(("rulebook:", "reconstructed:", "facts:")) for i in items)
    for name in ("Resource Track", "Bishop Track", "Value Die", "VP stack", "Bishop Token", "Resource Die",
                 "Gold Die", "Adjustment Die", "Mule Die", "Mule", "Bidding Card", "Shield", "Monastery Card",
                 "Cadfael", "Hidden Objective card"):
        assert help_.component_info(name) is not None, name
    scoring = " ".join(s.text for s in help_.section if s.id == "scoring")
    assert "twice the pips" in scoring and "half (rounded up)" in scoring and "4th space" in scoring


# ------------------------------------------------------------------ terminal
@pytest.mark.parametrize("players,options", CONFIGS)
def test_text_view_fits_every_seat_and_focus(players, options):
    # Five players crowd the compact layout most: two games for them.
    seeds = (31, 32) if players == 5 else (31,)
    states = [st for seed in seeds for st in sampled_states(GAME, players, seed, options, samples=5)]
    for state in states:
        for seat in [None, *range(players)]:
            assert_text_fits(GAME, state, seat)
        for focus in range(players):
            assert_text_fits(GAME, state, None, focus=focus)


@pytest.mark.parametrize("players", [2, 5])
def test_compact_lines_fit_the_width_without_folding_a_word(players):
    # A folded line splits a figure from its word ("penalty" / "-15"): the compact table drops
    # detail first, so every line of it fits 80 columns as a whole.
    for state in sampled_states(GAME, players, 41, {"hidden_objectives": True}, samples=8):
        for seat in [None, *range(players)]:
            for line in text_view(state.observation(seat), seat, width=80).renderables:
                if isinstance(line, Text):  # the final score pad is a table rich lays out itself
                    assert line.cell_len <= 80, line.plain


def test_text_view_shows_only_the_viewers_shield():
    state = new_game(GAME, 3, seed=4, options={"hidden_objectives": True})
    mine = text_lines(text_view(state.observation(0), 0), 120)
    line0 = next(line for line in mine if "Player 1 (red) - you" in line)
    assert "Gold 15, VP tokens 1" in line0 and "objective" in line0
    line1 = next(line for line in mine if "Player 2 (blue):" in line)
    assert "Gold ?, VP ?" in line1 and "objective" not in line1
    assert any("Your score if the game ended now" in line for line in mine)
    spectator = "\n".join(text_lines(text_view(state.observation(None), None), 120))
    assert "Gold 15" not in spectator and "Your score" not in spectator


def test_text_view_final_scoring_matches_the_game():
    state = sampled_states(GAME, 3, 5, {"hidden_objectives": True}, samples=1)[-1]
    assert state.is_over
    wide = text_lines(text_view(state.observation(0), 0), 120)
    for s, total in enumerate(state.scores):
        row = next(line for line in wide if re.match(rf"\W*P{s + 1}\b", line.strip("│ ")))
        assert re.search(rf"\b{total}\b", row)
    winner = state.winners[0]
    assert any(f"winner Player {winner + 1}" in line for line in wide)


def test_text_view_rejects_a_bad_focus():
    obs = new_game(GAME, 3, seed=1).observation(0)
    for bad in (3, -1, False, 1.0):
        with pytest.raises(ValueError, match="focus must be a seat from 0 to 2"):
            text_view(obs, 0, focus=bad)


# ------------------------------------------------------------------ board
def check_board(game: str, state, seat) -> set[str]:
    """The board contract (docs/views.md) on the assembled parts: balanced markup, only legal actions,
    each named by its label, none for a spectator, the same board for the same observation."""
    fragment, legal = board_for(game, state, seat)
    placed = {el["attrs"]["data-action"]: el for el in action_elements(parse_board(fragment))}
    assert set(placed) <= set(legal), f"board offers actions that are not legal: {set(placed) - set(legal)}"
    if seat is None:
        assert not placed, "a spectator's board must not offer actions"
    labels = {a.id: a.label for a in (state.legal_actions(seat) if legal else [])}
    for aid, el in placed.items():
        assert (el["attrs"].get("aria-label") or el["text"]).strip() == labels[aid], aid
    other = state.determinize(seat if seat is not None else 0, 12345)
    assert other.observation(seat) == state.observation(seat)
    assert board_for(game, other, seat)[0] == fragment, "the board shows something the seat cannot see"
    return set(placed)


def _perturbed(state, seat: int):
    """A copy where ``seat``'s secrets (Gold, VP tokens, face-down card, objective) differ."""
    other = state.clone()
    other.gold[seat] += 7
    other.vp[seat] += 5
    if other.facedown[seat] >= 0:
        unrevealed = other.hands[seat] | 1 << other.facedown[seat]
        choices = [v for v in CARD_VALUES if unrevealed >> v & 1 and v != other.facedown[seat]]
        if choices:
            other.hands[seat] = unrevealed & ~(1 << choices[0])
            other.facedown[seat] = choices[0]
    if other.objectives[seat] >= 0:
        unused = [t for t in range(NRES) if t not in other.objectives]
        if unused:
            other.objectives = [unused[0] if s == seat else o for s, o in enumerate(other.objectives)]
    return other


@pytest.mark.parametrize("players,seeds", [(2, (41, 42)), (3, (43,)), (5, (44,))])
def test_board_places_every_action_on_its_piece(players, seeds):
    kinds = set()
    for seed in seeds:
        state = new_game(GAME, players, seed=seed, options={"hidden_objectives": True})
        rng = Rng(seed)
        step = 0
        while not state.is_over:
            for seat in state.to_move:
                kind = state.decision(seat).kind
                kinds.add(kind)
                fragment, legal = board_for(GAME, state, seat)
                expected = set(legal) if kind in ON_BOARD else set()
                assert placed_ids(fragment) == expected, (kind, set(legal) ^ placed_ids(fragment))
            if step % 40 == 0:
                for seat in [None, *range(players)]:
                    check_board(GAME, state, seat)
            random_step(state, rng)
            step += 1
        for seat in [None, *range(players)]:
            check_board(GAME, state, seat)
    assert {rules.REROLL, rules.SELECT, rules.BID, rules.SPLIT, rules.CHOOSE} <= kinds


@pytest.mark.parametrize("players", [2, 4])
def test_board_and_text_hide_other_shields_and_face_down_cards(players):
    for state in sampled_states(GAME, players, 51, {"hidden_objectives": True}, samples=6)[:-1]:
        for secret in range(players):
            changed = _perturbed(state, secret)
            for viewer in [None, *range(players)]:
                if viewer == secret:
                    continue
                assert board_for(GAME, changed, viewer)[0] == board_for(GAME, state, viewer)[0]
                spec = get_game(GAME)
                for width in (120, 80):
                    assert (text_lines(spec.text_view(changed.observation(viewer), viewer, width=width), width)
                            == text_lines(spec.text_view(state.observation(viewer), viewer, width=width), width))
            # The owner does see them.
            assert board_for(GAME, changed, secret)[0] != board_for(GAME, state, secret)[0]


def test_board_face_down_bid_visible_only_to_its_owner():
    state = new_game(GAME, 3, seed=7)
    rng = Rng(7)
    while state.phase != rules.BID:
        random_step(state, rng)
    bidder = state.to_move[0]
    state.apply("bid:6", bidder)
    own, _ = board_for(GAME, state, bidder)
    assert re.search(r'<span class="bd-card down mine"[^>]*>6</span>', own)
    for viewer in [None, *(s for s in range(3) if s != bidder)]:
        panel = parts_for(GAME, state, viewer)[0][f"p-{bidder}-bids"]
        assert '<span class="bd-card down"' in panel and ">6</span>" not in panel


def test_board_shield_shows_own_gold_only():
    state = new_game(GAME, 3, seed=3)
    shown = {seat: re.sub(r"<[^>]+>", "", board_for(GAME, state, seat)[0]) for seat in (None, 0, 1)}
    assert "15 Gold" in shown[0] and "16 Gold" not in shown[0]
    assert shown[1].count("16 Gold") == 1 and "15 Gold" not in shown[1]
    assert not re.search(r"\b1[56] Gold", shown[None])
    assert 'data-key="p-0-gold" data-count="15"' in board_for(GAME, state, 0)[0]


def test_board_value_die_states_the_rulebook_scoring():
    # Rulebook Scoring example: a Value Die at 5 gives first 10 VP, second 5, third 3.
    obs = new_game(GAME, 3, seed=1).observation(0)
    obs = dict(obs, value_dice=dict(obs["value_dice"], ink=5))
    fragment = assemble(board_view(obs, [], 0))
    assert "The Ink Value Die shows 5. At the end, first place on this track scores 10 VP, second 5, third 3." \
        in fragment


def test_board_marked_dice_and_adjustment_on_the_value_dice():
    state = new_game(GAME, 3, seed=1, dice=POOL_3P)
    state.apply("mark:ink", 0)
    fragment, legal = board_for(GAME, state, 0)
    dice = [el for el in parse_board(fragment).elements if "k-ink" in el["attrs"].get("class", "")]
    assert [("marked" in d["attrs"]["class"], d["attrs"].get("data-action")) for d in dice] == [
        (True, None), (False, "mark:ink"), (False, "mark:ink")]
    state.apply("keep", 0)
    assert state.phase == rules.SELECT
    state.apply("take:adjustment", 0)
    assert state.decision(0).kind == "adjust"
    fragment, legal = board_for(GAME, state, 0)
    on_values = {el["attrs"]["data-action"] for el in action_elements(parse_board(fragment))
                 if "bd-value" in el["attrs"].get("class", "")}
    assert on_values == set(legal) == {f"raise:{r}" for r in ("scrolls", "manuscripts", "pigments", "quills", "ink")}


def test_board_market_groups_are_the_choices():
    state = new_game(GAME, 3, seed=2)
    rng = Rng(2)
    while state.phase != rules.CHOOSE:
        random_step(state, rng)
    seat = state.to_move[0]
    fragment, legal = board_for(GAME, state, seat)
    groups = [el for el in action_elements(parse_board(fragment)) if "bd-group" in el["attrs"].get("class", "")]
    assert sorted(el["attrs"]["data-action"] for el in groups) == ["group:large", "group:small"] == sorted(legal)


# ------------------------------------------------------------------ observation additions
def test_standing_scores_the_rulebook_example_and_my_score_only_for_the_seat():
    # Rulebook Scoring example: first on a track whose Value Die shows 5 scores 10, second 5, third 3.
    state = game(3)
    state.value[TRACK["ink"]] = 5
    put(state, 0, "ink", 7)
    put(state, 1, "ink", 6)
    put(state, 2, "ink", 5)
    for seat in (None, 0, 1, 2):
        obs = state.observation(seat)
        assert [row["tracks"][TRACK["ink"]] for row in obs["standing"]] == [10, 5, 3]
        assert ("my_score" in obs) == (seat is not None)
    mine = state.observation(1)["my_score"]
    assert mine["tokens"] == state.vp[1] and mine["total"] == state.scores[1]


def test_determinize_keeps_a_spectators_and_a_finished_games_observation():
    state = new_game(GAME, 3, seed=9, options={"hidden_objectives": True})
    # A spectator sees less than any seat: resampling what seat 0 cannot see keeps the spectator's view.
    assert state.determinize(0, 3).observation(None) == state.observation(None)
    final = sampled_states(GAME, 3, 9, {"hidden_objectives": True}, samples=1)[-1]
    assert final.is_over
    for seat in (None, 0, 1, 2):
        assert final.determinize(seat or 0, 3).observation(seat) == final.observation(seat)


@pytest.mark.parametrize("players", [2, 5])
def test_board_parts_are_keyed_slots_of_one_tree(players):
    # docs/web.md "Live updates": a root part "board"; every other part fills exactly one slot; part ids
    # are keys; the same ids for every determinization (never derived from hidden information).
    for state in sampled_states(GAME, players, 61, {"hidden_objectives": True}, samples=6):
        for seat in [None, *range(players)]:
            parts, _ = parts_for(GAME, state, seat)
            assert list(parts)[0] == "board"
            slots = re.findall(r'data-part="([^"]+)"', "".join(parts.values()))
            assert sorted(slots) == sorted(k for k in parts if k != "board"), set(slots) ^ set(parts)
            assert all(check_key(k) == k for k in parts)
            other = state.determinize(seat if seat is not None else 0, 7)
            assert list(parts_for(GAME, other, seat)[0]) == list(parts)


@pytest.mark.parametrize("players", [2, 4])
def test_board_keys_counters_and_dice_faces(players):
    # docs/web.md "Live updates" section 2: keys unique and well-formed; a counter's data-count is its text;
    # each die of the pool carries the face the observation gives it.
    for state in sampled_states(GAME, players, 71, {"hidden_objectives": True}, samples=12)[:-1]:
        for seat in [None, *range(players)]:
            fragment, _ = board_for(GAME, state, seat)
            keys = re.findall(r'data-key="([^"]*)"', fragment)
            assert len(keys) == len(set(keys)) and all(check_key(k) == k for k in keys)
            for m in re.finditer(r'data-key="([^"]+)" data-count="(-?\d+)">([^<]*)<', fragment):
                assert m.group(2) == m.group(3), m.group(0)
            obs = state.observation(seat)
            assert f'data-key="round" data-count="{obs["round"]}"' in fragment
            for s in range(players):
                assert f'data-key="p-{s}-shield"' in fragment and f'data-key="p-{s}"' in fragment
                assert (f'data-key="p-{s}-gold"' in fragment) == (s == seat)
            for t, spaces in obs["tracks"].items():
                for space, markers in enumerate(spaces, 1):
                    assert f'data-key="{t}-{space}"' in fragment
                    for m in markers:
                        assert f'data-key="mk-{t}-{"cf" if m == "cadfael" else m}"' in fragment
            if obs["phase"] in ("select", "split"):
                row = re.search(r'data-key="dice">(.*?)</div>', fragment).group(1)
                faces = re.findall(r'data-die="([^"]+)"', row)
                pool = obs["pool"]
                expected = [k for k in pool if k not in ("gold", "adjustment") for _ in range(pool[k])]
                expected += [str(pool[k]) for k in ("gold", "adjustment") if pool.get(k) is not None]
                assert sorted(faces) == sorted(expected)


def test_what_to_click_is_said_only_to_the_seat_that_can_act():
    """The dice area's "(click dice to mark them for the re-roll)" is for the first player in Phase I
    (rulebook: only they may re-roll); a spectator and the seats waiting read the heading alone."""
    state = new_game(GAME, 3, seed=1)
    assert list(state.to_move) == [0] and any(a.id == "keep" for a in state.legal_actions(0))
    told = {seat: "click dice to mark them" in board_for(GAME, state, seat)[0] for seat in (0, 1, 2, None)}
    assert told == {0: True, 1: False, 2: False, None: False}
    assert all("Dice rolled" in board_for(GAME, state, seat)[0] for seat in (0, 1, None))


def test_a_follow_up_is_an_instruction_to_its_seat_and_whose_decision_to_the_others():
    """A take's follow-up (here the Adjustment Die taken by Player 1): the seat deciding reads what to
    click; a spectator and the waiting seat read whose decision it is, never "click ..." as if told to them."""
    state = new_game(GAME, 2, seed=1)
    for action in ("mark:quills", "keep", "take:adjustment"):
        state.apply(action, 0)
    assert state.observation(None)["pending"][:2] == ["adjust", 0] and list(state.to_move) == [0]
    told = "Adjustment Die: click a Value Die at the top of a Resource Track."
    watched = "Adjustment Die: Player 1 chooses which Value Dice to change."
    seen = {seat: board_for(GAME, state, seat)[0] for seat in (0, 1, None)}
    assert told in seen[0] and watched not in seen[0]
    for seat in (1, None):
        assert watched in seen[seat] and "click" not in seen[seat].lower()
