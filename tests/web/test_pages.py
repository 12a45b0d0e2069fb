"""The web package without a browser: routes, static files, rules help, replay steps, the hand-over rule."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dicetable
from dicetable.engine import SaveFormatError, list_games, run_replay
from dicetable.web import render, stepper
from dicetable.engine.testing import shipped_games

WEB = Path(render.__file__).parent


def _random_game(game: str, players: int, seed: int, steps: int | None = None):
    """A seeded random game (to the end, or ``steps`` actions) and its replay record."""
    state = dicetable.new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not state.is_over and (steps is None or n < steps):
        seat = state.to_move[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        n += 1
    return state, state.replay_record()


# ------------------------------------------------------------------ hand-over rule
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 60))
def test_open_information_games_never_need_a_hand_over(seed, steps):
    """Kingdom of Dice and Corsairs hide nothing from a seat (every die, marker and ship is public)."""
    for game in ("kingdom-of-dice", "corsairs-of-valeria"):
        state, _ = _random_game(game, 2, seed, steps)
        for seat in range(2):
            assert not render.has_secrets(state.observation(seat), state.observation(None))


@pytest.mark.parametrize("game", ["biblios-dice", "valeria-card-kingdoms"])
def test_games_with_hidden_holdings_need_a_hand_over(game):
    """Biblios Dice (Gold, VP tokens and face-down card are secret) and Card Kingdoms (the Duke):
    every hand-over between two seats, at every step of a game, needs the screen."""
    state, _ = _random_game(game, 2, seed=1, steps=0)
    rng = random.Random(1)
    while not state.is_over:
        spectator = state.observation(None)
        for nxt in (0, 1):
            assert render.needs_hand_over(state.observation(nxt), spectator, state.observation(1 - nxt))
        seat = state.to_move[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 80))
def test_open_information_games_switch_seats_without_a_hand_over(seed, steps):
    """Kingdom of Dice, Corsairs and Dice Kingdoms (every sheet public) never need one."""
    for game in ("kingdom-of-dice", "corsairs-of-valeria", "dice-kingdoms-of-valeria"):
        state, _ = _random_game(game, 2, seed, steps)
        spectator = state.observation(None)
        for nxt in (0, 1):
            assert not render.needs_hand_over(state.observation(nxt), spectator, state.observation(1 - nxt)), game


def test_hand_over_rule_details():
    """The seat field and fields only the seat has are ignored; a shared field that differs counts."""
    spectator = {"seat": None, "dice": [1, 2], "players": [{"gold": None}, {"gold": None}]}
    assert not render.has_secrets({"seat": 0, "dice": [1, 2], "players": [{"gold": None}, {"gold": None}]},
                                  spectator)
    assert not render.has_secrets({**spectator, "seat": 0, "my_tasks": ["harvest"]}, spectator)
    assert render.has_secrets({**spectator, "seat": 0, "players": [{"gold": 3}, {"gold": None}]}, spectator)
    assert render.has_secrets({**spectator, "dice": [1, 3]}, spectator)
    seat0 = {**spectator, "seat": 0, "players": [{"gold": 3}, {"gold": None}]}
    seat1 = {**spectator, "seat": 1, "players": [{"gold": None}, {"gold": 5}]}
    assert render.needs_hand_over(seat1, spectator, seat0)
    assert not render.needs_hand_over(seat1, spectator, seat1)


# ------------------------------------------------------------------ replay steps
@pytest.mark.parametrize("game,players", [(spec.id, spec.min_players) for spec in shipped_games()])
def test_replay_steps_show_the_table_as_it_was(game, players):
    """Step k is the spectator's table after k actions; the last step reaches the recorded result."""
    final, record = _random_game(game, players, seed=17)
    total = len(record["actions"])
    first = stepper.replay_step(record, 0)
    assert first["step"] == 0 and first["total"] == total and first["last"] is None
    assert first["observation"] == dicetable.new_game(game, players=players, seed=17).observation(None)
    k = total // 2
    mid_state, _ = _random_game(game, players, seed=17, steps=k)
    mid = stepper.replay_step(record, k)
    assert mid["observation"] == mid_state.observation(None)
    assert mid["log"] == [e.text for e in mid_state.log_for(None)]
    seat, action = record["actions"][k - 1]
    assert mid["last"]["seat"] == seat and mid["last"]["action"] == action
    assert mid["last"]["label"]  # the engine's label of the action, not its id only
    last = stepper.replay_step(record, total + 50)  # clamped to the end
    assert last["step"] == total and last["over"] is True
    assert last["scores"] == list(final.scores) == list(run_replay(record).scores)
    assert last["winners"] == list(final.winners)


@pytest.mark.parametrize("record,message", [
    ("not a dict", "JSON object"),
    ({"players": 1, "seed": 1, "actions": []}, "'game'"),
    ({"game": "kingdom-of-dice", "players": 1, "seed": "x", "actions": []}, "seed must be an integer"),
    ({"game": "kingdom-of-dice", "players": 1, "seed": 1, "actions": "roll"}, "must be a list"),
    ({"game": "kingdom-of-dice", "players": 1, "seed": 1, "actions": [[0]]}, "[seat, action id]"),
    ({"game": "kingdom-of-dice", "players": 1, "seed": 1, "actions": [[0, "fly"]]}, "step 0"),
    ({"game": "chess", "players": 2, "seed": 1, "actions": []}, "known games"),
    ({"game": "kingdom-of-dice", "players": 9, "seed": 1, "actions": []}, "1-4 players"),
])
def test_bad_records_are_refused_with_the_reason(record, message):
    with pytest.raises(SaveFormatError) as err:
        stepper.replay_step(record, 1)
    assert message in str(err.value)


# ------------------------------------------------------------------ rules help
def test_help_sections_follow_the_decision_kind():
    """Sections are those listing the Decision kind; an unknown kind has none."""
    for spec in list_games():
        whole = render.components_of(spec.id)
        for section in whole["sections"]:
            for kind in section["decisions"]:
                assert section["id"] in [s["id"] for s in render.help_for(spec.id, kind)]
        assert render.help_for(spec.id, "no-such-decision") == []


# ------------------------------------------------------------------ offline pages
def test_pages_fetch_nothing_from_elsewhere():
    """No CDN: templates, the JS module and the CSS name no outside address."""
    for path in list((WEB / "templates").glob("*.html")) + list((WEB / "static").glob("*")):
        text = path.read_text()
        assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text), path.name
        assert "import(" not in text or path.suffix != ".js"
    for path in (WEB / "static").glob("*.js"):
        assert not re.search(r"https?://", path.read_text()), path.name


def test_the_page_modules_import_only_each_other_and_no_template_has_inline_script():
    """Plain ES modules, no build step: every import names a sibling file shipped in web/static (so the
    static route serves it), the entry module reaches every other module, and the templates load only
    the entry module (the policy is script-src 'self': no inline script)."""
    static = WEB / "static"
    imports = {path.name: re.findall(r'^(?:import|export)\s[^;]*?from\s+"([^"]+)";', path.read_text(), re.M)
               for path in static.glob("*.js")}
    for name, targets in imports.items():
        for target in targets:
            assert target.startswith("./") and "/" not in target[2:] and (static / target[2:]).is_file(), (name, target)
    reached, todo = set(), ["dicetable.js"]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo.extend(t[2:] for t in imports[name])
    assert reached == set(imports), f"modules the entry never loads: {set(imports) - reached}"
    for path in (WEB / "templates").glob("*.html"):
        scripts = re.findall(r"<script\b[^>]*>", path.read_text())
        assert all(s == '<script type="module" src="/static/web/dicetable.js">' for s in scripts), (path.name, scripts)
        assert not re.search(r"<script\b[^>]*>\s*[^<\s]", path.read_text()), path.name


def test_the_sideways_scroll_cue_is_defined_once_in_the_page_stylesheet():
    """The edge fade of a box that scrolls sideways (a scroll-driven animation of the box's own scroll)
    is the page's .scroll-cue, defined in dicetable.css only: boards and the final score sheet use the
    class rather than a copy of the mechanism."""
    timeline = re.compile(r"animation-timeline:\s*scroll\(self inline\)")
    page_css = (WEB / "static" / "dicetable.css").read_text()
    assert len(timeline.findall(page_css)) == 1 and "@keyframes scroll-cue" in page_css
    boards = list((Path(dicetable.__file__).parent / "games").glob("*/static/*.css"))
    assert boards
    for path in boards:
        assert not timeline.search(path.read_text()), path
    assert 'class="sheet-wrap scroll-cue"' in (WEB / "templates" / "table.html").read_text()


# ------------------------------------------------------------------ routes, in process
@pytest.fixture
def client(tmp_path):
    pytest.importorskip("dicetable.server", reason="the server package (issue 11) is not installed")
    from fastapi.testclient import TestClient

    from dicetable.web import create_site

    with TestClient(create_site(f"sqlite:///{tmp_path / 't.db'}")) as c:
        yield c


def test_pages_and_static_files(client):
    lobby = client.get("/")
    assert lobby.status_code == 200 and 'data-page="lobby"' in lobby.text
    assert '<script type="module" src="/static/web/dicetable.js">' in lobby.text
    # no table "abc": the page still comes (its script shows the API's answer), with status 404
    table = client.get("/tables/abc?token=xyz")
    assert table.status_code == 404 and 'data-table="abc"' in table.text and "data-version" in table.text
    assert client.get("/tables/abc/replay").status_code == 404
    made = client.post("/api/tables", json={"game": "corsairs-of-valeria", "players": 2}).json()["table_id"]
    table = client.get(f"/tables/{made}")
    assert table.status_code == 200 and f'data-table="{made}"' in table.text
    assert client.get(f"/tables/{made}/replay").status_code == 200
    for module in ("dicetable", "api", "queue", "animate", "board", "dom", "reach", "lobby", "table", "replay"):
        js = client.get(f"/static/web/{module}.js")
        assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript"), module
    assert client.get("/static/web/dicetable.css").headers["content-type"].startswith("text/css")
    for bad in ("/static/web/nothing.js", "/static/web/.hidden.css", "/static/web/%2e%2e%2fetc.css"):
        assert client.get(bad).status_code == 404
    for spec in list_games():
        css = client.get(f"/static/games/{spec.id}/board.css")
        assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    for spec in shipped_games():  # each ships its board's style, wherever its state class lives
        assert f".board-{spec.id}" in client.get(f"/static/games/{spec.id}/board.css").text, spec.id
    missing = client.get("/static/games/chess/board.css")
    assert missing.status_code == 404 and "kingdom-of-dice" in missing.json()["detail"]
    assert client.get("/web/help/chess").status_code == 404
    assert "sections" in client.get("/web/help/biblios-dice").json()


def test_the_lobbys_seed_field_carries_the_largest_seed_the_server_takes(client):
    """One source for the largest seed: the engine's TABLE_SEED_MAX, which the server's MAX_SEED is and
    POST /api/tables checks; the lobby's seed field carries it (data-max) for the page's own check and
    message, and lobby.js writes no seed bound of its own."""
    from dicetable.engine import TABLE_SEED_MAX
    from dicetable.server.ids import MAX_SEED

    field = re.search(r'<input id="seed"[^>]*>', client.get("/").text)
    assert field, "no seed field in the lobby"
    bound = re.search(r'data-max="(\d+)"', field.group(0))
    assert bound and bound.group(1) == str(TABLE_SEED_MAX), field.group(0)
    assert MAX_SEED == TABLE_SEED_MAX == 2**64 - 1
    lobby_js = (WEB / "static" / "lobby.js").read_text()
    assert str(TABLE_SEED_MAX) not in lobby_js and not re.search(r"2n\s*\*\*\s*6[34]n", lobby_js)
    # the bound is the API's: the largest seed is taken, one more is refused
    ok = {"game": "kingdom-of-dice", "players": 2, "seats": [{"kind": "bot", "level": "random"}] * 2}
    assert client.post("/api/tables", json={**ok, "seed": TABLE_SEED_MAX}).status_code in (200, 201)
    assert client.post("/api/tables", json={**ok, "seed": TABLE_SEED_MAX + 1}).status_code == 422


def test_replay_route_refuses_a_running_table_and_steps_a_finished_one(client):
    running = client.post("/api/tables", json={"game": "kingdom-of-dice", "players": 1,
                                                "seats": [{"kind": "human"}]}).json()
    refused = client.get(f"/web/tables/{running['table_id']}/replay/0")
    assert refused.status_code == 403
    assert client.get("/web/tables/nope/replay/0").status_code == 404
    made = client.post("/api/tables", json={"game": "dice-kingdoms-of-valeria", "players": 1, "seed": 5,
                                             "seats": [{"kind": "bot", "level": "random"}]}).json()
    tid = made["table_id"]
    deadline = time.time() + 60
    while not client.get(f"/api/tables/{tid}").json()["over"]:
        assert time.time() < deadline
        time.sleep(0.1)
    record = client.get(f"/api/tables/{tid}/record").json()
    step = client.get(f"/web/tables/{tid}/replay/3").json()
    assert step["step"] == 3 and step["total"] == len(record["actions"])
    assert step["last"]["action"] == record["actions"][2][1]
    end = client.get(f"/web/tables/{tid}/replay/{10**6}").json()
    assert end["over"] is True and end["scores"] == record["scores"]
    assert client.get(f"/web/tables/{tid}/replay/-1").status_code == 422
