"""The account behind a token: found by the token's hash, never for a deleted account or a seat token."""

from __future__ import annotations

from sqlalchemy import insert, update

from dicetable.server import store as store_mod
from dicetable.server.identity import Player, player_for_token
from dicetable.server.ids import hash_token
from dicetable.server.models import PlayerRow, PlayerTokenRow


def test_a_token_names_its_account_until_the_account_is_deleted(sqlite_url):
    store = store_mod.Store(sqlite_url)
    try:
        with store.engine.begin() as conn:
            pid = conn.execute(insert(PlayerRow).values(name="Ada", name_key="ada", password_hash="x",
                                                        created=store_mod.now())).inserted_primary_key[0]
            conn.execute(insert(PlayerTokenRow).values(token_hash=hash_token("secret-1"), player_id=pid,
                                                       kind="session", created=store_mod.now()))
        assert player_for_token(store.engine, "secret-1") == Player(pid, "Ada", "session")
        assert player_for_token(store.engine, "secret-2") is None  # any other token: a guest
        with store.engine.begin() as conn:
            conn.execute(update(PlayerRow).where(PlayerRow.id == pid).values(deleted=True))
        assert player_for_token(store.engine, "secret-1") is None
    finally:
        store.close()
