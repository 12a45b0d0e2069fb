"""The player and leaderboard pages in a real browser at 1366x768 and 390x844: nothing wider than
the screen, a name with markup shown as text, the rating chart drawn (docs/ratings.md)."""

from __future__ import annotations

import threading
import time
from urllib.parse import quote

import pytest

from dicetable.server import ratings
from dicetable.web import create_site
from dicetable.server.pgtemp import free_port

from ..server.test_ratings import add_player, add_table, finish

NAME = '<i onmouseover="x()">Zoë Quartermaine-Longname'  # markup, no "/" (one address segment)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A uvicorn serving a fresh SQLite store with one player who finished 6 rated tables and a solo one."""
    uvicorn = pytest.importorskip("uvicorn")
    app = create_site(f"sqlite:///{tmp_path_factory.mktemp('players') / 'tables.db'}")
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not server.started:
        assert time.time() < deadline, "the server did not start"
        time.sleep(0.05)
    engine = app.state.manager.store.engine
    me, other = add_player(engine, NAME), add_player(engine, "Bo")
    for n in range(6):
        add_table(engine, f"r{n}", "corsairs-of-valeria", [("human", me), ("human", other), ("bot", "greedy")])
        finish(engine, f"r{n}", "corsairs-of-valeria", [1 + n % 3, 1 + (n + 1) % 3, 1 + (n + 2) % 3], [3, 2, 1])
    add_table(engine, "s0", "kingdom-of-dice", [("human", me)], rated=False, options='{"cat_level": 3}')
    finish(engine, "s0", "kingdom-of-dice", [1], [77])
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_player_and_leaderboard_pages_fit_and_show_names_as_text(browser, site, width, height):
    assert ratings.MIN_GAMES <= 6
    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = ctx.new_page()
        page.goto(f"{site}/players/{quote(NAME)}")
        assert page.locator("h1.player-name").inner_text().startswith(NAME)  # the markup is text
        assert page.locator("i").count() == 0
        assert page.locator("svg.rating-chart circle").count() == 6
        assert page.locator("a[href='/tables/r5/replay']").count() == 1
        assert "77" in page.locator("#solo-h + table").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.goto(f"{site}/leaderboard/corsairs-of-valeria")
        names = page.locator("table.plain tbody a").all_inner_texts()
        assert sorted(names) == sorted([NAME, "Bo"])
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        ctx.close()
