"""Schemathesis over the server's OpenAPI schema: a bounded run (25 cases per operation) with 0 failures.

Every check Schemathesis has runs: no server error, statuses, headers and
bodies as documented, schema-valid data accepted and invalid data refused.
Schema-valid requests may still be refused for what a schema cannot say (an
unknown game, a player count outside the game's range, an illegal action:
422; a stale version: 409; a token of no seat: 401/403/404), so those count
as accepted answers; any other status for valid data is a failure.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is in the dev extra: make dev")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.config import SchemathesisConfig  # noqa: E402

from dicetable.web import create_site  # noqa: E402
from dicetable.server.settings import Settings  # noqa: E402

FOLDER = Path(tempfile.mkdtemp(prefix="dicetable-schema-"))
APP = create_site(f"sqlite:///{FOLDER / 'api.db'}", settings=Settings(per_client=False))
# invalid data may also be refused for its size before it is read (413: a body over the server's limit,
# e.g. a list longer than its maxItems of long strings); that is a refusal, as 400 or 422 would be
CONFIG = SchemathesisConfig.from_dict({"checks": {
    "positive_data_acceptance": {"expected-statuses": ["2xx", 401, 403, 404, 409, 422, 429]},
    "negative_data_rejection": {"expected-statuses": [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 428, 429]}}})
SCHEMA = schemathesis.openapi.from_asgi("/api/openapi.json", APP, config=CONFIG)


@pytest.fixture(scope="module", autouse=True)
def running_app():
    """The app's lifespan (its store and tables) for the whole module; the folder goes afterwards."""
    with TestClient(APP):
        yield
    shutil.rmtree(FOLDER, ignore_errors=True)


@SCHEMA.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_schemathesis_finds_no_failure(case):
    case.call_and_validate()
