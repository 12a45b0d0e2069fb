"""Output that is not a terminal (a log file, a pipe to grep) gets whole lines, not lines wrapped at
rich's default 80 columns."""

from __future__ import annotations

import subprocess
import sys

LINE = ("The game is over after 201 actions: the agent (seat 1) did not win; scores [0, 114]; "
        "56 moves, 0 reconnections.")


def test_a_result_line_is_one_line_in_a_pipe():
    # before: "...did not win; scores [0, " and "114]; 56 moves, 0 reconnections." on two lines
    out = subprocess.run([sys.executable, "-c", f"from dicetable.cli.app import console; console.print({LINE!r})"],
                         capture_output=True, text=True, timeout=60, check=True, env=None).stdout
    assert out == LINE + "\n"
