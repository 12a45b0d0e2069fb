"""What every viewer of a live table is sent stays exactly the same when the server's way of building it
changes (docs/web.md, "Live updates"): for one seeded game per title, with every seat and a spectator
connected, the messages each viewer receives (its first full view, every change message, the full views
after a seat reconnects) and the HTTP views are hashed and compared with digests recorded from the
server before its pushes were shared between viewers.

The digests are of the exact message texts, so any change of content or of key order fails here. To
record them again after a change that is meant to alter the wire, run this file with
``DICETABLE_RECORD_DIGESTS=1`` and paste what it prints into ``DIGESTS``.
"""

from __future__ import annotations

import hashlib
import os
import queue
import random

import pytest

from dicetable.server.jsonio import dumps
from dicetable.server.store import Store
from dicetable.server.tables import Subscriber, TableManager

#: Per title: sha256 of every viewer's received messages and of the HTTP views, in order (see the module).
DIGESTS: dict[str, str] = {
    "biblios-dice": "91306daf7aa4c503dbf1db4446ce9114ac9d515bf7e537b0b245c964538c7cf4",  # one die named singular
    "corsairs-of-valeria": "4e2993864c5a7ac3b8a11703485fa7dc0b0257915c31155f09fc62562b5d0898",
    "dice-kingdoms-of-valeria": "137e3ae6c187a73ff31a42f56cbb6ffbb0644f6aecaba922bad49d11e59995d9",
    "kingdom-of-dice": "0498536d3997859f7c87f6bb10d7bb145e067762b9f2b0f42c8e1de31c898c50",
    "valeria-card-kingdoms": "3aff961a73c320567029ca235ae51d241c08aaaf4ce3b5ecdc3a9da552576d10",
}

#: Actions played per title (random legal actions from a seeded generator): about a third of a game.
ACTIONS = 45


class Inline:
    """An event loop stand-in that runs what is handed to it at once."""

    def call_soon_threadsafe(self, fn, *args):
        fn(*args)


def _play(m: TableManager, tid: str, rng: random.Random, actions: int, digest) -> None:
    for _ in range(actions):
        lt = m.get(tid)
        if lt.state.is_over:
            return
        seat = lt.state.to_move[0]
        m.act(tid, seat, rng.choice(lt.state.legal_actions(seat)).id, lt.version, minimal=True)
        digest.update(dumps(m.view(lt, seat)).encode())


def received(game: str, tmp_path) -> str:
    """The sha256 of what every viewer of a seeded 4-player ``game`` table receives (see the module)."""
    m = TableManager(Store(f"sqlite:///{tmp_path / 'digest.db'}"), bot_threads=1, search_processes=0,
                     id_factory=lambda: "digesttable", idle_evict=0)
    try:
        m.create(game, 4, {}, 7, [{"kind": "human"}] * 4, None)
        lt = m.get("digesttable")
        digest = hashlib.sha256()
        rng = random.Random(11)
        _play(m, lt.id, rng, 3, digest)
        subs = [Subscriber(key, Inline(), queue.SimpleQueue()) for key in (0, 1, 2, 3, None, None)]
        for sub in subs:
            m.subscribe(lt, sub)
        _play(m, lt.id, rng, ACTIONS // 2, digest)
        m.unsubscribe(lt, subs[2])  # the others see seat 2's connection go, then come back
        _play(m, lt.id, rng, 2, digest)
        subs[2] = Subscriber(2, Inline(), queue.SimpleQueue())
        m.subscribe(lt, subs[2])
        _play(m, lt.id, rng, ACTIONS - ACTIONS // 2, digest)
        for key in (0, 1, 2, 3, None):
            digest.update(dumps(m.view(lt, key)).encode())
            digest.update(dumps(m.live_view(lt, key)).encode())
        for sub in subs:
            changes = 0
            while not sub.queue.empty():
                changes += 1
                digest.update(sub.queue.get_nowait().encode())
                digest.update(b"\n")
            digest.update(b"--\n")
            assert changes > 10, f"{game}: a connection of viewer {sub.key} got only {changes} messages"
        return digest.hexdigest()
    finally:
        m.close()
        m.store.close()


@pytest.mark.parametrize("game", ["biblios-dice", "corsairs-of-valeria", "dice-kingdoms-of-valeria",
                                  "kingdom-of-dice", "valeria-card-kingdoms"])
def test_every_viewer_receives_exactly_the_recorded_messages(game, tmp_path):
    got = received(game, tmp_path)
    if os.environ.get("DICETABLE_RECORD_DIGESTS"):
        print(f'\n    "{game}": "{got}",')
        return
    assert got == DIGESTS[game], f"{game}: the messages viewers receive changed (digest {got})"
