"""The table page's own words (issue 25): a seat named once, the counter in rounds and turns (the
replay viewer's too), the log numbered as in the whole log."""

from __future__ import annotations

import re
import time

from .helpers import version


def test_seat_names_counter_and_log_numbers(browser, server):
    # A bot seat of an older table carries its level in its name ("Player 2 (greedy bot)"): shown once.
    made = server.create("kingdom-of-dice", [{"kind": "human"},
                                             {"kind": "bot", "level": "greedy", "name": "Player 2 (greedy bot)"},
                                             {"kind": "bot", "level": "greedy"}], seed=3)
    tid, token = made["table_id"], made["seats"][0]["token"]
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.goto(f"{server.url}/tables/{tid}?pace=0#token={token}")
        page.wait_for_selector("[data-version]")
        page.wait_for_function("() => document.querySelectorAll('#log li').length > 0")
        names = {int(x.get_attribute("data-seat")): x.locator(".pname").inner_text()
                 for x in page.locator("#players .player").all()}
        assert names == {0: "Player 1 (you)", 1: "Player 2", 2: "Player 3"}
        assert not re.search(r"(Player \d+)\W+\1", page.locator("#players").inner_text())
        # The counter says the round and turn as players count them (Kingdom of Dice: 3 rounds); the
        # table version stays in data-version for tools.
        counter = page.locator("#version").inner_text()
        assert re.fullmatch(r"Round [1-3]", counter), counter
        status, view = server.call("GET", f"/api/tables/{tid}", token=token)
        assert status == 200 and version(page) == view["version"]
        # Every log line carries its number in the whole log.
        values = [int(v) for v in page.locator("#log li").evaluate_all("els => els.map((e) => e.value)")]
        assert values == list(range(len(view["log"]) - len(values) + 1, len(view["log"]) + 1))
    finally:
        context.close()


def test_the_counter_names_the_duke_choice_then_counts_turns(context, server):
    # Card Kingdoms, "Choosing Your Duke": no turn is counted while the Dukes are chosen; the top line
    # says what is happening, then counts the turns once the first one begins.
    made = server.create("valeria-card-kingdoms", [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], seed=5)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{made['table_id']}?pace=0#token={made['seats'][0]['token']}")
    page.wait_for_selector('#board [data-action^="duke:"]')
    assert page.locator("#version").inner_text() == "Choosing Dukes"
    page.locator('#board [data-action^="duke:"]').first.click()
    page.wait_for_function("() => /^Turn \\d+$/.test(document.querySelector('#version').textContent)")


def test_the_replay_viewer_names_the_duke_choice_as_the_table_page_does(context, server):
    # The replay of a finished Card Kingdoms table: at its first steps the Dukes are chosen, and the
    # step line's counter says so, in the table page's words; a step of the game counts its turn.
    tid = server.create("valeria-card-kingdoms", [{"kind": "bot", "level": "greedy"}] * 2, seed=5)["table_id"]
    deadline = time.time() + 60
    while not server.call("GET", f"/api/tables/{tid}")[1]["over"]:
        assert time.time() < deadline, "the bots did not finish"
        time.sleep(0.3)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{tid}/replay#step=0")
    page.wait_for_function("() => document.querySelector('#counter').textContent !== ''")
    assert page.locator("#counter").inner_text() == "Choosing Dukes"
    page.goto(f"{server.url}/tables/{tid}/replay#step=20")
    page.wait_for_function("() => document.querySelector('#step').textContent === '20'")
    assert re.fullmatch(r"Turn \d+", page.locator("#counter").inner_text())
