"""benchmarks/connection_memory.py: its slope, and a short smoke run against a real server.

The smoke opens a dozen connections of each kind (a few seconds); it checks that the benchmark
works and reports what it says, not how much memory a connection takes (docs/load.md has that).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
from connection_memory import slope  # noqa: E402


@given(a=st.integers(-500, 500), b=st.integers(0, 10**6),
       xs=st.lists(st.integers(0, 10**4), min_size=2, max_size=8, unique=True))
def test_the_slope_of_points_on_a_line_is_the_lines(a, b, xs):
    assert abs(slope([(x, a * x + b) for x in xs]) - a) < 1e-6


def test_the_slope_is_least_squares_through_scattered_points():
    # (0, 1), (1, 3), (2, 2): mean x 1, mean y 2; sum dx*dy = (-1)(-1) + 0 + (1)(0) = 1; sum dx^2 = 2
    assert slope([(0, 1), (1, 3), (2, 2)]) == 0.5


def test_a_short_run_opens_the_connections_in_steps_and_reports_both_kinds(tmp_path):
    out = tmp_path / "connection-memory.jsonl"
    command = [sys.executable, str(BENCHMARKS / "connection_memory.py"), "--connections", "12", "--steps", "3",
               "--actions", "1", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, env=dict(os.environ))
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(out.read_text())
    assert result["connections"] == 12
    for kind in ("deflate", "plain"):
        points = result[kind]["points"]
        assert [n for n, _ in points] == [0, 4, 8, 12]
        assert all(kib > 10_000 for _, kib in points)  # a server's RSS, in KiB
        assert isinstance(result[kind]["kib_per_connection"], float)
    assert "| deflate |" in done.stdout and "| plain |" in done.stdout
