"""Screenshots of each game's table page mid-game, at 1366x768 (or another size), for the README.

Starts ``dicetable serve`` on a free 127.0.0.1 port with a throwaway SQLite
file, opens one table per game (you against a greedy bot, fixed seeds),
plays some moves by clicking ``data-action`` elements like a player, and
saves ``docs/screenshots/table-<game-id>.png`` (``table-<game-id>-<W>x<H>.png`` with
``--size``; a size under 900 px wide is a phone: touch, mobile viewport). ``--lobby`` also saves
the lobby (``lobby.png``: a Corsairs table being set up, its "how to play" card open) and its
clock menu with the turn-based "1 day a turn" preset chosen (``lobby-clock.png``) and its
invite panel after creating it with one seat for a friend (``lobby-invite.png``), with the same
size suffix; with ``--lobby`` and no game named, only those two. With ``--end`` it saves instead,
per game, the end of a game of greedy bots (same seats) as a spectator sees it, the score
sheet dialog up (``end-<game-id>.png``), and its replay viewer half way (``replay-<game-id>.png``).
Needs the dev extra (Playwright) and Debian's chromium (``make test`` installs it)::

    .venv/bin/python scripts/screenshots.py [--moves 12] [--size 390x844] [--out docs/screenshots] [--lobby] [--end] [GAME ...]
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
def tables() -> dict:
    """game id -> (seats, options, seed) of every shipped game: you and two greedy bots where the game
    takes three players (the player panels show more), else as many as it takes."""
    from dicetable.engine.testing import shipped_games

    return {spec.id: (["human"] + ["greedy"] * (min(3, spec.max_players) - 1), {}, 7) for spec in shipped_games()}


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


def lobby_shots(browser, base: str, size: tuple[int, int], phone: bool, out: Path, suffix: str) -> None:
    """Save the lobby setting up a 3-player Corsairs table (you, a friend, a random bot), its clock menu on
    the daily preset, and its invite panel once created (the friend's seat waiting, both QR codes drawn)."""
    page = browser.new_page(viewport={"width": size[0], "height": size[1]}, is_mobile=phone, has_touch=phone)
    page.goto(base + "/?pace=0")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "corsairs-of-valeria")
    page.select_option("#players", "3")
    page.select_option("#seat-1", "human:away")
    page.select_option("#seat-2", "bot:hard")
    page.click("#bot-levels summary")
    page.wait_for_timeout(300)
    path = out / f"lobby{suffix}.png"
    page.screenshot(path=str(path))
    print(path)
    page.select_option("#clock", "daily")  # a turn-based preset, its line and what happens at zero
    page.locator("#clock-zero").scroll_into_view_if_needed()
    page.wait_for_timeout(200)
    path = out / f"lobby-clock{suffix}.png"
    page.screenshot(path=str(path))
    print(path)
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    page.wait_for_function("() => document.querySelectorAll('#seat-links img[data-qr]').length === 2")
    page.wait_for_function("() => document.querySelector('#joined').textContent !== ''")
    page.evaluate("() => window.scrollTo(0, 0)")
    path = out / f"lobby-invite{suffix}.png"
    page.screenshot(path=str(path))
    print(path)
    page.close()


def _end_shots(browser, base: str, game: str, players: int, options: dict, seed: int, size: tuple[int, int],
               out: Path, suffix: str) -> list[Path]:
    """A greedy-bot game of ``game`` played to its end: the spectator's page with the final score
    sheet up, and the replay viewer at the middle step. Returns the two paths written."""
    made = _post(base + "/api/tables", {"game": game, "players": players, "options": options, "seed": seed,
                                         "seats": [{"kind": "bot", "level": "greedy"}] * players})
    tid = made["table_id"]
    deadline = time.time() + 300
    while True:
        with urllib.request.urlopen(f"{base}/api/tables/{tid}", timeout=30) as resp:
            view = json.loads(resp.read())
        if view["over"]:
            break
        if time.time() > deadline:
            raise SystemExit(f"{game}: the bots' game did not end in 300 s")
        time.sleep(0.5)
    phone = size[0] < 900
    page = browser.new_page(viewport={"width": size[0], "height": size[1]}, is_mobile=phone, has_touch=phone)
    page.goto(f"{base}/tables/{tid}?pace=0")
    page.wait_for_selector("#final-sheet[data-ready]", timeout=30_000)
    page.wait_for_timeout(400)
    end = out / f"end-{game}{suffix}.png"
    page.screenshot(path=str(end))
    page.goto(f"{base}/tables/{tid}/replay#step={view['version'] // 2}")
    page.wait_for_function(f"() => document.querySelector('#step').dataset.version === '{view['version'] // 2}'")
    page.wait_for_function("() => document.querySelectorAll('#jump option').length > 1", timeout=30_000)
    page.wait_for_timeout(400)
    replay = out / f"replay-{game}{suffix}.png"
    page.screenshot(path=str(replay))
    page.close()
    return [end, replay]


def main(argv: list[str] | None = None) -> int:
    """Save one PNG per game; returns the process exit code."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    TABLES = tables()
    ap.add_argument("games", nargs="*", default=None, help="game ids (default: every game, none with --lobby)")
    ap.add_argument("--moves", type=int, default=12, help="moves of yours before the picture (default 12)")
    ap.add_argument("--size", default="1366x768", help="viewport WIDTHxHEIGHT in CSS px (default 1366x768)")
    ap.add_argument("--out", type=Path, default=Path("docs/screenshots"), help="folder for the PNGs")
    ap.add_argument("--lobby", action="store_true", help="also the lobby and its invite panel")
    ap.add_argument("--end", action="store_true", help="the final score sheet and the replay viewer instead")
    args = ap.parse_args(argv)
    if not args.games:  # none named: every game, or none when only the lobby is asked for
        args.games = [] if args.lobby else list(TABLES)
    try:
        width, height = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        ap.error(f"--size is WIDTHxHEIGHT in CSS pixels, e.g. 390x844, not {args.size!r}")
    phone = width < 900
    unknown = [g for g in args.games if g not in TABLES]
    if unknown:
        ap.error(f"unknown game(s) {', '.join(unknown)}; games: {', '.join(TABLES)}")
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [sys.executable, "-c", "from dicetable.cli.main import app; app()", "serve", "--port", str(port),
             "--database", f"sqlite:///{tmp}/shots.db", "--log-level", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        try:
            for _ in range(150):
                try:
                    urllib.request.urlopen(base + "/api/games", timeout=1)
                    break
                except OSError:
                    time.sleep(0.2)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                if args.lobby:
                    lobby_shots(browser, base, (width, height), phone, args.out,
                                "" if args.size == "1366x768" else f"-{width}x{height}")
                for game in args.games:
                    seats, options, seed = TABLES[game]
                    if args.end:
                        suffix = "" if args.size == "1366x768" else f"-{width}x{height}"
                        for path in _end_shots(browser, base, game, len(seats), options, seed, (width, height),
                                               args.out, suffix):
                            print(path)
                        continue
                    made = _post(base + "/api/tables", {
                        "game": game, "players": len(seats), "options": options, "seed": seed,
                        "seats": [{"kind": "human"} if k == "human" else {"kind": "bot", "level": k} for k in seats]})
                    page = browser.new_page(viewport={"width": width, "height": height}, is_mobile=phone,
                                            has_touch=phone)
                    page.goto(f"{base}/tables/{made['table_id']}?token={made['seats'][0]['token']}&pace=0")
                    rng = random.Random(seed)
                    moves = 0
                    while moves < args.moves:
                        page.wait_for_function(
                            "() => document.querySelector('#board [data-action], #actionbar [data-action]')"
                            " || !document.querySelector('#final').hidden", timeout=30_000)
                        if page.evaluate("() => !document.querySelector('#final').hidden"):
                            break
                        # a push may draw the next decision before the answer to the last click is in:
                        # the page takes no click until then
                        page.wait_for_function("() => !document.body.dataset.busy")
                        acts = page.locator("#board [data-action], #actionbar [data-action]")
                        if acts.count() == 0:  # a bot's or the next version's turn on screen: wait for ours
                            page.wait_for_timeout(100)
                            continue
                        before = page.locator("[data-version]").first.get_attribute("data-version")
                        acts.nth(rng.randrange(acts.count())).click()
                        page.wait_for_function(
                            f"() => document.querySelector('[data-version]').dataset.version !== '{before}'")
                        moves += 1
                    page.wait_for_function("() => document.querySelector('#board [data-action], "
                                           "#actionbar [data-action]')", timeout=30_000)
                    page.mouse.move(0, 0)
                    page.wait_for_timeout(1600)  # let the new-line highlight of the log fade
                    suffix = "" if args.size == "1366x768" else f"-{width}x{height}"
                    path = args.out / f"table-{game}{suffix}.png"
                    page.screenshot(path=str(path))
                    print(f"{path}  ({moves} moves)")
                    page.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
