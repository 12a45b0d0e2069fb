"""The browser table: lobby, table page and replay viewer served by the dicetable server.

``router`` is a FastAPI APIRouter; the server's app factory includes it.
Pages are Jinja2 templates with one hand-written JS module and one stylesheet
(``static/``), no build step and nothing fetched from elsewhere (docs/web.md).
"""

from .routes import router

__all__ = ["router"]
