"""Abandoned tables: a running table without an action for a configured time is finished as abandoned
(issue: a server strangers cannot take down; docs/security.md)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from dicetable.server.settings import Settings, SettingsError
from dicetable.server.store import Store
from dicetable.server.tables import ApiError, TableManager

DAY = 86400


@pytest.fixture
def manager(tmp_path):
    m = TableManager(Store(f"sqlite:///{tmp_path / 'x.db'}"), abandon_after=2 * DAY)
    yield m
    m.close()


def _two_humans(m: TableManager) -> str:
    return m.create("kingdom-of-dice", 2, {}, None, [{"kind": "human"}, {"kind": "human"}], None)["table_id"]


def test_a_table_without_a_move_for_the_set_time_is_abandoned_and_refuses_moves(manager):
    idle, active = _two_humans(manager), _two_humans(manager)
    lt = manager.get(active)
    seat = lt.state.to_move[0]
    manager.act(active, seat, lt.state.legal_actions(seat)[0].id, 0)
    now = datetime.now(timezone.utc)
    assert manager.sweep(now + timedelta(days=1)) == []  # one day without a move: kept
    assert manager.sweep(now + timedelta(days=2, seconds=-60)) == []  # not quite two days
    # two days after both were made and the active one moved (just before `now`): both go
    assert sorted(manager.sweep(now + timedelta(days=2, seconds=30))) == sorted([idle, active])
    assert manager.store.status(idle) == manager.store.status(active) == "abandoned"
    view = manager.view(manager.get(idle), None)
    assert view["status"] == "abandoned"
    seat = manager.get(idle).state.to_move[0]
    with pytest.raises(ApiError) as refused:
        manager.act(idle, seat, manager.get(idle).state.legal_actions(seat)[0].id, 0)
    assert refused.value.status == 409 and "abandoned" in refused.value.detail and "2 days" in refused.value.detail
    assert manager.record(idle)["table_id"] == idle  # the game cannot go on: its record is public


def test_a_recent_move_keeps_a_table_and_finished_tables_stay_over(manager):
    table = _two_humans(manager)
    lt = manager.get(table)
    seat = lt.state.to_move[0]
    manager.act(table, seat, lt.state.legal_actions(seat)[0].id, 0)
    # a sweep as of one day from now: the move is recent
    assert manager.sweep(datetime.now(timezone.utc) + timedelta(days=1)) == []
    assert manager.store.status(table) == "running"
    assert manager.view(manager.get(table), None)["status"] == "running"


def test_an_abandoned_table_is_rebuilt_abandoned_after_a_restart(tmp_path):
    url = f"sqlite:///{tmp_path / 'x.db'}"
    first = TableManager(Store(url), abandon_after=DAY)
    table = _two_humans(first)
    first.sweep(datetime.now(timezone.utc) + timedelta(days=2))
    first.close()
    again = TableManager(Store(url), abandon_after=DAY)
    try:
        lt = again.get(table)
        assert lt.status == "abandoned" and not lt.thinking
        with pytest.raises(ApiError) as refused:
            again.undo(table, 0, lt.version)
        assert refused.value.status == 409
    finally:
        again.close()


def test_the_setting_is_read_and_checked():
    assert Settings.from_env({}).abandon_after == 14 * DAY
    assert Settings.from_env({"DICETABLE_ABANDON_AFTER": "3600"}).abandon_after == 3600
    with pytest.raises(SettingsError, match="DICETABLE_ABANDON_AFTER must be 60 or more"):
        Settings.from_env({"DICETABLE_ABANDON_AFTER": "5"})


def test_the_server_sweeps_by_itself(tmp_path):
    """With a minute as the limit, sweeps run every 6 s from the start: a table made two minutes ago (as the
    store says) with no move is found and finished without anyone asking."""
    from sqlalchemy import update

    from dicetable.server.models import TableRow

    m = TableManager(Store(f"sqlite:///{tmp_path / 'x.db'}"), abandon_after=60)
    try:
        table = _two_humans(m)
        with m.store.engine.begin() as conn:
            conn.execute(update(TableRow).where(TableRow.id == table)
                         .values(created=datetime.now(timezone.utc) - timedelta(minutes=2)))
        m.start()
        import time

        deadline = time.monotonic() + 30
        while m.store.status(table) != "abandoned":
            assert time.monotonic() < deadline, "no sweep finished the idle table"
            time.sleep(0.2)
        assert m.get(table).status == "abandoned"
    finally:
        m.close()
