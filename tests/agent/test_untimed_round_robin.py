"""The local round robin without the search levels' wall-clock caps: the same games on any machine.

As tests/cli/test_simulate_untimed.py: the clock is faked (tests/clocks.py), frozen (no cap ever
cuts) and jumping 10 s at every reading (every cap cuts at once). Both fakes are deterministic, so
the timed control shows a changed game reliably, not by chance.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")

from dicetable.agent.tournament import Entrant, round_robin
from dicetable.engine import GameConfigError
from tests.clocks import frozen_clock, jumping_clock

# Two `easy` entrants (the cheapest level with caps) at Biblios Dice, 2 games from seed 7.
ENTRANTS = [Entrant("first", bot="easy"), Entrant("second", bot="easy")]


def _outcome(result: dict) -> list[tuple]:
    return [(r["bots"], r["scores"], r["winners"], r["steps"]) for r in result["records"]]


def test_an_untimed_local_round_robin_is_the_same_on_a_frozen_and_a_jumping_clock(monkeypatch):
    """Untimed (``clock=False``): identical records and table on both clocks. Timed (the default, the
    control): the jumping clock cuts every search and the same seeds give other games."""
    frozen_clock(monkeypatch)
    untimed_frozen = round_robin("biblios-dice", ENTRANTS, games=2, seed=7, clock=False)
    timed_frozen = round_robin("biblios-dice", ENTRANTS, games=2, seed=7)
    jumping_clock(monkeypatch)
    untimed_jumping = round_robin("biblios-dice", ENTRANTS, games=2, seed=7, clock=False)
    timed_jumping = round_robin("biblios-dice", ENTRANTS, games=2, seed=7)

    assert untimed_jumping == untimed_frozen
    assert untimed_frozen["clock"] is False and timed_frozen["clock"] is True
    assert [r["clock"] for r in untimed_frozen["records"]] == [False, False]
    assert [r["clock"] for r in timed_frozen["records"]] == [True, True]
    assert all(r["steps"] > 20 for r in untimed_frozen["records"])
    # No cap cuts on a frozen clock: the untimed entrants play what the timed ones play there.
    assert _outcome(untimed_frozen) == _outcome(timed_frozen)
    # With the caps the jumping clock changes what is played.
    assert _outcome(timed_jumping) != _outcome(timed_frozen)


def test_an_untimed_round_robin_through_a_server_is_refused():
    """A server's bots keep their caps: ``clock=False`` there is an error before any table is made
    (so no server needs to run)."""
    with pytest.raises(GameConfigError, match="local round robin only"):
        round_robin("biblios-dice", ENTRANTS, games=1, clock=False, server="http://127.0.0.1:9")
