"""The batch on several processes: the same games as one batch, refusals, closing, a worker that dies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from multiprocessing.connection import Connection
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

import dicetable.rl as rl
from dicetable.rl.sharded import ShardedBatchEnv, shard_bounds
from dicetable.rl.spaces import research_games


def _policy(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1)


@given(st.integers(1, 200), st.data())
def test_shards_cover_the_games_in_order_and_differ_by_at_most_one(num_envs: int, data: st.DataObject) -> None:
    workers = data.draw(st.integers(1, num_envs))
    bounds = shard_bounds(num_envs, workers)
    assert len(bounds) == workers
    assert bounds[0][0] == 0 and bounds[-1][1] == num_envs
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:]))  # contiguous, in order
    sizes = [stop - start for start, stop in bounds]
    assert min(sizes) >= 1 and max(sizes) - min(sizes) <= 1


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games()])
def test_a_sharded_batch_plays_the_same_games_as_one_batch(game_id: str) -> None:
    # 5 games on 2 processes: shards of 3 and 2 (uneven on purpose); the same seed and actions
    one = rl.batch_env(game_id, 5, 2)
    with rl.batch_env(game_id, 5, 2, workers=2) as sharded:
        assert isinstance(sharded, ShardedBatchEnv) and len(sharded.worker_pids) == 1
        a, b = one.reset(seed=21), sharded.reset(seed=21)
        rng = np.random.default_rng(4)
        ended, steps = [False, False], 0  # a game of the caller's shard (0-2) and of the worker's (3-4) ended
        while not all(ended) and steps < 20_000:  # on until games of both shards have ended and restarted
            for x, y in zip(a, b):
                assert x.dtype == y.dtype and np.array_equal(x, y)
            actions = _policy(a[1], rng)
            a, b = one.step(actions), sharded.step(actions)
            ended = [ended[0] or bool(a[4][:3].any()), ended[1] or bool(a[4][3:].any())]
            steps += 1
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
    assert all(ended)


def test_three_workers_and_a_seed_list() -> None:
    seeds = [3, 1, 4, 1, 5, 9, 2]
    one = rl.batch_env("corsairs-of-valeria", 7, 3)
    with rl.batch_env("corsairs-of-valeria", 7, 3, workers=3) as sharded:
        a, b = one.reset(seed=seeds), sharded.reset(seed=seeds)
        rng = np.random.default_rng(0)
        for _ in range(200):
            assert all(np.array_equal(x, y) for x, y in zip(a, b))
            actions = _policy(a[1], rng)
            a, b = one.step(actions), sharded.step(actions)
        # a second reset starts the same games again, as a batch's does
        a, b = one.reset(seed=seeds), sharded.reset(seed=seeds)
        assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_an_illegal_action_is_refused_before_any_game_moves() -> None:
    one = rl.batch_env("biblios-dice", 4, 2)
    with rl.batch_env("biblios-dice", 4, 2, workers=2) as sharded:
        one.reset(seed=2)
        obs, mask, seat = sharded.reset(seed=2)
        before = [x.copy() for x in (obs, mask, seat)]
        illegal = int(np.flatnonzero(mask[3] == 0)[0])  # in the worker's shard
        actions = [int(np.flatnonzero(mask[i])[0]) for i in range(4)]
        with pytest.raises(ValueError, match=rf"game 3: action {illegal} is not legal for seat {int(seat[3])} now"):
            sharded.step(actions[:3] + [illegal])
        # not an index: a TypeError saying what an action is (as BatchEnv's)
        with pytest.raises(TypeError, match=r"^game 0: action True is a bool, not a catalogue index: give an int"):
            sharded.step([True] + actions[1:])
        with pytest.raises(TypeError, match=r"^game 1: action 1\.0 is a float, not a catalogue index"):
            sharded.step([actions[0], 1.0] + actions[2:])
        with pytest.raises(ValueError, match="3 actions for 4 games"):
            sharded.step(actions[:3])
        assert all(np.array_equal(x, y) for x, y in zip(before, (obs, mask, seat)))  # nothing moved
        # and the games go on exactly as one batch's
        a, b = one.step(actions), sharded.step(actions)
        assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_bad_arguments_and_use_after_close_are_named() -> None:
    with pytest.raises(ValueError, match="workers 0 is not a number of processes from 1 to num_envs"):
        rl.batch_env("kingdom-of-dice", 3, workers=0)
    with pytest.raises(ValueError, match=r"workers 4 is not .* \(3\)"):
        ShardedBatchEnv("kingdom-of-dice", 3, workers=4)
    with pytest.raises(ValueError, match="workers True"):
        ShardedBatchEnv("kingdom-of-dice", 3, workers=True)
    batch = ShardedBatchEnv("kingdom-of-dice", 3, workers=2)
    with pytest.raises(RuntimeError, match="call reset"):
        batch.step([0, 0, 0])
    obs, mask, _ = batch.reset(seed=1)
    pid = batch.worker_pids[0]
    assert os.path.exists(batch.shared_file)
    batch.close()
    with pytest.raises(RuntimeError, match="closed"):
        batch.step(_policy(mask, np.random.default_rng(0)))
    with pytest.raises(RuntimeError, match="closed"):
        batch.reset(seed=1)
    assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z"
    assert not os.path.exists(batch.shared_file)
    batch.close()  # a second close does nothing


def test_a_worker_that_dies_is_named_and_nothing_hangs() -> None:
    batch = ShardedBatchEnv("corsairs-of-valeria", 4, workers=2)
    try:
        _, mask, _ = batch.reset(seed=5)
        os.kill(batch.worker_pids[0], signal.SIGKILL)
        with pytest.raises(RuntimeError, match=r"the worker of games 2-3: the worker process stopped \(exit code -9\)"):
            batch.step(_policy(mask, np.random.default_rng(0)))
    finally:
        batch.close()


def test_a_worker_gone_before_the_step_is_sent_is_named_too(monkeypatch) -> None:
    """Sending the step to a worker that has already stopped breaks its pipe (BrokenPipeError, unless
    another process still holds the pipe's other end, as some test runners' children do): the batch
    still names the worker and its exit code, as when the worker dies while it steps."""
    batch = ShardedBatchEnv("corsairs-of-valeria", 4, workers=2)
    try:
        _, mask, _ = batch.reset(seed=5)
        pid = batch.worker_pids[0]
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z":  # stopped, not reaped
            assert time.monotonic() < deadline, "the killed worker did not stop"
            time.sleep(0.01)

        def broken(self, obj):
            raise BrokenPipeError(32, "Broken pipe")

        monkeypatch.setattr(Connection, "send", broken)  # this process's sends fail as on a broken pipe
        with pytest.raises(RuntimeError, match=r"the worker of games 2-3: the worker process stopped \(exit code -9\)"):
            batch.step(_policy(mask, np.random.default_rng(0)))
    finally:
        monkeypatch.undo()
        batch.close()


def test_a_script_needs_no_main_guard(tmp_path) -> None:
    # workers are fresh interpreters running dicetable.rl.sharded.serve, not copies of the caller's
    # __main__, so a script written without `if __name__ == "__main__":` runs once, not once per worker
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""
        import numpy as np
        import dicetable.rl as rl
        print("started")
        batch = rl.batch_env("kingdom-of-dice", 4, 2, workers=2)
        obs, mask, seat = batch.reset(seed=0)
        for _ in range(50):
            obs, mask, seat, rewards, terminated = batch.step(mask.argmax(axis=1))
        batch.close()
        print("done", obs.shape)
    """))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["started", f"done (4, {rl.GameSpaces('kingdom-of-dice', 2).observation_size})"]


def test_gymnasium_vector_env_on_two_processes() -> None:
    solo = next(spec.id for spec in research_games() if spec.min_players == 1)
    one, two = rl.DicetableVectorEnv(solo, 4), rl.DicetableVectorEnv(solo, 4, workers=2)
    try:
        a, _ = one.reset(seed=8)
        b, _ = two.reset(seed=8)
        rng = np.random.default_rng(1)
        for _ in range(100):
            assert np.array_equal(a["observation"], b["observation"])
            assert np.array_equal(a["action_mask"], b["action_mask"])
            actions = _policy(a["action_mask"], rng)
            a, ra, ta, _, _ = one.step(actions)
            b, rb, tb, _, _ = two.step(actions)
            assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
    finally:
        two.close()
    with pytest.raises(RuntimeError, match="closed"):
        two.step(np.zeros(4, dtype=np.int64))


def test_a_batch_of_one_process_closes_as_a_sharded_one() -> None:
    # research.md's `with rl.batch_env(..., workers=2) as batch:` failed with workers=1:
    # TypeError: 'BatchEnv' object does not support the context manager protocol.
    with rl.batch_env("kingdom-of-dice", 3, workers=1) as batch:
        obs, mask, _ = batch.reset(seed=1)
        batch.step(_policy(mask, np.random.default_rng(0)))
    batch.close()
    assert batch.step(_policy(batch.mask, np.random.default_rng(1)))[0].shape == obs.shape


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("actions", [None, 0, np.int64(3)])
def test_a_step_given_no_list_of_actions_says_one_per_game(workers: int, actions) -> None:
    # TypeError "object of type 'NoneType' has no len()" reached the caller.
    with rl.batch_env("kingdom-of-dice", 3, workers=workers) as batch:
        obs, _, _ = batch.reset(seed=1)
        obs = obs.copy()
        with pytest.raises(ValueError, match=r"^step takes one catalogue index per game \(3 of them, a list or "
                                             r"array\), got "):
            batch.step(actions)
        assert np.array_equal(batch.obs, obs)
