"""Issue 28 item 4 in a real browser: a table listed in the open lobby, a stranger on another screen
takes its open seat with one click and plays it; My tables puts their move first and the title says so."""

from __future__ import annotations

import random

import pytest

from .helpers import fill_lobby, take_turn, version, wait_ready
from .test_live_table import CHROME_PROBLEMS

pytestmark = pytest.mark.browser

GAME = "kingdom-of-dice"

#: The stranger allowed notifications and looks at another tab: a stand-in Notification keeps what it was asked
#: to show (headless chromium shows none), and the page counts as hidden.
NOTIFICATIONS = """
window.__notes = [];
window.Notification = class { constructor(title, opts) { window.__notes.push([title, opts && opts.body]); } close() {} };
window.Notification.permission = "granted";
window.Notification.requestPermission = async () => "granted";
Object.defineProperty(document, "visibilityState", { get: () => "hidden" });
"""


def _to_move(server, table_id: str) -> list[int]:
    status, view = server.call("GET", f"/api/tables/{table_id}")
    assert status == 200, view
    return view["to_move"]


def test_a_stranger_takes_an_open_seat_from_the_lobby_and_plays_it(browser, server, tmp_path):
    host_ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    stranger_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    host_ctx.set_default_timeout(15_000)
    stranger_ctx.set_default_timeout(15_000)
    stranger_ctx.add_init_script(NOTIFICATIONS)
    rng = random.Random(5)
    try:
        host = host_ctx.new_page()
        fill_lobby(host, server.url, GAME, ["human", "human:away"])
        host.select_option("#clock", "daily")
        host.check("#listed")
        host.click("#create")
        host.wait_for_selector("#created:not([hidden])")
        table_id = host.locator("#watch-link").input_value().rsplit("/", 1)[1]
        host.goto(server.url + "/?pace=0")  # the host's lobby: the table in My tables, as its host
        row = host.locator(f"[data-my-table='{table_id}']")
        row.wait_for()
        assert "Start now: bots in 1 open seat" in row.inner_text()
        host.screenshot(path=str(tmp_path / "lobby-1366.png"), full_page=True)

        stranger = stranger_ctx.new_page()
        stranger.goto(server.url + "/?pace=0")
        listed = stranger.locator(f"[data-lobby-table='{table_id}']")
        listed.wait_for()
        assert "turn-based (daily)" in listed.inner_text() and "open" in listed.inner_text()
        stranger.select_option("#lobby-clock", "live")  # a filter that excludes it
        stranger.wait_for_selector(f"[data-lobby-table='{table_id}']", state="detached")
        stranger.select_option("#lobby-clock", "turn-based")
        listed.wait_for()
        assert stranger.evaluate(CHROME_PROBLEMS) == []  # a phone: no sideways scroll, controls in reach
        stranger.screenshot(path=str(tmp_path / "lobby-390.png"), full_page=True)
        listed.locator("[data-join]").click()
        stranger.wait_for_url(f"**/tables/{table_id}#token=*")
        stranger.wait_for_selector("[data-version]")
        stranger.wait_for_function("() => document.querySelector('#players').textContent.includes('Player 2 (you)')")
        token = stranger.url.split("#token=")[1]

        # the host plays its turn from My tables; then it is the stranger's move
        host.locator(f"[data-my-table='{table_id}'] a.button").click()
        host.wait_for_url(f"**/tables/{table_id}#token=*")
        host.wait_for_selector("[data-version]")
        assert _to_move(server, table_id) == [0]
        for _ in range(200):
            if _to_move(server, table_id) != [0]:
                break
            wait_ready(host)
            take_turn(host, rng)
        assert _to_move(server, table_id) == [1]
        # the stranger's page, hidden, told them with one browser notification
        stranger.wait_for_function("() => window.__notes.length > 0")
        assert stranger.evaluate("window.__notes") == [["Your move", "Kingdom of Dice: it is your move"]]

        # the stranger's lobby: My tables has their move first, and the title counts it
        stranger.goto(server.url + "/?pace=0")
        mine = stranger.locator(f"[data-my-table='{table_id}']")
        mine.wait_for()
        assert mine.get_attribute("data-your-move") == "1" and "your move" in mine.inner_text()
        stranger.wait_for_function("() => document.title.startsWith('(1) your move')")
        assert stranger.locator(f"[data-lobby-table='{table_id}']").count() == 0, "a full table left the lobby"
        mine.locator("a.button").click()
        stranger.wait_for_url(f"**/tables/{table_id}#token={token}")
        wait_ready(stranger)  # the board shows once its styles apply: its actions are hidden before
        stranger.wait_for_function("() => document.title.includes('your move')")
        before = version(stranger)
        assert take_turn(stranger, rng)
        stranger.wait_for_function(f"() => Number(document.querySelector('[data-version]').dataset.version) > {before}")
        host.wait_for_function(f"() => Number(document.querySelector('[data-version]').dataset.version) > {before}")
    finally:
        host_ctx.close()
        stranger_ctx.close()
