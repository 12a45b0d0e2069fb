"""The Dice Kingdoms board on a phone (Playwright, Debian's chromium): no sideways page scroll,
text of at least 12 CSS px, action targets of at least 32 x 32 px (docs/web.md, "Live updates").

The board alone is loaded with its board.css (no server, no page chrome), at 390x844 and
360x740 portrait with touch, in the middle of a 4-player game with the seat to move.
"""

from __future__ import annotations

from importlib import resources

import pytest

from dicetable.engine import Rng, new_game
from dicetable.engine.markup import assemble
from dicetable.games.dice_kingdoms_of_valeria.board import board_view

pytestmark = pytest.mark.browser  # the browser fixture (tests/conftest.py) skips without chromium

MEASURE = """() => {
  const b = document.querySelector('.board-dice-kingdoms-of-valeria');
  const small = [];
  for (const el of b.querySelectorAll('text, tspan, span, label, button')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !el.textContent.trim() || el.querySelector('text, span, label')) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.fillOpacity === '0') continue;
    let px = parseFloat(cs.fontSize);
    if (el.ownerSVGElement) px *= el.ownerSVGElement.getScreenCTM().a;
    if (px < 11.95) small.push(el.textContent.trim().slice(0, 20) + ' ' + px.toFixed(1));
  }
  const acts = [...b.querySelectorAll('[data-action]')].map(e => e.getBoundingClientRect()).filter(r => r.width);
  return {scroll: document.documentElement.scrollWidth, width: innerWidth, small,
          acts: acts.length, tiny: acts.filter(r => r.width < 32 || r.height < 32).length};
}"""


def _board_in_action_phase() -> tuple[str, int]:
    state = new_game("dice-kingdoms-of-valeria", 4, seed=3)
    rng = Rng(3)
    for _ in range(60):
        seat = state.to_move[0]
        acts = state.legal_actions(seat)
        state.apply(acts[rng.randbelow(len(acts))], seat)
    while state.decision(state.to_move[0]).kind != "action":
        seat = state.to_move[0]
        state.apply(state.legal_actions(seat)[0], seat)
    seat = state.to_move[0]
    acts = [a.to_json() for a in state.legal_actions(seat)]
    return assemble(board_view(state.observation(seat), acts, seat)), len(acts)


@pytest.mark.parametrize("width,height", [(390, 844), (360, 740)])
def test_the_board_fits_a_phone_with_readable_text_and_big_enough_targets(browser, width, height):
    html, n_actions = _board_in_action_phase()
    css = resources.files("dicetable.games.dice_kingdoms_of_valeria").joinpath("static", "board.css").read_text()
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True,
                              device_scale_factor=2)
    try:
        page = ctx.new_page()
        page.set_content(f'<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1">'
                         f"<style>body {{ margin: 8px; }} {css}</style><div id=board>{html}</div>")
        got = page.evaluate(MEASURE)
    finally:
        ctx.close()
    assert got["scroll"] <= got["width"]
    assert got["small"] == []
    assert got["acts"] >= n_actions - 1 > 0   # every action but "take no action" is on the board
    assert got["tiny"] == 0
