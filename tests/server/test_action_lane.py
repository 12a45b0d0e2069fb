"""The action path on the event loop: ``ActionLane`` answers an action as the route does (WEB.md's
answers, byte for byte), ``TableManager.act_soon`` awaits only the commit and is durable before it
answers, and ``Store.append_then`` calls back at the commit (SQLite's committer on its own connection)."""

from __future__ import annotations

import asyncio
import queue
import threading

import httpx
import pytest

from dicetable.web import create_site
from dicetable.server.live import LiveTable, Subscriber
from dicetable.server.routes.lane import action_body, action_table
from dicetable.server.store import Conflict, Store
from dicetable.server.tables import TableManager

from ..cycles import cyclic_garbage
from .helpers import auth, in_fresh_loop
from .test_store import _table

GAME = "kingdom-of-dice"


async def _started(app, client: httpx.AsyncClient) -> tuple[str, dict]:
    """A new two-seat table (seed 7) whose seats both joined (each fetched its view): its id and tokens."""
    r = await client.post("/api/tables", json={"game": GAME, "players": 2, "seed": 7,
                                               "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    made = r.json()
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    for token in tokens.values():
        assert (await client.get(f"/api/tables/{made['table_id']}", headers=auth(token))).status_code == 200
    return made["table_id"], tokens


def _run(db: str, body, monkeypatch=None, lane: bool = True):
    """Run ``body(app, client, calls)`` on a fresh app; ``calls`` counts TableManager.act (a worker
    thread's action) and act_soon answers (the loop's). ``lane`` False: act_soon declines every
    action (the route's thread path answers everything)."""
    calls = {"thread": 0, "loop": 0}
    real_act, real_soon = TableManager.act, TableManager.act_soon

    def act(self, *a, **kw):
        calls["thread"] += 1
        return real_act(self, *a, **kw)

    async def act_soon(self, *a, **kw):
        if not lane:
            return None
        answer = await real_soon(self, *a, **kw)
        calls["loop"] += answer is not None
        return answer

    monkeypatch.setattr(TableManager, "act", act)
    monkeypatch.setattr(TableManager, "act_soon", act_soon)
    app = create_site(db)

    async def main():
        async with app.router.lifespan_context(app):
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
                return await body(app, client, calls)

    return in_fresh_loop(main)


def _first_move(app, table_id: str) -> tuple[TableManager, LiveTable, int, str]:
    """The app's manager, the live table, the seat to move and its first legal action."""
    m: TableManager = app.state.manager
    lt = m.tables[table_id]
    seat = lt.state.to_move[0]
    return m, lt, seat, lt.state.legal_actions(seat)[0].id


def _mover(view: dict) -> int:
    return view["to_move"][0]


def test_a_joined_seats_action_is_applied_on_the_loop_stored_before_the_answer(sqlite_url, monkeypatch):
    async def body(app, client, calls):
        table_id, tokens = await _started(app, client)
        view = (await client.get(f"/api/tables/{table_id}", headers=auth(tokens[0]))).json()
        seat = _mover(view)
        action = view["legal_actions"][0]["id"] if seat == 0 else None
        if action is None:
            action = (await client.get(f"/api/tables/{table_id}", headers=auth(tokens[seat]))).json()[
                "legal_actions"][0]["id"]
        r = await client.post(f"/api/tables/{table_id}/actions", json={"action": action, "version": 0},
                              headers={**auth(tokens[seat]), "Prefer": "return=minimal"})
        assert r.status_code == 200
        assert r.content == b'{"version":1,"undos":0}'  # WEB.md: the minimal answer
        assert r.headers["content-type"] == "application/json"
        assert r.headers["x-content-type-options"] == "nosniff"  # the guards still ran around it
        assert app.state.store.count_actions(table_id) == 1  # committed before the answer
        assert calls == {"thread": 0, "loop": 1}
        # without Prefer: the new view, the one a GET gives
        seat = _mover((await client.get(f"/api/tables/{table_id}", headers=auth(tokens[0]))).json())
        view = (await client.get(f"/api/tables/{table_id}", headers=auth(tokens[seat]))).json()
        r = await client.post(f"/api/tables/{table_id}/actions",
                              json={"action": view["legal_actions"][0]["id"], "version": 1},
                              headers=auth(tokens[seat]))
        assert r.status_code == 200
        assert r.json()["version"] == 2
        assert r.json() == (await client.get(f"/api/tables/{table_id}", headers=auth(tokens[seat]))).json()
        assert calls == {"thread": 0, "loop": 2}
        assert app.state.store.count_actions(table_id) == 2

    _run(sqlite_url, body, monkeypatch)


#: Requests after which the table is unchanged: what each sends (the action and version are filled in).
REFUSED = {
    "stale version": ({"action": "{a}", "version": 5}, "{t}"),
    "illegal action": ({"action": "no-such-action", "version": 0}, "{t}"),
    "extra field": ({"action": "{a}", "version": 0, "x": 1}, "{t}"),
    "negative version": ({"action": "{a}", "version": -1}, "{t}"),
    "version as text": ({"action": "{a}", "version": "0"}, "{t}"),
    "version as a bool": ({"action": "{a}", "version": False}, "{t}"),
    "empty action": ({"action": "", "version": 0}, "{t}"),
    "long action": ({"action": "x" * 201, "version": 0}, "{t}"),
    "no token": ({"action": "{a}", "version": 0}, None),
    "unknown token": ({"action": "{a}", "version": 0}, "not-a-token"),
    "not a bearer": ({"action": "{a}", "version": 0}, "Basic {t}"),
    "the other seat's token": ({"action": "{a}", "version": 0}, "{o}"),
}


def _refusals(db: str, monkeypatch, lane: bool) -> dict:
    """Each of :data:`REFUSED` sent to a fresh table: ``{name: (status, body, actions stored)}``."""
    async def body(app, client, calls):
        out = {}
        for name, (sent, who) in REFUSED.items():
            table_id, tokens = await _started(app, client)
            view = (await client.get(f"/api/tables/{table_id}", headers=auth(tokens[0]))).json()
            seat = _mover(view)
            mine = (await client.get(f"/api/tables/{table_id}", headers=auth(tokens[seat]))).json()
            fill = {"a": mine["legal_actions"][0]["id"], "t": tokens[seat], "o": tokens[1 - seat]}
            data = {k: v.format(**fill) if isinstance(v, str) else v for k, v in sent.items()}
            headers = {"Prefer": "return=minimal"}
            if who is not None:
                text = who.format(**fill)
                headers["Authorization"] = text if text.startswith("Basic") else f"Bearer {text}"
            r = await client.post(f"/api/tables/{table_id}/actions", json=data, headers=headers)
            stored = app.state.store.count_actions(table_id)
            # the table id differs from table to table: the answers are compared without it
            out[name] = (r.status_code, r.text.replace(table_id, "<id>"), stored)
        return out

    return _run(db, body, monkeypatch, lane=lane)


def test_refusals_are_the_routes_own_with_or_without_the_lane(sqlite_url, tmp_path, monkeypatch):
    with_lane = _refusals(sqlite_url, monkeypatch, lane=True)
    without = _refusals(f"sqlite:///{tmp_path / 'other.db'}", monkeypatch, lane=False)
    assert with_lane == without
    expected = {"stale version": 409, "illegal action": 422, "extra field": 422, "negative version": 422,
                "version as text": 422, "version as a bool": 422, "empty action": 422, "long action": 422,
                "no token": 401, "unknown token": 403, "not a bearer": 401, "the other seat's token": 422}
    assert {name: got[0] for name, got in with_lane.items()} == expected
    assert all(stored == 0 for _, _, stored in with_lane.values())  # nothing stored for any refusal
    assert "version 5 is not the table's version 0" in with_lane["stale version"][1]


def test_two_actions_at_once_for_one_table_give_one_200_and_one_409(sqlite_url, monkeypatch):
    async def body(app, client, calls):
        table_id, tokens = await _started(app, client)
        seat = _mover((await client.get(f"/api/tables/{table_id}", headers=auth(tokens[0]))).json())
        view = (await client.get(f"/api/tables/{table_id}", headers=auth(tokens[seat]))).json()
        post = {"json": {"action": view["legal_actions"][0]["id"], "version": 0},
                "headers": {**auth(tokens[seat]), "Prefer": "return=minimal"}}
        answers = await asyncio.gather(*(client.post(f"/api/tables/{table_id}/actions", **post) for _ in range(2)))
        assert sorted(r.status_code for r in answers) == [200, 409]
        assert app.state.store.count_actions(table_id) == 1
        assert app.state.manager.tables[table_id].version == 1

    _run(sqlite_url, body, monkeypatch)


def test_a_cancelled_caller_does_not_cut_the_action_short(sqlite_url, monkeypatch):
    async def body(app, client, calls):
        table_id, tokens = await _started(app, client)
        m, lt, seat, action = _first_move(app, table_id)
        task = asyncio.ensure_future(m.act_soon(table_id, seat, action, 0, minimal=True))
        await asyncio.sleep(0)  # it applied the action and waits for the commit, the lock held
        assert table_id in m.committing
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        for _ in range(500):  # the commit still lands, and the action is cached and the lock freed
            if table_id not in m.committing:
                break
            await asyncio.sleep(0.01)
        assert lt.version == 1 and app.state.store.count_actions(table_id) == 1
        freed = []
        worker = threading.Thread(target=lambda: freed.append(lt.lock.acquire(timeout=5) and lt.lock.release()))
        worker.start()
        worker.join()
        assert freed == [None]  # a thread could take the lock

    _run(sqlite_url, body, monkeypatch)


def test_the_action_is_cached_at_its_commit_and_answered_at_the_next_turn_of_the_loop(sqlite_url, monkeypatch):
    # every turn of a busy loop between the commit and the answer adds a whole turn's wait to the
    # round trip (docs/load.md, "An action's turns of the loop"): a future settled by the commit
    # and awaited through a task and a shield took three
    async def body(app, client, calls):
        table_id, tokens = await _started(app, client)
        m, lt, seat, action = _first_move(app, table_id)
        loop = asyncio.get_running_loop()
        turns, seen = [0], {}
        watcher = Subscriber(None, loop, queue.SimpleQueue())  # a spectator's connection on this loop
        m.pushes.subscribe(lt, watcher)
        assert watcher.queue.qsize() == 1  # its full view, queued at once (subscribed on the loop's thread)

        def tick():  # runs once in every turn of the loop while the action is in flight
            turns[0] += 1
            if "answered" not in seen:
                loop.call_soon(tick)

        queue_append = m.store.append_then

        def watched(*args, **kwargs):
            then = args[6]  # (table, seq, seat, action, by, undoable, then)

            def committed(stored, failure):
                seen["committed"] = turns[0]
                then(stored, failure)
                seen["cached"] = (lt.version, table_id in m.committing, watcher.queue.qsize())

            return queue_append(*args[:6], committed, *args[7:], **kwargs)

        monkeypatch.setattr(m.store, "append_then", watched)
        loop.call_soon(tick)
        answer = await m.act_soon(table_id, seat, action, 0, minimal=True)
        seen["answered"] = turns[0]
        assert answer == {"version": 1, "undos": lt.undos}
        assert seen["cached"] == (1, False, 2)  # cached, pushed and the lock let go in the commit's own turn
        assert 0 <= seen["answered"] - seen["committed"] <= 1, seen

    _run(sqlite_url, body, monkeypatch)


def append_soon(store: Store, *args) -> asyncio.Future:
    """``Store.append_then`` with a future settled by its callback: the stored action, or its failure."""
    future = asyncio.get_running_loop().create_future()

    def settle(action, failure):
        if not future.cancelled():
            future.set_result(action) if failure is None else future.set_exception(failure)

    store.append_then(*args, settle)
    return future


def test_append_then_calls_back_at_the_commit_and_a_lost_race_is_a_conflict(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    _table(store, "t1")

    async def main():
        first = await append_soon(store, "t1", 1, 0, "roll", "seat", True)
        assert (first.table_id, first.seq, first.action, first.undoable) == ("t1", 1, "roll", True)
        with pytest.raises(Conflict):
            await append_soon(store, "t1", 1, 1, "again", "seat", False)
        both = [append_soon(store, "t1", 2, 0, "a", "seat", False), append_soon(store, "t1", 2, 1, "b", "seat", False)]
        outcomes = await asyncio.gather(*both, return_exceptions=True)
        assert sum(isinstance(o, Conflict) for o in outcomes) == 1

    try:
        in_fresh_loop(main)
        store.append("t1", 3, 1, "last", "bot", False, status="over")  # through SQLAlchemy (a status to set)
        rows = store.actions_after("t1", 0)
        assert [(r.seq, r.seat, r.action, r.by) for r in rows][0] == (1, 0, "roll", "seat")
        assert [r.seq for r in rows] == [1, 2, 3] and rows[0].undoable is True
        # the committer's own connection stores the time as SQLAlchemy does: both read back alike
        assert type(rows[0].created) is type(rows[2].created) and rows[0].created <= rows[2].created
        assert store.status("t1") == "over"
    finally:
        store.close()


def test_an_append_on_the_loop_leaves_no_reference_cycle(tmp_path):
    # every action at a live table is one of these: a cycle each was most of the collector's work
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    _table(store, "t1")

    async def main():
        await append_soon(store, "t1", 1, 0, "roll", "seat", True)  # the committer thread is started
        with cyclic_garbage() as left:
            for seq in range(2, 12):
                stored = await append_soon(store, "t1", seq, 0, "roll", "seat", True)
                assert stored.seq == seq
            lost = append_soon(store, "t1", 3, 1, "again", "seat", False)  # a lost race: settled with Conflict
            await asyncio.wait([lost])
            assert isinstance(lost.exception(), Conflict)
            del lost
        kinds = {type(o).__name__ for o in left}
        assert not kinds & {"_Pending", "StoredAction", "Future", "Event", "Conflict"}, sorted(kinds)

    try:
        in_fresh_loop(main)
        assert [r.seq for r in store.actions_after("t1", 0)] == list(range(1, 12))
    finally:
        store.close()


@pytest.mark.parametrize("path, table", [("/api/tables/abc/actions", "abc"), ("/api/tables/a/b/actions", None),
                                         ("/api/tables//actions", None), ("/api/tables/abc", None),
                                         ("/api/tables/abc/undo", None)])
def test_action_table_reads_only_an_actions_path(path, table):
    assert action_table(path) == table


@pytest.mark.parametrize("raw, fields", [
    (b'{"action": "roll", "version": 3}', ("roll", 3)),
    (b'{"version": 0, "action": "x"}', ("x", 0)),
    (b'{"action": "roll", "version": 3.0}', None),
    (b'{"action": "roll", "version": true}', None),
    (b'{"action": "roll"}', None),
    (b'{"action": "roll", "version": 1, "more": 1}', None),
    (b'["roll", 1]', None),
    (b'not json', None),
    (b'{"action": "roll", "version": 123456789012345678901234567890}', None),
])
def test_action_body_takes_only_what_the_routes_model_takes_as_it_is(raw, fields):
    assert action_body(raw) == fields


def test_a_view_from_the_lane_is_the_routes_own(sqlite_url, monkeypatch):
    async def body(app, client, calls):
        table_id, tokens = await _started(app, client)
        answered = []
        real = TableManager.view_soon

        def view_soon(self, lt, seat):
            view = real(self, lt, seat)
            answered.append(seat if view is not None else "declined")
            return view

        monkeypatch.setattr(TableManager, "view_soon", view_soon)
        asks = [auth(tokens[0]), auth(tokens[1]), {}, auth("not-a-token")]
        lane = [await client.get(f"/api/tables/{table_id}", headers=h) for h in asks]
        assert answered == [0, 1, None]  # the unknown token went on to the route
        monkeypatch.setattr(TableManager, "view_soon", lambda self, lt, seat: None)
        route = [await client.get(f"/api/tables/{table_id}", headers=h) for h in asks]
        assert [(r.status_code, r.content) for r in lane] == [(r.status_code, r.content) for r in route]
        assert [r.status_code for r in lane] == [200, 200, 200, 403]
        assert lane[2].json()["legal_actions"] == []  # a spectator is offered no action (WEB.md)
        assert lane[0].headers["content-encoding"] == "gzip"  # a view is large: still gzipped

    _run(sqlite_url, body, monkeypatch)


def test_a_lost_race_on_the_loop_is_a_409_and_the_table_is_reloaded(sqlite_url, monkeypatch):
    async def body(app, client, calls):
        table_id, tokens = await _started(app, client)
        m, lt, seat, action = _first_move(app, table_id)
        epoch = lt.epoch

        def lost(*args, **kwargs):  # another process stored action 1 first (as PostgreSQL's unique key says)
            then = args[6]  # (table, seq, seat, action, by, undoable, then)
            asyncio.get_running_loop().call_soon(then, None, Conflict("action 1 exists already"))

        monkeypatch.setattr(m.store, "append_then", lost)
        r = await client.post(f"/api/tables/{table_id}/actions", json={"action": action, "version": 0},
                              headers={**auth(tokens[seat]), "Prefer": "return=minimal"})
        assert r.status_code == 409
        assert r.json()["detail"].startswith("another move was stored first")
        assert lt.epoch == epoch + 1 and lt.version == 0  # rebuilt from the store, which holds no action
        assert table_id not in m.committing and calls["thread"] == 0

    _run(sqlite_url, body, monkeypatch)


def test_the_committers_own_sqlite_connection_flushes_every_commit(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    _table(store, "t1")
    try:
        store.append("t1", 1, 0, "roll", "seat", False)  # a plain append: the committer's own connection
        assert store._raw is not None
        pragmas = store._raw.conn.cursor()
        assert pragmas.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: flushed before the answer
        assert pragmas.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        pragmas.close()
        assert store.count_actions("t1") == 1
    finally:
        store.close()
