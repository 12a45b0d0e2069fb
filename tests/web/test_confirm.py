"""A choice that throws a Kingdom of Dice turn away is asked about first, in the view and in the browser.

Rulebook, "Checking the result": a result is valid only with a crown and a number (2s in twos, 3s in
threes, 4s in fours, one 5 at most), and a ``stop`` with a result that is not valid ends the turn with
no Crown marker placed. The terminal asks ``yes`` before such a stop; the view marks the action with
the same warning (``legal_actions[i]["confirm"]``) and the page asks before it sends it.

Seed 3 (two players) rolls a crown, two 1s and three 5s for the first player: after setting the crown
aside, stopping scores nothing, while a 1, a 5 or a new roll can still make a valid result.
"""

from __future__ import annotations

import pytest

GAME = "kingdom-of-dice"
SEED = 3
WARNING = "Stopping now scores nothing: crown is not a valid result"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _table_after_a_crown(server) -> tuple[str, str]:
    """A two-person table of seed 3 where Player 1 has set the crown aside; (table id, Player 1's token)."""
    made = server.create(GAME, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}], seed=SEED)
    tid, token = made["table_id"], made["seats"][0]["token"]
    status, view = server.call("GET", f"/api/tables/{tid}", token=token)
    assert status == 200 and "keep:crown" in [a["id"] for a in view["legal_actions"]], view["legal_actions"]
    status, view = server.call("POST", f"/api/tables/{tid}/actions", {"action": "keep:crown", "version": 0}, token=token)
    assert status == 200, view
    return tid, token


def _view(server, tid: str, token: str) -> dict:
    status, view = server.call("GET", f"/api/tables/{tid}", token=token)
    assert status == 200, view
    return view


def test_the_view_marks_a_stop_that_scores_nothing_and_nothing_else(server):
    tid, token = _table_after_a_crown(server)
    offered = {a["id"]: a for a in _view(server, tid, token)["legal_actions"]}
    assert set(offered) == {"keep:1", "keep:5", "reroll", "stop"}
    assert offered["stop"]["confirm"].startswith(WARNING)
    assert [i for i, a in offered.items() if "confirm" in a] == ["stop"]
    # once a 1 is set aside the result (a crown and a number) is valid: stopping asks nothing
    assert server.call("POST", f"/api/tables/{tid}/actions", {"action": "keep:1", "version": 1}, token=token)[0] == 200
    offered = {a["id"]: a for a in _view(server, tid, token)["legal_actions"]}
    assert "stop" in offered and all("confirm" not in a for a in offered.values())


@pytest.mark.browser
def test_the_page_asks_before_a_stop_that_scores_nothing(browser, server, tmp_path):
    """On a phone (touch): "Choose again" and Escape send nothing; "Do it anyway" sends the stop."""
    tid, token = _table_after_a_crown(server)
    ctx = browser.new_context(**PHONE)
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/tables/{tid}?token={token}&pace=0")
        page.wait_for_selector('[data-version="1"]')
        stop = '[data-action="stop"]'
        dialog = page.locator("#confirm")

        page.locator(stop).first.tap()
        dialog.wait_for(state="visible")
        assert WARNING in page.locator("#confirm-text").inner_text()
        assert page.evaluate("document.activeElement.id") == "confirm-back"  # the safe answer has the focus
        box = page.locator("#confirm .overlay-box").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        page.screenshot(path=str(tmp_path / "confirm-phone.png"))
        page.locator("#confirm-back").tap()
        dialog.wait_for(state="hidden")
        page.wait_for_timeout(300)
        assert _view(server, tid, token)["version"] == 1  # nothing was sent

        page.locator(stop).first.tap()
        dialog.wait_for(state="visible")
        page.keyboard.press("Escape")
        dialog.wait_for(state="hidden")
        page.wait_for_timeout(300)
        assert _view(server, tid, token)["version"] == 1

        page.locator(stop).first.tap()
        dialog.wait_for(state="visible")
        page.locator("#confirm-go").tap()
        page.wait_for_selector('[data-version="2"]')
        view = _view(server, tid, token)
        assert view["version"] == 2 and 1 in view["to_move"]  # the turn ended: the next player's turn
    finally:
        ctx.close()


@pytest.mark.browser
def test_a_valid_stop_is_sent_at_once(browser, server):
    tid, token = _table_after_a_crown(server)
    assert server.call("POST", f"/api/tables/{tid}/actions", {"action": "keep:1", "version": 1}, token=token)[0] == 200
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/tables/{tid}?token={token}&pace=0")
        page.wait_for_selector('[data-version="2"]')
        page.locator('[data-action="stop"]').first.click()
        page.wait_for_selector('[data-version="3"]')
        assert page.locator("#confirm").is_hidden()
    finally:
        ctx.close()
