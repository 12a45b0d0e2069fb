"""setup.py's build choices: the one list of compiled modules and DICETABLE_COMPILE (docs/compiled.md)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def setup_py() -> dict:
    return runpy.run_path(str(ROOT / "setup.py"), run_name="setup_under_test")  # setup() is not called


def test_every_compiled_module_exists_and_none_is_a_front_end(setup_py):
    paths = setup_py["module_paths"](setup_py["COMPILED"])
    assert "src/dicetable/engine/state.py" in paths and "src/dicetable/engine/flow.py" in paths
    assert "src/dicetable/games/kingdom_of_dice/rules.py" in paths
    assert all((ROOT / p).is_file() for p in paths)
    assert len(paths) == len(set(paths))
    # the issue's scope: the engine and the games' rules and policies, never the front ends; of the
    # bots only the search and its leaf value (a playout's hot path), not the trainer
    for part in ("/web/", "/cli/", "/server/", "/rl/", "/board.py", "/text.py"):
        assert not [p for p in paths if part in p], part
    assert sorted(p for p in paths if "/bots/" in p) == ["src/dicetable/bots/mcts.py", "src/dicetable/bots/value.py"]
    # fields writes methods with exec at class creation: it stays Python
    assert "src/dicetable/engine/fields.py" not in paths


def test_a_missing_module_is_named(setup_py):
    with pytest.raises(ValueError, match="dicetable.engine.nothing"):
        setup_py["module_paths"](["dicetable.engine.nothing"])


@pytest.mark.parametrize("value, mode", [("0", "pure"), ("1", "compiled"), ("", "auto"), ("auto", "auto"),
                                         ("pure", "pure"), ("compiled", "compiled")])
def test_dicetable_compile_chooses_the_build(setup_py, monkeypatch, value, mode):
    monkeypatch.setenv("DICETABLE_COMPILE", value)
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    assert setup_py["_mode"]() == mode


def test_an_editable_install_is_pure_unless_compiling_is_asked_for(setup_py, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["setup.py", "editable_wheel"])
    monkeypatch.delenv("DICETABLE_COMPILE", raising=False)
    assert setup_py["_mode"]() == "pure"
    monkeypatch.setenv("DICETABLE_COMPILE", "1")
    assert setup_py["_mode"]() == "compiled"


def test_a_wrong_value_says_what_is_allowed(setup_py, monkeypatch):
    monkeypatch.setenv("DICETABLE_COMPILE", "maybe")
    with pytest.raises(SystemExit, match="use 0 \\(pure\\), 1 \\(compiled, fail loudly\\)"):
        setup_py["_mode"]()


def test_without_a_c_compiler_auto_falls_back_to_pure_and_1_fails_loudly(setup_py, monkeypatch, capsys):
    pytest.importorskip("mypyc.build", reason="mypyc (from mypy, a build requirement) is not installed here")
    monkeypatch.setenv("CC", "/bin/false")  # a compiler that fails on everything
    assert setup_py["_extensions"]("auto") == []
    assert "building the pure Python version (no working C compiler" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="DICETABLE_COMPILE=1 but no working C compiler"):
        setup_py["_extensions"]("compiled")
    assert setup_py["_extensions"]("pure") == []


def test_the_base_install_is_compiled_wherever_a_c_compiler_works(setup_py):
    """`make test`'s `pip install .` (DICETABLE_BASE_PYTHON) must not fall back to pure on a machine that
    can compile: a fallback there means mypyc refused our source or its build environment, which is ours to fix."""
    import os
    import subprocess

    base = os.environ.get("DICETABLE_BASE_PYTHON")
    if not base:
        pytest.skip("no base install named (make test sets DICETABLE_BASE_PYTHON)")
    pytest.importorskip("mypyc.build", reason="mypyc (from mypy, a build requirement) is not installed here")
    problem = setup_py["_compiler_works"]()
    if problem:
        pytest.skip(f"this machine cannot compile: {problem}")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DICETABLE_BUILD")}
    done = subprocess.run([base, "-c", "import dicetable; print(dicetable.build_kind())"],
                          capture_output=True, text=True, env=env, cwd="/")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "compiled", "pip install . fell back to the pure build: see its -v output"
