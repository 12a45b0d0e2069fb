"""The browser table: lobby, table page and replay viewer served by the dicetable server.

``router`` is a FastAPI APIRouter; :func:`create_site` builds the server's app with it
included (what ``dicetable serve`` runs).
Pages are Jinja2 templates with one hand-written JS module and one stylesheet
(``static/``), no build step and nothing fetched from elsewhere (docs/web.md).
"""

from .routes import router
from .site import create_site, site_from_env

__all__ = ["create_site", "router", "site_from_env"]
