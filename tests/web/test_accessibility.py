"""No accessibility barriers (issue 25 item 8): axe-core finds no critical or serious violation on the
lobby, a mid-game and a finished table of each title and the replay viewer, at 1366x768 and on a phone
(390x844, touch), nor a missing landmark or h1; plus the keyboard behaviour axe cannot see (tabs with
arrow keys, scrollable panels in the Tab order, piece tooltips given to the keyboard, the focus on
the first action of a decision that waits at load, the clock's polite announcement).

One server and one browser for the module; the tables are made once: the mid-game one by playing a
human seat through the API with random legal actions, the finished one with greedy bots in every seat.
"""

from __future__ import annotations

import random
import time

import pytest

from tests.web.a11y import axe_problems
from tests.web.helpers import OVER, accessible_problems, api_until_to_move, wait_ready

GAMES = ("kingdom-of-dice", "biblios-dice", "valeria-card-kingdoms", "dice-kingdoms-of-valeria",
         "corsairs-of-valeria")
SIZES = {"desktop": {"viewport": {"width": 1366, "height": 768}},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
                   "device_scale_factor": 2}}
#: The lobby's invite panel, shown after "create" (the lobby's own id for it belongs here once it has one).
INVITE_PANEL = "#invite:not([hidden]), #invite-panel:not([hidden]), #created:not([hidden])"
#: The human seat's own actions before the mid-game picture.
MID_GAME_ACTIONS = 10


def _wait_to_move(server, tid: str, token: str, deadline: float) -> dict:
    """The seat's view once it is to move or the game is over (bots play in between)."""
    while True:
        view = server.call("GET", f"/api/tables/{tid}", token=token)[1]
        if view["over"] or view["seat"] in view["to_move"]:
            return view
        assert time.time() < deadline, f"{view['game']}: the bots did not hand the move back"
        time.sleep(0.05)


def _mid_game(server, game: str, seed: int) -> dict:
    """A table where the human seat 0 played MID_GAME_ACTIONS random legal actions against a random bot
    and is to move again: ``{"table_id", "token"}``."""
    made = server.create(game, [{"kind": "human"}, {"kind": "bot", "level": "random"}], seed=seed)
    tid, token = made["table_id"], made["seats"][0]["token"]
    rng = random.Random(seed)
    deadline = time.time() + 60
    played = 0
    while played < MID_GAME_ACTIONS:
        view = _wait_to_move(server, tid, token, deadline)
        if view["over"]:
            break
        action = rng.choice(view["legal_actions"])["id"]
        status, answer = server.call("POST", f"/api/tables/{tid}/actions",
                                     {"action": action, "version": view["version"]}, token=token)
        assert status in (200, 409), answer  # 409: a bot moved first; look again
        played += status == 200
    view = _wait_to_move(server, tid, token, deadline)
    assert not view["over"], f"{game} ended within {MID_GAME_ACTIONS} actions: not a mid-game table"
    return {"table_id": tid, "token": token, "version": view["version"]}


def _finished(server, game: str, seed: int) -> dict:
    """A table played to its end by two greedy bots: ``{"table_id", "version"}`` (random bots play
    Kingdom of Dice for thousands of actions, greedy ones for a few hundred)."""
    made = server.create(game, [{"kind": "bot", "level": "greedy"}] * 2, seed=seed)
    return {"table_id": made["table_id"]}


@pytest.fixture(scope="module")
def tables(server) -> dict:
    """game -> {"mid": ..., "over": ...}; the finished tables are awaited here (they play meanwhile)."""
    out = {game: {"over": _finished(server, game, 40 + i)} for i, game in enumerate(GAMES)}
    for i, game in enumerate(GAMES):
        out[game]["mid"] = _mid_game(server, game, 20 + i)
    deadline = time.time() + 120
    for game in GAMES:
        tid = out[game]["over"]["table_id"]
        while True:
            view = server.call("GET", f"/api/tables/{tid}")[1]
            if view["over"]:
                out[game]["over"]["version"] = view["version"]
                break
            assert time.time() < deadline, f"{game}: the bots did not finish in time"
            time.sleep(0.2)
    return out


@pytest.fixture(scope="module", params=list(SIZES))
def sized(request, browser):
    """A browser context at one of the two sizes (module-wide: its pages are reused by the tests)."""
    ctx = browser.new_context(**SIZES[request.param])
    ctx.set_default_timeout(20_000)
    yield ctx
    ctx.close()


def _open(ctx, url: str):
    """The context's one page, sent to ``url`` (a page is reused: each test only navigates it)."""
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    page.goto(url)
    return page


def _assert_clean(page, where: str, within: str | None = None) -> None:
    problems = axe_problems(page, within=within)
    assert problems == [], f"{where} at {page.viewport_size}:\n  " + "\n  ".join(problems)


def _assert_tabs_clean(page, where: str) -> None:
    """Each side tab the page shows besides the log (the rules; on a phone the players) selected in
    turn and its panel checked (axe skips hidden panels), then the log selected again."""
    others = page.evaluate("() => [...document.querySelectorAll('#side-tabs [role=tab]')].filter(t => "
                           "t.getAttribute('aria-selected') === 'false' && t.getClientRects().length > 0)"
                           ".map(t => [t.id, t.getAttribute('aria-controls')])")
    assert others, "no other side tab shown"
    for tab, pane in others:
        page.click(f"#{tab}")
        page.wait_for_selector(f"#{pane}", state="visible")
        _assert_clean(page, f"{where}, {tab}", within=f"#{pane}")
    page.click("#tab-log")


def test_lobby_has_no_axe_violations(sized, server):
    page = _open(sized, server.url + "/?pace=0")
    page.wait_for_selector("#game option", state="attached")
    page.wait_for_function("() => !document.querySelector('#open-tables').textContent.includes('loading')")
    _assert_clean(page, "the lobby")


def test_invite_panel_has_no_axe_violations(sized, server):
    """The panel the lobby shows after "create" with a seat played elsewhere (its link to send)."""
    page = _open(sized, server.url + "/?pace=0")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#players", "2")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "human:away")
    page.click("#create")
    try:
        page.wait_for_selector(INVITE_PANEL, timeout=4_000)
    except Exception:
        pytest.skip(f"the lobby shows no invite panel ({INVITE_PANEL}) after creating a table yet")
    _assert_clean(page, "the invite panel")


def test_no_such_table_page_has_no_axe_violations(sized, server):
    """A table link that leads nowhere: the dark status line says so and ends with a link to the lobby,
    which must be readable on that bar (axe's color-contrast, the serious rule it broke)."""
    page = _open(sized, f"{server.url}/tables/no-such-table")
    page.wait_for_selector(".status > a[href='/']")
    # nothing of a table is offered for no table: no empty board, tabs, chat box or Fast button
    for part in ("#board-wrap", "#side-tabs", "#chat-text", "#fast-btn"):
        assert not page.locator(part).is_visible(), part
    assert page.locator("#status").bounding_box()["y"] < 200  # read first, a phone's dock included
    _assert_clean(page, "the no-such-table page")


@pytest.mark.parametrize("game", GAMES)
def test_mid_game_table_has_no_axe_violations(sized, server, tables, game):
    t = tables[game]["mid"]
    page = _open(sized, f"{server.url}/tables/{t['table_id']}?token={t['token']}&pace=0")
    wait_ready(page)
    assert page.locator("#board [data-action], #actionbar [data-action]").count() > 0
    _assert_clean(page, f"{game} mid-game")
    _assert_tabs_clean(page, f"{game} mid-game")


@pytest.mark.parametrize("game", GAMES)
def test_finished_table_has_no_axe_violations(sized, server, tables, game):
    """With the final dialog up, then the board behind it ("Look at the table")."""
    t = tables[game]["over"]
    page = _open(sized, f"{server.url}/tables/{t['table_id']}?pace=0")
    page.wait_for_function(OVER)
    _assert_clean(page, f"{game} final dialog")
    page.click("#final-close")
    page.wait_for_function("() => document.querySelector('#final').hidden")
    _assert_clean(page, f"{game} finished board")
    _assert_tabs_clean(page, f"{game} finished board")


@pytest.mark.parametrize("game", GAMES)
def test_replay_viewer_has_no_axe_violations(sized, server, tables, game):
    t = tables[game]["over"]
    step = t["version"] // 2
    page = _open(sized, f"{server.url}/tables/{t['table_id']}/replay?step={step}")
    page.wait_for_function(f"() => document.querySelector('#step').dataset.version === '{step}'")
    _assert_clean(page, f"{game} replay step {step}")


# ---------------------------------------------------------------- what axe cannot see: the keyboard

def _focused(page) -> dict:
    return page.evaluate("() => { const e = document.activeElement; return {id: e.id, "
                         "selected: e.getAttribute('aria-selected'), controls: e.getAttribute('aria-controls')}; }")


def test_side_tabs_follow_the_arrow_keys(context, server, tables):
    """WAI-ARIA tabs: only the selected tab is a Tab stop; Right/Left/Home/End select and focus (the
    Players tab is hidden on a wide screen, so Home and the wrap skip it)."""
    t = tables["kingdom-of-dice"]["mid"]
    page = context.new_page()
    page.goto(f"{server.url}/tables/{t['table_id']}?token={t['token']}&pace=0")
    wait_ready(page)
    stops = page.evaluate("() => [...document.querySelectorAll('#side-tabs [role=tab]')].map(t => [t.id, t.tabIndex])")
    assert stops == [["tab-players", -1], ["tab-log", 0], ["tab-rules", -1]]
    page.focus("#tab-log")
    page.keyboard.press("ArrowRight")
    assert _focused(page) == {"id": "tab-rules", "selected": "true", "controls": "rules-pane"}
    assert page.is_visible("#rules-pane") and page.is_hidden("#log-pane")
    page.keyboard.press("ArrowRight")  # wraps round to the first shown tab
    assert _focused(page)["id"] == "tab-log" and page.is_visible("#log-pane") and page.is_hidden("#rules-pane")
    page.keyboard.press("End")
    assert _focused(page)["id"] == "tab-rules"
    page.keyboard.press("Home")
    assert _focused(page)["id"] == "tab-log"
    assert page.get_attribute("#tab-rules", "aria-selected") == "false"
    assert page.evaluate("() => document.querySelector('#tab-rules').tabIndex") == -1


def test_dice_kingdoms_sheet_tabs_are_tabs(context, server, tables):
    """The sheets' tabs: role=tab in a named tablist, each controlling its tabpanel; arrows move the
    selection (the sheet shown follows), a click keeps aria-selected in step."""
    t = tables["dice-kingdoms-of-valeria"]["mid"]
    page = context.new_page()
    page.goto(f"{server.url}/tables/{t['table_id']}?token={t['token']}&pace=0")
    wait_ready(page)
    tabs = page.evaluate("""() => [...document.querySelectorAll('.dkv-tabs [role=tab]')].map(t => ({
        id: t.id, selected: t.getAttribute('aria-selected'), stop: t.tabIndex,
        shown: document.getElementById(t.getAttribute('aria-controls')).getClientRects().length > 0,
        panel: document.getElementById(t.getAttribute('aria-controls')).getAttribute('role')}))""")
    assert page.get_attribute(".dkv-tabs", "role") == "tablist" and page.get_attribute(".dkv-tabs", "aria-label")
    assert [x["id"] for x in tabs] == ["dkv-tabl-0", "dkv-tabl-1"]
    assert all(x["panel"] == "tabpanel" for x in tabs)
    selected = [x for x in tabs if x["selected"] == "true"]
    assert len(selected) == 1 and selected[0]["stop"] == 0 and selected[0]["shown"]
    assert all(x["stop"] == -1 and not x["shown"] for x in tabs if x["selected"] == "false")
    first = int(selected[0]["id"][-1])
    other = 1 - first
    page.focus(f"#dkv-tabl-{first}")
    page.keyboard.press("ArrowRight")
    assert _focused(page) == {"id": f"dkv-tabl-{other}", "selected": "true", "controls": f"dkv-panel-{other}"}
    assert page.is_checked(f"#dkv-tab-{other}")
    assert page.is_visible(f"#dkv-panel-{other}") and page.is_hidden(f"#dkv-panel-{first}")
    assert page.get_attribute(f"#dkv-tabl-{first}", "aria-selected") == "false"
    page.click(f"#dkv-tabl-{first}")
    page.wait_for_function(f"() => document.querySelector('#dkv-tabl-{first}').getAttribute('aria-selected') === 'true'")
    assert page.get_attribute(f"#dkv-tabl-{other}", "aria-selected") == "false"
    assert page.is_visible(f"#dkv-panel-{first}")


def test_the_log_is_scrolled_with_the_keyboard(context, server, tables):
    """The log pane is a named Tab stop and Page Down scrolls it (a finished game's log overflows)."""
    t = tables["kingdom-of-dice"]["over"]
    page = context.new_page()
    page.goto(f"{server.url}/tables/{t['table_id']}?pace=0")
    page.wait_for_function(OVER)
    page.click("#final-close")
    assert page.evaluate("() => { const p = document.querySelector('#log-pane'); return p.scrollHeight > p.clientHeight; }")
    page.evaluate("() => { document.querySelector('#log-pane').scrollTop = 0; document.querySelector('#tab-log').focus(); }")
    for _ in range(10):
        page.keyboard.press("Tab")
        if _focused(page)["id"] == "log-pane":
            break
    assert _focused(page)["id"] == "log-pane"
    assert page.get_attribute("#log-pane", "aria-labelledby") == "tab-log"
    page.keyboard.press("PageDown")
    page.wait_for_function("() => document.querySelector('#log-pane').scrollTop > 0")


TIP = """() => { const e = document.activeElement, tip = document.querySelector('#piece-tip');
  const own = e.getAttribute('title') || ([...e.children].find(c => c.tagName.toLowerCase() === 'title') || {}).textContent || '';
  return {tip: tip.hidden ? null : tip.textContent, own: own.trim(), inBoard: document.querySelector('#board').contains(e),
          action: e.dataset.action || null,
          role: e.getAttribute('role'), described: e.getAttribute('aria-describedby'), label: e.getAttribute('aria-label')}; }"""


@pytest.mark.parametrize("game", GAMES)
def test_every_tooltip_reaches_the_keyboard(context, server, tables, game):
    """From the board, Down walks the pieces with a tooltip or an action and Up walks back (wrapping
    round): each focused piece shows its own tooltip, and a screen reader gets it as the piece's name
    (a group named by its title) or its description (aria-describedby the shown tooltip)."""
    t = tables[game]["mid"]
    page = context.new_page()
    page.goto(f"{server.url}/tables/{t['table_id']}?token={t['token']}&pace=0")
    wait_ready(page)
    page.focus("#board-wrap")
    seen = []
    for key in ["ArrowDown"] * 6 + ["ArrowUp"] * 8:
        page.keyboard.press(key)
        got = page.evaluate(TIP)
        assert got["inBoard"] and (got["own"] or got["action"]), got
        assert got["tip"] == (got["own"] or None), got
        if not got["own"]:
            pass  # an action without a tooltip: its name says it all
        elif got["label"] and got["label"] != got["own"]:
            assert got["described"] == "piece-tip", got
        else:
            assert got["role"], got  # named by its title: a group (or its own role)
        seen.append(got["own"] or got["action"])
    assert len(set(seen)) >= 4, seen
    assert seen[6] == seen[4] and seen[7] == seen[3]  # Up retraces Down's steps
    page.keyboard.press("Tab")  # leaving the board hides the tooltip
    assert page.evaluate("() => document.querySelector('#piece-tip').hidden")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_focus_the_page_moves_before_any_key_shows_no_tooltip(browser, server, size):
    """Corsairs, two humans: Player 2's page is open and untouched when the decision comes to it
    (Player 1 plays through the API). The page moves the focus to the decision's first die, a piece
    with a tooltip; no tooltip covers the board, since nobody used the keyboard (nor a mouse or a
    finger). A keyboard user still gets it: Shift+Tab and Tab back to that die show its tooltip."""
    made = server.create("corsairs-of-valeria", [{"kind": "human"}, {"kind": "human"}], seed=5)
    tid, first, second = made["table_id"], made["seats"][0]["token"], made["seats"][1]["token"]
    ctx = browser.new_context(**SIZES[size])
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/tables/{tid}?token={second}&pace=0")
        page.wait_for_selector("#log li")
        page.wait_for_function("() => document.body.dataset.styling === undefined")
        assert page.evaluate("() => document.activeElement === document.body")
        api_until_to_move(server, tid, first, 1)  # Player 1 locks their dice at once: Player 2 decides
        wait_ready(page)
        page.wait_for_function("() => Boolean(document.activeElement.dataset.action)")
        page.wait_for_timeout(300)
        got = page.evaluate(TIP)
        assert got["inBoard"] and got["action"] and got["own"], got  # a piece with a tooltip has the focus
        assert got["tip"] is None, f"a tooltip nobody asked for: {got}"
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        again = page.evaluate(TIP)
        assert again["action"] == got["action"] and again["tip"] == got["own"], again
    finally:
        ctx.close()


#: JS: [the focused element's data-action, whether it is the decision's first control on the page].
FOCUS_ON_FIRST = """() => { const first = document.querySelector('#board [data-action], #actionbar [data-action]');
  return [document.activeElement.dataset.action || null, Boolean(first) && document.activeElement === first]; }"""


@pytest.mark.parametrize("game", ["kingdom-of-dice", "dice-kingdoms-of-valeria"])
def test_a_decision_there_at_load_puts_the_focus_on_its_first_action(browser, server, game):
    """A seat whose decision is already waiting when its page opens: once the board shows (it is hidden
    while its styles load), the focus is on the decision's first action, a control on the board, as
    it is for a decision that comes later (before, it stayed on the page, and Tab went to the skip link)."""
    made = server.create(game, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], seed=5)
    tid, token = made["table_id"], made["seats"][0]["token"]
    assert 0 in server.call("GET", f"/api/tables/{tid}", token=token)[1]["to_move"]
    ctx = browser.new_context(**SIZES["desktop"])
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/tables/{tid}?token={token}&pace=0")
        wait_ready(page)
        page.wait_for_timeout(200)
        action, first = page.evaluate(FOCUS_ON_FIRST)
        assert first and action is not None, (action, first)
        assert page.evaluate("() => Boolean(document.activeElement.closest('#board'))")
    finally:
        ctx.close()


def test_the_clock_is_announced_politely_at_low_time(context, server):
    """A 30 s clock: after 21 s (the page's time, fast-forwarded) the polite live region says 10 s are left."""
    made = server.call("POST", "/api/tables", {"game": "kingdom-of-dice", "players": 1, "options": {},
                                                "seats": [{"kind": "human"}], "clock": 30})[1]
    page = context.new_page()
    page.clock.install()
    page.goto(f"{server.url}/tables/{made['table_id']}?token={made['seats'][0]['token']}&pace=0")
    page.wait_for_selector("#clock:not([hidden])")
    region = page.locator("#clock-alert")
    assert region.get_attribute("aria-live") == "polite"
    assert region.inner_text() == ""
    page.clock.run_for(21_000)
    page.wait_for_function("() => document.querySelector('#clock-alert').textContent !== ''")
    assert region.inner_text() == "10 seconds left on the clock"
    _assert_clean(page, "a table at low time")


def test_accessible_problems_names_the_unreachable_actions(context):
    """The players' helper (every shown action a named, focusable, reachable button) flags each way an
    action can fail a screen reader or a keyboard, and passes a good one."""
    page = context.new_page()
    page.set_content("""<main>
      <button data-action="good">Take it</button>
      <svg role="group" aria-label="sheet"><g role="button" tabindex="0" data-action="in-group" aria-label="Mark 3"/></svg>
      <span id="lbl">Roll again</span><span role="button" tabindex="0" data-action="labelled" aria-labelledby="lbl"></span>
      <svg role="img" aria-label="sheet"><g role="button" tabindex="0" data-action="in-img" aria-label="Mark 4"/></svg>
      <div aria-hidden="true"><button data-action="hidden">Pass</button></div>
      <div role="button" tabindex="0" data-action="unnamed"></div>
      <div data-action="not-a-button" tabindex="0">Keep</div>
      <span role="button" data-action="not-focusable">Keep</span>
      <button data-action="outer">Outer <span role="button" tabindex="0" data-action="nested">inner</span></button>
    </main>""")
    flagged = [p.split('data-action="')[1].split('"')[0] for p in accessible_problems(page)]
    assert flagged == ["in-img", "hidden", "unnamed", "not-a-button", "not-focusable", "nested"]

