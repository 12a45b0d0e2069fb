"""Fixtures shared by every test folder.

``browser``: Debian's chromium, headless, through Playwright, one per test
session and worker. Playwright's sync API runs one event loop per thread, so a
second browser started while this one lives fails; every test that needs a
browser (tests/web and the games' phone checks) takes this fixture.

Tests marked ``pure_build`` replace a method of a rules class to watch or steer it. In the
compiled build (docs/compiled.md) compiled methods call each other directly, past any
replacement, so those tests are skipped there; ``make test`` runs them again on the pure build.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("DICETABLE_CHROMIUM", "/usr/bin/chromium")

# A person's seat handed to its bot moves at a person's pace on a server (1 s a decision by default:
# server/settings.py); the tests that hand a seat over to finish a game quickly want it at once, in
# process and in the servers they start. tests/server/test_stand_in_pace.py checks the pace itself.
os.environ.setdefault("DICETABLE_STAND_IN_PACE_MS", "0")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def pytest_collection_modifyitems(config, items):
    """Skip the ``pure_build`` tests when this process runs the compiled build, saying why."""
    import dicetable

    if dicetable.build_kind() != "compiled":
        return
    skip = pytest.mark.skip(reason="replaces a rules method, which the compiled build calls directly: "
                                   "make test runs it on the pure build")
    for item in items:
        if "pure_build" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium, headless, through Playwright."""
    pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra: make dev")
    if not Path(CHROMIUM).exists():  # pragma: no cover - make test installs it
        pytest.skip(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()
