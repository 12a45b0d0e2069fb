"""benchmarks/loop_turns.py: it counts the loop's turns an action on the loop spans.

With one table nothing else runs on the loop, so the count is exact: the action is applied and
its append queued in the call's turn, the committer thread wakes the loop for the next turn, where
the action is cached and pushed to the spectator (one turn), and the caller is answered in the turn
after (two turns). docs/load.md ("An action's turns of the loop") gives the busy figures.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "loop_turns.py"


def test_one_table_is_answered_two_turns_after_its_call_and_pushed_one_turn_after():
    run = subprocess.run([sys.executable, str(SCRIPT), "--tables", "1", "--seconds", "1"],
                         capture_output=True, text=True, timeout=120, check=True)
    result = json.loads(run.stdout)
    assert result["tables"] == 1 and result["actions"] > 20
    assert result["turns_to_answer"]["p50"] == 2 and result["turns_to_push"]["p50"] == 1
    assert result["answer_ms"]["p50"] > 0
