"""What a new user's test of the browser table found (2026-12-07), measured in a real browser: a seat
name with a long word never scrolls a phone's page sideways (lobby, table page, final scores), My tables
lists a table the lobby has just created, and the final score sheet's heads neither run into each other
nor make a tall empty band above the table on a phone. A few seconds each.
"""

from __future__ import annotations


import pytest

from .helpers import finished_by_bots

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
#: 36 characters with a 30-letter word: within the 40 characters a seat's name may have
LONG = "李小龍 " + "W" * 30

#: JS: the document's width against the phone's 390 px, and what runs past it. A mobile browser
#: widens its layout viewport to the content, so innerWidth alone would grow with the fault.
WIDTH = """() => {
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > 391) out.push(`${e.tagName}#${e.id}.${e.className}`);
  }
  return {scroll: document.documentElement.scrollWidth, inner: innerWidth, past: out.slice(0, 5)};
}"""


def _phone_fits(page) -> None:
    got = page.evaluate(WIDTH)
    assert got["scroll"] <= 390 and got["inner"] <= 390, got


def test_a_long_name_never_scrolls_a_phone_page_sideways(browser, server):
    """A 30-letter word in a seat's name wraps in the lobby's lists, the table's status line, players
    panel and chat: the 390 px page is never wider than the phone."""
    made = server.create("kingdom-of-dice", [{"kind": "human", "name": LONG}, {"kind": "human", "name": "Zoë " + "X" * 36}], seed=5)
    tid = made["table_id"]
    token = made["seats"][0]["token"]
    assert server.call("POST", f"/api/tables/{tid}/chat", {"text": "hello " + "Y" * 60}, token=token)[0] in (200, 201)
    ctx = browser.new_context(**PHONE)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/")
        page.wait_for_selector(f'[data-table-row="{tid}"]')
        page.evaluate("([id, t]) => localStorage.setItem(`dicetable.tokens.${id}`, JSON.stringify({0: t}))", [tid, token])
        page.reload()
        page.wait_for_selector(f'[data-my-table="{tid}"]')
        _phone_fits(page)
        row = page.locator(f'[data-table-row="{tid}"]').bounding_box()
        assert row["x"] + row["width"] <= 390
        page.goto(f"{server.url}/tables/{tid}#token={token}")
        page.wait_for_selector(".player .pname", state="attached")
        page.wait_for_selector(".chat-line", state="attached")
        page.click("#tab-players")
        _phone_fits(page)
        # the name is shown whole, wrapped inside its panel
        names = page.evaluate("""() => [...document.querySelectorAll('.player')].map((p) => {
          const n = p.querySelector('.pname'); const a = p.getBoundingClientRect(); const b = n.getBoundingClientRect();
          return [n.textContent, b.right <= a.right + 0.5]; })""")
        assert any(LONG in text for text, _ in names) and all(inside for _, inside in names), names
    finally:
        ctx.close()


def test_my_tables_lists_a_table_just_created_for_friends(browser, server):
    """Create table with a friend's seat: the invite panel opens and My tables lists the host's new table
    at once (it said "you sit at no table yet" until a reload)."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/")
        page.wait_for_selector("#game option", state="attached")
        page.wait_for_selector("#my-tables li")
        page.select_option("#game", "corsairs-of-valeria")
        page.select_option("#players", "2")
        page.select_option("#seat-1", "human:away")
        page.click("#create")
        page.wait_for_selector("#created:not([hidden])")
        link = page.get_attribute("#open-table", "href")
        tid = link.split("/tables/")[1].split("?")[0].split("#")[0]
        # well before the 30 s of the list's own refresh
        page.wait_for_selector(f'[data-my-table="{tid}"]', timeout=5000)
        assert "no table yet" not in page.inner_text("#my-tables")
    finally:
        ctx.close()


def test_final_sheet_on_a_phone_keeps_heads_apart_and_low(browser, server):
    """Biblios Dice's final sheet at 390 px: no category head runs into the next ("Manuscripts" into
    "Pigments"), the heads' row is at most three lines high (it was five, an empty band above the
    table), and a long name wraps in its row head, readable whole."""
    tid = finished_by_bots(server, "biblios-dice", [{"kind": "human", "name": LONG}, {"kind": "bot", "level": "random"}], seed=3)
    ctx = browser.new_context(**PHONE)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/tables/{tid}")
        page.wait_for_selector("#final-sheet[data-ready]")
        got = page.evaluate("""() => {
          const heads = [...document.querySelectorAll('#final-head th')].map((t) => {
            const r = document.createRange(); r.selectNodeContents(t); const b = r.getBoundingClientRect();
            return {text: t.textContent, left: b.left, right: b.right, cellRight: t.getBoundingClientRect().right}; });
          const row = document.querySelector('#final-head tr').getBoundingClientRect().height;
          const line = parseFloat(getComputedStyle(document.querySelector('#final-head th')).lineHeight);
          const names = [...document.querySelectorAll('#final-scores th[scope=row]')].map((t) => [t.textContent, t.scrollWidth <= t.clientWidth]);
          return {heads, row, line, names};
        }""")
        heads = got["heads"]
        assert any(h["text"].startswith("Manuscripts") for h in heads)
        for a, b in zip(heads, heads[1:]):
            assert a["right"] <= a["cellRight"] + 0.5 and a["right"] + 4 <= b["left"], (a, b)
        assert got["row"] <= 3 * got["line"] + 12, got
        assert any(LONG in text for text, _ in got["names"]) and all(fits for _, fits in got["names"]), got["names"]
        _phone_fits(page)
    finally:
        ctx.close()


#: JS: a +2 badge played (the page's animate.js) on every keyed element of the board, each paused a
#: quarter into its float; [key, over] where ``over`` says it covers that element's own words. An element
#: at the very top of the board area is left out: the badge's whole float must stay inside the area, which
#: may hold it down over the element.
BADGES_OVER_TEXT = """async () => {
  const fx = await import('/static/web/animate.js');
  const area = document.querySelector('#board-wrap').getBoundingClientRect();
  const out = [];
  for (const e of document.querySelectorAll('#board [data-key]')) {
    const box = e.getBoundingClientRect();
    if (!box.width || box.top < area.top + 48) continue;
    for (const b of document.querySelectorAll('.fx-badge')) b.remove();
    fx.play([{type: 'count', key: e.dataset.key, delta: 2}], new Map(), {ms: 400, motion: true});
    const b = document.querySelector('.fx-badge');
    if (!b) continue;
    const a = b.getAnimations()[0];
    a.pause();
    a.currentTime = 0.25 * a.effect.getTiming().duration;
    const r = b.getBoundingClientRect();
    const words = document.createRange();
    words.selectNodeContents(e);
    out.push([e.dataset.key, [...words.getClientRects()].some((t) => t.width > 0 && r.left < t.right && r.right > t.left
      && r.top < t.bottom && r.bottom > t.top)]);
    a.cancel();
  }
  return out;
}"""


def test_score_badges_sit_beside_the_words_they_count(browser, server):
    """A +n badge goes after its element's text (a player's "score now ..." line) or over its box's
    top-right corner (a die, a track's space), never over the element's own words (they sat centred on
    them: a new user's test of Biblios Dice at 1366x768)."""
    made = server.create("biblios-dice", [{"kind": "human"}, {"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "greedy"}], seed=7)
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/tables/{made['table_id']}?pace=0#token={made['seats'][0]['token']}")
        page.wait_for_selector("#board [data-action]")
        got = page.evaluate(BADGES_OVER_TEXT)
        assert len(got) > 50 and any(key.startswith("p-1") for key, _ in got), got
        assert [key for key, over in got if over] == []
    finally:
        ctx.close()


#: the prompt of a Biblios Dice auction, as long as a tester's (four lines at 390 px)
AUCTION = ("Player 1 (you): Auction for the group of 5 dice (1 Ink, 3 Bishop, Gold 5) and the group of 3 dice "
           "(2 Pigments, Adjustment +1) (the winner chooses one): place a Bidding Card face down (your bid so far: "
           "10; your Gold: 22).")


def test_a_phone_shows_the_decision_in_two_lines_and_the_rest_on_a_tap(browser, server):
    """At 390x844 a long status line (a Biblios auction's took four lines, ~100 px over the cards to
    tap) is folded to two lines with a "More" button; the button shows it whole, and a new line comes
    folded again. A laptop shows the whole line and no button."""
    made = server.create("kingdom-of-dice", [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], seed=5)
    url = f"{server.url}/tables/{made['table_id']}?pace=0#token={made['seats'][0]['token']}"
    ctx = browser.new_context(**PHONE)
    try:
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_selector("#board [data-action]")
        measure = """() => { const s = document.querySelector('#status'); const m = document.querySelector('#status-more');
          return {h: s.getBoundingClientRect().height, line: parseFloat(getComputedStyle(s).lineHeight), full: s.scrollHeight,
                  more: !m.hidden, expanded: m.getAttribute('aria-expanded'), dock: document.querySelector('.dock').getBoundingClientRect().height}; }"""
        page.evaluate("(t) => { document.querySelector('#status').textContent = t; }", AUCTION)
        page.wait_for_timeout(100)
        got = page.evaluate(measure)
        assert got["h"] <= 2 * got["line"] + 1 and got["full"] > 3 * got["line"], got
        assert got["more"] and got["expanded"] == "false" and got["dock"] <= 70, got
        page.tap("#status-more")
        got = page.evaluate(measure)
        assert got["h"] >= got["full"] - 1 and got["h"] > 3 * got["line"] and got["expanded"] == "true", got
        assert page.inner_text("#status-more") == "Less"
        page.evaluate("(t) => { document.querySelector('#status').textContent = t + ' '; }", AUCTION + " Again")
        page.wait_for_timeout(100)
        got = page.evaluate(measure)
        assert got["h"] <= 2 * got["line"] + 1 and got["expanded"] == "false", got
        # a short line: no button
        page.evaluate("() => { document.querySelector('#status').textContent = 'Player 1 (you): keep a die.'; }")
        page.wait_for_timeout(100)
        assert not page.evaluate(measure)["more"]
    finally:
        ctx.close()
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_selector("#board [data-action]")
        page.evaluate("(t) => { document.querySelector('#status').textContent = t; }", AUCTION)
        page.wait_for_timeout(100)
        assert page.evaluate("() => { const s = document.querySelector('#status'); return s.scrollHeight <= s.clientHeight + 1; }")
        assert page.locator("#status-more").is_hidden()
    finally:
        ctx.close()


def test_the_tab_title_names_the_game_by_its_name(context, server):
    """A spectator's tab says which game it watches as players call it, not by the game's id."""
    made = server.create("kingdom-of-dice", [{"kind": "human"}, {"kind": "human"}], seed=5)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{made['table_id']}?pace=0")
    page.wait_for_function("() => document.title.startsWith('Kingdom of Dice · watching')", timeout=10_000)
    assert "kingdom-of-dice" not in page.title()
