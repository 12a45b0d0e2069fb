"""Kingdom of Dice views: terminal fit, browser board contract, rules help (docs/views.md)."""

from __future__ import annotations

import re

import pytest

from dicetable import get_game, new_game
from dicetable.engine.markup import as_parts, assemble
from dicetable.games.kingdom_of_dice import rules
from dicetable.games.kingdom_of_dice.board import board_view
from dicetable.games.kingdom_of_dice.components import CAT_LEVELS
from dicetable.games.kingdom_of_dice.text import text_view

from .. import viewkit
from ..viewkit import (
    action_elements,
    assert_text_fits,
    check_board,
    kinds_met,
    parse_board,
    sampled_states,
    text_lines,
)

GAME = "kingdom-of-dice"
KINDS = {rules.SET_ASIDE, rules.PLACE}
CONFIGS = [(1, {"cat_level": level}) for level in sorted(CAT_LEVELS)] + [(p, {}) for p in (2, 3, 4)]


def board_for(game, state, seat):
    """viewkit's (fragment, legal ids) with the board's keyed parts assembled into one fragment."""
    parts, legal = _parts_for(game, state, seat)
    return assemble(parts), legal


_parts_for = viewkit.board_for


@pytest.fixture(autouse=True)
def _assembled_boards(monkeypatch):
    """viewkit's board checks read one HTML string: give them the assembled parts."""
    monkeypatch.setattr(viewkit, "board_for", board_for)


# ------------------------------------------------------------------ help
def test_help_loads_and_explains_every_decision_kind():
    help_ = get_game(GAME).help
    assert help_.section and help_.component
    # The kinds listed here are all the game has: random play meets no other.
    assert kinds_met(GAME, 2, seeds=(1, 2)) <= KINDS
    assert kinds_met(GAME, 1, seeds=(3,), options={"cat_level": 6}) <= KINDS
    for kind in KINDS:
        assert help_.for_decision(kind), f"no help section explains {kind!r}"
    known = {kind for section in help_.section for kind in section.decisions}
    assert known <= KINDS, f"help names decision kinds the game does not have: {known - KINDS}"


def test_help_ids_unique_and_sourced():
    help_ = get_game(GAME).help
    for items in (help_.section, help_.component):
        ids = [i.id for i in items]
        assert len(ids) == len(set(ids)), ids
        assert all(i.source.startswith(("rulebook:", "reconstructed:", "facts:")) for i in items)
    # Every piece a player meets has an entry: the rulebook's components and the special cards.
    for name in ("Board", "Crown marker", "Kingdom Die", "Crown", "Influence card", "Chancellor", "Queen",
                 "King", "Mischievous Cat", "Draw pile"):
        assert help_.component_info(name) is not None, name
    # The numerical conditions are stated as the rulebook states them.
    text = " ".join(s.text for s in help_.for_decision(rules.SET_ASIDE))
    for phrase in ("2s only two or more", "3s only three or more", "4s only four or more", "more than one 5"):
        assert phrase in text


# ------------------------------------------------------------------ terminal
@pytest.mark.parametrize("players,options", CONFIGS)
def test_text_view_fits_every_seat_and_focus(players, options):
    for seed in (11, 12):
        for state in sampled_states(GAME, players, seed, options, samples=4):
            for seat in [None, *range(players)]:
                assert_text_fits(GAME, state, seat)
            for focus in range(players):
                assert_text_fits(GAME, state, None, focus=focus)


def test_text_view_shows_the_rulebook_claims_and_result():
    # Rulebook example: crown, crown, 1, 2, 2 is worth (1 + 2 + 2) x 2 = 10.
    state = new_game(GAME, 2, seed=1, dice=["crown", "crown", 1, 2, 2, 5])
    for face in ("crown", "crown", "1", "2", "2"):
        state.apply(f"keep:{face}", 0)
    wide = "\n".join(text_lines(text_view(state.observation(0), 0), 120))
    assert "Set aside: crown, crown, 1, 2, 2 = worth 10" in wide
    assert "round 1 of 3" in wide
    state.apply("stop", 0)
    wide = "\n".join(text_lines(text_view(state.observation(0), 0), 120))
    assert "place a Crown marker on space 10?" in wide
    state.apply("place", 0)
    # The marker on the highest space would take the best card, the Chancellor.
    wide = "\n".join(text_lines(text_view(state.observation(1), 1), 120))
    chancellor = next(line for line in wide.splitlines() if "Chancellor" in line)
    assert "Player 1 (red)" in chancellor
    compact = "\n".join(text_lines(text_view(state.observation(1), 1, width=80), 80))
    assert "Chancellor 10<P1" in compact and "Board: 10 P1" in compact


def test_text_view_rejects_a_bad_focus():
    obs = new_game(GAME, 2, seed=1).observation(0)
    for bad in (2, -1, True, "1"):
        with pytest.raises(ValueError, match="focus must be a seat from 0 to 1"):
            text_view(obs, 0, focus=bad)


def test_render_draws_from_the_observation():
    state = new_game(GAME, 3, seed=5)
    spec = get_game(GAME)
    assert text_lines(spec.render(state, 1), 120) == text_lines(text_view(state.observation(1), 1), 120)


# ------------------------------------------------------------------ board
@pytest.mark.parametrize("players,options", [(1, {"cat_level": 3}), (2, {}), (4, {})])
def test_board_contract_and_every_action_on_a_piece(players, options):
    kinds_seen = set()
    for seed in (21, 22):
        for state in sampled_states(GAME, players, seed, options, samples=8):
            for seat in [None, *range(players)]:
                placed = check_board(GAME, state, seat)
                if seat is not None and seat in state.to_move:
                    legal = {a.id for a in state.legal_actions(seat)}
                    # Both decisions are wholly on the board: dice, the space, the buttons by the dice.
                    assert placed == legal, (state.decision(seat).kind, legal - placed)
                    kinds_seen.add(state.decision(seat).kind)
    assert rules.SET_ASIDE in kinds_seen


def test_board_place_decision_on_the_target_space():
    state = new_game(GAME, 2, seed=1, dice=["crown", "crown", 1, 2, 2, 5])
    for face in ("crown", "crown", "1", "2", "2"):
        state.apply(f"keep:{face}", 0)
    fragment, legal = board_for(GAME, state, 0)
    # Before stopping, the board says where the marker would go (space 10, the result's value).
    assert "(1 + 2 + 2) &#xd7; 2 = <b>10</b>" in fragment
    assert re.search(r'class="kod-space preview" data-space="10"', fragment)
    state.apply("stop", 0)
    fragment, legal = board_for(GAME, state, 0)
    assert set(legal) == {"place", "decline"}
    parser = parse_board(fragment)
    on_space = [el for el in action_elements(parser) if el["attrs"].get("data-space")]
    assert [(el["attrs"]["data-space"], el["attrs"]["data-action"]) for el in on_space] == [("10", "place")]
    # The other seat sees the same table but no actions.
    other, legal1 = board_for(GAME, state, 1)
    assert legal1 == [] and "data-action" not in other


def test_board_marker_slides_to_the_next_lower_free_space():
    # Rulebook: a result of 10 with spaces 10 and 9 taken goes to space 8.
    obs = new_game(GAME, 3, seed=2).observation(0)
    obs = dict(obs, board={"10": 1, "9": 2}, kept=["crown", "crown", 1, 2, 2], roll=[5],
               result_value=10, picked_since_roll=1)
    fragment = assemble(as_parts(board_view(obs, [], 0)))
    assert re.search(r'class="kod-space preview" data-space="8"', fragment)
    assert "Stop now: space <b>8</b>" in fragment


def test_board_rolled_dice_carry_their_set_aside_action():
    state = new_game(GAME, 2, seed=1, dice=["crown", 3, 3, 3, 5, 5])
    fragment, legal = board_for(GAME, state, 0)
    dice = [el["attrs"]["data-action"] for el in action_elements(parse_board(fragment))
            if "kod-die" in el["attrs"].get("class", "")]
    assert sorted(dice) == ["keep:3", "keep:3", "keep:3", "keep:5", "keep:5", "keep:crown"]


def test_board_solo_shows_the_cat_and_all_cards_by_value():
    state = new_game(GAME, 1, seed=4, options={"cat_level": 1})
    fragment, _ = board_for(GAME, state, 0)
    for space in (5, 10, 15):
        assert re.search(rf'data-space="{space}"[^>]*><title>Space {space}: the Mischievous Cat', fragment)
    assert "Mischievous Cat" in fragment and "level 1" in fragment
    market = [c["value"] for c in state.observation(0)["market"]]
    shown = [int(v) for v in re.findall(r'<li class="kod-card[^"]*"[^>]*><span class="v">(\d+)</span>', fragment)]
    assert shown == market == sorted(market, reverse=True)
