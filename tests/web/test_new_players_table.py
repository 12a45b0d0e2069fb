"""What the new players' test (2026-12-07, web25a) found at the table, the players panel and the lobby,
measured in a real browser: a rematch any seat starts from any browser where it holds its seat, and every
other seat is told and joins its own seat; a forfeited seat offers nothing to take back and says so once;
the host lets a bot play an invite nobody claimed; a signed-in player opening a friend's invite at her
own table is told what the page does; a signed-in host's own seat in the invite panel says what its link
does; a guest is told before clicking that a rated table's seat needs a sign-in.
"""

from __future__ import annotations

import secrets
import time

import pytest

from .helpers import PASSWORD, create_rated_from_lobby, sign_up_here

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _name(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def _bots_finish(server, tid: str, tokens: dict, seconds: float = 150) -> None:
    for seat, token in tokens.items():
        status, _ = server.call("POST", f"/api/tables/{tid}/seats/{seat}/bot", {"level": "random"}, token=token)
        assert status == 200
    deadline = time.time() + seconds
    while not server.call("GET", f"/api/tables/{tid}")[1]["over"]:
        assert time.time() < deadline, "the bots never finished"
        time.sleep(0.05)


def _seat_page(browser, server, tid: str, token: str, **ctx):
    context = browser.new_context(**(ctx or {"viewport": {"width": 1366, "height": 768}}))
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{tid}?pace=0#token={token}")
    page.wait_for_selector("[data-version]")
    return context, page


def test_the_joiner_starts_the_rematch_and_the_other_seat_is_told_and_joins(browser, server, tmp_path):
    """Finding 1: Bob (the friend who joined: no set-up in his browser) has "Play again"; it re-seats both
    players; Alice's page of the finished table tells her "... started a rematch" with a button to join."""
    made = server.create("kingdom-of-dice", [{"kind": "human", "name": "Alice"}, {"kind": "human", "name": "Bob"}])
    tid = made["table_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    _bots_finish(server, tid, tokens)
    alice_ctx, alice = _seat_page(browser, server, tid, tokens[0])
    bob_ctx, bob = _seat_page(browser, server, tid, tokens[1], **PHONE)
    try:
        bob.wait_for_selector("#final:not([hidden])")
        alice.wait_for_selector("#final:not([hidden])")
        again = bob.locator("#again-btn")
        assert again.is_visible() and again.inner_text() == "Play again (same seats)"
        bob.screenshot(path=str(tmp_path / "rematch-bob-phone.png"))
        again.click()
        bob.wait_for_url(lambda url: f"/tables/{tid}" not in url)
        new = bob.evaluate("document.body.dataset.table")
        assert new != tid
        bob.wait_for_selector(".player.me", state="attached")
        assert "Bob (you)" in bob.locator(".player.me .pname").text_content()
        # Alice is told on the finished table's page, and joins her own seat
        alice.wait_for_selector("#rematch:not([hidden])")
        assert alice.locator("#rematch").inner_text().startswith("Bob started a rematch")
        alice.locator("#final-close").click()
        alice.screenshot(path=str(tmp_path / "rematch-alice-desktop.png"))
        alice.locator("#rematch button").click()
        alice.wait_for_url(f"**/tables/{new}**")
        alice.wait_for_selector(".player.me", state="attached")
        assert "Alice (you)" in alice.locator(".player.me .pname").text_content()
        view = server.call("GET", f"/api/tables/{new}")[1]
        assert [s["name"] for s in view["seats"]] == ["Alice", "Bob"]
    finally:
        alice_ctx.close()
        bob_ctx.close()


def test_a_forfeited_seat_offers_nothing_to_take_back_and_says_so_once(browser, server):
    """Finding 2: Kingdom of Dice, a 10 s bank, forfeit when it runs out, the seat left alone."""
    status, made = server.call("POST", "/api/tables", {
        "game": "kingdom-of-dice", "players": 2, "bank": 10, "on_time_out": "forfeit",
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert status == 201, made
    tid = made["table_id"]
    ctx, page = _seat_page(browser, server, tid, made["seats"][0]["token"])
    try:
        if page.locator("#tab-players").is_visible():
            page.click("#tab-players")
        page.wait_for_function("() => document.querySelector('.player.me') && "
                               "document.querySelector('.player.me').textContent.includes('forfeited')", timeout=40_000)
        time.sleep(1)  # the panel redrawn with the seat's bot playing on
        panel = page.locator(".player.me")
        text = panel.inner_text()
        assert text.count("forfeited") == 1, text
        assert panel.locator("[data-seat-take], [data-seat-bot]").count() == 0, text
    finally:
        ctx.close()


def test_the_host_lets_a_bot_play_an_invite_nobody_claimed(browser, server, tmp_path):
    """Finding 3: a friends' table (not listed) whose friend never comes: the host's players panel lets the
    seat's bot play it and says so; once the friend claims the invite, only the friend may."""
    made = server.create("kingdom-of-dice", [{"kind": "human"}, {"kind": "human"}])
    tid = made["table_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    invite = made["seats"][1]["link"]
    ctx = browser.new_context(**PHONE)
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        page.evaluate("([id, t, i]) => { localStorage.setItem(`dicetable.tokens.${id}`, JSON.stringify(t));"
                      " localStorage.setItem(`dicetable.invites.${id}`, JSON.stringify({1: i})); }", [tid, tokens, invite])
        page.goto(f"{server.url}/tables/{tid}#token={tokens[0]}")
        page.wait_for_selector("[data-version]")
        page.click("#tab-players")
        fill = page.locator('[data-seat-fill="1"]')
        fill.wait_for()
        assert fill.inner_text() == "let a bot play this seat"
        fill.click()
        page.wait_for_selector('.player[data-seat="1"] .filled')
        assert "Its bot plays this seat now" in page.locator('.player[data-seat="1"]').inner_text()
        page.screenshot(path=str(tmp_path / "filled-phone.png"))
        seats = server.call("GET", f"/api/tables/{tid}")[1]["seats"]
        assert seats[1]["autoplay"] is True
        # the friend comes after all: the invite still works, and then the seat is the friend's alone
        status, claimed = server.call("POST", f"/api/tables/{tid}/claim", {"invite": invite.split("#invite=")[1]})
        assert status == 200, claimed
        page.wait_for_function("() => !document.querySelector('[data-seat-fill]') && !document.querySelector('.player .filled')")
        assert server.call("POST", f"/api/tables/{tid}/seats/1/take", token=claimed["token"])[0] == 200
        status, refused = server.call("POST", f"/api/tables/{tid}/seats/1/bot", {}, token=tokens[1])
        assert status == 403, refused
    finally:
        ctx.close()


def test_a_friends_invite_opened_at_her_own_table_says_she_plays_her_own_seat(context, server, tmp_path):
    """Finding 4: Alice, signed in, took seat 0 with its invite; she opens seat 1's invite (her friend's)."""
    made = server.create("kingdom-of-dice", [{"kind": "human"}, {"kind": "human"}])
    tid = made["table_id"]
    page = context.new_page()
    sign_up_here(page, server.url, _name("Ali"))
    page.goto(server.url + made["seats"][0]["link"])
    page.wait_for_selector(".player.me")
    page.goto(server.url + "/")
    page.goto(server.url + made["seats"][1]["link"])
    page.wait_for_selector("#error:not([hidden])")
    page.wait_for_selector(".player.me")
    banner = page.locator("#error").inner_text()
    assert "this page plays your own seat (Player 1)" in banner and "spectator" not in banner, banner
    assert page.locator(".player.me").get_attribute("data-seat") == "0"
    page.screenshot(path=str(tmp_path / "own-invite-desktop.png"))


def test_a_signed_in_hosts_own_seat_in_the_invite_panel_says_what_its_link_does(context, server, tmp_path):
    """Finding 6: the host's own seat is their account's: its link is the table's address, a spectator's."""
    page = context.new_page()
    sign_up_here(page, server.url, _name("Host"))
    create_rated_from_lobby(page, server.url)
    own = page.locator('[data-invite="0"]')
    text = own.inner_text()
    assert "give the seat away" not in text, text
    assert "only watches" in text and "your account" in text, text
    assert "#" not in page.locator('[data-invite-link="0"]').input_value()
    page.screenshot(path=str(tmp_path / "invite-panel-desktop.png"))


def test_a_guest_is_told_a_rated_seat_needs_a_sign_in_before_clicking(browser, server, tmp_path):
    """Finding 7: the open lobby's button for a rated table says "Sign in to take a seat" to a guest."""
    host = _name("Rh")
    assert server.call("POST", "/api/accounts", {"name": host, "password": PASSWORD})[0] == 201
    token = server.call("POST", "/api/session", {"name": host, "password": PASSWORD})[1]["token"]
    status, made = server.call("POST", "/api/tables", {
        "game": "biblios-dice", "players": 2, "rated": True, "listed": True,
        "seats": [{"kind": "human", "player": host}, {"kind": "human"}]}, token=token)
    assert status == 201, made
    tid = made["table_id"]
    for size in ({"viewport": {"width": 1366, "height": 768}}, PHONE):
        ctx = browser.new_context(**size)
        ctx.set_default_timeout(15_000)
        try:
            page = ctx.new_page()
            page.goto(server.url + "/")
            row = page.locator(f'[data-lobby-table="{tid}"]')
            row.wait_for()
            link = row.locator(f'[data-sign-in-to-join="{tid}"]')
            assert link.inner_text() == "Sign in to take a seat"
            assert link.get_attribute("href") == "/account"
            assert row.locator("[data-join]").count() == 0
            row.scroll_into_view_if_needed()
            page.screenshot(path=str(tmp_path / f"guest-lobby-{size['viewport']['width']}.png"))
        finally:
            ctx.close()
