"""``dicetable analyze``: a balance report (one self-contained HTML page) from simulate's JSON lines.

Registered on the ``dicetable`` app by importing this module (cli/main.py does);
the work is done by :mod:`dicetable.report`.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from dicetable.cli.app import app, console, fail, guarded
from dicetable.engine import DicetableError


@app.command()
@guarded
def analyze(
    results: List[Path] = typer.Argument(..., help="JSONL file(s) written by `dicetable simulate --jsonl`"),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="HTML file to write (default: the first file's name with .html)"),
    title: Optional[str] = typer.Option(None, "--title", help="the report's heading"),
) -> None:
    """Turn simulate's JSON lines into one self-contained HTML balance report with plots.

    Win rates by seat position and by bot (95% Wilson intervals), score
    distributions, game length, and the game's balance facts (Captains, Dukes,
    setups, Statues, Cat levels). Several files (e.g. one per Cat level) make
    one report; each game and player count gets its own section. Needs the
    ``report`` extra (matplotlib, Jinja2).
    """
    from dicetable.report import build_report, load_results

    out = output or results[0].with_suffix(".html")
    if out.suffix.lower() not in (".html", ".htm"):
        fail(f"-o names the HTML report to write and must end in .html, got {out}")
    if out.is_dir():
        fail(f"-o {out} is a folder; give a file name such as {out / 'report.html'}")
    if any(out.resolve() == p.resolve() for p in results):
        fail(f"-o {out} is one of the results files; choose another name")
    try:
        records = load_results(results)
        page = build_report(records, sources=", ".join(p.name for p in results), title=title)
    except DicetableError as exc:
        fail(str(exc))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(page, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    console.print(f"wrote {out} ({len(page) // 1024} KiB, {len(records)} games)")
