"""The compiled build plays exactly the pure build's games (issue 29: equivalence).

A compiled build is a ``pip install .`` made with a C compiler present (mypyc, ``setup.py``);
``make test`` makes one (``.venv-base``, named by ``DICETABLE_BASE_PYTHON``). The same
interpreter runs the worker twice: once as installed (compiled) and once with
``DICETABLE_BUILD=pure`` (every ``dicetable`` module from its ``.py`` source beside the
extensions), and the two must print the same digest for every game: records, observations,
logs and final scores byte for byte. Skipped, saying why, when no compiled build is found.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES_PER_TITLE = 200
CHECK = "from dicetable.compiled import compiled_available; print(compiled_available())"


def _compiled_python() -> str | None:
    """An interpreter whose dicetable install has compiled extensions: the base install of
    ``make test``, else this one; None when neither has."""
    for python in (os.environ.get("DICETABLE_BASE_PYTHON"), sys.executable):
        if not python:
            continue
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DICETABLE_BUILD")}
        done = subprocess.run([python, "-c", CHECK], capture_output=True, text=True, env=env, cwd="/")
        if done.returncode == 0 and done.stdout.strip() == "True":
            return python
    return None


def _play(python: str, build: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DICETABLE_BUILD")}
    if build == "pure":
        env["DICETABLE_BUILD"] = "pure"
    # run from the checkout so `tests` imports; `dicetable` comes from the install (src/ is not on the path)
    done = subprocess.run([python, "-m", "tests.build.equivalence_worker", str(GAMES_PER_TITLE)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=1500)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.splitlines()


@pytest.mark.slow
def test_compiled_and_pure_builds_play_the_same_games_byte_for_byte():
    python = _compiled_python()
    if python is None:
        pytest.skip("no compiled build installed (pip install . found no C compiler or mypyc, or "
                    "DICETABLE_COMPILE=0; make test builds one in .venv-base when it can)")
    compiled, pure = _play(python, "compiled"), _play(python, "pure")
    assert compiled[0] == "build compiled" and pure[0] == "build pure"  # not the same build twice
    titles = {line.split()[0] for line in pure[1:]}
    assert len(titles) == 5 and len(pure) == 1 + 5 * GAMES_PER_TITLE
    differing = [(c, p) for c, p in zip(compiled[1:], pure[1:]) if c != p]
    assert not differing, f"{len(differing)} games differ; first (game players seed digest): {differing[0]}"


def test_pure_sources_can_be_forced_in_a_fresh_process():
    """DICETABLE_BUILD=pure loads the engine from its .py source whatever is installed."""
    env = dict(os.environ, DICETABLE_BUILD="pure")
    done = subprocess.run([sys.executable, "-c", "import dicetable; print(dicetable.build_kind())"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pure"
