"""The cyclic garbage collector's settings for a server process (``dicetable serve``).

CPython frees most objects by reference counting; its cyclic collector runs
besides, after every :data:`YOUNG` net allocations of container objects (a
young collection), and every tenth young collection goes one generation up.
Every tenth of those is a full collection: it walks every container the
process holds. A server holds a great many that never die (the modules,
the games' component tables and memoised menus and board pieces, the app),
plus every live table's state, views and connections.

Measured on the load benchmark (docs/load.md, "The garbage collector"): with
CPython's defaults (700, 10, 10) the collector took 13-16% of the server's
CPU, and a full collection held the process for 190 ms at 50 live tables
(310 ms at 300), which was most of the action round trip's p99. Two changes
take it to about 1% of the CPU and make full collections rare:

- :func:`settle_collector` freezes (``gc.freeze``) what the process holds
  once it is started: the modules and what they built, the app, the store and
  the table manager. Those are never walked again. No table is in memory
  then (tables are rebuilt from the store when first used), so nothing a
  table holds is frozen: a table evicted later is freed as before.
- A young collection waits for :data:`YOUNG` net allocations instead of 700.
  What a move makes (the table's new state, views and snapshots) lives until
  the table's next move, about a second at a table of people; a collection
  walks whatever young objects are alive, so frequent ones walked most of
  those again and again. At 100,000 few collections run and most of what they
  would have walked is gone by then (docs/load.md, "Cycles and the collector's
  thresholds": at 300 live tables the collector's share fell from 5.5% to
  about 1%, the server's CPU per action by a fifth, the round trip's p99 by a
  third). The server makes little cyclic garbage (a cycle per connection
  closed, none per move), so little waits longer to be freed; the two older
  generations keep CPython's ratios (10 and 10).

Only a server process settles its collector (``dicetable serve``, and each
worker of ``--workers N``): tests, simulations and a program that builds an
app in process keep CPython's defaults.
"""

from __future__ import annotations

import gc

#: Net allocations of container objects between two young collections (CPython's default: 700).
YOUNG = 100_000


def settle_collector() -> None:
    """Collect once, freeze every object the process holds now and make young collections rarer.

    For a server process that is started and has built its app, before it serves: see the module.
    The older generations keep their thresholds (CPython's 10 and 10).
    """
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
