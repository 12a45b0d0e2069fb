"""The server process's garbage collector settings (server/collector.py): what ``settle_collector``
does, that garbage made afterwards is still collected, and that ``dicetable serve`` and each worker
of ``--workers N`` settle it before serving while an app built in process does not."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap

import pytest
from typer.testing import CliRunner

from dicetable.cli.main import app as cli
from dicetable.server.collector import YOUNG


@pytest.fixture
def collector_restored():
    """Whatever a test does to this process's collector is undone afterwards."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_settling_freezes_what_is_held_and_makes_young_collections_rarer_yet_frees_later_garbage():
    """In a fresh process: after ``settle_collector`` the objects held at that moment are frozen, a young
    collection waits for YOUNG allocations (the older generations keep CPython's 10 and 10), and a
    cycle made afterwards (a table's, say) is still freed by the collector."""
    code = textwrap.dedent("""
        import gc, json, weakref
        from dicetable.web import create_site
        from dicetable.server.collector import settle_collector
        site = create_site("sqlite://")
        before = gc.get_threshold()
        settle_collector()
        class Node:
            pass
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        gc.collect()
        print(json.dumps({"before": before, "after": gc.get_threshold(), "frozen": gc.get_freeze_count(),
                          "cycle_freed": gone() is None}))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    seen = __import__("json").loads(out.stdout.strip().splitlines()[-1])
    assert seen["before"] == [700, 10, 10]  # CPython's defaults: nothing settled by building an app
    assert seen["after"] == [YOUNG, 10, 10] and YOUNG == 100_000  # docs/load.md: the thresholds compared
    assert seen["frozen"] > 10_000  # the modules, the games' tables, the app: far more than a handful
    assert seen["cycle_freed"] is True


def test_serve_settles_the_collector_before_uvicorn_runs(monkeypatch, tmp_path, collector_restored):
    """``dicetable serve`` (one process) has settled the collector when it hands its app to uvicorn."""
    import uvicorn

    gc.set_threshold(700, 10, 10)
    seen: dict = {}

    def run(target, **kwargs):
        seen["young"] = gc.get_threshold()[0]
        seen["frozen"] = gc.get_freeze_count()
        seen["target"] = target

    monkeypatch.setattr(uvicorn, "run", run)
    result = CliRunner().invoke(cli, ["serve", "--port", "8999", "--database", f"sqlite:///{tmp_path}/s.db"])
    assert result.exit_code == 0, result.output
    assert not isinstance(seen["target"], str)  # the app itself, built in this process
    assert seen["young"] == YOUNG and seen["frozen"] > 0


def test_each_worker_settles_its_own_collector(monkeypatch, tmp_path, collector_restored):
    """A worker of ``--workers N`` builds its site with ``site_from_env`` and settles its collector there."""
    from dicetable.server.processes import DATABASE_VARIABLE
    from dicetable.web import site_from_env

    gc.set_threshold(700, 10, 10)
    monkeypatch.setenv(DATABASE_VARIABLE, f"sqlite:///{tmp_path}/w.db")
    site_from_env()
    assert gc.get_threshold() == (YOUNG, 10, 10) and gc.get_freeze_count() > 0
