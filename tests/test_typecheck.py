"""The package type-checks: mypy with the configuration in pyproject.toml (issue 13).

``dicetable.engine`` is held to mypy's strict flags (listed in pyproject.toml),
the front ends must annotate every function, the games and bots are checked
with mypy's defaults. Run it by hand with ``.venv/bin/mypy``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")  # in the dev extra, which make test installs

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_error_in_the_package(monkeypatch):
    monkeypatch.chdir(ROOT)
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--no-incremental"])
    assert status == 0, out + err
    assert "Success: no issues found" in out
