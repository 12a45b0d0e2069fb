"""A new players' test, in a real browser (docs/accounts.md, 2026-12-07): a guest who joined by an invite
link and then signs in keeps the seat on every device; registered players' names carry a mark (a link to
their profile) on the players panel and in chat, which a free seat name never does."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from tests.web.a11y import axe_problems

pytestmark = pytest.mark.browser

PASSWORD = "a long enough password"
#: Where the screenshots go, to be looked at (not part of the tree).
SHOTS = Path("/tmp/dicetable-shots")


def _account(server, prefix: str) -> tuple[str, str]:
    """Sign up a fresh account through the API; ``(name, its sign-in token)``."""
    name = f"{prefix}{secrets.token_hex(3)}"
    assert server.call("POST", "/api/accounts", {"name": name, "password": PASSWORD})[0] == 201
    status, data = server.call("POST", "/api/session", {"name": name, "password": PASSWORD})
    assert status == 200, data
    return name, data["token"]


def test_a_guest_who_joins_by_link_then_signs_in_keeps_the_seat_on_every_device(browser, server):
    carol, phone_token = _account(server, "carol_")  # her phone is signed in already
    made = server.create("kingdom-of-dice", [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    tid = made["table_id"]
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + made["seats"][1]["link"])  # the invite link, opened as a guest
        page.wait_for_function("() => location.hash.includes('token=')")  # claimed: this browser holds the seat
        page.goto(server.url + "/account")
        page.fill("#sign-in-name", carol)
        page.fill("#sign-in-password", PASSWORD)
        page.click("#sign-in")
        page.wait_for_selector("#signed-in:not([hidden])")
        page.wait_for_function("() => document.querySelector('#kept').textContent.includes('1 seat')")
        status, mine = server.call("GET", "/api/my-tables", token=phone_token)  # carol's phone
        assert status == 200 and tid in {t["table_id"] for t in mine["tables"]}
        status, view = server.call("GET", f"/api/tables/{tid}", token=phone_token)
        assert view["seat"] == 1 and view["seats"][1]["name"] == carol
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_registered_players_are_marked_on_the_players_panel_and_in_chat(browser, server, size):
    alice, token = _account(server, "alice_")
    status, made = server.call("POST", "/api/tables", {"game": "kingdom-of-dice", "players": 3, "seats": [
        {"kind": "human", "player": alice}, {"kind": "human", "name": "Mum"}, {"kind": "human", "name": "Zoë"}]},
        token=token)
    assert status == 201, made
    tid, seat0 = made["table_id"], made["seats"][0]["token"]
    phone = size[0] < 500
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, is_mobile=phone, has_touch=phone)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/tables/{tid}?pace=0#token={made['seats'][1]['token']}")  # Mum's screen
        page.wait_for_selector("[data-version]")
        page.wait_for_function("() => document.body.dataset.live === 'open'")
        assert server.call("POST", f"/api/tables/{tid}/chat", {"text": "I am the real one"}, token=seat0)[0] == 200
        page.fill("#chat-text", "hello from Mum")
        page.click("#chat-send")
        page.wait_for_selector("#chat-list li:has-text('hello from Mum')")
        page.wait_for_selector("#chat-list li:has-text('I am the real one') a.acct")
        marks = page.locator(".player a.acct")
        assert marks.count() == 1 and marks.first.get_attribute("data-account") == alice
        assert marks.first.get_attribute("href") == f"/players/{alice}"
        assert page.locator(".player[data-seat='0'] a.acct").count() == 1
        assert page.locator("#chat-list li:has-text('hello from Mum') a.acct").count() == 0  # a free name: no mark
        line = page.locator("#chat-list li:has-text('I am the real one')")
        assert line.locator(".chat-who").inner_text() == alice and "account" in line.inner_text()
        assert axe_problems(page, within="#chat-list") == []  # the marks are readable links (contrast, names)
        assert axe_problems(page, within=".player[data-seat='0']") == []
        if page.locator(".player[data-seat='0']").is_visible():  # a phone folds the players away
            page.locator(".player[data-seat='0']").scroll_into_view_if_needed()
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"account-mark-{'phone' if phone else 'desktop'}.png"))
        line.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"account-mark-chat-{'phone' if phone else 'desktop'}.png"))
    finally:
        ctx.close()
