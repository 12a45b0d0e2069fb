"""Corsairs of Valeria effects: what each event did to the table, for the browser to animate (docs/web.md).

Every effect is well formed, names board elements the viewer's board has right
after the action, and agrees with the rules: counters change by the sum of
their deltas (Silver coin by coin, the 5-Silver exchange, Skulls to Skull
Island), ships move space by space, and a roll's faces are the faces rolled.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from dicetable.bots import make_bot
from dicetable.engine import Rng, new_game
from dicetable.engine.effects import check_effect, effects_of
from dicetable.engine.markup import assemble
from dicetable.engine.testing import random_step
from dicetable.games.corsairs_of_valeria.board import board_view

from .corsairs_testkit import CN, GR, MP, SI, SK, game, play
from .corsairs_views_kit import actions_of

GAME = "corsairs-of-valeria"


def counters(obs: dict) -> dict[str, int]:
    """The board counters and their values in an observation (Ship Board dials, Skull Island, supply)."""
    out = {"supply": obs["supply"], "skull-silver": obs["skull_island_silver"]}
    for ship in obs["ships"]:
        s = ship["seat"]
        out |= {f"p-{s}-treasure": ship["treasure"], f"p-{s}-grog": ship["grog"], f"p-{s}-silver": ship["silver"]}
    return out


def keys_of(html: str) -> set[str]:
    """The ``data-key`` values of an assembled board."""
    return set(re.findall(r'data-key="([^"]+)"', html))


def check_action(state, action_id: str, seat: int) -> list:
    """Apply ``action_id`` and check its events' effects against the table before and after; the events.

    Every key an effect names is on the board right after the action, except in an action that
    also begins a new race: the events before the ``new-race`` event name the spaces of the
    Tracks as they were, which are on the board right before the action (the page measures
    the places an effect names before it swaps the board).
    """
    before = state.observation(None)
    keys_before = keys_of(assemble(board_view(before, [], None)))
    events = state.apply(action_id, seat)
    after = state.observation(None)
    keys = keys_of(assemble(board_view(after, [], None)))
    for viewer in state.to_move:
        assert keys == keys_of(assemble(board_view(state.observation(viewer), actions_of(state, viewer), viewer)))
    new_race = next((i for i, e in enumerate(events) if e.kind == "new-race"), -1)
    running = counters(before)
    scores = Counter()
    where = {f"ship-{s['seat']}": f"space-{s['node']}" for s in before["ships"]}
    for i, event in enumerate(events):
        board = keys_before if i < new_race else keys
        for effect in effects_of(event.data):
            check_effect(effect)
            for field in ("key", "from", "to", "at"):
                if effect.get(field) is not None:
                    assert effect[field] in board, (event.text, effect, "not on the board after the action")
            if effect["type"] == "count":
                running[effect["key"]] += effect["delta"]
                if effect["value"] is not None:
                    assert effect["value"] == running[effect["key"]], (event.text, effect)
            elif effect["type"] == "score":
                scores[effect["seat"]] += effect["delta"]
            elif effect["type"] == "move":
                if effect["from"] is not None:
                    assert where[effect["key"]] == effect["from"], (event.text, effect)
                where[effect["key"]] = effect["to"]
    assert running == counters(after), (action_id, [e.text for e in events])
    assert where == {f"ship-{s['seat']}": f"space-{s['node']}" for s in after["ships"]}
    for ship in after["ships"]:
        assert scores[ship["seat"]] == ship["treasure"] - before["ships"][ship["seat"]]["treasure"]
    return events


def check_rolls(before_dice: list[str], events: list) -> None:
    """A roll shows the rolled faces: with the dice kept (re-roll) or set (Willem, Luthor) they are the new dice."""
    for event in events:
        effects = effects_of(event.data)
        rolled = [f for e in effects if e["type"] == "roll" for f in e["faces"]]
        if event.kind == "reroll":
            kept = Counter(before_dice) - Counter(event.data["rerolled"])
            assert kept + Counter(rolled) == Counter(event.data["dice"]), event.text
        elif event.kind == "roll":
            placed = [f for e in effects if e["type"] == "set_aside" for f in e["faces"]]
            assert len(rolled) + len(placed) == 5
            assert Counter(rolled) + Counter(placed) == Counter(event.data["dice"]), event.text
            assert {"type": "turn", "seat": event.seat} in effects


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 7), (5, 11)])
def test_random_games_effects_are_well_formed_on_the_board_and_add_up(players, seed):
    state = new_game(GAME, players, seed=seed)
    rng = Rng(seed)
    kinds = Counter()
    while not state.is_over:
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        action = legal[rng.randbelow(len(legal))]
        dice = state.observation(None)["dice"]
        events = check_action(state, action.id, seat)
        check_rolls(dice, events)
        kinds.update(e["type"] for ev in events for e in effects_of(ev.data))
    assert {"roll", "set_aside", "move", "count", "turn"} <= set(kinds)


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 4)])
def test_greedy_games_to_the_end_with_new_races_and_treasure(players, seed):
    state = new_game(GAME, players, seed=seed)
    bot = make_bot("greedy", seed)
    kinds = Counter()
    while not state.is_over:
        seat = state.to_move[0]
        dice = state.observation(None)["dice"]
        events = check_action(state, bot.choose(state, seat), seat)
        check_rolls(dice, events)
        kinds.update(e["type"] for ev in events for e in effects_of(ev.data))
    # the greedy bots reach Skull Island (a new race: round 2) and exchange Silver for Treasure (score)
    assert {"round", "score", "count", "move"} <= set(kinds)


def test_a_roll_shows_the_faces_rolled_in_the_order_rolled():
    # scripted dice: the roll, then a re-roll of the three marked dice (rulebook example COR-1)
    state = game(dice=[SK, SK, CN, MP, SI, SK, GR, SI, MP])
    roll = next(e for e in state.log if e.kind == "roll")
    assert effects_of(roll.data) == [{"type": "turn", "seat": 0},
                                     {"type": "roll", "key": "dice", "faces": [SK, SK, CN, MP, SI], "seat": 0}]
    events = check_action(play(state, "mark:1", "mark:2", "mark:5"), "reroll", 0)
    assert effects_of(events[0].data) == [
        {"type": "count", "key": "p-0-grog", "delta": -1, "value": 1},      # 1 Grog paid (2 at the start)
        {"type": "roll", "key": "dice", "faces": [SK, GR, SI], "seat": 0}]


def test_silver_gained_past_five_is_counted_then_exchanged():
    # rulebook example COR-4: 4 Silver, 3 Silver faces: 3 taken, 5 returned for a Treasure
    state = game(dice=[SI, SI, SI, MP, GR])
    state.silver[0] = 4
    play(state, "lock")
    events = check_action(state, "silver", 0)
    silver = next(e for e in events if e.kind == "silver")
    assert effects_of(silver.data) == [{"type": "count", "key": "p-0-silver", "delta": 3, "value": None},
                                       {"type": "count", "key": "supply", "delta": -3, "value": None}]
    assert state.silver[0] == 2        # 4 + 3 - 5 (check_action: the deltas add up to the new counts)
    treasure = next(e for e in events if e.kind == "treasure")
    assert effects_of(treasure.data) == [{"type": "count", "key": "p-0-silver", "delta": -5, "value": None},
                                         {"type": "count", "key": "supply", "delta": 5, "value": None},
                                         {"type": "count", "key": "p-0-treasure", "delta": 1, "value": 1},
                                         {"type": "score", "seat": 0, "delta": 1}]


def test_an_attack_takes_the_targets_silver_and_knocks_it_back():
    # 4 Cannons at Player 2 (3 Silver): all their Silver, and one space back (rulebook: Use Your Cannons)
    state = game(dice=[CN, CN, CN, CN, GR])
    start = state.track.start
    ahead = state.track.fwd[start][0][0]
    state.silver[0], state.silver[1], state.pos[1] = 0, 3, ahead
    play(state, "lock", "cannons")
    events = check_action(state, "attack:p2", 0)
    attack = next(e for e in events if e.kind == "attack")
    assert effects_of(attack.data) == [{"type": "count", "key": "p-0-silver", "delta": 3, "value": 3},
                                       {"type": "count", "key": "p-1-silver", "delta": -3, "value": 0}]
    back = next(e for e in events if e.kind == "move")
    assert effects_of(back.data) == [{"type": "move", "key": "ship-1", "from": f"space-{ahead}",
                                      "to": f"space-{start}"}]


def test_non_dice_effects_are_the_same_on_every_determinized_copy():
    """Nothing is hidden in this game: what a seat sees decides the effects of an action that rolls no die."""
    state = new_game(GAME, 3, seed=17)
    rng = Rng(17)
    compared = 0
    for _ in range(250):
        if state.is_over:
            break
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        action = legal[rng.randbelow(len(legal))].id
        copies = [state.determinize(viewer, k) for viewer, k in ((0, 1), (1, 2), (2, 3))]
        seen = []
        for copy in copies:
            effects = []
            for event in copy.apply(action, seat):
                if any(e["type"] == "roll" for e in effects_of(event.data)):
                    break   # dice yet to roll are resampled in every copy (chance, not hidden information)
                effects.append(effects_of(event.data))
            seen.append(effects)
        assert seen[0] == seen[1] == seen[2], action
        compared += len(seen[0])
        random_step(state, rng)
    assert compared > 50
