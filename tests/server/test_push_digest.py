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

#: Per title: sha256 of every viewer's received messages and of the HTTP views, in order (see the module);
#: recorded again on 2026-12-07 for the view's new ``rematch`` and the seats' ``account`` keys.
DIGESTS: dict[str, str] = {
    "biblios-dice": "47691d193e11954a52b7c82791011190477fd23adae831f0a95e235556d89ac6",  # what to click said only to the seat that acts
    "corsairs-of-valeria": "ab212a71b0d36248cf655c8d310b952fc3f07789a3c7db6b34aecf2f04444669",
    "dice-kingdoms-of-valeria": "0f31145733249c7cf03150369de724eefd8e07f94ab252cd85019a86ffadab5e",
    "kingdom-of-dice": "cc16f8c0d8eded3a0219b7379e87af3579b9a054c097f87d6d3fed835a38b55f",  # a stop that scores nothing marked "confirm"
    "valeria-card-kingdoms": "542a61a57772bb865dc5531980daca5cacbaf44e5bb934ab4d53d1a37709e3ed",
}

#: More games per title, ``(game, table seed, seed of the actions' generator)``: digests recorded from the
#: server before a snapshot held its observation as JSON texts (docs/load.md, "The viewers' snapshots,
#: lighter"; main at 034a197; Biblios' again at e844f69, once it named one die in the singular, and at
#: 2026-12-07's merge of web24, once its board said what to click only to the seat that can act: with
#: that line put back as it was, the old digests came back; Kingdom of Dice's on 2026-12-07, once a
#: choice that throws the turn away carried its "confirm" warning; every title's on 2026-12-07, once the
#: view held ``rematch`` and each seat ``account``: without those keys the digests before each change
#: come back), the reference that the texts change no byte any viewer receives.
MORE_DIGESTS: dict[tuple[str, int, int], str] = {
    ("biblios-dice", 3, 101): "e47d2f83293b39b892168e5a3047f8b1f302457ffb4022541aff79f0109706d2",
    ("biblios-dice", 19, 5): "f6f6717c4abf37c8cfca07f6e9db6c35cea3d05b3d89b966e6f3487c84c61272",
    ("biblios-dice", 2026, 42): "f44db7d4c4df99e8583b2cc1e96c4eae81ac77ab286af7d2349cee0c11b1db90",
    ("corsairs-of-valeria", 3, 101): "f956dbc6ce1dd4f1f94da182b3a0f938a35994ad558b91d06bea6675fac3add4",
    ("corsairs-of-valeria", 19, 5): "f4d6526f230e9ebb16355736d64a97a225d79bb3461de77d4d515d866777d212",
    ("corsairs-of-valeria", 2026, 42): "172fc762b9f8d5af0b2c448ee12b7074a0569c06a5edf5fca1c810a91a9ba1b9",
    ("dice-kingdoms-of-valeria", 3, 101): "ede73fcfe7b1eebd0a3e9306af703c91c7d403f8ffe0689eeec416bddc77c94c",
    ("dice-kingdoms-of-valeria", 19, 5): "390cc975334df9447fea937f9c0ee35b6db5762b0947e08b59a6a4a88b0dbb84",
    ("dice-kingdoms-of-valeria", 2026, 42): "00f3d048634dbf675b4309aa4814ac8885baaa56c3d09adf6b5046f449128d7f",
    ("kingdom-of-dice", 3, 101): "11eeb367420808a6953f568137f870a52a0fa26aad0d43d16bae2e721806f3d4",
    ("kingdom-of-dice", 19, 5): "10ebe85cc3c66e82b66dd9534cd159b1b599845c48a3730f6b6a1710b7f3b743",
    ("kingdom-of-dice", 2026, 42): "0666723e3aae4ace619096a737aaaab6966ab9d0cb73b0b8148d7b00743ec6d0",
    ("valeria-card-kingdoms", 3, 101): "f1178d1341b68b65cb2a2de645172a8144aab50b41b0c732099971a07d9b8323",
    ("valeria-card-kingdoms", 19, 5): "500e01cf5f1a09ad9b1f3c157951dda26ed7abbd50f0013143a2bc7e4ba34813",
    ("valeria-card-kingdoms", 2026, 42): "04e270376b7fb6d1331f50636d1a0aa015b7508092b04de50bb07aa8e26494b8",
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


def received(game: str, tmp_path, seed: int = 7, moves: int = 11) -> str:
    """The sha256 of what every viewer of a 4-player ``game`` table of ``seed`` receives, its actions
    chosen by a generator of seed ``moves`` (see the module)."""
    m = TableManager(Store(f"sqlite:///{tmp_path / 'digest.db'}"), bot_threads=1, search_processes=0,
                     id_factory=lambda: "digesttable", idle_evict=0)
    try:
        m.create(game, 4, {}, seed, [{"kind": "human"}] * 4, None)
        lt = m.get("digesttable")
        digest = hashlib.sha256()
        rng = random.Random(moves)
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


@pytest.mark.parametrize("game,seed,moves", sorted(MORE_DIGESTS))
def test_more_games_send_exactly_the_recorded_messages(game, seed, moves, tmp_path):
    got = received(game, tmp_path, seed, moves)
    assert got == MORE_DIGESTS[game, seed, moves], f"{game} {seed}/{moves}: the messages changed (digest {got})"


def record_more(seeds: tuple[tuple[int, int], ...] = ((3, 101), (19, 5), (2026, 42))) -> None:
    """Print ``MORE_DIGESTS`` from the tree on the path (run it on the reference tree to record them)."""
    import tempfile
    from pathlib import Path

    for game in ["biblios-dice", "corsairs-of-valeria", "dice-kingdoms-of-valeria", "kingdom-of-dice",
                 "valeria-card-kingdoms"]:
        for seed, moves in seeds:
            with tempfile.TemporaryDirectory() as tmp:
                print(f'    ("{game}", {seed}, {moves}): "{received(game, Path(tmp), seed, moves)}",', flush=True)
