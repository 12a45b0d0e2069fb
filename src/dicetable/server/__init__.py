"""The authoritative game server: FastAPI app, tables with seats and bots, storage (see WEB.md).

``create_app(database_url)`` builds the ASGI app; ``dicetable serve`` runs it
with uvicorn. Modules, from the top down: ``app`` (builds the app: middleware,
lifespan), ``routes`` (the HTTP contract and the WebSocket, one router per
job, and the error answers), ``tables`` (the table manager: cache, writes,
undo, seats, clocks), ``views`` (what each viewer sees, what changed),
``pushes`` (live connections and their messages), ``bots`` (bot moves,
search processes, hints), ``live`` (a table in memory), ``store`` (SQLAlchemy
store, migrations, PostgreSQL LISTEN/NOTIFY), ``models`` (the schema); beside
them ``collector`` (the garbage collector's settings of a serving process).
"""

from .app import MAX_BODY, create_app
from .store import DEFAULT_DATABASE, Store, StoreError

__all__ = ["DEFAULT_DATABASE", "MAX_BODY", "Store", "StoreError", "create_app"]
