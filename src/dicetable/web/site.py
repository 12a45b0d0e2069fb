"""The whole site: the server's API with the browser pages on top (what ``dicetable serve`` runs).

The server (:mod:`dicetable.server`) knows nothing of pages; this module, which
stands above it, builds the server's app and includes the pages' router after
the API's routes, so ``GET /``, ``GET /tables/{id}``, the replay viewer and the
static files are served beside the HTTP contract of WEB.md.
"""

from __future__ import annotations

import os
from typing import Any

from fastapi import FastAPI

from dicetable.server import DEFAULT_DATABASE, create_app
from dicetable.server.collector import settle_collector
from dicetable.server.processes import DATABASE_VARIABLE
from dicetable.server.settings import Settings

from . import missing
from .routes import router, templates

__all__ = ["create_site", "site_from_env"]


def create_site(database_url: str = DEFAULT_DATABASE, **options: Any) -> FastAPI:
    """The server's app for ``database_url`` with the pages included.

    ``options`` are :func:`dicetable.server.create_app`'s (``id_factory``,
    ``listen``, ``bot_threads``, ``settings``), and so are the errors raised.
    """
    app = create_app(database_url, **options)
    app.include_router(router)
    missing.install(app, templates)  # a browser's unknown address: a page, not the API's JSON
    return app


def site_from_env() -> FastAPI:
    """One worker's site (uvicorn's factory for ``dicetable serve --workers N``): the database from
    ``$DICETABLE_DATABASE``, the settings from the environment (:meth:`Settings.from_env`). KeyError
    when the variable is missing. The worker is a server process: its garbage collector is settled
    once the site is built (:func:`dicetable.server.collector.settle_collector`)."""
    site = create_site(os.environ[DATABASE_VARIABLE], settings=Settings.from_env())
    settle_collector()
    return site
