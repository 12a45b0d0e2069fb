"""Alembic environment: runs the migrations on the connection handed over by ``store.migrate``."""

from alembic import context

from dicetable.server.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only through store.migrate
    raise RuntimeError("run the migrations with dicetable.server.store.migrate(engine)")
context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
