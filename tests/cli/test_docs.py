"""The README and the in-game help say the same thing; docs cite rulebook sections, not outside files."""

from __future__ import annotations

import re
from pathlib import Path

from dicetable.cli.play import COMMANDS, INPUT_RULES

ROOT = Path(__file__).resolve().parents[2]


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_readme_states_every_input_rule_and_command_in_the_help_words():
    readme = flat((ROOT / "README.md").read_text(encoding="utf-8"))
    for rule in INPUT_RULES:
        assert f"- {flat(rule)}" in readme, rule
    for name, text in COMMANDS:
        assert f"- `{name}`: {flat(text)}" in readme, name


def test_docs_never_point_at_files_outside_the_repository():
    outside = re.compile(r"(\.\./)+shared/|/work/|\bshared/(rules|facts)\b")
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            assert not outside.search(line), f"{path.relative_to(ROOT)}:{number}: {line}"


def test_the_readme_links_the_captured_screens():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/screens/[^)]+\.txt)\)", readme)
    assert links
    for link in links:
        assert (ROOT / link).is_file(), link


def test_make_run_takes_another_port_as_the_readme_says():
    """`make run PORT=8123` starts the server on that port and prints its URL (port 8000 may be busy)."""
    import shutil
    import subprocess

    import pytest

    if not shutil.which("make"):
        pytest.skip("make is not installed")
    plan = subprocess.run(["make", "-n", "-s", "-o", ".venv/.installed", "run", "PORT=8123"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    assert "--port 8123" in plan and "http://127.0.0.1:8123/" in plan and "8000" not in plan, plan
    assert "make run PORT=" in (ROOT / "README.md").read_text(encoding="utf-8")
