"""Behaviour digest of every registered game: what a refactor of the rules must not change.

Not a test module (pytest does not collect it); ``test_behaviour_digest.py``
checks the recorded digest, and this file records it::

    python -m tests.engine.behaviour record    # writes tests/data/behaviour_digest.json
    python -m tests.engine.behaviour check     # prints the configurations that differ
    python -m tests.engine.behaviour wordless  # prints digests without the words (see below)

Per game, the configurations are ``dicetable.engine.testing.configurations``:
every player count with the default options, then every other value of
every option (its ``choices``, both values of a bool, the ``examples`` of a
free-text option) at the smallest player count it applies to. Per configuration it plays seeded
random games and greedy games (seat 0 greedy, the others random) and hashes,
at every step: the acting seat, its decision (kind and prompt), its legal
actions (ids and labels), the chosen action, the events it produced (kind,
seat, text, data, visibility) and the acting seat's observation; at the end
the scores, winners and every seat's visible scores. The saved form
(``to_dict()["state"]``) is deliberately left out: a refactor may change how
a game stores itself, never how it plays, reads or looks.

A change meant to alter only words (prompts, labels, log lines) must leave
the ``wordless`` digests alone: they hash the same games without the
decision prompts, action labels and event texts. Run ``wordless`` on the
tree before the change and after it and compare the printed lines; equal
lines show the play is the same, and only then is ``record`` right.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import orjson

from dicetable.engine import Rng, new_game
from dicetable.engine.testing import configurations, shipped_games

DIGEST_FILE = Path(__file__).resolve().parents[1] / "data" / "behaviour_digest.json"

RANDOM_GAMES = 30
"""Random games per configuration (about 300 per game over all configurations)."""
GREEDY_GAMES = 4
"""Greedy games per configuration (a few dozen per game)."""

def _update(h, obj) -> None:
    # orjson (a base dependency): the same keys sorted, at a fraction of json.dumps' cost, which was
    # over half of the digest's time
    h.update(orjson.dumps(obj, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS))


def play(game: str, players: int, options: dict, seed: int, greedy: bool, words: bool = True) -> str:
    """Play one seeded game and return the hex digest of everything it showed (``words=False``: all
    but the prompts, labels and event texts)."""
    from dicetable.bots import GreedyBot

    state = new_game(game, players, seed=seed, options=options)
    rng = Rng(seed ^ 0xD16E57)
    bot = GreedyBot(seed) if greedy else None
    h = hashlib.sha256()
    def said(text: str) -> str | None:
        return text if words else None

    _update(h, [[e.kind, e.seat, said(e.text), e.data, e.visible] for e in state.log])
    while not state.is_over:
        seats = state.to_move
        seat = seats[rng.randbelow(len(seats))]
        decision = state.decision(seat)
        actions = state.legal_actions(seat)
        if bot is not None and seat == 0:
            action = bot.choose(state, seat)
        else:
            action = actions[rng.randbelow(len(actions))]
        events = state.apply(action.id, seat)
        _update(h, [seat, decision.kind, said(decision.prompt), [[a.id, said(a.label)] for a in actions],
                    action.id, [[e.kind, e.seat, said(e.text), e.data, e.visible] for e in events],
                    state.observation(seat)])
    _update(h, [state.scores, list(state.winners), [state.visible_scores(s) for s in range(players)],
                state.observation(None)])
    return h.hexdigest()


def digest_game(spec, words: bool = True) -> dict[str, str]:
    """``{configuration name: digest}`` for one game (``words=False``: see :func:`play`)."""
    out = {}
    for index, (name, players, options) in enumerate(configurations(spec)):
        h = hashlib.sha256()
        for i in range(RANDOM_GAMES):
            h.update(play(spec.id, players, options, 1000 * index + i, greedy=False, words=words).encode())
        for i in range(GREEDY_GAMES):
            h.update(play(spec.id, players, options, 5000 + 1000 * index + i, greedy=True, words=words).encode())
        out[name] = h.hexdigest()[:32]
    return out


def main(argv: list[str]) -> int:
    """``record``, ``check`` or ``wordless`` [GAME...]; returns the exit status."""
    if not argv or argv[0] not in ("record", "check", "wordless"):
        print(__doc__)
        return 2
    wanted = set(argv[1:])
    recorded = json.loads(DIGEST_FILE.read_text()) if DIGEST_FILE.exists() else {}
    status = 0
    for spec in shipped_games():
        if wanted and spec.id not in wanted:
            continue
        got = digest_game(spec, words=argv[0] != "wordless")
        if argv[0] == "wordless":
            for name in got:
                print(spec.id, name, got[name])
        elif argv[0] == "record":
            recorded[spec.id] = got
            print(spec.id, len(got), "configurations")
        else:
            bad = [k for k in got if recorded.get(spec.id, {}).get(k) != got[k]]
            print(spec.id, "ok" if not bad else f"DIFFERS in {bad}")
            status |= bool(bad)
    if argv[0] == "record":
        DIGEST_FILE.parent.mkdir(exist_ok=True)
        DIGEST_FILE.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
