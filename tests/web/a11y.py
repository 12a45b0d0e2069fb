"""axe-core in the browser tests: the accessibility problems of a page, readable in an assertion.

axe-core comes bundled with ``axe-playwright-python`` (the dev extra), so
nothing is fetched from the network: the script is evaluated in the page
through Playwright (the page's Content-Security-Policy does not apply to it).
"""

from __future__ import annotations

from typing import Any

#: axe's impacts that fail a page.
FAILING = ("critical", "serious")

#: Rules axe rates below "serious" that the pages keep all the same (issue 25: landmarks, one h1).
REQUIRED_RULES = ("page-has-heading-one", "landmark-one-main", "landmark-no-duplicate-main",
                  "landmark-unique", "region", "heading-order", "scrollable-region-focusable")


def axe_results(page: Any, options: dict | None = None, within: str | None = None) -> dict:
    """axe-core's raw results (``violations`` only) for the page as it is now.

    ``options``: axe.run options (e.g. ``{"runOnly": ["color-contrast"]}``); ``within``: a CSS
    selector of the part to check (default: the whole page);
    raises ``pytest.skip`` when axe-playwright-python is not installed.
    """
    import pytest

    sync = pytest.importorskip("axe_playwright_python.sync_playwright",
                               reason="axe-playwright-python is in the dev extra: make dev")
    run_options = {"resultTypes": ["violations"], **(options or {})}
    return sync.Axe().run(page, context=within, options=run_options).response


def axe_problems(page: Any, options: dict | None = None, within: str | None = None) -> list[str]:
    """The page's critical and serious axe violations and those of :data:`REQUIRED_RULES`, one line each:
    ``"rule (impact): what is wrong — target, target (n more)"``; empty when there are none."""
    out = []
    for v in axe_results(page, options, within)["violations"]:
        if v.get("impact") not in FAILING and v["id"] not in REQUIRED_RULES:
            continue
        targets = [" ".join(str(t) for t in node["target"]) for node in v["nodes"]]
        shown = ", ".join(targets[:6]) + (f" ({len(targets) - 6} more)" if len(targets) > 6 else "")
        detail = ""
        if v["nodes"]:
            node = v["nodes"][0]
            messages = [c["message"] for c in node.get("any", []) + node.get("all", []) + node.get("none", [])]
            detail = f" [{messages[0]}]" if messages else ""
        out.append(f"{v['id']} ({v.get('impact')}): {v['help']} — {shown}{detail}")
    return out
