"""Valeria: Card Kingdoms card names on a phone (headless chromium through Playwright, as tests/web does).

At 390x844 (touch) and 1366x768 no word of a card's name is split over two lines, nor sticks out of its card: a name wraps at
its spaces (or its text shrinks), never mid-word with or without a hyphen.
"""

from __future__ import annotations

import pytest

from dicetable.engine.markup import assemble
from dicetable.games.valeria_card_kingdoms.board import board_view

from tests.games.viewkit import page_and_board_css

from vck_preview import mid_game

SPLIT_WORDS = """() => {
  const range_of = (node) => { const r = document.createRange(); r.selectNodeContents(node); return r; };
  const out = [];
  for (const el of document.querySelectorAll('.vck-name')) {
    const node = el.firstChild;
    if (!node || node.nodeType !== Node.TEXT_NODE) continue;
    const text = node.textContent;
    const re = /\\S+/g;
    let m;
    while ((m = re.exec(text))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) out.push([text, m[0]]);
    }
    const card = el.closest('.vck-card') || el.parentElement;
    const [r, c] = [range_of(node).getBoundingClientRect(), card.getBoundingClientRect()];
    if (r.right > c.right + 1 || r.left < c.left - 1) out.push([text, 'overflows its card by', Math.round(r.right - c.right)]);
  }
  return out;
}"""


def _css() -> str:
    return page_and_board_css("dicetable.games.valeria_card_kingdoms")


@pytest.mark.parametrize("width,height,mobile", [(390, 844, True), (1366, 768, False)])
@pytest.mark.parametrize("players", [2, 5])
def test_card_names_never_break_mid_word(browser, width, height, mobile, players):
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=mobile, has_touch=mobile,
                              device_scale_factor=2 if mobile else 1, locale="en-US")
    page = ctx.new_page()
    try:
        state = mid_game(players)
        seat = state.to_move[0]
        actions = [{"id": a.id, "label": a.label} for a in state.legal_actions(seat)]
        html = assemble(board_view(state.observation(seat), actions, seat))
        page.set_content(f'<html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1">'
                         f'<style>{_css()}</style></head><body data-page="table"><main class="table-main">'
                         f'<section class="board-wrap"><div id="board">{html}</div></section></main></body></html>')
        assert page.locator(".vck-name").count() > 10
        assert page.evaluate(SPLIT_WORDS) == []
    finally:
        ctx.close()
