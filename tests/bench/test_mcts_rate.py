"""dicetable.bench's MCTS rate is a warm one: untimed searches of another game's states come first,
and the timed searches run with the collector paused, as every timing of the bench does."""

from __future__ import annotations

import gc

from dicetable.bench import mcts_iterations_per_s, sample_states
from dicetable.bots import mcts


def test_three_untimed_searches_of_another_game_come_before_the_timed_ones(monkeypatch):
    calls: list[tuple[object, bool]] = []
    search = mcts.MCTS.search

    def recorded(self, state, seat):
        calls.append((state, gc.isenabled()))
        return search(self, state, seat)

    monkeypatch.setattr(mcts.MCTS, "search", recorded)
    probes = [s for s in sample_states("corsairs-of-valeria", 2, 1, seed=3) if not s.is_over][:2]
    rate = mcts_iterations_per_s("corsairs-of-valeria", 2, probes, seed=3)
    assert rate > 0
    assert len(calls) == 3 + len(probes)
    warm, timed = calls[:3], calls[3:]
    # the warm-up searched states of the game of seed 2, not the probes; the timed part the probes
    warm_states = {id(s) for s, _ in warm}
    assert not warm_states & {id(p) for p in probes}
    assert [s for s, _ in timed] == probes
    assert all(enabled for _, enabled in warm) and not any(enabled for _, enabled in timed)
    assert gc.isenabled()  # given back afterwards
