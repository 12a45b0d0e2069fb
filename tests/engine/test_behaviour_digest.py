"""Every registered game plays, reads and looks exactly as recorded (tests/data/behaviour_digest.json).

The digest (see ``tests/engine/behaviour.py``) hashes every decision, legal
action, event, observation and score of about 300 seeded random games and a
few dozen greedy games per game. A change that alters any of them fails here;
when the change is meant (a rule fixed, a label reworded), record again with
``python -m tests.engine.behaviour record GAME`` and say why in the commit.
"""

from __future__ import annotations

import json

import pytest

from dicetable.engine.testing import configurations, shipped_games

from .behaviour import DIGEST_FILE, digest_game

RECORDED = json.loads(DIGEST_FILE.read_text())


@pytest.mark.parametrize("spec", shipped_games(), ids=lambda s: s.id)
def test_behaviour_matches_the_recorded_digest(spec):
    assert spec.id in RECORDED, f"{spec.id} has no recorded digest: python -m tests.engine.behaviour record {spec.id}"
    assert sorted(RECORDED[spec.id]) == sorted(name for name, _, _ in configurations(spec))
    got = digest_game(spec)
    differ = [name for name in got if got[name] != RECORDED[spec.id][name]]
    assert not differ, f"{spec.id} behaves differently in {differ}"
