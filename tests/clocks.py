"""Fake wall clocks for the search bots' caps, as tests/rl/test_reproducible_opponents.py fakes them.

The search levels read ``time.perf_counter`` to cap a decision and a turn (docs/bots.md "Time").
``frozen_clock`` stops it (no cap ever cuts a search: an infinitely fast machine);
``jumping_clock`` moves it 10 s at every reading (every cap cuts at once: a machine far too busy).
"""

from __future__ import annotations

import time

import pytest


def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """``time.perf_counter`` answers 1000.0 at every reading until the test ends."""
    monkeypatch.setattr(time, "perf_counter", lambda: 1000.0)


def jumping_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """``time.perf_counter`` answers 10 s later than its previous answer at every reading."""
    now = [1000.0]

    def reading() -> float:
        now[0] += 10.0
        return now[0]
    monkeypatch.setattr(time, "perf_counter", reading)
