"""Leak test of the live wire: a viewer's full view and change messages depend only on what it may see.

Two tables (two managers, each its own SQLite file) play the same actions
from the same seed. At a check point the second table's state is replaced by
one whose hidden parts are resampled for the viewer (``determinize``, grafted
onto the real state's log, history and dice, as in ``test_leak``), so only
what the viewer cannot see differs. A connection of the viewer then opens on
both tables: its full view must be byte-identical. The same actions go on
being played on both tables, and every change message the viewer gets must be
byte-identical too, for as long as the two states still look the same to the
viewer (same observation, same visible log, same legal actions): once a rule
reveals a resampled thing to the viewer (it draws a card), or no action is
legal on both (another seat's secret options were resampled), the two games
really part, and the comparison stops there.
"""

from __future__ import annotations

import json
import queue
import random

import pytest

from dicetable.engine import load_state
from dicetable.server.store import Store
from dicetable.server.tables import Subscriber, TableManager

from .test_leak import HIDDEN

CHECKS = (0, 4, 12, 25)
FOLLOW = 12


class Inline:
    """An event loop stand-in that runs what is handed to it at once."""

    def call_soon_threadsafe(self, fn, *args):
        fn(*args)


def _graft(state, viewer_seat: int, k: int):
    saved = state.to_dict()
    saved["state"] = state.determinize(viewer_seat, k).to_dict()["state"]
    return load_state(saved, verify=False)


def _looks_same(a, b, viewer) -> bool:
    return (a.observation(viewer) == b.observation(viewer)
            and [e.to_json() for e in a.log_for(viewer)] == [e.to_json() for e in b.log_for(viewer)]
            and (viewer is None or [x.id for x in a.legal_actions(viewer)] == [x.id for x in b.legal_actions(viewer)]))


@pytest.mark.parametrize("game,options", HIDDEN)
@pytest.mark.parametrize("viewer", [0, None])
def test_live_messages_are_byte_identical_when_only_hidden_parts_differ(tmp_path, game, options, viewer):
    differed = compared = 0
    for check in CHECKS:
        managers = [TableManager(Store(f"sqlite:///{tmp_path / f'{check}-{n}.db'}"), bot_threads=1,
                                 id_factory=lambda: "leaktable") for n in (0, 1)]
        try:
            tables = []
            for m in managers:
                m.create(game, 2, options, 77, [{"kind": "human"}, {"kind": "human"}], None)
                tables.append(m.get("leaktable"))
            rng = random.Random(check)

            def play() -> bool:
                """One random action legal on both tables, played on both; False when there is none."""
                state = tables[0].state
                if state.is_over:
                    return False
                seat = state.to_move[0]
                other = {x.id for x in tables[1].state.legal_actions(seat)}
                common = [x.id for x in state.legal_actions(seat) if x.id in other]
                if not common:  # the mover's hidden options were resampled: the games part here
                    return False
                action = rng.choice(common)
                for m, lt in zip(managers, tables):
                    m.act("leaktable", seat, action, lt.version)
                return True

            for _ in range(check):
                if not play():
                    break
            real = tables[1].state
            resample_for = 0 if viewer == 0 else 1  # a spectator: seat 0's secrets are resampled
            tables[1].state = _graft(real, resample_for, 1000 + check)
            assert _looks_same(tables[0].state, tables[1].state, viewer)
            hidden_differs = tables[1].state.to_dict()["state"] != real.to_dict()["state"]
            differed += hidden_differs
            subs = [Subscriber(viewer, Inline(), queue.SimpleQueue()) for _ in managers]
            for m, lt, sub in zip(managers, tables, subs):
                m.subscribe(lt, sub)
            first = [sub.queue.get_nowait() for sub in subs]
            assert json.loads(first[0])["type"] == "view"
            assert first[0] == first[1], f"{game} viewer {viewer}: the full view depends on hidden parts"
            for _ in range(FOLLOW):
                if not play() or not _looks_same(tables[0].state, tables[1].state, viewer):
                    break
                got = [[], []]
                for n, sub in enumerate(subs):
                    while not sub.queue.empty():
                        got[n].append(sub.queue.get_nowait())
                assert got[0] and json.loads(got[0][0])["type"] == "change"
                assert got[0] == got[1], f"{game} viewer {viewer}: a change message depends on hidden parts"
                compared += hidden_differs
        finally:
            for m in managers:
                m.close()
                m.store.close()
    # the check had teeth: hidden parts differed, and change messages were compared while they did
    assert differed > 0 and compared > 0
