"""A live table's memory stays bounded (issue 26 item 4): idle tables leave memory and come back the same,
and a table keeps a snapshot only for the viewers that have a connection."""

from __future__ import annotations

import json
import queue
import random

import pytest

from dicetable.server.live import compact, record_of
from dicetable.server.store import Store
from dicetable.server.tables import Subscriber, TableManager


class Inline:
    """An event loop stand-in that runs what is handed to it at once."""

    def call_soon_threadsafe(self, fn, *args):
        fn(*args)


@pytest.fixture
def manager(tmp_path):
    m = TableManager(Store(f"sqlite:///{tmp_path / 'memory.db'}"), bot_threads=1, search_processes=0,
                     id_factory=lambda: "memtable", idle_evict=0)
    yield m
    m.close()


def _play(m: TableManager, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        lt = m.get("memtable")
        if lt.state.is_over:
            return
        seat = lt.state.to_move[0]
        m.act("memtable", seat, rng.choice(lt.state.legal_actions(seat)).id, lt.version, minimal=True)


@pytest.mark.parametrize("game", ["biblios-dice", "kingdom-of-dice", "valeria-card-kingdoms",
                                  "dice-kingdoms-of-valeria"])
def test_an_evicted_idle_table_comes_back_the_same_and_its_subscribers_get_a_full_view(manager, game):
    manager.create(game, 3, {}, 5, [{"kind": "human"}] * 3, None)
    _play(manager, random.Random(1), 25)
    lt = manager.get("memtable")
    views = {seat: manager.view(lt, seat) for seat in (0, 1, None)}
    wire = manager.live_view(lt, 0)
    record = record_of(lt)

    assert manager.evict_idle(older=3600) == []  # just used: kept
    sub = Subscriber(0, Inline(), queue.SimpleQueue())
    manager.subscribe(lt, sub)
    assert manager.evict_idle(older=0) == []  # a connection holds it
    manager.unsubscribe(lt, sub)
    assert manager.evict_idle(older=0) == ["memtable"]
    assert "memtable" not in manager.tables

    back = manager.get("memtable")
    assert back is not lt
    assert {seat: manager.view(back, seat) for seat in (0, 1, None)} == views
    assert record_of(back) == record
    again = Subscriber(0, Inline(), queue.SimpleQueue())
    manager.subscribe(back, again)
    first = json.loads(again.queue.get_nowait())
    assert first["type"] == "view"
    assert {k: v for k, v in first.items() if k not in ("type", "seats")} == \
        {k: v for k, v in wire.items() if k != "seats"}
    assert first["seats"][0]["connected"] is True


@pytest.mark.parametrize("seed", range(4))
def test_a_table_keeps_snapshots_only_for_viewers_with_a_connection(manager, seed):
    rng = random.Random(seed)
    manager.create("kingdom-of-dice", 3, {}, seed, [{"kind": "human"}] * 3, None)
    lt = manager.get("memtable")
    subs: list[Subscriber] = []
    for _ in range(60):
        step = rng.random()
        if step < 0.35:
            sub = Subscriber(rng.choice([0, 1, 2, None]), Inline(), queue.SimpleQueue())
            manager.subscribe(lt, sub)
            subs.append(sub)
        elif step < 0.6 and subs:
            manager.unsubscribe(lt, subs.pop(rng.randrange(len(subs))))
        else:
            _play(manager, rng, 1)
        viewers = {sub.key for sub in subs}
        assert set(lt.live) <= viewers, f"snapshots {set(lt.live)} for viewers {viewers}"
        assert len(lt.live) <= len(viewers)
        held = [(key, snap.text is not None, snap.change is not None) for key, snap in lt.live.items()]
        assert all(not text and not change for _, text, change in held), f"message texts kept: {held}"


@pytest.mark.parametrize("seed", range(3))
def test_every_connection_gets_a_full_view_then_changes_from_the_version_it_holds(manager, seed):
    """LIVE.md section 4: a connection's first message is a full view; each later one is a change whose
    ``base`` is the ``[undos, version]`` the connection holds, or a full view. The table lets its message
    texts go once queued, so this is what the queues alone carry."""
    rng = random.Random(seed)
    manager.create("biblios-dice", 3, {}, seed, [{"kind": "human"}] * 3, None)
    lt = manager.get("memtable")
    subs: list[Subscriber] = []
    held: dict[int, list] = {}
    for _ in range(50):
        if rng.random() < 0.3:
            sub = Subscriber(rng.choice([0, 1, 2, None]), Inline(), queue.SimpleQueue())
            manager.subscribe(lt, sub)
            subs.append(sub)
        else:
            _play(manager, rng, 1)
        for sub in subs:
            while not sub.queue.empty():
                message = json.loads(sub.queue.get_nowait())
                if message["type"] == "view":
                    held[id(sub)] = [message["undos"], message["version"]]
                else:
                    assert message["type"] == "change"
                    assert id(sub) in held, "a change came before any full view"
                    assert message["base"] == held[id(sub)]
                    held[id(sub)] = [message["undos"], message["version"]]
    for sub in subs:
        assert held[id(sub)] == [lt.undos, lt.version]


@pytest.mark.parametrize("text,seconds", [("", 600.0), ("30", 30.0), ("0", 0.0)])
def test_idle_evict_is_read_from_the_environment(monkeypatch, text, seconds):
    from dicetable.server.tables import idle_evict_from_env

    monkeypatch.setenv("DICETABLE_IDLE_EVICT", text)
    assert idle_evict_from_env() == seconds


@pytest.mark.parametrize("text", ["soon", "-5", "nan"])
def test_a_bad_idle_evict_names_the_variable_and_what_is_allowed(monkeypatch, text):
    from dicetable.server.tables import idle_evict_from_env

    monkeypatch.setenv("DICETABLE_IDLE_EVICT", text)
    with pytest.raises(ValueError, match="DICETABLE_IDLE_EVICT=.*a number 0 or more"):
        idle_evict_from_env()


@pytest.mark.parametrize("game", ["dice-kingdoms-of-valeria", "valeria-card-kingdoms"])
def test_a_live_tables_log_is_its_states_log_with_the_same_texts(manager, game):
    manager.create(game, 3, {}, 7, [{"kind": "human"}] * 3, None)
    _play(manager, random.Random(7), 20)
    for lt in (manager.get("memtable"), None):
        if lt is None:  # and once more after the table left memory and was rebuilt from the store
            assert manager.evict_idle(older=0) == ["memtable"]
            lt = manager.get("memtable")
        log = lt.state.log
        assert len(log) > 20 and lt.log_len == len(lt.events) == len(log)
        assert list(lt.events) == log
        assert lt.events.loose_count() == 0  # every action's events packed (a fifth of their memory)
        # the very text objects of the state's log: no copy of a text is made for the table or its views
        assert all(a.text is b.text for a, b in zip(lt.events, lt.state.event_log()))


def test_dice_kingdoms_views_are_the_same_bytes_when_built_with_every_memo_empty(manager):
    """The shared sheet views and the board's parts made once per process change no byte of a view: a
    viewer's full view message equals one built after every memo of the title was emptied."""
    from dicetable.games.dice_kingdoms_of_valeria import board
    from dicetable.games.dice_kingdoms_of_valeria.rules import scoring

    manager.create("dice-kingdoms-of-valeria", 4, {}, 11, [{"kind": "human"}] * 4, None)
    _play(manager, random.Random(11), 50)
    lt = manager.get("memtable")
    sent = {}
    for seat in (0, 3, None):
        sub = Subscriber(seat, Inline(), queue.SimpleQueue())
        manager.subscribe(lt, sub)
        sent[seat] = sub.queue.get_nowait()
    connected = {seat: json.loads(text)["seats"] for seat, text in sent.items()}
    for memo in (scoring._VIEWS, scoring._CITIZENS, scoring._ROADS, scoring._BLOCKS, scoring._LAIRS, board._SHEETS):
        memo.clear()
    for cached in (board._panel, board._root, board._citizen, board._road, board._lair, board._keys):
        cached.cache_clear()
    for seat, text in sent.items():
        fresh = manager.live_view(lt, seat)
        fresh["seats"] = connected[seat]  # as it was when that viewer's message was made
        assert compact({"type": "view", **fresh}) == text
    first = {seat: json.loads(text) for seat, text in sent.items()}
    assert first[0]["observation"]["players"] == first[None]["observation"]["players"]
