"""The authoritative game server: FastAPI app, tables with seats and bots, storage (see WEB.md).

``create_app(database_url)`` builds the ASGI app; ``dicetable serve`` runs it
with uvicorn. Modules: ``app`` (HTTP contract, WebSocket, errors), ``tables``
(live tables: replay, actions, views, bots, clocks, undo), ``store`` (SQLAlchemy
store, migrations, PostgreSQL LISTEN/NOTIFY), ``models`` (the schema).
"""

from .app import MAX_BODY, create_app
from .store import DEFAULT_DATABASE, Store, StoreError

__all__ = ["DEFAULT_DATABASE", "MAX_BODY", "Store", "StoreError", "create_app"]
