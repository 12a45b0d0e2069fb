"""Tamper census: edit honest saves field by field and count the edits ``load_state`` accepts.

    .venv/bin/python benchmarks/tamper_census.py

For every registered game at its smallest and largest player count, a save
after 30 seeded random actions has each field (every top-level field and
game field, the first three items of each list, not the log) replaced in
turn by each of a few odd values (None, -1, 0, 1, 99, 2**64, 1.5, "x", [],
{}, True). It prints how many edited saves were accepted as a game other
than the honest one, and how many raised something other than a
DicetableError. Issue 16's audit: 3,438 of 8,857 accepted before the checked
load_state, 1 after (a solo Dice Kingdoms save whose ``solo_track_trigger``
option was flipped before it could matter: a consistent save of that game).
"""

from __future__ import annotations

import json

import dicetable
from dicetable import load_state, new_game
from dicetable.engine import Rng
from dicetable.engine.testing import random_step

ODD = [None, -1, 0, 1, 99, 2**64, 1.5, "x", [], {}, True]


def leaves(node, path=()):
    """``(path, value)`` of every place in a JSON value (lists: themselves and their first 3 items)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from leaves(value, path + (key,))
    elif isinstance(node, list) and node:
        yield path, node
        for i, value in enumerate(node[:3]):
            yield from leaves(value, path + (i,))
    else:
        yield path, node


def set_at(data, path, value) -> None:
    """Replace the value at ``path`` in ``data``."""
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def main() -> None:
    tried = accepted = crashes = 0
    for spec in dicetable.list_games():
        for players in sorted({spec.min_players, spec.max_players}):
            state = new_game(spec.id, players, seed=8)
            rng = Rng(8)
            for _ in range(30):
                if state.is_over:
                    break
                random_step(state, rng)
            honest = json.loads(json.dumps(state.to_dict()))
            for path, _ in leaves(honest):
                if not path or path[0] == "log":
                    continue
                for value in ODD:
                    data = json.loads(json.dumps(honest))
                    set_at(data, path, value)
                    if data == honest:
                        continue
                    tried += 1
                    try:
                        loaded = load_state(data)
                    except dicetable.DicetableError:
                        continue
                    except Exception:  # noqa: BLE001 - counted: anything else is a crash
                        crashes += 1
                        continue
                    if json.loads(json.dumps(loaded.to_dict())) != honest:
                        accepted += 1
                        print("accepted:", spec.id, players, path, repr(value)[:40])
    print(f"{accepted} of {tried} edited saves accepted as a different game; {crashes} raised something else")


if __name__ == "__main__":
    main()
