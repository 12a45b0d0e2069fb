"""A batch of games split among worker processes: :class:`ShardedBatchEnv`, :class:`BatchEnv`'s API on several cores.

One Python process steps its games one after another, so a :class:`~dicetable.rl.batch.BatchEnv`
uses one core whatever the machine has. ``ShardedBatchEnv(game_id, num_envs, players, workers=k)``
splits the ``num_envs`` games into ``k`` contiguous shards (sizes differing by at most one): the
calling process steps the first shard itself, and each of the others is a ``BatchEnv`` in a worker
process of its own, all writing into arrays in one block of shared memory (a memory-mapped file, in
``/dev/shm`` where there is one). A worker is a fresh interpreter running this module's
:func:`serve` (the same Python and the same ``dicetable``), not a copy of the caller: a script needs
no ``if __name__ == "__main__"`` guard, and a notebook works too. The caller
gets the same six arrays as from a ``BatchEnv`` (``obs``, ``mask``, ``seat``, ``rewards``,
``terminated``, ``final_obs``, the same shapes and dtypes), and with the same seed and actions it sees the same
games, to the byte: game ``i`` draws its seeds from the same stream in either (:func:`seed_streams`).

A step writes the actions into a shared array and tells every worker to step its shard; the caller
steps its own shard meanwhile and then waits for the workers' answers. An action outside a game's
mask is refused by the caller, before any game moves, as ``BatchEnv`` refuses it. What it costs:
one message each way per worker and step (tens of microseconds), so a shard of a few games gains
little; with 16 or more games a worker it runs near ``k`` times a single batch (docs/research.md).
The games' states live in their workers: unlike ``BatchEnv`` there is no ``states`` list.

Close it when done (``close()``, or use it as a context manager); a batch that is dropped is
closed when it is collected, and its workers also stop when the calling process exits.
"""

from __future__ import annotations

import mmap
import os
import subprocess
import sys
import tempfile
import weakref
from multiprocessing.connection import Connection
from typing import Any, Sequence

from ._extra import require_rl

require_rl("numpy", "gymnasium")

import numpy as np

import dicetable

from .spaces import GameSpaces
from .batch import (Batch, BatchBuffers, BatchEnv, BatchStep, check_action_count, check_num_envs, refused_action,
                    seed_streams)

#: How long ``close()`` waits for a worker to stop before it is terminated, in seconds.
STOP_WAIT = 5.0


def shard_bounds(num_envs: int, workers: int) -> list[tuple[int, int]]:
    """``workers`` contiguous ``(start, stop)`` ranges of game indices covering ``range(num_envs)``,
    sizes differing by at most one, larger first (e.g. 10 games, 3 workers: (0, 4), (4, 7), (7, 10))."""
    size, extra = divmod(num_envs, workers)
    bounds, start = [], 0
    for w in range(workers):
        stop = start + size + (1 if w < extra else 0)
        bounds.append((start, stop))
        start = stop
    return bounds


def _layout(num_envs: int, spaces: GameSpaces, players: int) -> list[tuple[tuple[int, ...], type, int]]:
    """(shape, dtype, byte offset) of the six batch arrays and the action array in the shared block."""
    offset, out = 0, []
    for shape, dtype in [*BatchBuffers.shapes(num_envs, spaces, players), ((num_envs,), np.int64)]:
        out.append((shape, dtype, offset))
        offset += -(-int(np.prod(shape)) * np.dtype(dtype).itemsize // 8) * 8  # each array 8-byte aligned
    return out


def _block_size(layout: Sequence[tuple[tuple[int, ...], type, int]]) -> int:
    shape, dtype, offset = layout[-1]
    return offset + int(np.prod(shape)) * np.dtype(dtype).itemsize


def _arrays(block: mmap.mmap, layout: Sequence[tuple[tuple[int, ...], type, int]]) -> list[np.ndarray]:
    """numpy arrays over ``block`` (obs, mask, seat, rewards, terminated, final_obs, actions)."""
    return [np.frombuffer(block, dtype=dtype, count=int(np.prod(shape)), offset=offset).reshape(shape)
            for shape, dtype, offset in layout]


def serve() -> None:
    """A worker process's loop (:class:`ShardedBatchEnv` starts ``python -c`` with this call).

    It talks with the caller over its stdin and stdout (its own printing goes to stderr). The first
    message is its task (a dict: the game, players, options, events, its games ``start:stop`` of
    ``num_envs``, the shared block's path); then it answers messages: ``("start", streams)`` starts its games, ``("step",)`` steps them with
    their rows of the shared action array, ``("close",)`` ends it. Each is answered ``None`` when
    done, or ``("error", text)`` naming the exception (the worker keeps serving).
    """
    conn = Connection(os.dup(0), writable=False), Connection(os.dup(1), readable=False)
    os.dup2(2, 1)  # a stray print must not reach the caller's channel
    sys.stdout = sys.stderr
    reader, writer = conn
    task = reader.recv()
    spaces = GameSpaces(task["game"], task["players"], task["options"])
    start, stop, num_envs = task["start"], task["stop"], task["num_envs"]
    layout = _layout(num_envs, spaces, task["players"])
    with open(task["path"], "r+b") as f:
        block = mmap.mmap(f.fileno(), _block_size(layout))
    *arrays, actions = _arrays(block, layout)
    batch = BatchEnv(task["game"], stop - start, task["players"], task["options"], task["events"],
                     buffers=BatchBuffers(*(array[start:stop] for array in arrays)))
    mine = actions[start:stop]
    writer.send(None)  # ready
    while True:
        try:
            message = reader.recv()
        except (EOFError, OSError):  # the caller has gone
            return
        if message[0] == "close":
            return
        try:
            if message[0] == "start":
                batch.start(message[1])
            else:
                batch.step(mine)
            writer.send(None)
        except Exception as exc:  # answered, not raised: the caller raises it with the worker named
            writer.send(("error", f"{type(exc).__name__}: {exc}"))


class ShardedBatchEnv:
    """``num_envs`` games of ``game_id`` at ``players`` seats split among ``workers`` processes (the
    caller's and ``workers - 1`` started ones); the API of :class:`~dicetable.rl.batch.BatchEnv`
    (``reset``, ``step``, ``spaces``, ``num_envs``, ``players`` and the six arrays) without ``states``.

    Raises :class:`dicetable.GameConfigError` for an unknown game, player count or option, and
    ValueError when ``num_envs`` is not a whole number of at least 1, ``workers`` is not one from 1
    to ``num_envs``, or ``workers`` is above 1 on a system that is not POSIX.
    """

    def __init__(self, game_id: str, num_envs: int, players: int = 2, options: dict[str, Any] | None = None,
                 events: bool = False, *, workers: int = 2) -> None:
        check_num_envs(num_envs)
        if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= num_envs:
            raise ValueError(f"workers {workers!r} is not a number of processes from 1 to num_envs ({num_envs})")
        if workers > 1 and os.name != "posix":
            raise ValueError(f"workers {workers}: a batch on several processes needs a POSIX system "
                             "(its workers talk over pipes); use workers=1 here")
        self.spaces = GameSpaces(game_id, players, options)
        self.num_envs, self.players, self.events, self.workers = num_envs, players, events, workers
        layout = _layout(num_envs, self.spaces, players)
        folder = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
        fd, path = tempfile.mkstemp(prefix="dicetable-batch-", dir=folder)
        with os.fdopen(fd, "r+b") as f:
            f.truncate(_block_size(layout))
            self._block = mmap.mmap(f.fileno(), _block_size(layout))
        *arrays, self._actions = _arrays(self._block, layout)
        self.obs, self.mask, self.seat, self.rewards, self.terminated, self.final_obs = arrays
        self._bounds = shard_bounds(num_envs, workers)
        self._rows = np.arange(num_envs)
        start, stop = self._bounds[0]
        self._own = BatchEnv(game_id, stop - start, players, options, events,
                             buffers=BatchBuffers(*(array[start:stop] for array in arrays)))
        self._conns: list[tuple[Connection, Connection]] = []  # each worker's (reader, writer)
        self._procs: list[subprocess.Popen[bytes]] = []
        self._started = False
        self.shared_file = path  #: the file backing the shared arrays (removed by close())
        self._finalizer = weakref.finalize(self, _stop, self._conns, self._procs, path)
        if workers > 1:
            self._launch(path, options)

    def _launch(self, path: str, options: dict[str, Any] | None) -> None:
        """Start a worker process per shard after the first and wait until each is ready; RuntimeError
        (the workers stopped) when one fails to start."""
        # the workers import the dicetable this process runs (a checkout's src, a compiled tree): its
        # folder goes first on their path unless it is on it already (site-packages is)
        here = os.path.dirname(os.path.dirname(os.path.abspath(dicetable.__file__)))
        code = ("import sys\nif sys.argv[1] not in sys.path: sys.path.insert(0, sys.argv[1])\n"
                "from dicetable.rl.sharded import serve\nserve()")
        for start, stop in self._bounds[1:]:
            proc = subprocess.Popen([sys.executable, "-c", code, here], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            assert proc.stdin is not None and proc.stdout is not None
            self._procs.append(proc)
            self._conns.append((Connection(os.dup(proc.stdout.fileno()), writable=False),
                                Connection(os.dup(proc.stdin.fileno()), readable=False)))
            proc.stdin.close()
            proc.stdout.close()
            self._conns[-1][1].send({"game": self.spaces.spec.id, "players": self.players, "options": options,
                                     "events": self.events, "start": start, "stop": stop,
                                     "num_envs": self.num_envs, "path": path})
        try:
            self._collect()
        except BaseException:
            self.close()
            raise

    # -- the workers
    def _tell(self, messages: Sequence[Any]) -> None:
        """Send ``messages[k]`` to the ``k``-th worker. A worker that has stopped cannot read it (its pipe is
        broken): that is not raised here but by :meth:`_collect`, which then names the worker and its
        exit code."""
        for (_, writer), message in zip(self._conns, messages):
            try:
                writer.send(message)
            except OSError:  # BrokenPipeError: the worker is gone; _collect finds its pipe closed
                pass

    def _collect(self) -> None:
        """Wait for every worker's answer to the message just sent; RuntimeError naming the first that failed."""
        failed = None
        for (start, stop), (reader, _), proc in zip(self._bounds[1:], self._conns, self._procs):
            try:
                answer = reader.recv()
            except (EOFError, OSError):
                try:
                    code: int | None = proc.wait(STOP_WAIT)
                except subprocess.TimeoutExpired:  # its pipe closed but it runs on: stop it
                    proc.kill()
                    code = proc.wait()
                answer = ("error", f"the worker process stopped (exit code {code})")
            if answer is not None and failed is None:
                failed = f"the worker of games {start}-{stop - 1}: {answer[1]}"
        if failed is not None:
            raise RuntimeError(failed)

    # -- the batch
    def reset(self, seed: int | Sequence[int] | None = None) -> Batch:
        """Start every game afresh; returns (obs, mask, seat). ``seed`` as :meth:`BatchEnv.reset`
        (the same seed gives the same games as a ``BatchEnv``'s); ValueError for a list of the wrong
        length, RuntimeError when a worker failed or the batch is closed."""
        streams = seed_streams(seed, self.num_envs)
        if not self._finalizer.alive:
            raise RuntimeError("this sharded batch is closed")
        self._tell([("start", streams[start:stop]) for start, stop in self._bounds[1:]])
        own_start, own_stop = self._bounds[0]
        try:
            self._own.start(streams[own_start:own_stop])
        finally:
            self._collect()
        self._started = True
        return self.obs, self.mask, self.seat

    def step(self, actions: Sequence[int] | np.ndarray) -> BatchStep:
        """Play ``actions[i]`` (a catalogue index) for game ``i``'s acting seat, in every game at once.

        Returns (obs, mask, seat, rewards, terminated), as :meth:`BatchEnv.step`. Raises, before any
        game moves, what :meth:`BatchEnv.step` raises for the first game whose action is refused;
        RuntimeError before the first ``reset()``, after ``close()``, or when a worker failed.
        """
        if not self._started:
            raise RuntimeError("this batch has no games yet: call reset() before step()")
        if not self._finalizer.alive:
            raise RuntimeError("this sharded batch is closed")
        check_action_count(actions, self.num_envs)
        chosen = np.asarray(actions)
        if chosen.dtype.kind not in "iu" or chosen.shape != (self.num_envs,) \
                or not ((chosen >= 0) & (chosen < self.spaces.num_actions)).all() \
                or not self.mask[self._rows, chosen].all():
            self._refuse(actions)
        self._actions[:] = chosen
        self._tell([("step",)] * len(self._conns))
        start, stop = self._bounds[0]
        try:
            self._own.step(self._actions[start:stop])
        finally:
            self._collect()
        return self.obs, self.mask, self.seat, self.rewards, self.terminated

    @property
    def worker_pids(self) -> list[int]:
        """The process ids of the started workers (``workers - 1`` of them), e.g. to watch their CPU."""
        return [proc.pid for proc in self._procs]

    def _refuse(self, actions: Sequence[Any] | np.ndarray) -> None:
        """Raise the error :meth:`BatchEnv.step` raises for the first game whose action is not in its mask."""
        wanted = actions.tolist() if isinstance(actions, np.ndarray) else list(actions)
        for i, a in enumerate(wanted):
            if isinstance(a, bool) or not isinstance(a, (int, np.integer)) \
                    or not 0 <= a < self.spaces.num_actions or not self.mask[i, a]:
                raise refused_action(i, a, int(self.seat[i]), np.flatnonzero(self.mask[i]).tolist(),
                                     self.spaces.num_actions)
        raise ValueError(f"actions {actions!r} are not one catalogue index per game")  # e.g. a nested list

    def close(self) -> None:
        """Stop the workers (waiting up to :data:`STOP_WAIT` seconds each, then terminating them).
        The arrays stay readable; ``reset`` and ``step`` raise RuntimeError after it."""
        self._finalizer()

    def __enter__(self) -> ShardedBatchEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _stop(conns: list[tuple[Connection, Connection]], procs: list[subprocess.Popen[bytes]], path: str) -> None:
    """Tell each worker to stop, wait for it, kill one that does not stop in time; remove the block's file."""
    for _, writer in conns:
        try:
            writer.send(("close",))
        except (OSError, ValueError):  # already gone
            pass
    for proc in procs:
        try:
            proc.wait(STOP_WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(STOP_WAIT)
    for reader, writer in conns:
        reader.close()
        writer.close()
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
