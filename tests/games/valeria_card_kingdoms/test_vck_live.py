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

import pytest

from dicetable.engine import Rng, new_game
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
