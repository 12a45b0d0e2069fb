"""Dice Kingdoms of Valeria effects (docs/web.md, "Live updates"): what each event did to the table.

Over random games: every effect is well formed; every board key it names is on the board the
viewer sees right after the action; a roll's faces are the dice the rulebook rolls (two black
dice, then Yellow, Red, Green, Blue; the 2nd solo Harvest rolls the black pair again); counters
end at the value the sheet shows; score effects add up to the seat's score change; and, the
Statue and Event decks being hidden from everyone, the effects do not depend on their order.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from dicetable.engine import Rng, new_game
from dicetable.engine.effects import check_effect, effects_of
from dicetable.engine.markup import as_parts, assemble
from dicetable.games.dice_kingdoms_of_valeria.board import board_view

GAME = "dice-kingdoms-of-valeria"


def board_keys(state, seat) -> dict[str, str | None]:
    """The board's data-keys as ``seat`` sees it, each with its data-count (None without one)."""
    acts = [a.to_json() for a in state.legal_actions(seat)] if seat is not None and seat in state.to_move else []
    html = assemble(as_parts(board_view(state.observation(seat), acts, seat)))
    return {k: n or None for k, n in re.findall(r'data-key="([^"]+)"(?: data-count="(\d+)")?', html)}


def random_steps(players: int, sheets: str, seed: int, steps: int):
    """(state before, action, seat, events, state after) over up to ``steps`` random actions."""
    state = new_game(GAME, players, seed=seed, options={"sheets": sheets})
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            return
        seat = state.to_move[rng.randbelow(len(state.to_move))]
        acts = state.legal_actions(seat)
        action = acts[rng.randbelow(len(acts))]
        before = state.clone()
        events = state.apply(action, seat)
        yield before, action, seat, events, state


@settings(max_examples=12, deadline=None)
@given(players=st.integers(1, 5), seed=st.integers(0, 10_000), sheets=st.sampled_from(["summer", "winter"]))
@example(players=1, seed=1765, sheets="summer")  # a lair left pending in the Harvest already scores a Statue
def test_every_effect_is_well_formed_and_names_what_the_board_shows(players, seed, sheets):
    for before, _action, _seat, events, state in random_steps(players, sheets, seed, 120):
        keys = {v: board_keys(state, v) for v in [None, *range(players)]}
        scores = [state.score_parts(s)["total"] for s in range(players)]
        old = [before.score_parts(s)["total"] for s in range(players)]
        delta = [0] * players
        last_count: dict[str, int] = {}
        for event in events:
            assert event.visible is None   # every sheet is public: every event is seen by all
            for effect in effects_of(event.data):
                check_effect(effect)
                for field in ("key", "from", "to", "at"):
                    name = effect.get(field)
                    if name is not None:
                        for viewer, seen in keys.items():
                            assert name in seen, (effect, viewer)
                if effect["type"] == "count":
                    last_count[effect["key"]] = effect["value"]
                if effect["type"] == "score":
                    delta[effect["seat"]] += effect["delta"]
        # Each counter ends where the board shows it; the score effects add up to the change.
        for key, value in last_count.items():
            assert keys[None][key] == str(value), key
        assert [o + d for o, d in zip(old, delta)] == scores


def test_a_turn_begins_with_the_six_dice_rolled_and_the_harvest_counts_its_track_pips():
    seen_roll = seen_harvest = seen_round = 0
    for players in (1, 3):
        for before, _a, _s, events, state in random_steps(players, "summer", 7 + players, 150):
            for event in events:
                fx = effects_of(event.data)
                if event.kind == "roll" and "dice" in event.data:
                    # Rulebook, Roll Phase: two black dice and the Yellow, Red, Green and Blue dice.
                    rolls = [e for e in fx if e["type"] == "roll"]
                    assert rolls == [{"type": "roll", "key": "dice", "faces": event.data["dice"], "seat": event.seat}]
                    assert all(1 <= f <= 6 for f in rolls[0]["faces"]) and len(rolls[0]["faces"]) == 6
                    assert {"type": "turn", "seat": event.seat} in fx
                    seen_roll += 1
                    if players > 1 and any(e["type"] == "round" for e in fx):
                        seen_round += 1
                        assert event.seat == state.observation(None)["first_player"]
                elif event.kind == "roll":   # solo 2nd Harvest: the black pair again
                    assert fx == [{"type": "roll", "key": "dice-black", "faces": event.data["black"],
                                   "seat": event.seat}]
                if event.kind == "harvest":
                    counted = {e["key"]: e["delta"] for e in fx if e["type"] == "count" and "-trk-" in e["key"]}
                    guilds = ("Holy", "Worker", "Shadow", "Soldier")
                    assert counted == {f"p-{event.seat}-trk-{g}": k
                                       for g, k in zip(guilds, event.data["marked"]) if k}
                    seen_harvest += bool(counted)
            if events and events[-1].kind == "roll":
                d = state.observation(None)["dice"]
                assert events[-1].data.get("dice", d["black"])[:2] == d["black"]
    assert seen_roll > 10 and seen_harvest > 10 and seen_round > 2


def test_effects_do_not_depend_on_the_hidden_deck_order():
    """The Statue deck and the solo Event deck are hidden from everyone: the same action on
    determinized copies gives the same effects (a refill reveals a place, never a card)."""
    checked = refills = 0
    for players in (1, 4):
        for before, action, seat, events, _state in random_steps(players, "winter", 31 + players, 300):
            want = [effects_of(e.data) for e in events]
            for k in range(2):
                twin = before.determinize(seat, k)
                if action.id not in {a.id for a in twin.legal_actions(seat)}:
                    continue
                twin_events = twin.apply(action.id, seat)
                if [e.data for e in twin_events if e.kind == "roll"] != [e.data for e in events if e.kind == "roll"]:
                    continue   # the copy rolled other dice: the dice to come are not a secret of the table
                assert [effects_of(e.data) for e in twin_events] == want
                checked += 1
                refills += any(e.kind == "refill" for e in events)
    assert checked > 40 and refills > 0


def test_taking_a_statue_moves_it_from_its_draft_place_to_the_tally():
    for before, _a, _s, events, state in random_steps(3, "summer", 12, 400):
        for event in events:
            for e in effects_of(event.data):
                if e["type"] == "take":
                    n = event.data["statue"]
                    assert e == {"type": "take", "key": f"p-{event.seat}-statue-{n}", "from": e["from"],
                                 "to": f"p-{event.seat}-statues", "seat": event.seat}
                    place = int(e["from"].removeprefix("draft-"))
                    assert before.observation(None)["statue_line"][place].startswith(f"{n}-")
                    return
    raise AssertionError("no Statue was taken")
