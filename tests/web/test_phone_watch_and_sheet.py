"""A researcher watching tables at 390x844 and 1366x768 (session 26, finding 18): the final score sheet of
every title readable on a phone (each column head in sight after at most the scroll the sheet offers, the
players' names beside the numbers, a visible line saying more columns are out of sight), a spectator told
near the top of a phone's first screen that they are watching, and a spectator reading whose decision a
Biblios Dice follow-up is rather than the seat's own instruction. Each test measures the page."""

from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "level": "random"}

#: Each title at two players and at its largest count (the most rows, Cadfael's among Biblios' at two).
TABLES = [("biblios-dice", 2), ("biblios-dice", 5), ("corsairs-of-valeria", 2), ("corsairs-of-valeria", 5),
          ("dice-kingdoms-of-valeria", 2), ("dice-kingdoms-of-valeria", 5), ("kingdom-of-dice", 2),
          ("kingdom-of-dice", 4), ("valeria-card-kingdoms", 2), ("valeria-card-kingdoms", 5)]
#: Sheets narrow enough to fit a 390 px phone whole (Kingdom of Dice: player, score, Influence cards, its
#: tie-break and the result); the others scroll sideways inside the dialog.
FITS_PHONE = {"kingdom-of-dice"}

#: JS: what a player can read of the final sheet. ``fits``: the sheet needs no scroll; ``cue``: the text
#: of a visible line in the dialog, in sight, saying how many columns are out of sight (null when none);
#: ``heads``: per column head with words on screen, [text, readable] once the sheet is scrolled (as far as it goes) to bring
#: that head to the middle of its box; readable = its words inside the sheet's box and the screen and not
#: covered (the point at each end of its words hits the head itself); ``names``: at the sheet's far end,
#: per row, [name, still in sight and uncovered]; ``endCue``: the cue's text there; ``page``: the page's
#: scroll width against the screen's.
SHEET = """async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const wrap = document.querySelector('#final .sheet-wrap');
  const vw = document.documentElement.clientWidth, vh = innerHeight;
  const cueNow = () => {
    for (const e of document.querySelectorAll('#final *')) {
      if (e.children.length || !/\\d+ more columns?/.test(e.textContent)) continue;
      const r = e.getBoundingClientRect();
      if (r.width && r.height && r.left >= 0 && r.right <= vw && r.top >= 0 && r.bottom <= vh) return e.textContent.trim();
    }
    return null;
  };
  const uncovered = (el, x, y) => { const hit = document.elementFromPoint(x, y); return !!hit && (hit === el || el.contains(hit)); };
  const words = (el) => { const r = document.createRange(); r.selectNodeContents(el); return r.getBoundingClientRect(); };
  wrap.scrollLeft = 0; await frame();
  const out = {fits: wrap.scrollWidth <= wrap.clientWidth + 1, cue: cueNow(), heads: [], names: [],
               page: [document.documentElement.scrollWidth, vw]};
  for (const th of document.querySelectorAll('#final-head th')) {
    if (th.querySelector('.sr-only')) continue;  // the result column's head is for screen readers only
    const cell = th.getBoundingClientRect(), box = wrap.getBoundingClientRect();
    wrap.scrollLeft += (cell.left + cell.right) / 2 - (box.left + box.right) / 2;
    await frame();
    const w = words(th), b = wrap.getBoundingClientRect();
    const inside = w.left >= Math.max(0, b.left) - 1 && w.right <= Math.min(vw, b.right) + 1;
    const y = (w.top + w.bottom) / 2;
    out.heads.push([th.textContent, inside && uncovered(th, w.left + 1, y) && uncovered(th, w.right - 1, y)]);
    wrap.scrollLeft = 0; await frame();
  }
  wrap.scrollLeft = wrap.scrollWidth; await frame();
  const b = wrap.getBoundingClientRect();
  for (const th of document.querySelectorAll('#final-scores th[scope=row]')) {
    const w = words(th);
    out.names.push([th.textContent, w.left >= b.left - 1 && uncovered(th, (w.left + w.right) / 2, (w.top + w.bottom) / 2)]);
  }
  out.endCue = cueNow();
  wrap.scrollLeft = 0; await frame();
  return out;
}"""


def _finished(server, game: str, players: int, seed: int = 7) -> str:
    """A table of ``players`` random bots played to its end; its id."""
    tid = server.create(game, [BOT] * players, seed=seed)["table_id"]
    deadline = time.time() + 240
    while not server.call("GET", f"/api/tables/{tid}")[1]["over"]:
        assert time.time() < deadline, f"the bots did not finish {game}"
        time.sleep(0.3)
    return tid


def test_every_final_sheet_is_readable_on_a_phone_and_fits_a_laptop(browser, server):
    """Each title's final sheet at 2 players and at its largest count. At 390x844 every column head can be
    read after at most the scroll the sheet offers (words in sight, nothing over them), the players' names
    stay beside the numbers at the sheet's far end, and a sheet wider than the phone says so above it
    ("Scroll the sheet sideways: 9 more columns →"; at the far end "← 9 more columns: scroll back");
    Kingdom of Dice's fits without a scroll; the page itself never scrolls sideways. At 1366x768 every
    sheet fits its dialog (Biblios Dice's was 42 px too wide) and no cue shows."""
    tables = [(game, n, _finished(server, game, n)) for game, n in TABLES]
    for size in (PHONE, DESKTOP):
        ctx = browser.new_context(**size)
        ctx.set_default_timeout(20_000)
        try:
            page = ctx.new_page()
            for game, n, tid in tables:
                page.goto(f"{server.url}/tables/{tid}?pace=0")
                page.wait_for_selector("#final-sheet[data-ready]")
                got = page.evaluate(SHEET)
                where = (game, n, size["viewport"]["width"], got)
                assert got["page"][0] <= got["page"][1], where
                assert len(got["heads"]) >= 4 and [h for h, ok in got["heads"] if not ok] == [], where
                if size is DESKTOP or game in FITS_PHONE:
                    assert got["fits"] and got["cue"] is None, where
                    continue
                assert not got["fits"] and got["cue"] and got["cue"].endswith("→"), where
                assert got["endCue"] and got["endCue"].startswith("←") and "→" not in got["endCue"], where
                assert len(got["names"]) >= n and all(ok for _, ok in got["names"]), where
        finally:
            ctx.close()


#: JS: the visible elements whose own words say the viewer is watching, each [text, wholly on the first
#: screen (no scroll) and not covered at its middle]; and the top line's height.
WATCHING = """() => {
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    const own = [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('');
    if (!/you are watching/i.test(own)) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    out.push([own.trim(), r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth
              && !!hit && (hit === e || e.contains(hit))]);
  }
  const top = document.querySelector('.topline');
  return {lines: out, top: top ? top.getBoundingClientRect().height : null};
}"""


def test_a_spectator_on_a_phone_sees_on_the_first_screen_that_they_are_watching(browser, server):
    """A spectator's 390x844 page says "You are watching" in sight without scrolling (it was only in the
    players panel, far below the board): at the head of the docked prompt, so the top line stays one row
    and the board starts where it did; at 1366x768 it shows too. The seat's own page never says it."""
    made = server.create("corsairs-of-valeria", [HUMAN, {"kind": "bot", "level": "greedy"}], seed=3)
    tid = made["table_id"]
    for size in (PHONE, DESKTOP):
        ctx = browser.new_context(**size)
        ctx.set_default_timeout(20_000)
        try:
            page = ctx.new_page()
            page.goto(f"{server.url}/tables/{tid}?pace=0")
            page.wait_for_function("() => /must decide|thinking/.test(document.querySelector('#status').textContent)")
            got = page.evaluate(WATCHING)
            assert any(ok for _, ok in got["lines"]), got
            prompt = page.locator("#status").inner_text()
            assert prompt.startswith("You are watching") and prompt.endswith("Player 1 must decide"), prompt
            if size is PHONE:
                assert got["top"] <= 48, got  # one row: min-height 40 px, its buttons 36-44 px high
            mine = browser.new_context(**size)  # its own browser: the seat's token is kept per browser
            try:
                seat = mine.new_page()
                seat.goto(f"{server.url}/tables/{tid}?token={made['seats'][0]['token']}&pace=0")
                seat.wait_for_selector("#board [data-action], #actionbar [data-action]")
                assert seat.evaluate(WATCHING)["lines"] == []
            finally:
                mine.close()
        finally:
            ctx.close()


def test_a_spectator_reads_whose_decision_a_follow_up_is_not_the_seats_instruction(browser, server):
    """Biblios Dice, Player 1 resolving the Adjustment Die: the seat's page says "Adjustment Die: click a
    Value Die at the top of a Resource Track."; a spectator's (1366x768 and 390x844) says neither that nor
    any "click", but "Player 1 chooses which Value Dice to change", and its prompt "You are watching: Player 1
    must decide"."""
    made = server.create("biblios-dice", [HUMAN, HUMAN], seed=1)
    tid, token = made["table_id"], made["seats"][0]["token"]
    for action in ("mark:quills", "keep", "take:adjustment"):  # seed 1: these three bring the follow-up
        view = server.call("GET", f"/api/tables/{tid}", token=token)[1]
        status, answer = server.call("POST", f"/api/tables/{tid}/actions", {"action": action, "version": view["version"]}, token=token)
        assert status == 200, answer
    assert server.call("GET", f"/api/tables/{tid}")[1]["observation"]["pending"][:2] == ["adjust", 0]
    for size in (DESKTOP, PHONE):
        # two browsers: a page opened with a seat's token keeps it for the table, so a second page there
        # would play that seat
        mine, ctx = browser.new_context(**size), browser.new_context(**size)
        try:
            seat = mine.new_page()
            seat.goto(f"{server.url}/tables/{tid}?token={token}&pace=0")
            seat.wait_for_selector("#board [data-action]")
            told = seat.locator("#board .bd-pending").inner_text().strip()
            assert told == "Adjustment Die: click a Value Die at the top of a Resource Track."
            page = ctx.new_page()
            page.goto(f"{server.url}/tables/{tid}?pace=0")
            page.wait_for_function("() => /must decide/.test(document.querySelector('#status').textContent)")
            page.wait_for_selector("#board .bd-pending")
            words = page.evaluate("() => document.body.innerText")
            assert told not in words and "click" not in words.lower()
            assert "Player 1 chooses which Value Dice to change" in page.locator("#board").inner_text()
            prompt = page.locator("#status").inner_text().strip()
            assert prompt.startswith("You are watching") and prompt.endswith(" Player 1 must decide"), prompt
        finally:
            mine.close()
            ctx.close()
