"""Optional extras (pyproject.toml): without one, the part needing it says which extra to install.

A missing module is simulated with ``sys.modules[name] = None`` (``import name`` then raises
ImportError, as on an install without the extra).
"""

from __future__ import annotations

import importlib
import json
import sys

import pytest
from typer.testing import CliRunner

from dicetable.cli.main import app
from dicetable.extras import MissingExtra, require

RL_MODULES = ("dicetable.rl", "dicetable.rl.aec", "dicetable.rl.gym", "dicetable.rl.parallel",
              "dicetable.rl.spaces", "dicetable.rl.openspiel", "dicetable.rl.vector",
              "dicetable.rl.batch", "dicetable.rl.sharded")


def test_require_returns_an_installed_module():
    assert require("json", "report", "the test") is json
    assert require("os.path", "report", "the test") is sys.modules["os.path"]


@pytest.mark.parametrize("hidden, wanted", [("matplotlib", "matplotlib"), ("matplotlib", "matplotlib.pyplot")])
def test_a_missing_module_names_the_extra_and_the_pip_command(monkeypatch, hidden, wanted):
    monkeypatch.setitem(sys.modules, hidden, None)
    if wanted != hidden:  # a submodule already imported would be found without its package
        monkeypatch.delitem(sys.modules, wanted, raising=False)
    with pytest.raises(MissingExtra) as info:
        require(wanted, "report", "the balance report")
    message = str(info.value)
    assert isinstance(info.value, ImportError) and info.value.extra == "report"
    assert message.startswith(f"the balance report needs {wanted} (the 'report' extra), which is not installed")
    assert "pip install 'dicetable[report]'" in message


def test_an_installed_module_that_fails_to_import_is_not_called_missing(tmp_path, monkeypatch):
    (tmp_path / "brokenextra_mod.py").write_text("import brokenextra_absent_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(MissingExtra, match="installed but failed to import") as info:
        require("brokenextra_mod", "rl", "the test")
    assert "brokenextra_absent_dependency" in str(info.value) and "dicetable[rl]" in str(info.value)
    assert "not installed" not in str(info.value)


def _forget_rl(monkeypatch):
    """Unload dicetable.rl and its modules for this test (monkeypatch puts them back after)."""
    import dicetable

    if hasattr(dicetable, "rl"):  # a fresh import rebinds the attribute: put the old one back after
        monkeypatch.setattr(dicetable, "rl", dicetable.rl)
    for name in [n for n in sys.modules if n == "dicetable.rl" or n.startswith("dicetable.rl.")]:
        monkeypatch.delitem(sys.modules, name)


@pytest.mark.parametrize("hidden", ["numpy", "gymnasium", "pettingzoo"])
@pytest.mark.parametrize("module", RL_MODULES)
def test_the_research_interfaces_without_the_rl_extra(monkeypatch, module, hidden):
    """Every module of dicetable.rl raises MissingExtra naming rl, never a bare ModuleNotFoundError."""
    _forget_rl(monkeypatch)
    monkeypatch.setitem(sys.modules, hidden, None)
    with pytest.raises(MissingExtra) as info:
        importlib.import_module(module)
    assert info.value.extra == "rl"
    assert f"needs {hidden} (the 'rl' extra)" in str(info.value) and "dicetable[rl]" in str(info.value)


def test_openspiel_without_pyspiel(monkeypatch):
    """pyspiel is needed only by the OpenSpiel adapter: the rest of dicetable.rl still imports."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    _forget_rl(monkeypatch)
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    assert importlib.import_module("dicetable.rl").env is not None
    with pytest.raises(MissingExtra, match=r"needs pyspiel \(the 'rl' extra\).*dicetable\[rl\]"):
        importlib.import_module("dicetable.rl.openspiel")


def _run(*args):
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_train_eval_without_numpy_says_how_to_install_before_playing(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "numpy", None)
    out = tmp_path / "value.json"
    result = _run("train-eval", "kingdom-of-dice", "--games", "5", "--out", str(out))
    assert result.exit_code == 2
    assert result.output.startswith("error: train-eval"), result.output  # alone: no bar, no blank line before it
    text = " ".join(result.output.split())
    assert "needs numpy (the 'rl' extra)" in text
    assert "dicetable[rl]" in text and "Traceback" not in text
    assert not out.exists()


def test_simulate_on_ray_without_ray_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)
    result = _run("simulate", "kingdom-of-dice", "-n", "2", "--bots", "greedy,random", "--backend", "ray",
                  "--jsonl", str(tmp_path / "r.jsonl"))
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "needs ray (the 'ray' extra), which is not installed" in text and "dicetable[ray]" in text
    assert "Traceback" not in text
    assert result.output.startswith("error:") and len(result.output.strip().splitlines()) == 1 \
        and "0/" not in result.output, result.output  # the error alone, with no progress bar left after it


def test_ladder_on_ray_without_ray_says_so_alone(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    result = CliRunner().invoke(app, ["ladder", "--backend", "ray", "--games", "1", "--game", "kingdom-of-dice",
                                      "--players", "1"], env={"COLUMNS": "300"}, catch_exceptions=False)
    assert result.exit_code == 2
    assert result.output.startswith("error:") and len(result.output.strip().splitlines()) == 1, result.output
    assert "needs ray (the 'ray' extra), which is not installed" in result.output and "ladder:" not in result.output
