"""The Alembic migrations build exactly the schema of the models, and upgrading keeps every row.

Runs on SQLite and on a throwaway PostgreSQL (``db_url``). WEB.md, Storage:
"Alembic migrations run on start"; a database made by an earlier release
must upgrade in place without losing a table, a seat, an action or a chat line.
"""

from __future__ import annotations

from datetime import datetime, timezone
from importlib import resources

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import text

from dicetable.server import store
from dicetable.server.models import Base

#: The revision of the release before accounts (issue "Players"): databases made by it must upgrade.
BEFORE_PLAYERS = "0005_chat"


def _config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("dicetable.server") / "migrations"))
    return cfg


def _run(engine, step, revision: str) -> None:
    cfg = _config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        step(cfg, revision)


def test_migrations_give_the_models_schema(db_url):
    engine = store.make_engine(db_url)
    try:
        store.migrate(engine)
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        # a foreign key the models declare but SQLite could not add in place would show here too
        assert diff == [], f"the migrations and models.py differ: {diff}"
    finally:
        engine.dispose()


def _fill_old_database(engine) -> None:
    when = datetime(2026, 1, 1, tzinfo=timezone.utc)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO tables (id, game, players, options, seed, created, status, undos, seed_chosen)"
                          " VALUES ('old1', 'kingdom_of_dice', 2, '{}', 7, :w, 'running', 0, false)"), {"w": when})
        for seat in (0, 1):
            conn.execute(text("INSERT INTO seats (table_id, seat, kind, level, name, autoplay, joined, claimed)"
                              " VALUES ('old1', :s, 'human', 'easy', :n, false, true, false)"),
                         {"s": seat, "n": f"Seat {seat + 1}"})
        conn.execute(text("INSERT INTO actions (table_id, seq, seat, action, by, undoable, created)"
                          " VALUES ('old1', 1, 0, 'roll', 'seat', false, :w)"), {"w": when})
        conn.execute(text("INSERT INTO chat (table_id, seat, name, text, created)"
                          " VALUES ('old1', 0, 'Seat 1', 'hello', :w)"), {"w": when})


def _counts(engine) -> dict[str, int]:
    with engine.connect() as conn:
        return {name: conn.execute(text(f"SELECT count(*) FROM {name}")).scalar_one()
                for name in ("tables", "seats", "actions", "chat")}


def test_an_old_database_upgrades_and_keeps_every_row(db_url):
    engine = store.make_engine(db_url)
    try:
        _run(engine, command.upgrade, BEFORE_PLAYERS)
        _fill_old_database(engine)
        assert _counts(engine) == {"tables": 1, "seats": 2, "actions": 1, "chat": 1}
        _run(engine, command.upgrade, "head")
        assert _counts(engine) == {"tables": 1, "seats": 2, "actions": 1, "chat": 1}
        with engine.connect() as conn:
            assert conn.execute(text("SELECT rated, listed FROM tables")).one() == (False, False)
            assert conn.execute(text("SELECT player_id FROM seats")).scalars().all() == [None, None]
        # and back down and up again: the rows of the older tables survive both ways
        _run(engine, command.downgrade, BEFORE_PLAYERS)
        assert _counts(engine) == {"tables": 1, "seats": 2, "actions": 1, "chat": 1}
        _run(engine, command.upgrade, "head")
        assert _counts(engine) == {"tables": 1, "seats": 2, "actions": 1, "chat": 1}
    finally:
        engine.dispose()


def test_down_to_the_first_release_and_up_again_keeps_every_table_seat_and_action(db_url):
    # each step adds or drops its columns in place; none copies a table (on SQLite that copy would drop
    # the old table and, with foreign keys on, its seats and actions with it)
    engine = store.make_engine(db_url)
    try:
        _run(engine, command.upgrade, BEFORE_PLAYERS)
        _fill_old_database(engine)
        _run(engine, command.upgrade, "head")
        _run(engine, command.downgrade, "0001")
        with engine.connect() as conn:
            kept = {name: conn.execute(text(f"SELECT count(*) FROM {name}")).scalar_one()
                    for name in ("tables", "seats", "actions")}
        assert kept == {"tables": 1, "seats": 2, "actions": 1}
        _run(engine, command.upgrade, "head")
        assert _counts(engine) == {"tables": 1, "seats": 2, "actions": 1, "chat": 0}
    finally:
        engine.dispose()


@pytest.mark.parametrize("name", ["players", "player_tokens", "results", "ratings"])
def test_the_player_tables_exist_after_upgrade(sqlite_url, name):
    engine = store.make_engine(sqlite_url)
    try:
        store.migrate(engine)
        with engine.connect() as conn:
            assert conn.execute(text(f"SELECT count(*) FROM {name}")).scalar_one() == 0
    finally:
        engine.dispose()
