"""Split a py-spy profile of the server into the parts of issue 26: percent of the sampled server CPU.

    py-spy record --pid <server pid> --duration 45 --rate 100 --gil --format raw -o /tmp/server.txt
    python benchmarks/load/profile_split.py /tmp/server.txt

``--gil`` keeps only the samples of the thread holding the GIL, which is what
bounds one server process. Without it py-spy also counts threads waiting
inside C as running (SQLite's commit and fsync, a lock, a condition): on
the saturation run most samples were such waits, shown as the store and the
hand-off between threads.

Each sample (a stack, from the program's entry to the running function) is
given to the part of the innermost frame that belongs to one: the function
running decides, so ``json.dumps`` called while building a push counts as
JSON, SQLite's own work called from SQLAlchemy as the store. Parts:

- JSON: the json module (and orjson or msgspec should they appear);
- store/ORM: SQLAlchemy, sqlite3, psycopg, ``dicetable/server/store.py``;
- board drawing: the games' ``board.py`` and ``viewdata.py``, ``engine/markup.py``, Jinja2;
- pushes: ``server/delta.py``, ``server/pushes.py`` and ``server/views.py`` (before the
  server was split by job: the table manager's push functions), the WebSocket library and
  its deflate (zlib);
- bots: ``dicetable/bots`` and the games' ``policy.py`` (the greedy bot);
- rules (views, legal actions, applying): the rest of ``dicetable/engine`` and ``dicetable/games``;
- hand-off between threads: threading, concurrent.futures, anyio's thread pool;
- HTTP stack: uvicorn, Starlette, FastAPI, pydantic, h11/httptools, asyncio, logging (the access
  log), the server's middleware and routes (``server/routes``);
- other: the rest (the table manager's own bookkeeping among it).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

#: (part, pattern on a frame's "function (file:line)" text), tried in order on each frame.
PARTS = [
    ("JSON", re.compile(r"\((json/|orjson|msgspec)")),
    ("store/ORM", re.compile(r"\((sqlalchemy/|sqlite3/|psycopg|dicetable/server/store\.py)")),
    ("board drawing", re.compile(r"\((dicetable/games/[^/]+/(board|viewdata)\.py|dicetable/engine/markup\.py"
                                 r"|jinja2/|markupsafe/|dicetable/web/render)")),
    ("pushes", re.compile(r"(\(dicetable/server/(delta|pushes|views)\.py|^\w*(push|publish|broadcast|message"
                          r"|subscri|resync)\w* \(dicetable/server/tables\.py|\(websockets/|\(zlib"
                          r"|permessage_deflate|\(uvicorn/protocols/websockets/)")),
    ("bots", re.compile(r"\((dicetable/bots/|dicetable/games/[^/]+/policy\.py)")),
    ("rules (views, legal actions, applying)", re.compile(r"\((dicetable/engine/|dicetable/games/)")),
    ("hand-off between threads", re.compile(r"\((threading\.py|concurrent/futures/|anyio/to_thread|anyio/from_thread"
                                            r"|anyio/_backends/_asyncio\.py:\d+\)$|queue\.py)")),
    ("HTTP stack", re.compile(r"\((uvicorn/|starlette/|fastapi/|pydantic|h11/|httptools|asyncio/|logging/|anyio/"
                              r"|dicetable/server/(app|security|tokens|limits|hints)\.py|dicetable/server/routes/"
                              r"|email/)")),
]
OTHER = "other"


def part_of(stack: list[str]) -> str:
    """The part a sample belongs to: that of its innermost frame matching one (``OTHER`` if none)."""
    for frame in reversed(stack):
        for name, pattern in PARTS:
            if pattern.search(frame):
                return name
    return OTHER


def split(lines: list[str]) -> Counter:
    """Samples per part from py-spy's raw lines (``frame;frame;... count``)."""
    counts: Counter = Counter()
    for line in lines:
        stack, _, count = line.rstrip().rpartition(" ")
        if stack and count.isdigit():
            counts[part_of(stack.split(";"))] += int(count)
    return counts


def main(argv: list[str]) -> int:
    """Print the parts' shares of the samples in the py-spy raw file ``argv[0]``."""
    if len(argv) != 1:
        print("usage: profile_split.py PY-SPY-RAW-FILE", file=sys.stderr)
        return 2
    counts = split(Path(argv[0]).read_text().splitlines())
    total = sum(counts.values())
    if not total:
        print(f"{argv[0]} holds no samples", file=sys.stderr)
        return 1
    for name, n in counts.most_common():
        print(f"{100 * n / total:5.1f}%  {name}")
    print(f"{total} samples")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
