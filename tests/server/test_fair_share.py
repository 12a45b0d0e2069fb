"""Fair shares of the search processes (issue: a server strangers cannot take down; docs/security.md).

One client's many tables of strong bots must not make another client's bot
or hint wait behind all of them: each search process takes one job at a
time, round robin by client and then by table (server/scheduler.py).
"""

from __future__ import annotations

import time
from concurrent.futures import Future

import pytest
from hypothesis import given, strategies as st

from dicetable.server.scheduler import FairQueue, Lanes, QueueFull


class Process:
    """A stand-in search process: records what it was given; the test finishes jobs one by one."""

    def __init__(self) -> None:
        self.running: list[tuple[object, Future]] = []

    def start(self, fn, *args) -> Future:
        fut: Future = Future()
        fut.set_running_or_notify_cancel()
        self.running.append((args[0] if args else fn, fut))
        return fut

    def finish(self, result: object = None) -> object:
        name, fut = self.running.pop(0)
        fut.set_result(result if result is not None else name)
        return name


def job(x):  # pragma: no cover - never called: the stand-in process only records it
    return x


def test_one_job_at_a_time_and_a_newcomer_goes_next():
    proc = Process()
    queue = FairQueue(proc.start)
    many = [queue.submit("A", f"a{i}", job, f"a{i}") for i in range(20)]
    assert [name for name, _ in proc.running] == ["a0"]  # the process gets one job, not twenty
    late = queue.submit("B", "b", job, "b")
    assert proc.finish() == "a0"
    assert [name for name, _ in proc.running] == ["b"]  # B's first job goes before A's other nineteen
    assert proc.finish() == "b" and late.result(0) == "b"
    order = [proc.finish() for _ in range(19)]
    assert order == [f"a{i}" for i in range(1, 20)]
    assert all(f.result(0) == f"a{i}" for i, f in enumerate(many))
    assert queue.waiting() == 0


def test_a_clients_tables_take_turns_and_so_do_clients():
    proc = Process()
    queue = FairQueue(proc.start)
    queue.submit("A", "t1", job, "first")  # starts at once
    for n in range(3):
        queue.submit("A", "t1", job, f"t1-{n}")
    for n in range(3):
        queue.submit("A", "t2", job, f"t2-{n}")
    for n in range(2):
        queue.submit("B", "u", job, f"u-{n}")
    order = [proc.finish() for _ in range(9)]
    # B had nothing waiting, so it joins at the head of the round; so does A's table t2 among A's tables
    assert order == ["first", "u-0", "t2-0", "u-1", "t1-0", "t2-1", "t1-1", "t2-2", "t1-2"]


def test_a_clients_waiting_jobs_are_bounded():
    proc = Process()
    queue = FairQueue(proc.start, per_client=3)
    for n in range(4):  # one runs, three wait
        queue.submit("A", "t", job, n)
    with pytest.raises(QueueFull):
        queue.submit("A", "t", job, "too many")
    assert queue.waiting("A") == 3
    queue.submit("B", "u", job, "others still get in")
    assert queue.waiting("B") == 1


def test_a_cancelled_waiting_job_is_skipped_and_errors_reach_the_caller():
    proc = Process()
    queue = FairQueue(proc.start)
    queue.submit("A", "t", job, "running")
    dropped = queue.submit("A", "t", job, "dropped")
    kept = queue.submit("A", "t", job, "kept")
    assert dropped.cancel()
    proc.finish()
    assert [name for name, _ in proc.running] == ["kept"]
    name, fut = proc.running.pop(0)
    fut.set_exception(ValueError("search failed"))
    with pytest.raises(ValueError, match="search failed"):
        kept.result(0)


def test_a_stopped_process_fails_the_job_and_frees_the_slot():
    calls = []

    def broken(fn, *args):
        calls.append(args[0])
        raise RuntimeError("cannot schedule new futures after shutdown")

    queue = FairQueue(broken)
    first = queue.submit("A", "t", job, 1)
    with pytest.raises(RuntimeError, match="after shutdown"):
        first.result(0)
    second = queue.submit("A", "t", job, 2)
    with pytest.raises(RuntimeError):
        second.result(0)
    assert calls == [1, 2]
    queue.cancel_all()


def test_cancel_all_drops_waiting_jobs():
    proc = Process()
    queue = FairQueue(proc.start)
    queue.submit("A", "t", job, 1)
    waiting = [queue.submit("B", "u", job, n) for n in range(3)]
    queue.cancel_all()
    assert all(f.cancelled() for f in waiting) and queue.waiting() == 0


def lanes_of(n: int, per_client: int):
    procs = [Process() for _ in range(n)]
    started: set[int] = set()

    def start_in(i, fn, *args):
        started.add(i)
        return procs[i].start(fn, *args)

    return Lanes(start_in, started.__contains__, n, per_client=per_client), procs


def test_a_client_spreads_over_its_share_of_lanes_and_a_newcomer_gets_its_own():
    lanes, procs = lanes_of(4, per_client=2)
    for i in range(20):
        lanes.submit("A", f"a{i}", job, f"a{i}")
    assert [len(p.running) for p in procs] == [1, 1, 0, 0]  # A alone: two processes at work
    assert lanes.queues[0].waiting("A") + lanes.queues[1].waiting("A") == 18
    lanes.submit("B", "b", job, "b")
    assert [name for name, _ in procs[2].running] == ["b"]  # B starts at once, beside A
    lanes.submit("C", "c", job, "c")
    assert [name for name, _ in procs[3].running] == ["c"]
    lanes.submit("D", "d", job, "d")  # every lane busy with one other client: D's job is the next there
    lane = lanes.lane("D", "d")
    procs[lane].finish()
    assert [name for name, _ in procs[lane].running] == ["d"]
    assert all(lanes.lane("A", f"a{i}") in (0, 1) for i in range(20))  # tables stay pinned


def test_another_clients_bot_starts_at_once_beside_twenty_hard_tables(tmp_path):
    """The issue's case: one client's 20 tables of five hard bots, then another client's table of an
    easy bot: its search starts at once on a process of its own instead of waiting behind them."""
    from dicetable.server.store import Store
    from dicetable.server.tables import TableManager

    manager = TableManager(Store(f"sqlite:///{tmp_path / 'x.db'}"), search_processes=1)
    try:
        for _ in range(20):
            manager.create("corsairs-of-valeria", 5, {}, None, [{"kind": "bot", "level": "hard"}] * 5, None,
                           client="10.0.0.1")
        busy = manager.lanes.queues[0]
        deadline = time.monotonic() + 60
        while busy.waiting("10.0.0.1") < 10:  # the first search has started; the rest wait
            assert time.monotonic() < deadline, "the hard bots never queued"
            time.sleep(0.05)
        assert manager.lanes.queues[1].started == []  # the client alone used its one process
        made = manager.create("kingdom-of-dice", 2, {}, None,
                              [{"kind": "bot", "level": "easy"}, {"kind": "human"}], None, client="10.0.0.2")
        own = manager.lanes.queues[1]
        while not own.started:
            assert time.monotonic() < deadline, "the easy bot's search did not start"
            time.sleep(0.02)
        assert own.started[0] == ("10.0.0.2", made["table_id"])
        lt = manager.get(made["table_id"])
        while lt.version == 0:
            assert time.monotonic() < deadline, "the easy bot never moved"
            time.sleep(0.05)
    finally:
        manager.close()


@given(st.lists(st.tuples(st.sampled_from("ABC"), st.sampled_from("xyz")), min_size=1, max_size=40))
def test_every_job_runs_once_one_at_a_time_in_order_within_its_table(jobs):
    proc = Process()
    queue = FairQueue(proc.start)
    futures = [queue.submit(client, client + table, job, (client + table, n)) for n, (client, table) in enumerate(jobs)]
    done = []
    while proc.running:
        assert len(proc.running) == 1
        done.append(proc.finish())
    assert sorted(n for _, n in done) == list(range(len(jobs)))
    for key in {c + t for c, t in jobs}:
        mine = [n for k, n in done if k == key]
        assert mine == sorted(mine)
    assert all(f.done() for f in futures)
