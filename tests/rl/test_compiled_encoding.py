"""The games' direct fills are in the compiled build and need no numpy (docs/compiled.md, docs/research.md).

The base install has no numpy, and mypyc type-checks every module it compiles in a build
environment without it, so each title's ``encoding`` module must import and fill a plain buffer
(a float32 ``array``, a list) with numpy absent; in a compiled install it is a C extension.
"""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import dicetable
from dicetable.engine import registry

ROOT = Path(__file__).resolve().parents[2]
TITLES = {spec.id: spec for spec in registry.list_games() if spec.observation_encoding is not None}


def _encoding_module(game_id: str) -> str:
    return f"dicetable.games.{game_id.replace('-', '_')}.encoding"


def test_every_encoding_is_listed_for_compiling() -> None:
    compiled = runpy.run_path(str(ROOT / "setup.py"), run_name="setup_under_test")["COMPILED"]
    assert len(TITLES) == 5
    for game_id in TITLES:
        assert _encoding_module(game_id) in compiled, game_id


def test_the_batch_loop_is_listed_for_compiling_and_needs_no_numpy() -> None:
    compiled = runpy.run_path(str(ROOT / "setup.py"), run_name="setup_under_test")["COMPILED"]
    assert "dicetable.engine.batchstep" in compiled
    code = ("import sys; sys.modules['numpy'] = None\n"
            "import dicetable.engine.batchstep as b; print(b.pick([((), [])], [0])[1])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"  # index 0 is not offered by an empty offer: game 0 is named


# Run in a fresh interpreter where importing numpy fails, as in a base install: every title's
# direct fill writes a float32 array and a list, and both equal the dictionary encoding.
_WITHOUT_NUMPY = r"""
import random, sys
from array import array

class NoNumpy:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy" or name.startswith("numpy."):
            raise ImportError("numpy is blocked: the base install has none")
        return None

sys.meta_path.insert(0, NoNumpy())
import dicetable

for game_id in sys.argv[1:]:
    spec = dicetable.get_game(game_id)
    enc = spec.observation_encoding(2, {})
    state = dicetable.new_game(game_id, 2, seed=5)
    rng = random.Random(5)
    for step in range(60):
        for seat in (0, 1, None):
            slow = list(array("f", enc.encode(state.observation(seat))))
            buffer = array("f", bytes(4 * enc.size))
            enc.direct(state, seat, memoryview(buffer))
            assert list(buffer) == slow, (game_id, step, seat)
            assert list(array("f", enc.encode_state(state, seat))) == slow, (game_id, step, seat)
        if state.is_over:
            break
        seat = min(state.to_move)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    print(game_id)
assert "numpy" not in sys.modules
"""


def test_the_direct_fills_need_no_numpy() -> None:
    done = subprocess.run([sys.executable, "-c", _WITHOUT_NUMPY, *TITLES], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert [line.split()[0] for line in done.stdout.splitlines()] == list(TITLES)


@pytest.mark.skipif(dicetable.build_kind() != "compiled", reason="the pure build compiles nothing")
def test_the_compiled_build_runs_the_compiled_fills() -> None:
    import importlib

    for game_id in TITLES:
        module = importlib.import_module(_encoding_module(game_id))
        assert not str(module.__file__).endswith(".py"), f"{module.__name__} runs from {module.__file__}"
