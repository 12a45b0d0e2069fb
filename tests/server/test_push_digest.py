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
    "biblios-dice": "3ba5bce4d24eedcb1b6cc8b905801d5abc111a97ce049548b9632ce64356d53b",  # what to click said only to the seat that acts
    "corsairs-of-valeria": "4e2993864c5a7ac3b8a11703485fa7dc0b0257915c31155f09fc62562b5d0898",
    "dice-kingdoms-of-valeria": "137e3ae6c187a73ff31a42f56cbb6ffbb0644f6aecaba922bad49d11e59995d9",
    "kingdom-of-dice": "12411d80f8454e0e2f023b9728f7683483f8ddbb2e98ca8c4dab30c777a58ba7",  # a stop that scores nothing marked "confirm"
    "valeria-card-kingdoms": "3aff961a73c320567029ca235ae51d241c08aaaf4ce3b5ecdc3a9da552576d10",
}

#: More games per title, ``(game, table seed, seed of the actions' generator)``: digests recorded from the
#: server before a snapshot held its observation as JSON texts (docs/load.md, "The viewers' snapshots,
#: lighter"; main at 034a197; Biblios' again at e844f69, once it named one die in the singular, and at
#: 2026-12-07's merge of web24, once its board said what to click only to the seat that can act: with
#: #: that line put back as it was, the old digests came back; Kingdom of Dice's on 2026-12-07, once a
#: choice that throws the turn away carried its "confirm" warning: without that key the old digests come
#: back), the reference that the texts change no byte any viewer receives.
MORE_DIGESTS: dict[tuple[str, int, int], str] = {
    ("biblios-dice", 3, 101): "6616410e5441b0896f6f6ed9f43aefa9b8f212deb4403f71d0ede825cd79874f",
    ("biblios-dice", 19, 5): "98b1138ab8457bdc2878e384a720421492d0655e4aaebc50e21b0cd5b754d17b",
    ("biblios-dice", 2026, 42): "8223a0aec3a7db4d6fa7526d33caa4850a3d660b1f384f6f3fc96967af448034",
    ("corsairs-of-valeria", 3, 101): "e0a37fde5325c93af0becb49ee8efe45e4c201c9cf278b6a2883ea3ca2119c7b",
    ("corsairs-of-valeria", 19, 5): "1b1c94e63c97a5bffced9a9526470271724bfc6812e2e28474dae273910fd12a",
    ("corsairs-of-valeria", 2026, 42): "6ca31bde5d562bb391cc70140de76e870f57dfb36f9a8f6f19d7df52553f677c",
    ("dice-kingdoms-of-valeria", 3, 101): "b980441567e775d85249d0e7adb108dcc55b13f8836230f26e3559b7f0758d0c",
    ("dice-kingdoms-of-valeria", 19, 5): "a91a7a1b1249c68afa219b7e64e9dbdfc41ad746a1e9b11863a2bea04ab568b1",
    ("dice-kingdoms-of-valeria", 2026, 42): "1a057db2e3ac1555150eff0fcd8c67e4f3463c1d35cec0989afbe475fe55535b",
    ("kingdom-of-dice", 3, 101): "4d04852509f979e3651ca561c89aaa11f69a94f4687b2bda52939f2820aafb8e",
    ("kingdom-of-dice", 19, 5): "51bc8e1e671fb495f840e597b9a0f4dc77d02f654f72c64b20b5b073acf5598c",
    ("kingdom-of-dice", 2026, 42): "0b117b96295b507fc492a959a701a6f07c6a31a9527f87e6b3666d45a4e304eb",
    ("valeria-card-kingdoms", 3, 101): "6f509d8c9b65d3d3be33309b4e737c33a2efe4e2915fb246a9f0f77889abea12",
    ("valeria-card-kingdoms", 19, 5): "0350e6d927171286d5f22c75bb95d32e73a2a78cf865ced4ea75bcf003e1ea72",
    ("valeria-card-kingdoms", 2026, 42): "898fa8cb49d5c59ae478f7aa6fa1d3499a870d61cf147fdb807539c39fe7cede",
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
