"""The base install: a fresh virtual environment with only ``pip install .`` (no extras).

``make test`` builds it anew on every run (``.venv-base``, see the Makefile) and names its
interpreter in ``DICETABLE_BASE_PYTHON``; run without make, the fixture builds one in a
temporary folder. It is what ``make run`` gives a new user, so these tests prove the first
command of the README works on a fresh machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def base_python(tmp_path_factory) -> Path:
    """The interpreter of a base-only environment (``pip install .`` of this checkout)."""
    given = os.environ.get("DICETABLE_BASE_PYTHON")
    if given:
        path = Path(given)
        assert path.exists(), f"DICETABLE_BASE_PYTHON={given} does not exist (make test builds it)"
        return path
    venv = tmp_path_factory.mktemp("base") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(ROOT)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip("cannot build a base environment here (pip install . failed; make test builds it): "
                    + done.stderr[-500:])
    return python
