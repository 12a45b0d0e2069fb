"""Table seeds cover every game seed, 0..2**64-1, as the engine, the environments, ``simulate`` and the
tournaments take them; the store keeps a seed of 2**63 or more in its signed 64-bit column and reads
it back as the same seed, on SQLite and on PostgreSQL, across a restart."""

from __future__ import annotations

import json
import random
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, text

from dicetable.engine import new_game
from dicetable.server.models import TableRow, seed_from_column, seed_to_column
from dicetable.server.store import Store
from dicetable.web import create_site

from .helpers import auth, create, tokens_of

GAME = "kingdom-of-dice"


def _engine_moves(seed: int, count: int, choice_seed: int) -> list[str]:
    """The first ``count`` actions of the engine's game ``seed`` with seeded random choices."""
    rng = random.Random(choice_seed)
    state = new_game(GAME, 2, seed=seed)
    moves = []
    while len(moves) < count and not state.is_over:
        seat = state.to_move[0]
        action = rng.choice([a.id for a in state.legal_actions(seat)])
        state.apply(action, seat)
        moves.append(action)
    return moves


def _table_moves(client, table_id: str, tokens: dict, count: int, rng: random.Random) -> list[str]:
    """``count`` actions at the table by the same seeded random choices (fewer if it ends)."""
    moves = []
    while len(moves) < count:
        seat = client.get(f"/api/tables/{table_id}").json()["to_move"]
        if not seat:
            break
        view = client.get(f"/api/tables/{table_id}", headers=auth(tokens[seat[0]])).json()
        if view["over"]:
            break
        action = rng.choice([a["id"] for a in view["legal_actions"]])
        r = client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[seat[0]]),
                        json={"action": action, "version": view["version"]})
        assert r.status_code == 200, r.text
        moves.append(action)
    return moves


@pytest.mark.parametrize("seed", [2**64 - 1, 2**63, 2**63 - 1])
def test_a_64_bit_seed_plays_the_engines_game_and_survives_a_restart(db_url, seed):
    rng = random.Random(11)
    want = _engine_moves(seed, 60, choice_seed=11)
    with TestClient(create_site(db_url)) as client:
        made = create(client, GAME, ["human", "human"], seed=seed)
        tid, tokens = made["table_id"], tokens_of(made)
        played = _table_moves(client, tid, tokens, 30, rng)
        # The seed stays secret while the game runs: no view shows it, the record is refused.
        for token in (None, *tokens.values()):
            shown = client.get(f"/api/tables/{tid}", headers=auth(token)).text
            assert str(seed) not in shown
            assert seed_to_column(seed) == -1 or str(seed_to_column(seed)) not in shown  # "-1" is in any view
        assert client.get(f"/api/tables/{tid}/record").status_code == 403
    with TestClient(create_site(db_url)) as client:  # a new server: the table is rebuilt from the store
        played += _table_moves(client, tid, tokens, 30, rng)
    assert played == want[:len(played)] and len(played) == len(want)
    store = Store(db_url)
    try:
        assert store.load(tid).table.seed == seed
        with store.engine.connect() as conn:  # the column itself holds the signed 64-bit form
            raw = conn.execute(text("SELECT seed FROM tables WHERE id = :tid"), {"tid": tid}).scalar_one()
            assert raw == (seed - 2**64 if seed >= 2**63 else seed)
            assert conn.execute(select(TableRow.seed).where(TableRow.id == tid)).scalar_one() == seed
    finally:
        store.close()


def test_a_finished_tables_record_gives_the_64_bit_seed(sqlite_url):
    seed = 2**64 - 1
    with TestClient(create_site(sqlite_url)) as client:
        made = create(client, GAME, ["random", "random"], seed=seed)
        tid = made["table_id"]
        for _ in range(600):
            if client.get(f"/api/tables/{tid}").json()["over"]:
                break
            time.sleep(0.05)
        record = client.get(f"/api/tables/{tid}/record")
        assert record.status_code == 200, record.text
        assert record.json()["seed"] == seed
        assert json.loads(record.text)["seed"] == 18446744073709551615


@pytest.mark.parametrize("seed", [2**64, -1, 10**30])
def test_a_seed_out_of_range_is_refused_in_the_engines_words(sqlite_url, seed):
    with TestClient(create_site(sqlite_url)) as client:
        r = client.post("/api/tables", json={"game": GAME, "players": 2, "seed": seed,
                                             "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert r.status_code == 422
        # the engine's words (dicetable.engine.rng.seed_problem), as new_game and the environments say them
        assert r.json()["detail"] == f"seed must be an integer 0..2**64-1 (64 bits, not negative), got {seed}"


@pytest.mark.parametrize("seed, stored", [(0, 0), (2**63 - 1, 2**63 - 1), (2**63, -2**63), (2**64 - 1, -1)])
def test_the_seed_codec_keeps_the_64_bits(seed, stored):
    assert seed_to_column(seed) == stored
    assert seed_from_column(stored) == seed


@pytest.mark.parametrize("bad", [-1, 2**64])
def test_the_seed_codec_refuses_what_is_no_seed(bad):
    with pytest.raises(ValueError, match="a game seed is 0..2\\*\\*64-1"):
        seed_to_column(bad)
