"""The strength ladder of docs/bots.md; a wrapper of ``dicetable ladder`` that writes the doc.

    .venv/bin/python benchmarks/ladder.py                 # 100 games per row, both cores, docs/bots.md
    .venv/bin/python benchmarks/ladder.py --games 10      # a smoke run (writes nothing unless --doc given)

Every option of ``dicetable ladder`` is passed on (``--game``, ``--players``, ``--seed``,
``--workers``, ``--backend ray``...). At full size (no ``--games``, or ``--games`` of 100 or
more) the solo rows play three times the games and the 4-player rows one and a half times
(``--games-at``, unless given), the tables go into docs/bots.md and the rows into
benchmarks/ladder.jsonl.
"""

from __future__ import annotations

import sys
from pathlib import Path

from dicetable.cli.main import app

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    args = sys.argv[1:]
    games = 100
    if "--games" in args:
        games = int(args[args.index("--games") + 1])
    else:
        args = ["--games", "100", *args]
    if games >= 100 and "--games-at" not in args:  # why more solo and 4-player games: docs/bots.md
        args += ["--games-at", f"1={3 * games}", "--games-at", f"4={3 * games // 2}"]
    if games >= 100 and "--doc" not in args:
        args += ["--doc", str(ROOT / "docs" / "bots.md"), "--jsonl", str(ROOT / "benchmarks" / "ladder.jsonl")]
    app(["ladder", *args])


if __name__ == "__main__":
    main()
