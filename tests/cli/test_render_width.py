"""Every game's table at 80 columns: nothing cut off with an ellipsis, no line too long.

The table is what the terminal draws: the game's ``text_view`` at width 80 (the compact
table), or its older ``render`` where it has no ``text_view``.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from dicetable.engine import Rng, new_game, spec_of
from dicetable.engine.testing import random_step, shipped_games

GAMES = [spec.id for spec in shipped_games()]


def _screens(game: str, players: int, seed: int):
    state = new_game(game, players, seed=seed)
    rng = Rng(seed)
    checkpoints = {0, 30, 120}
    step = 0
    while True:
        if step in checkpoints or state.is_over:
            yield state
        if state.is_over:
            return
        random_step(state, rng)
        step += 1


@pytest.mark.parametrize("game", GAMES)
def test_tables_fit_80_columns_without_cutting_anything(game):
    # The older renders are drawn in full and must not cut a word; a game's text_view is the
    # compact table of the view contract (at most 12 lines at 80 columns, 26 at 120; it may
    # shorten names, and `show N` gives the details).
    spec = spec_of(new_game(game, 2, seed=1))
    for players in sorted({spec.min_players, spec.max_players}):
        for state in _screens(game, players, seed=3):
            viewers = list(state.to_move[:1]) + [None]
            for viewer in viewers:
                for width in (80, 120):
                    out = io.StringIO()
                    table = (spec.text_view(state.observation(viewer), viewer, width=width) if spec.text_view
                             else spec.render(state, viewer))
                    Console(file=out, width=width, emoji=False, color_system=None).print(table)
                    text = out.getvalue()
                    assert max(len(line) for line in text.splitlines()) <= width
                    if spec.text_view is not None:
                        assert len(text.splitlines()) <= (12 if width < 120 else 26), (game, players, text)
                        continue
                    assert "…" not in text, (game, players, viewer, text)
                    if game == "biblios-dice" and viewer is not None:
                        assert f"viewed by Player {viewer + 1} " in text   # the panel title is not cut
