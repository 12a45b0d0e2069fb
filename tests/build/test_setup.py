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
    # the issue's scope: the engine and the games' rules and policies, never the front ends
    for part in ("/web/", "/cli/", "/server/", "/rl/", "/board.py", "/text.py", "/bots/"):
        assert not [p for p in paths if part in p], part
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
