"""Kingdom of Dice effects (docs/web.md, "Live updates"): what each action did, in board keys.

Over seeded random games: every effect is well formed, names only board
elements (``data-key``) that the viewer's board shows right after the
action, counts end on the number the board shows, rolls are the faces the
dice show; and rulebook cases give the exact effects.
"""

from __future__ import annotations

import re

import pytest

from dicetable import new_game
from dicetable.engine import Rng
from dicetable.engine.effects import check_effect, effects_of
from dicetable.engine.markup import as_parts, assemble
from dicetable.games.kingdom_of_dice.board import board_view
from dicetable.games.kingdom_of_dice.components import CARD_INDEX, CARD_VALUE, KINGDOM_DIE

GAME = "kingdom-of-dice"
C = "crown"
CONFIGS = [(1, {"cat_level": 2}), (1, {"cat_level": 6}), (2, {}), (3, {}), (4, {})]


def board_of(state, viewer) -> str:
    """``viewer``'s assembled board."""
    acting = viewer is not None and viewer in state.to_move
    actions = [a.to_json() for a in state.legal_actions(viewer)] if acting else []
    return assemble(as_parts(board_view(state.observation(viewer), actions, viewer)))


_KEYED = re.compile(r'data-key="([^"]+)"(?: data-count="([^"]*)")?')


def keyed(board: str) -> dict[str, str | None]:
    """``{data-key: data-count or None}`` of a board; asserts that no key is used twice."""
    out: dict[str, str | None] = {}
    for m in _KEYED.finditer(board):
        assert m.group(1) not in out, f"data-key {m.group(1)!r} appears twice on the board"
        out[m.group(1)] = m.group(2)
    return out


def play(players, options, seed):
    """Yield (state after the action, the events the action produced) along one seeded random game."""
    state = new_game(GAME, players, seed=seed, options=options)
    rng = Rng(seed)
    while not state.is_over:
        seat = state.to_move[0]
        actions = state.legal_actions(seat)
        yield state, state.apply(actions[rng.randbelow(len(actions))], seat)


@pytest.mark.parametrize("players,options", CONFIGS)
def test_effects_name_what_the_board_shows_after_the_action(players, options):
    kinds = set()
    for seed in ((1, 2) if players < 2 else (1,)):
        for state, events in play(players, options, seed):
            # Every seat sees the same table; the seat to move also sees its actions: check it, the
            # seat after it and a spectator.
            mover = state.to_move[0] if state.to_move else 0
            for viewer in {None, mover, (mover + 1) % players}:
                seen = [e for e in events if e.visible_to(viewer)]
                if not seen:
                    continue
                board = keyed(board_of(state, viewer))
                last_count: dict[str, int | None] = {}
                for event in seen:
                    for effect in effects_of(event.data):
                        check_effect(effect)
                        kinds.add(effect["type"])
                        for field in ("key", "from", "to", "at"):
                            name = effect.get(field)
                            if name is not None:
                                assert name in board, (f"{event.kind}: {effect} names {name!r}, not on "
                                                       f"viewer {viewer}'s board")
                        if effect["type"] == "count":
                            last_count[effect["key"]] = effect["value"]
                # Counters end on the number the board shows.
                for key, value in last_count.items():
                    assert board[key] == str(value), (key, value, board[key])
    assert kinds >= {"roll", "set_aside", "count", "take", "reveal", "turn", "round"}
    if players > 1:  # random solo play seldom makes a valid result, and the Cat's cards score no seat
        assert {"move", "score"} <= kinds


@pytest.mark.parametrize("players,options", [(2, {}), (1, {"cat_level": 4})])
def test_rolls_are_the_rolled_faces_and_land_in_the_dice_area(players, options):
    for seed in (3, 4):
        for state, events in play(players, options, seed):
            rolls = [(e, f) for e in events for f in effects_of(e.data) if f["type"] == "roll"]
            for event, effect in rolls:
                assert effect["faces"] == event.data["faces"]
                assert all(face in KINGDOM_DIE.faces for face in effect["faces"])
                assert 1 <= len(effect["faces"]) <= 6 and effect["seat"] == event.seat
            if rolls and events[-1] is rolls[-1][0]:
                # The action ended on that roll: the dice area shows exactly those faces.
                faces = rolls[-1][1]["faces"]
                assert state.observation(None)["roll"] == faces
                dice = re.findall(r'data-die="([^"]+)"', board_of(state, None))
                kept = state.observation(None)["kept"]
                assert sorted(dice) == sorted(str(f) for f in faces + kept)


def test_a_turn_starts_with_all_six_scripted_dice():
    # Rulebook: a turn begins by rolling all six dice; the effect carries the faces rolled.
    state = new_game(GAME, 2, seed=1, dice=[C, C, 1, 2, 2, 5])
    first = [f for e in state.log for f in effects_of(e.data)]
    assert {"type": "turn", "seat": 0} in first
    rolled = next(f for f in first if f["type"] == "roll")
    assert rolled == {"type": "roll", "key": "dice-roll", "faces": [C, C, 1, 2, 2, 5], "seat": 0}
    assert [f for f in first if f["type"] == "round"] == [{"type": "round", "round": 1}]
    reveals = [f for f in first if f["type"] == "reveal"]
    assert len(reveals) == 7 and all(f["at"] == "market" for f in reveals)   # six cards and the Chancellor


def test_set_aside_then_place_effects_follow_the_rulebook_example():
    # Rulebook: crown, crown, 1, 2, 2 is worth (1 + 2 + 2) x 2 = 10: a marker on space 10.
    state = new_game(GAME, 2, seed=1, dice=[C, C, 1, 2, 2, 5])
    events = state.apply("keep:2", 0)
    assert [effects_of(e.data) for e in events] == [
        [{"type": "set_aside", "key": "dice-kept", "faces": [2], "seat": 0}]]
    for face in ("crown", "crown", "1", "2"):
        state.apply(f"keep:{face}", 0)
    state.apply("stop", 0)
    events = state.apply("place", 0)
    place = next(e for e in events if e.kind == "place")
    assert effects_of(place.data) == [
        {"type": "move", "key": "marker-10", "from": "p-0-markers", "to": "space-10"},
        {"type": "count", "key": "p-0-left", "delta": -1, "value": 4},
        {"type": "count", "key": "on-board", "delta": 1, "value": 1},
    ]
    # The next player's turn begins with a roll of all six dice.
    after = [f for e in events[events.index(place) + 1:] for f in effects_of(e.data)]
    assert after[0] == {"type": "turn", "seat": 1}
    assert after[1]["type"] == "roll" and len(after[1]["faces"]) == 6


def test_round_end_hands_cards_to_the_markers_with_scores():
    # Play until a round ends; each card taken travels from the market to its owner's cards.
    for state, events in play(3, {}, 7):
        takes = [(e, f) for e in events for f in effects_of(e.data) if f["type"] == "take"]
        if not takes:
            continue
        for event, effect in takes:
            card = event.data["card"]
            assert effect == {"type": "take", "key": f"card-{card}", "from": "market",
                              "to": f"p-{event.seat}-won", "seat": event.seat}
            assert card in state.observation(None)["won"][event.seat]
            value = CARD_VALUE[CARD_INDEX[card]]
            fx = effects_of(event.data)
            assert {"type": "score", "seat": event.seat, "delta": value} in fx
            assert fx[-1]["key"] == f"p-{event.seat}-pts" and fx[-1]["delta"] == value
        # Markers leave the board; the next round returns every seat's markers.
        lifted = next(e for e in events if e.kind == "markers-off")
        assert effects_of(lifted.data)[0]["value"] == 0
        if not state.is_over:
            back = [f for e in events if e.kind == "round" for f in effects_of(e.data) if f["type"] == "count"]
            assert back and all(f["value"] == 5 and f["delta"] > 0 for f in back)
        return
    pytest.fail("no round ended")


@pytest.mark.parametrize("players", [2, 4])
def test_effects_hide_nothing_across_determinized_copies(players):
    # Only the draw pile's order is hidden: the effects of the same action on copies that resample it
    # are the same, except where new dice are rolled or new cards drawn (chance, not a secret).
    state = new_game(GAME, players, seed=9)
    rng = Rng(9)
    checked = 0
    while not state.is_over and checked < 60:
        seat = state.to_move[0]
        action = state.legal_actions(seat)[rng.randbelow(len(state.legal_actions(seat)))]
        results = []
        for k in range(3):
            copy = state.determinize(seat, 100 + k)
            events = copy.apply(action.id, seat)
            results.append([effects_of(e.data) for e in events if e.kind not in ("roll", "round")])
        assert results[0] == results[1] == results[2], action.id
        state.apply(action.id, seat)
        checked += 1
