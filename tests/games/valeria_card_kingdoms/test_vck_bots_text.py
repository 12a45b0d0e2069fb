"""Valeria: Card Kingdoms bots (greedy, evaluate) and the terminal rendering."""

from __future__ import annotations

from rich.console import Console

from dicetable.bots import make_bot, play_out
from dicetable.engine import Rng, new_game
from dicetable.engine.testing import random_step
from dicetable.games.valeria_card_kingdoms.components import DUKE_NAME
from dicetable.games.valeria_card_kingdoms.policy import evaluate, greedy, value
from dicetable.games.valeria_card_kingdoms.text import render

from vck_helpers import act, give_monster, keep_dukes, monster_on_top, new, set_res, to_actions

GAME = "valeria-card-kingdoms"


def _text(state, seat):
    console = Console(width=150, record=True, file=open("/dev/null", "w"))
    console.print(render(state, seat))
    return console.export_text()


def test_greedy_beats_random():
    """Over 8 seeded 2-player games with seats swapped, greedy wins at least 6."""
    wins = 0
    for seed in range(8):
        state = new_game(GAME, 2, seed=seed)
        g = seed % 2
        bots = [None, None]
        bots[g] = make_bot("greedy", seed)
        bots[1 - g] = make_bot("random", seed)
        play_out(state, bots)
        wins += g in state.winners
    assert wins >= 6


def test_greedy_games_end_for_every_player_count():
    """Greedy against greedy finishes (no hoarding stall) and plays legal actions only."""
    for players in (1, 3, 5):
        state = new_game(GAME, players, seed=players)
        steps = play_out(state, [make_bot("greedy", s) for s in range(players)], max_steps=5000)
        assert state.is_over and steps < 5000


def _spider_queen_reward(turn, forest_slain):
    s = new(dice=(5, 6))
    keep_dukes(s)
    to_actions(s)
    s.turn = turn
    monster_on_top(s, "Spider Queen")
    give_monster(s, 0, "Treant", forest_slain)
    set_res(s, 0, g=0, st=10, m=3)
    act(s, "slay:forest")
    return greedy(s, 0).id


def test_greedy_takes_a_citizen_early_and_gold_late():
    """The Spider Queen's reward: early a free Citizen (+1 VP) out-earns 6 Gold; in the last
    round (no Harvest left to speak of) the 6 Gold is worth more."""
    assert _spider_queen_reward(turn=1, forest_slain=2) == "choose:2"
    assert _spider_queen_reward(turn=40, forest_slain=2) == "choose:1"


def test_greedy_slays_a_goblin_rather_than_idle():
    s = new(dice=(5, 6))
    keep_dukes(s)
    to_actions(s)
    set_res(s, 0, g=0, st=1, m=0)
    assert greedy(s, 0).id == "slay:hills"


def test_evaluate_is_a_probability_and_tracks_the_lead():
    state = new_game(GAME, 3, seed=5)
    rng = Rng(5)
    while not state.is_over:
        for seat in range(3):
            assert 0.0 <= evaluate(state, seat) <= 1.0
        random_step(state, rng)
    for seat in range(3):
        assert evaluate(state, seat) == (1.0 if seat in state.winners else 0.0)
        assert value(state, seat) == state.score(seat)


def test_solo_evaluate_is_the_unclipped_lead_over_the_dark_lord():
    """Solo: ``0.5 + (value - Dark Lord's score) / 40`` at every position, the final score once
    over (R12.18: the Dark Lord scores the surviving Monsters); early, when the Dark Lord holds
    every Monster's VP, the value is below 0 and still tells the first choices apart."""
    state = new_game(GAME, 1, seed=3)
    rng = Rng(3)
    lows = 0
    while not state.is_over:
        lead = value(state, 0) - state.dark_lord_score()
        assert evaluate(state, 0) == 0.5 + lead / 40.0
        lows += evaluate(state, 0) < 0.0
        random_step(state, rng)
    assert lows > 0
    assert evaluate(state, 0) == 0.5 + (state.scores[0] - state.dark_lord_score()) / 40.0
    start = new_game(GAME, 1, seed=4)
    while start.pending(0) is None or len(start.legal_actions(0)) < 2 or start.turn < 1:
        random_step(start, rng)
    values = {evaluate(start.child(a, 0), 0) for a in start.legal_actions(0)}
    assert len(values) > 1


def _documented_value(state, seat):
    """The position value exactly as the policy's docstring states it (a plain reference)."""
    from dicetable.games.valeria_card_kingdoms.components import (
        CIT_ROLE, CIT_SLOTS, DOM_WHEN, DUKE_SCORING, N_CIT, W_BUILD,
    )
    from dicetable.games.valeria_card_kingdoms.policy import _YIELD_OFF, _YIELD_ON, rounds_left
    from dicetable.games.valeria_card_kingdoms.rules import NT, duke_score

    def chance(t):  # expected activations per copy per roll: each die and the sum
        return sum((a == n) + (b == n) + (a + b == n) for a in range(1, 7) for b in range(1, 7)
                   for n in CIT_SLOTS[t]) / 36

    b, own, duke = seat * 4, state.own[seat * NT:(seat + 1) * NT], state.dukes[seat]
    v = float(state.public_vp(seat))
    r = 1 / 3
    if duke >= 0:
        v += duke_score(duke, 0, 0, 0, own[:N_CIT], state.doms[seat], state.victory[seat])
        div = DUKE_SCORING[duke][0]
        r = (1 / div[0] + 1 / div[1] + 1 / div[2]) / 3
    v += r * (state.res[b] + state.res[b + 1] + 1.1 * state.res[b + 2])
    for t, c in enumerate(own):
        if c:
            income = chance(t) * (_YIELD_ON[t] + (state.players - 1) * _YIELD_OFF[t])
            v += c * (income * rounds_left(state) * r + (0.4 if CIT_ROLE[t] >= 0 else 0.0))
    for d in state.doms[seat]:
        if DOM_WHEN[d] != W_BUILD:
            v += 0.3 * rounds_left(state)
    return v


def test_value_is_the_documented_formula_to_the_last_bit():
    """``value`` (precomputed per-card terms) equals the formula added in its order, exactly."""
    for players in (1, 2, 4):
        state = new_game(GAME, players, seed=40 + players, options={"setup": "random"})
        rng = Rng(players)
        checked = 0
        while not state.is_over:
            if checked % 5 == 0:
                for seat in range(players):
                    assert value(state, seat) == _documented_value(state, seat)
            checked += 1
            random_step(state, rng)
        assert checked > 50


def test_greedy_look_ahead_leaves_the_state_alone():
    """Greedy decides on copies: the state it is given keeps its table, log and history."""
    state = new_game(GAME, 2, seed=3)
    keep_dukes(state)
    to_actions(state)
    before = state.to_dict()
    greedy(state, state.to_move[0])
    assert state.to_dict() == before


def test_render_shows_the_table_and_only_the_own_duke():
    state = new_game(GAME, 3, seed=11)
    keep_dukes(state)
    to_actions(state)
    text = _text(state, 0)
    for word in ("Hills", "Goblin", "Cleric", "Player 2", "Dice [", "Last Harvest", DUKE_NAME[state.dukes[0]]):
        assert word in text
    assert DUKE_NAME[state.dukes[1]] not in text and DUKE_NAME[state.dukes[2]] not in text
    assert DUKE_NAME[state.dukes[0]] not in _text(state, 1)


def test_render_at_the_end_reveals_dukes_and_the_winner():
    state = new_game(GAME, 2, seed=2)
    play_out(state, [make_bot("random", 1), make_bot("random", 2)])
    text = _text(state, None)
    assert "Winner" in text
    assert all(DUKE_NAME[d] in text for d in state.dukes)


def test_render_solo_shows_the_dark_lord_face_down():
    state = new_game(GAME, 1, seed=4)
    keep_dukes(state)
    text = _text(state, 0)
    assert "Dark Lord" in text and "face down" in text
    assert DUKE_NAME[state.dark_lord] not in text or state.dark_lord == state.dukes[0]


def test_action_ids_and_labels_survive_rich_markup():
    """The terminal prints ids and labels through rich: none may turn into an emoji or markup
    (``steal:bank:gold:3`` once showed a bank emoji instead of ``:bank:``)."""
    from rich.text import Text

    for players in range(1, 6):
        state = new_game(GAME, players, seed=players, options={"setup": "mastery-over-magic"})
        rng = Rng(players)
        while not state.is_over:
            for seat in state.to_move:
                for action in state.legal_actions(seat):
                    assert Text.from_markup(action.id, emoji=True).plain == action.id
                    assert Text.from_markup(action.label, emoji=True).plain == action.label
            random_step(state, rng)
