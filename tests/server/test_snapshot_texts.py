"""A live snapshot holds its observation as each entry's JSON text (docs/load.md, "The viewers' snapshots,
lighter"): what that needs of the games, what it gives the collector, and the wire it must not change.

The messages themselves are compared with the old server's in ``test_push_digest.py`` (digests recorded
before the change, several seeded games of each title).
"""

from __future__ import annotations

import gc
import json
import queue
import random
import types

import pytest

from dicetable.engine import new_game
from dicetable.engine.testing import shipped_games
from dicetable.server.delta import apply_patch, decoded, diff
from dicetable.server.jsonio import dumps
from dicetable.server.store import Store
from dicetable.server.tables import Subscriber, TableManager

GAMES = [spec.id for spec in shipped_games()]  # not the toy games other test modules may have registered


class Inline:
    """An event loop stand-in that runs what is handed to it at once."""

    def call_soon_threadsafe(self, fn, *args):
        fn(*args)


def _json_only(value, where: str) -> None:
    """Assert ``value`` is made of JSON values only: dicts with str keys, lists, str, int, float, bool, None."""
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            assert type(key) is str, f"{where}: key {key!r} is not a string"
            _json_only(item, f"{where}.{key}")
    elif kind is list:
        for n, item in enumerate(value):
            _json_only(item, f"{where}[{n}]")
    else:
        assert value is None or kind in (str, int, float, bool), f"{where}: a {kind.__name__}"


@pytest.mark.parametrize("game", GAMES)
def test_every_titles_observations_are_json_values_only(game):
    """The texts' patch is the structural diff only for values that decode to themselves (delta.entry_texts):
    every viewer's observation of every title, over seeded random games, holds nothing else (no tuple, no
    key that is not a string)."""
    spec = next(s for s in shipped_games() if s.id == game)
    for seed in (1, 2):
        players = spec.max_players if seed == 1 else spec.min_players
        state = new_game(game, players, seed)
        rng = random.Random(seed)
        for _ in range(150):
            for viewer in [*range(players), None]:
                _json_only(state.observation(viewer), f"{game} seed {seed} viewer {viewer}")
            if state.is_over:
                break
            seat = state.to_move[0]
            state.apply(rng.choice(state.legal_actions(seat)).id, seat)


def _young_tracked_in(roots: list, young: set[int]) -> int:
    """The young objects the collector tracks reachable from ``roots``, not walking into classes, modules
    or functions."""
    shared = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
    seen: set[int] = set()
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or not gc.is_tracked(obj) or isinstance(obj, shared):
            continue
        seen.add(id(obj))
        todo.extend(gc.get_referents(obj))
    return len(seen & young)


@pytest.mark.parametrize("game", GAMES)
def test_a_tables_snapshots_keep_few_objects_for_the_collector(game, tmp_path):
    """After moves at a table with a seat and a spectator connected, what the two snapshots keep alive of
    what the moves made (the young generation a collection walks) is at most 8 tracked objects a viewer,
    whatever the game's observation (before: 11-70 a viewer, most of them the observation's lists and
    dicts), and a snapshot's observation is nothing the collector tracks."""
    m = TableManager(Store(f"sqlite:///{tmp_path / 'young.db'}"), bot_threads=1, search_processes=0,
                     id_factory=lambda: "youngtable", idle_evict=0)
    try:
        m.create(game, 3, {}, 5, [{"kind": "human"}] * 3, None)
        lt = m.get("youngtable")
        for key in (0, None):
            m.subscribe(lt, Subscriber(key, Inline(), queue.SimpleQueue()))
        rng = random.Random(5)
        gc.collect()
        gc.disable()
        try:
            for _ in range(20):
                if lt.state.is_over:
                    break
                seat = lt.state.to_move[0]
                m.act(lt.id, seat, rng.choice(lt.state.legal_actions(seat)).id, lt.version, minimal=True)
            young = {id(o) for o in gc.get_objects(0)}
            kept = _young_tracked_in([lt.live], young)
        finally:
            gc.enable()
        assert len(lt.live) == 2
        assert kept <= 8 * 2, f"{game}: the snapshots keep {kept} young tracked objects"
        for snap in lt.live.values():
            assert not gc.is_tracked(snap.view["observation"])
    finally:
        m.close()
        m.store.close()


def _drain(sub: Subscriber) -> list[dict]:
    out = []
    while not sub.queue.empty():
        out.append(json.loads(sub.queue.get_nowait()))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_each_change_patches_the_observation_as_the_plain_diff_does(game, tmp_path):
    """The reference: each viewer's change message carries ``diff`` of its previous and current observations
    (built from scratch, as the game makes them), to the byte; its full view is the one built from scratch,
    to the byte; and the HTTP view of a snapshot holds the observation itself."""
    m = TableManager(Store(f"sqlite:///{tmp_path / 'ref.db'}"), bot_threads=1, search_processes=0,
                     id_factory=lambda: "reftable", idle_evict=0)
    try:
        m.create(game, 3, {}, 9, [{"kind": "human"}] * 3, None)
        lt = m.get("reftable")
        viewers = (0, 2, None)
        subs = {v: Subscriber(v, Inline(), queue.SimpleQueue()) for v in viewers}
        for v, sub in subs.items():
            m.subscribe(lt, sub)
            first = sub.queue.get_nowait()
            assert first == dumps({"type": "view", **m.live_view(lt, v)})
        for sub in subs.values():  # the others were told of each seat's connection
            while not sub.queue.empty():
                sub.queue.get_nowait()
        olds = {v: json.loads(dumps(lt.state.observation(v))) for v in viewers}  # a copy: a game may reuse its objects
        rng = random.Random(9)
        for _ in range(40):
            if lt.state.is_over:
                break
            seat = lt.state.to_move[0]
            m.act(lt.id, seat, rng.choice(lt.state.legal_actions(seat)).id, lt.version, minimal=True)
            for v in viewers:
                new = lt.state.observation(v)
                sent = _drain(subs[v])
                assert len(sent) <= 1 and all(message["type"] == "change" for message in sent)
                patch = sent[0].get("patch", []) if sent else []
                assert dumps(patch) == dumps(diff(olds[v], new))
                assert apply_patch(json.loads(dumps(olds[v])), patch) == new
                olds[v] = json.loads(dumps(new))
                assert dumps(lt.live[v].full()) == dumps(dumps({"type": "view", **m.live_view(lt, v)}))
                assert decoded(lt.live[v].view["observation"]) == new
                assert m.view(lt, v)["observation"] == new
    finally:
        m.close()
        m.store.close()
