"""Biblios Dice effects (docs/web.md, "Live updates"): what each action did, in the engine's vocabulary.

Over seeded random games of every player count: every effect is well formed; every board element it
names (``key``, ``from``, ``to``, ``at``) is on the board of each viewer who sees the event, right after
the action; a roll names the faces the dice show (the rulebook's faces); and an event every seat sees
says nothing in its effects that its text does not (the same across determinizations).
"""

from __future__ import annotations

import random
import re

import pytest

from dicetable import get_game, new_game
from dicetable.engine.effects import check_effect, effects_of
from dicetable.engine.markup import assemble
from dicetable.games.biblios_dice.components import ALL_FACES
from dicetable.games.biblios_dice.keys import dice_faces

GAME = "biblios-dice"
NAMED = ("key", "from", "to", "at")


def _board_keys(state, viewer) -> set[str]:
    spec = get_game(GAME)
    acting = viewer is not None and viewer in state.to_move
    actions = [a.to_json() for a in state.legal_actions(viewer)] if acting else []
    html = assemble(spec.board_view(state.observation(viewer), actions, viewer))
    return set(re.findall(r'data-key="([^"]+)"', html))


def _play(players: int, seed: int):
    """Yield (state before, seat, action id, events, state after) along one seeded random game."""
    state = new_game(GAME, players, seed=seed, options={"hidden_objectives": seed % 2 == 0})
    rng = random.Random(seed)
    while not state.is_over:
        seat = rng.choice(state.to_move)
        action = rng.choice(state.legal_actions(seat)).id
        before = state.clone()
        events = state.apply(action, seat)
        yield before, seat, action, events, state


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (4, 4), (5, 5)])
def test_effects_name_what_the_viewer_sees(players, seed):
    types = set()
    for _, _, action, events, state in _play(players, seed):
        keys = {}
        for event in events:
            for effect in effects_of(event.data):
                check_effect(effect)
                types.add(effect["type"])
                named = {effect[f] for f in NAMED if effect.get(f) is not None}
                for viewer in [None, *range(players)]:
                    if not event.visible_to(viewer):
                        continue
                    if viewer not in keys:
                        keys[viewer] = _board_keys(state, viewer)
                    assert named <= keys[viewer], (event.text, effect, viewer, named - keys[viewer])
                if effect["type"] == "roll":
                    assert set(effect["faces"]) <= set(ALL_FACES), effect
                if event.kind == "roll" and effect["type"] == "roll":
                    # Phase I: all the dice, the Mule Die included (rulebook Phase I - Roll).
                    assert effect["faces"] == dice_faces(event.data["dice"], event.data["mule_die"])
            if event.kind == "move":
                # A marker moves from the space it left to the space the rules put it on.
                d, first = event.data, effects_of(event.data)[0]
                assert (first["type"], first["from"], first["to"]) == (
                    "move", f"{d['track']}-{d['from']}", f"{d['track']}-{d['to']}")
    assert {"roll", "move", "set_aside", "count", "take", "reveal", "turn", "round"} <= types


def test_reroll_faces_are_the_new_dice():
    # Rulebook Phase I: the marked dice are re-rolled; the effect names the faces they now show.
    seen = 0
    for seed in range(6, 30):
        for before, seat, action, events, state in _play(3, seed):
            if action != "reroll":
                continue
            effect = next(e for e in effects_of(events[0].data) if e["type"] == "roll")
            marked = before.observation(None)["marked"]
            assert len(effect["faces"]) == sum(marked.values())
            now = dice_faces(state.observation(None)["pool"] if state.phase == "select" else events[0].data["dice"],
                             events[0].data["mule_die"])
            for face in effect["faces"]:
                assert face in now
                now.remove(face)
            seen += 1
        if seen >= 3:
            break
    assert seen >= 3


@pytest.mark.parametrize("players,seed", [(2, 11), (4, 12)])
def test_public_effects_hide_what_the_text_hides(players, seed):
    # Two states a seat cannot tell apart (determinized for it) give the same effects in every
    # public event whose text is the same: the effects never name a face-down card, a shield or a token.
    compared = 0
    for step, (before, seat, action, events, _) in enumerate(_play(players, seed)):
        if step % 5:
            continue
        for k in (1, 2):
            other = before.determinize(seat, 1000 + k)
            for a, b in zip(events, other.apply(action, seat)):
                if a.visible is None and b.visible is None and a.text == b.text:
                    assert effects_of(a.data) == effects_of(b.data), a.text
                    compared += bool(effects_of(a.data))
    assert compared > 20
