"""Random play on the engine: the loop of a seeded random game, compiled with the kernel.

A random decision draws a seat uniformly among those to move, then one of its legal actions
uniformly (both with ``Rng.randbelow``). It is what ``dicetable bench`` times and what a random
player of a simulation makes. The loop lives beside the kernel so that the compiled build runs it
natively (docs/compiled.md), as it does the batched environments' loop (:mod:`.batchstep`): an
interpreted caller's loop and its calls are otherwise counted against the rules. It reads a game
only through the State protocol (``is_over``, ``to_move``, ``legal_actions``, ``apply``, ``step``).
"""

from __future__ import annotations

from .rng import Rng
from .state import GameState


def play_random(state: GameState, rng: Rng, quiet: bool = False, limit: int = -1) -> int:
    """Make uniformly random decisions at ``state``, drawn from ``rng``, until the game is over (or
    ``limit`` decisions were made, when ``limit`` is 0 or more); the number made.

    Each decision's seat is ``to_move[rng.randbelow(len(to_move))]``, then its action
    ``legal[rng.randbelow(len(legal))]`` of that seat's ``legal_actions``, taken by ``apply`` (its
    events built and logged) or, with ``quiet``, by the quiet trusted ``step`` of search (no event:
    the same game). Changes ``state`` in place; a game already over makes none.
    """
    steps = 0
    while steps != limit and not state.is_over:
        seats = state.to_move
        seat = seats[rng.randbelow(len(seats))]
        acts = state.legal_actions(seat)
        if quiet:
            state.step(acts[rng.randbelow(len(acts))], seat)
        else:
            state.apply(acts[rng.randbelow(len(acts))], seat)
        steps += 1
    return steps
