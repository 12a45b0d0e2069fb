"""The live board of Valeria: Card Kingdoms: keyed parts, element keys and the rules' effects.

docs/web.md ("Live updates"): ``board_view`` answers ``{part id: html}`` with the root part
``"board"``; the page fills each slot with its part and animates the effects an event
carries, finding the board elements they name by ``data-key``. These tests play seeded
random games and check, after every action and for every viewer, that the parts fit
together, that the keys are unique and well formed, that counters show their count, and
that the effects name only keys the viewer's board has.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from dicetable.engine import Rng, new_game
from dicetable.engine.effects import check_effect, effects_of
from dicetable.engine.markup import ROOT, assemble, check_key
from dicetable.engine.testing import random_step
from dicetable.games.valeria_card_kingdoms.board import STACK_KEYS, board_view

GAME = "valeria-card-kingdoms"
SLOT = re.compile(r'data-part="([^"]+)"')


class _Keys(HTMLParser):
    """The ``data-key`` elements of a board: key -> (attributes, text inside)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.keys: dict[str, dict] = {}
        self.dupes: list[str] = []
        self.dice: list[str] = []
        self._open: list[dict | None] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        entry = None
        if "data-key" in attrs:
            key = attrs["data-key"]
            if key in self.keys:
                self.dupes.append(key)
            entry = self.keys[key] = {"attrs": attrs, "text": ""}
        if "data-die" in attrs:
            self.dice.append(attrs["data-die"])
        if tag not in ("br", "img", "input", "hr", "wbr"):
            self._open.append(entry)

    def handle_endtag(self, tag):
        if tag not in ("br", "img", "input", "hr", "wbr") and self._open:
            self._open.pop()

    def handle_data(self, data):
        for entry in self._open:
            if entry is not None:
                entry["text"] += data


def keys_of(html: str) -> _Keys:
    parsed = _Keys()
    parsed.feed(html)
    parsed.close()
    return parsed


#: html of a part -> the data-key values in it (most parts are the same from one action to the next)
_PART_KEYS: dict[str, frozenset[str]] = {}


def board_keys(parts: dict[str, str]) -> set[str]:
    """The ``data-key`` values of the board ``parts`` make: every part is on it (the parts test checks
    that each part but the root has its one slot), so the board's keys are its parts' keys."""
    keys: set[str] = set()
    for html in parts.values():
        got = _PART_KEYS.get(html)
        if got is None:
            got = _PART_KEYS[html] = frozenset(keys_of(html).keys)
        keys |= got
    return keys


def _actions(state, seat):
    return [a.to_json() for a in state.legal_actions(seat)] if seat is not None and seat in state.to_move else []


def parts_of(state, seat) -> dict[str, str]:
    return board_view(state.observation(seat), _actions(state, seat), seat)


def games(count: int = 10, limit: int = 400):
    """Seeded random games of every player count and option: yields (state, events of the last action)."""
    for seed in range(count):
        n = 1 + seed % 5
        options = {"setup": ("first-game", "random", "mastery-over-magic", "monster-blood")[seed % 4],
                   "citizens": ("standard", "mixed")[seed // 2 % 2]}
        state = new_game(GAME, n, seed=seed, options=options)
        rng = Rng(1000 + seed)
        yield state, list(state.log)
        for _ in range(limit):
            if state.is_over:
                break
            before = len(state.log)
            random_step(state, rng)
            yield state, list(state.log[before:])


# ------------------------------------------------------------------ parts
def test_parts_fit_together_and_keys_are_unique_for_every_viewer():
    for state, _ in games(5, 60):
        for seat in [None, *range(state.players)]:
            parts = parts_of(state, seat)
            assert next(iter(parts)) == ROOT and parts[ROOT].startswith(f'<div class="board board-{GAME} ')
            for key in parts:
                check_key(key)
            held = [k for html in parts.values() for k in SLOT.findall(html)]
            assert len(held) == len(set(held)), "a part has two slots"
            assert set(held) == set(parts) - {ROOT}, set(held) ^ (set(parts) - {ROOT})
            assert set(STACK_KEYS) <= set(parts)
            board = keys_of(assemble(parts))
            assert not board.dupes, board.dupes
            for key, entry in board.keys.items():
                check_key(key)
                if "data-count" in entry["attrs"]:
                    # a counter shows its number as text
                    assert entry["text"].strip() == entry["attrs"]["data-count"], (key, entry)
            for s in range(state.players):
                for res in ("gold", "strength", "magic", "vp", "score"):
                    assert f"p-{s}-{res}" in board.keys
            assert {"dice", "exhausted", *STACK_KEYS} <= set(board.keys)
            obs = state.observation(seat)
            assert board.dice == [str(v) for v in obs["dice"]]


def test_counters_show_the_observation():
    """Every player's tokens and public VP, and the Exhausted stacks, as the rulebook counts them (R4, R8.4)."""
    for state, _ in games(5, 60):
        obs = state.observation(None)
        board = keys_of(assemble(parts_of(state, None)))
        for s, p in enumerate(obs["player"]):
            for res, field in (("gold", "gold"), ("strength", "strength"), ("magic", "magic"), ("vp", "vp_tokens")):
                assert board.keys[f"p-{s}-{res}"]["attrs"]["data-count"] == str(p[field])
            shown = obs["scores"][s] if obs["is_over"] else p["public_vp"]
            assert board.keys[f"p-{s}-score"]["attrs"]["data-count"] == str(shown)
        assert board.keys["exhausted"]["attrs"]["data-count"] == str(obs["exhausted"])


def test_parts_are_deterministic_and_hide_what_the_viewer_cannot_see():
    for state, _ in games(5, 40):
        if state.is_over:
            continue
        for seat in range(state.players):
            other = state.determinize(seat, 99 + seat)
            assert parts_of(state, seat) == parts_of(other, seat)


# ------------------------------------------------------------------ effects
def _seen_by(event, seat) -> bool:
    return event.visible is None or seat in event.visible


def test_every_effect_is_well_formed_and_names_keys_the_viewer_sees():
    """Each effect passes ``check_effect``; every key it names is an element of the board that
    each viewer who sees the event has right after the action."""
    kinds = set()
    for state, events in games(5, 200):  # seeds 0-4: every player count (1-5) and every setup
        if not any(effects_of(e.data) for e in events):
            continue
        for viewer in [None, *range(state.players)]:
            seen = [e for e in events if viewer is not None and _seen_by(e, viewer) or e.visible is None]
            effects = [fx for e in seen for fx in effects_of(e.data)]
            if not effects:
                continue
            board = board_keys(parts_of(state, viewer))
            for effect in effects:
                check_effect(effect)
                kinds.add(effect["type"])
                for field in ("key", "from", "to", "at"):
                    if effect.get(field) is not None:
                        assert effect[field] in board, (effect, viewer, [e.text for e in seen])
    assert {"roll", "turn", "round", "count", "take", "score", "reveal"} <= kinds, kinds


def test_a_roll_shows_the_rolled_faces_and_the_turn_begins():
    """Roll Phase (R5.4): the Active player rolls two six-sided dice; the effect carries exactly
    the faces the dice show, and the turn's player."""
    rolls = 0
    for state, events in games(5, 150):
        for event in events:
            if event.kind != "roll":
                continue
            effects = effects_of(event.data)
            if state.players > 1 and event.seat == state.observation(None)["first_player"]:
                # a round begins with the first player's turn (R8.1); turns go round the table
                assert effects.pop(0) == {"type": "round", "round": (event.data["turn"] - 1) // state.players + 1}
            assert effects[0] == {"type": "turn", "seat": event.seat}
            roll = effects[1]
            assert roll["type"] == "roll" and roll["key"] == "dice" and roll["seat"] == event.seat
            assert roll["faces"] == event.data["dice"] and all(v in range(1, 7) for v in roll["faces"])
            rolls += 1
    assert rolls > 20


def test_counts_add_up_to_the_tokens_and_scores():
    """Every count effect's delta is the change of its counter and its value the counter's new
    value; the score effects of a game add up to the final scores (R8.4)."""
    for state, events in games(6, 400):
        if not state.is_over:
            continue
        totals = [0] * state.players
        for event in state.log:
            for effect in effects_of(event.data):
                if effect["type"] == "score":
                    totals[effect["seat"]] += effect["delta"]
        assert totals == list(state.scores), (totals, state.scores)


def test_recruit_takes_the_citizen_into_the_tableau_and_counts_the_gold():
    """Recruit a Citizen (R6.6): the Cleric (slot 1, first Citizen stack) costs 3 Gold; the card
    goes from its stack to the buyer's Citizens and the Gold counter drops by 3."""
    from vck_helpers import action_phase, set_res

    s = action_phase(2, prep=lambda st: set_res(st, 0, g=5, m=0))
    gold = s.observation(0)["player"][0]["gold"]
    assert gold >= 5
    events = s.apply("recruit:cleric", s.to_move[0])
    effects = [fx for e in events for fx in effects_of(e.data)]
    assert {"type": "count", "key": "p-0-gold", "delta": -3, "value": gold - 3} in effects
    assert {"type": "take", "key": "p-0-cit-cleric", "from": "c-0", "to": "p-0-cits", "seat": 0} in effects


#: Events whose outcome comes from the dice or another random draw: a determinized copy draws anew.
RANDOM = {"roll", "steal-monster", "dark-lord"}


def _public_effects(events) -> list:
    """The effects of the events every seat sees, up to the first random draw (the Dukes revealed at
    the end are left out: they are no secret then)."""
    out = []
    for event in events:
        if event.kind in RANDOM:
            break
        if event.visible is None and event.kind != "game-over":
            out.append(effects_of(event.data))
    return out


def test_public_effects_do_not_depend_on_what_is_hidden():
    """An event every seat sees names no hidden card: its effects are the same whatever the
    face-down Domains, Mixed Citizens and the other seats' Dukes are (``determinize``)."""
    checked = 0
    for seed in range(6):
        n = 2 + seed % 4
        state = new_game(GAME, n, seed=seed, options={"citizens": ("standard", "mixed")[seed % 2]})
        rng = Rng(seed)
        for _ in range(150):
            if state.is_over:
                break
            seat = state.to_move[0]
            copies = [state.determinize(seat, k) for k in (1, 2)]
            legal = state.legal_actions(seat)
            action = legal[rng.randbelow(len(legal))].id
            public = _public_effects(state.apply(action, seat))
            for copy in copies:
                assert _public_effects(copy.apply(action, seat)) == public, action
            checked += bool(public)
    assert checked > 100, checked


# ------------------------------------------------------------------ the observation schema
def test_the_observation_has_exactly_the_documented_fields():
    """``viewdata.Observation`` documents every field the views read; the observation has no other."""
    from typing import get_type_hints

    from dicetable.games.valeria_card_kingdoms import viewdata as vd

    shapes = {"monsters": vd.MonsterStack, "citizens": vd.CitizenStack, "domains": vd.DomainStack,
              "player": vd.PlayerView}
    for state, _ in games(5, 60):
        for seat in [None, *range(state.players)]:
            obs = state.observation(seat)
            top = set(get_type_hints(vd.Observation))
            assert set(obs) == top - ({"dark_lord"} if state.players > 1 else set()), set(obs) ^ top
            for field, shape in shapes.items():
                for item in obs[field]:
                    assert set(item) <= set(get_type_hints(shape)), (field, set(item) - set(get_type_hints(shape)))
            for name in ("pending", "last_move"):
                if obs[name]:
                    hint = vd.Pending if name == "pending" else vd.LastMove
                    assert set(obs[name]) <= set(get_type_hints(hint)), (name, obs[name])
            mine = vd.own_player(obs)
            assert mine == ({} if seat is None else obs["player"][seat])
            for s in range(state.players):
                tags = vd.player_tags(obs, s)
                assert tags["active"] == (vd.is_live(obs) and s == obs["active"])
                assert vd.shown_vp(obs, s) == (obs["scores"][s] if obs["is_over"] else obs["player"][s]["public_vp"])
