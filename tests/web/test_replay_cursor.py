"""The replay viewer's server side without a browser: a kept cursor steps through a record at one
action per step (counted by its public counters, not timed), shows at each step what the engine
shows after that many actions, jumps from checkpoints, lists the round and turn starts, and the
web routes use one cursor per table straight from the table manager; the final score sheet route."""

from __future__ import annotations

import random
import re
import time

import pytest

from dicetable.engine import new_game, seat_name
from dicetable.engine.testing import shipped_games
from dicetable.web import render
from dicetable.web.stepper import CHECKPOINT_EVERY, ReplayCursor

from .test_pages import _random_game as random_game


def _played(game: str, players: int, seed: int, steps: int | None = None):
    """The state of test_pages' seeded random game (to the end, or ``steps`` actions)."""
    return random_game(game, players, seed, steps)[0]


@pytest.mark.parametrize("game,players", [(spec.id, max(2, spec.min_players)) for spec in shipped_games()])
def test_stepping_forward_applies_one_action_per_step(game, players):
    """Every step 0..N in order: the state was built once and N actions applied in all (linear), and
    each step shows the engine's observation, log and board after that many actions."""
    record = _played(game, players, seed=3).replay_record()
    total = len(record["actions"])
    cursor = ReplayCursor(record)
    probes = {0, 1, total // 3, total // 2, total - 1, total}
    for step in range(total + 1):
        view = cursor.view(step)
        if step in probes:
            state = _played(game, players, seed=3, steps=step)
            assert view["observation"] == state.observation(None)
            assert view["log"] == [e.text for e in state.log_for(None)]
            assert view["board"] == render.board_or_none(game, state.observation(None))
            assert view["scores"] == state.visible_scores(None)
    assert cursor.rebuilds == 1
    assert cursor.applied == total


#: A prompt the game writes to the deciding player: "You won the auction...", "Keep one of your two Dukes...".
SECOND_PERSON = re.compile(r"\b[Yy]ou(r)?\b")


@pytest.mark.parametrize("game,players", [(spec.id, max(2, spec.min_players)) for spec in shipped_games()])
def test_a_replay_puts_a_decision_as_the_question_its_player_was_asked(game, players):
    """At the first step of each title where the seat to move is asked in the second person ("You
    won the auction...", "Keep one of your two Dukes..."), the replay's line names that player and
    quotes the game's words: it never opens with a bare "You" meant for someone else."""
    record = _played(game, players, seed=3).replay_record()
    cursor = ReplayCursor(record)
    state = new_game(game, players, seed=record["seed"], options=record.get("options") or {})
    for step, (seat, action) in enumerate(record["actions"]):
        decision = state.decision(state.to_move[0])
        if decision is not None and SECOND_PERSON.search(decision.prompt):
            break
        state.apply(action, seat)
    else:
        pytest.fail(f"{game}: no decision in the second person in the whole game")
    shown = cursor.view(step)["prompt"]
    first = seat_name(state.to_move[0])
    assert shown.startswith(first + " ") and f"“{decision.prompt}”" in shown, shown
    assert not re.match(r"(?i)(you|your)\b", shown), shown
    if len(state.to_move) == 1:
        assert shown == f"{first} is asked: “{decision.prompt}”"
    # the game's own words to the seat are unchanged: its live prompt is still in the second person
    assert state.decision(state.to_move[0]) == decision and SECOND_PERSON.search(decision.prompt)


def test_jumps_and_steps_back_cost_less_than_a_checkpoint_interval():
    """A long game: any jump, back or forward, applies fewer than CHECKPOINT_EVERY actions once the
    record has been walked; the state built from the set-up stays the only one."""
    record = _played("kingdom-of-dice", 4, seed=0).replay_record()
    total = len(record["actions"])
    assert total > 1000
    cursor = ReplayCursor(record)
    cursor.index()  # one pass to the end (the jump list needs it)
    assert cursor.applied == total
    rng = random.Random(5)
    for step in [total, 0, total - 1, 1] + [rng.randrange(total + 1) for _ in range(40)]:
        before = cursor.applied
        view = cursor.view(step, log_tail=200)
        assert cursor.applied - before < CHECKPOINT_EVERY
        assert view["step"] == step and len(view["log"]) <= 200
        assert view["log_total"] - view["log_from"] == len(view["log"])
    state = _played("kingdom-of-dice", 4, seed=0, steps=777)
    view = cursor.view(777, log_tail=50)
    assert view["observation"] == state.observation(None)
    assert view["log"] == [e.text for e in state.log_for(None)][-50:]
    assert cursor.rebuilds == 1


def test_the_index_lists_every_round_and_turn_start():
    """Kingdom of Dice: a mark at every turn start, in step order, one a step (a round begins with its
    first turn); every round of the game (rulebook: as many as its Influence cards allow; the
    observation's round number at the end is the last) has its marks, and the table at a turn mark's
    step is that seat's turn."""
    final = _played("kingdom-of-dice", 2, seed=4)
    cursor = ReplayCursor(final.replay_record())
    marks = cursor.index()["marks"]
    steps = [m["step"] for m in marks]
    assert steps == sorted(set(steps))
    assert marks and all(m["kind"] == "turn" for m in marks)
    assert sorted({m["round"] for m in marks}) == list(range(1, final.observation(None)["round"] + 1))
    for mark in marks[:10]:
        assert cursor.view(mark["step"])["observation"]["current"] == mark["seat"]


#: Each title's counter (the table page's top line) as the observation carries it: the round, the turn,
#: both or neither (Card Kingdoms' Duke choice is its stage before turn 1).
COUNTS = {"biblios-dice": {"round"}, "corsairs-of-valeria": {"turn"}, "dice-kingdoms-of-valeria": {"round", "turn"},
          "kingdom-of-dice": {"round"}, "valeria-card-kingdoms": {"turn"}}


@pytest.mark.parametrize("game,players", [(spec.id, n) for spec in shipped_games()
                                          for n in sorted({spec.min_players, min(3, spec.max_players)})])
def test_each_mark_carries_the_counter_the_page_shows_at_its_step(game, players):
    """The jump list names a position as the page's counter names it there (board.js counterText of the
    view's ``stage`` and its observation's ``round`` and ``turn``), not by a count of its own: each mark
    has exactly the view's values at its step. Card Kingdoms and Corsairs count turns, no rounds (a
    Corsairs "round" effect is its second race); Dice Kingdoms counts both, and a round's first turn
    is in that round (its turn effect comes before the round's); solo games too."""
    cursor = ReplayCursor(_played(game, players, seed=5).replay_record())
    marks = cursor.index()["marks"]
    assert len(marks) >= 3
    for mark in marks:
        view = cursor.view(mark["step"])
        obs = view["observation"]
        assert (mark["stage"], mark["round"], mark["turn"]) == (view["stage"], obs.get("round"), obs.get("turn")), mark
    counted = {key for key in ("round", "turn") if any(m[key] for m in marks)}
    assert counted == COUNTS[game]


def test_a_step_names_the_stage_the_live_view_names():
    """Card Kingdoms, two players: while the Dukes are chosen a step's ``stage`` is "Choosing Dukes", as
    the live view's is (the rulebook's Setup, "Choosing Your Duke"); once turns are counted it is None."""
    cursor = ReplayCursor(_played("valeria-card-kingdoms", 2, seed=3).replay_record())
    assert cursor.view(0)["stage"] == "Choosing Dukes"
    end = cursor.view(cursor.total)
    assert end["observation"]["turn"] > 0 and end["stage"] is None


@pytest.fixture
def client(tmp_path):
    pytest.importorskip("dicetable.server", reason="the server package (issue 11) is not installed")
    from fastapi.testclient import TestClient

    from dicetable.web import create_site

    with TestClient(create_site(f"sqlite:///{tmp_path / 't.db'}")) as c:
        yield c


def _finished_table(client, game: str, seats: int, seed: int) -> str:
    made = client.post("/api/tables", json={"game": game, "players": seats, "seed": seed,
                                             "seats": [{"kind": "bot", "level": "random"}] * seats}).json()
    tid = made["table_id"]
    deadline = time.time() + 60
    while not client.get(f"/api/tables/{tid}").json()["over"]:
        assert time.time() < deadline
        time.sleep(0.05)
    return tid


def test_routes_keep_one_cursor_per_table_and_step_linearly(client):
    from dicetable.web.replays import ReplayCursors

    tid = _finished_table(client, "corsairs-of-valeria", 2, seed=3)
    record = client.get(f"/api/tables/{tid}/record").json()
    total = len(record["actions"])
    for step in range(total + 1):
        got = client.get(f"/web/tables/{tid}/replay/{step}").json()
        assert got["step"] == step and got["total"] == total
    cursors = client.app.state.replays
    assert isinstance(cursors, ReplayCursors)
    assert cursors.built == 1
    cursor = cursors.peek(tid)
    assert cursor is not None and cursor.rebuilds == 1 and cursor.applied == total
    index = client.get(f"/web/tables/{tid}/replay-index").json()
    assert index["total"] == total and index["marks"] and all(0 <= m["step"] <= total for m in index["marks"])
    assert cursor.rebuilds == 1


def test_the_replay_route_words_the_prompt_for_its_reader_and_the_live_seat_keeps_its_own(client):
    """The replay step's ``prompt`` (the JSON field docs/web.md names) puts the decision as the question
    the player was asked; a live seat's view keeps the game's prompt to it, word for word ("You rolled")."""
    tid = _finished_table(client, "kingdom-of-dice", 2, seed=2)
    record = client.get(f"/api/tables/{tid}/record").json()
    opening = new_game("kingdom-of-dice", 2, seed=record["seed"]).decision(0)
    assert opening is not None and opening.prompt.startswith("You rolled ")
    got = client.get(f"/web/tables/{tid}/replay/0").json()
    assert got["prompt"] == f"Player 1 is asked: “{opening.prompt}”"
    live = client.post("/api/tables", json={"game": "kingdom-of-dice", "players": 2, "seed": record["seed"],
                                             "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    token = live["seats"][0]["token"]
    view = client.get(f"/api/tables/{live['table_id']}", headers={"Authorization": f"Bearer {token}"}).json()
    assert view["decision"]["prompt"] == opening.prompt


def test_final_route_sums_to_the_tables_scores_and_is_refused_while_running(client):
    running = client.post("/api/tables", json={"game": "kingdom-of-dice", "players": 1,
                                                "seats": [{"kind": "human"}]}).json()
    refused = client.get(f"/web/tables/{running['table_id']}/final")
    assert refused.status_code == 403 and "over" in refused.json()["detail"]
    assert client.get("/web/tables/nope/final").status_code == 404
    tid = _finished_table(client, "kingdom-of-dice", 1, seed=2)
    view = client.get(f"/api/tables/{tid}").json()
    sheet = client.get(f"/web/tables/{tid}/final").json()["sheet"]
    assert sheet["categories"] == ["Influence cards"]
    seats = [ln for ln in sheet["lines"] if ln["seat"] is not None]
    assert [sum(ln["points"]) for ln in seats] == [ln["total"] for ln in seats] == view["scores"]
    (cat,) = [ln for ln in sheet["lines"] if ln["seat"] is None]
    assert cat["name"] == "the Mischievous Cat" and cat["total"] == view["observation"]["cat"]["score"]
    assert [ln["seat"] for ln in seats if ln["won"]] == view["winners"]
