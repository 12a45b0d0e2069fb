"""Alembic migrations of the store, applied on start by :func:`dicetable.server.store.migrate`."""
