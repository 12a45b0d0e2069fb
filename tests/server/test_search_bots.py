"""The server's search bots keep their turn across decisions (issue: "hard at most 3 s per
turn"): a table's decisions go to the one search process it is pinned to, where the bot of
(table, seat, level) remembers the time its turn has spent against its level's turn cap."""

from __future__ import annotations

from dicetable.engine import new_game
from dicetable.server import bots, tables
from dicetable.server.tables import TableManager, _choose_remote


def _turn_of_two_choices(seed: int):
    """A Kingdom of Dice position at a seat's first choice of a turn (two dice choices follow)."""
    state = new_game("kingdom-of-dice", 2, seed=seed)
    seat = state.to_move[0]
    while len(state.legal_actions(seat)) < 2:
        state.apply(state.legal_actions(seat)[0], seat)
        seat = state.to_move[0]
    return state, seat


def test_a_tables_bot_counts_its_turn_across_decisions_and_tables_do_not_share_bots():
    tables._WORKER_BOTS.clear()
    state, seat = _turn_of_two_choices(3)
    first = _choose_remote(state.to_dict(), seat, "hard", 7, "table-a")
    bot = tables._WORKER_BOTS[("table-a", seat, "hard")]
    spent = bot.last.turn_ms
    assert bot.last.new_turn and spent > 0
    state.apply(first, seat)
    assert state.to_move == (seat,), "Kingdom of Dice: the turn goes on after a set-aside or a roll"
    _choose_remote(state.to_dict(), seat, "hard", 8, "table-a")
    assert tables._WORKER_BOTS[("table-a", seat, "hard")] is bot
    assert not bot.last.new_turn and bot.last.turn_ms == spent + bot.last.ms
    _choose_remote(state.to_dict(), seat, "hard", 9, "table-b")
    other = tables._WORKER_BOTS[("table-b", seat, "hard")]
    assert other is not bot and other.last.new_turn


def test_the_worker_keeps_only_its_most_recent_bots(monkeypatch):
    monkeypatch.setattr(bots, "_WORKER_BOTS_MAX", 3)  # the search processes' bots live in bots.py
    tables._WORKER_BOTS.clear()
    state, seat = _turn_of_two_choices(4)
    saved = state.to_dict()
    for name in ("t0", "t1", "t2", "t0", "t3"):  # t0 used again: t1 is now the least recent
        _choose_remote(saved, seat, "easy", 1, name)
    assert list(tables._WORKER_BOTS) == [("t2", seat, "easy"), ("t0", seat, "easy"), ("t3", seat, "easy")]


def test_a_table_is_pinned_to_one_search_process(tmp_path):
    from dicetable.server.store import Store

    manager = TableManager(Store(f"sqlite:///{tmp_path / 'x.db'}"), search_processes=2)
    try:
        first = manager.lanes.lane("client", "abc")
        assert all(manager.lanes.lane(who, "abc") == first for who in ("client", "someone else"))
        assert manager._procs(0) is manager._procs(0) and manager._procs(0) is not manager._procs(1)
    finally:
        manager.close()


CTRL_C_CHECK = """
import os, signal, sys
from dicetable.server.store import Store
from dicetable.server.tables import TableManager

def blocked_and_pid():
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []), os.getpid()

def slow_answer():
    import time
    time.sleep(1.0)
    return "searched"

if __name__ == "__main__":
    manager = TableManager(Store("sqlite:///" + sys.argv[1]), search_processes=1)
    mask_before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    blocked, pid = manager._search("t", blocked_and_pid).result(timeout=60)
    same_mask = signal.pthread_sigmask(signal.SIG_BLOCK, []) == mask_before
    slow = manager._search("t", slow_answer)
    os.kill(pid, signal.SIGINT)  # Ctrl-C lands on the worker mid-search
    print(blocked, pid != os.getpid(), same_mask, slow.result(timeout=60))
    manager.close()
"""


def test_ctrl_c_at_the_terminal_never_interrupts_a_search_process(tmp_path):
    """Ctrl-C at `make run` reaches the whole process group; a search process must neither die of it
    nor print a KeyboardInterrupt traceback, even while it starts: it is born with SIGINT blocked, and
    the server thread's own signal mask is left as it was. Run in a fresh interpreter, where the first
    search also starts multiprocessing's resource tracker (which unblocks SIGINT behind it)."""
    import subprocess
    import sys

    script = tmp_path / "ctrl_c_check.py"
    script.write_text(CTRL_C_CHECK)
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "x.db")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True", "searched"], done.stdout + done.stderr
    assert "Traceback" not in done.stderr
