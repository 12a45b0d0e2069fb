"""The load benchmark's table mix and its figures: plain Python, shared by ``run.py`` and the locustfile.

Nothing here imports locust or gevent, so the runner stays a plain process
(locust's monkey-patching lives only in the locust process it starts).
"""

from __future__ import annotations

import math
from typing import Sequence

#: The five titles (``GET /api/games``), dealt to the tables in turn.
GAMES = ("kingdom-of-dice", "corsairs-of-valeria", "biblios-dice", "dice-kingdoms-of-valeria",
         "valeria-card-kingdoms")

#: Think time of a seat between seeing its decision and posting, in seconds, per profile.
THINK = {"evening": 1.0, "saturation": 0.0}

#: The bot level of the bot seats (in-process, cheap: the benchmark measures the server, not a search).
BOT = "greedy"


def mix(tables: int) -> list[dict]:
    """The set-up of ``tables`` tables: ``[{"game", "players", "seats"}]``, ``seats`` a list of
    ``"human"`` or a bot level, one entry per seat.

    Titles go round the five in turn and player counts round 2, 3, 4 (every
    title takes 2 to 4), so 15 tables hold every pair; the odd-numbered tables
    with three or more players have a greedy bot in their last seat, so most
    seats are human and every table has at least two human seats. ``ValueError`` when ``tables`` is below 1.
    """
    if tables < 1:
        raise ValueError(f"the load needs at least 1 table, got {tables}")
    out = []
    for n in range(tables):
        players = 2 + n % 3
        seats = ["human"] * players
        if players >= 3 and n % 2 == 1:
            seats[-1] = BOT
        out.append({"game": GAMES[n % len(GAMES)], "players": players, "seats": seats})
    return out


def seat_users(tables: Sequence[dict]) -> list[tuple[int, int]]:
    """``(table slot, seat)`` of every human seat of the mix: one locust user each, in spawn order."""
    return [(n, seat) for n, t in enumerate(tables) for seat, kind in enumerate(t["seats"]) if kind == "human"]


def percentile(values: Sequence[float], p: float) -> float | None:
    """The ``p`` percentile (0-100, nearest rank) of ``values``; None when there are none."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def push_delays(pushed: Sequence[Sequence], stamped: dict[tuple[str, int], float]) -> tuple[list[float], int]:
    """The push delay of each client action in ms, and how many of them had a server stamp.

    ``pushed`` rows are ``[table id, version, answered, first, last]`` (the
    POST's answer, the first and the last subscriber holding that version;
    seconds since the epoch); ``stamped`` maps ``(table id, version)`` to
    when the server stamped that action's row (just before its commit). The
    delay runs from the stamp to the last subscriber; without a stamp, from the
    answer or the first push, whichever came first.
    """
    delays = []
    found = 0
    for table_id, version, answered, first, last in pushed:
        accepted = stamped.get((table_id, version))
        if accepted is None:
            accepted = min(answered, first)
        else:
            found += 1
        delays.append(1000 * (last - accepted))
    return delays, found


def figures(raw: dict, tables: int) -> dict:
    """The benchmark's figures from the locust process's raw record (see the locustfile's ``dump``).

    ``raw`` holds the window's length in seconds, the client actions accepted,
    the actions applied (a spectator's count of versions, bots included), the
    round trips and push delays (``push_delays``) in ms, how late the locust
    process woke a sleeping greenlet (``client_lag_ms``, optional), the server's and the
    locust process's CPU seconds over the window, and the server's resident
    memory in KiB when it first answered and after the run (``rss_kib``).
    Memory per live table is how much that grew, divided by ``tables`` (the
    tables live at once).
    """
    window = raw["window_s"]
    rss_before_kib, rss_after_kib = raw["rss_kib"]
    applied = raw["applied_actions"]
    lag = raw.get("client_lag_ms", [])

    def ms(values: Sequence[float], p: float) -> float | None:
        value = percentile(values, p)
        return None if value is None else round(value, 1)

    return {
        "client_actions": raw["client_actions"],
        "applied_actions": applied,
        "actions_per_s": round(raw["client_actions"] / window, 1) if window > 0 else None,
        "applied_per_s": round(applied / window, 1) if window > 0 else None,
        "rtt_ms": {"p50": ms(raw["rtt_ms"], 50), "p95": ms(raw["rtt_ms"], 95), "p99": ms(raw["rtt_ms"], 99)},
        "push_ms": {"p50": ms(raw["push_ms"], 50), "p99": ms(raw["push_ms"], 99)},
        "client_lag_ms": {"p50": ms(lag, 50), "p99": ms(lag, 99)},
        "cpu_ms_per_action": round(1000 * raw["server_cpu_s"] / applied, 2) if applied else None,
        "server_cpu_share": round(raw["server_cpu_s"] / window, 2) if window > 0 else None,
        "client_cpu_share": round(raw["client_cpu_s"] / window, 2) if window > 0 else None,
        "kib_per_table": round((rss_after_kib - rss_before_kib) / tables, 1),
        "rss_kib": {"before": rss_before_kib, "after": rss_after_kib},
        "conflicts": raw["conflicts"],
        "resent": raw.get("resent", 0),
        "failures": len(raw["failures"]),
        "failure_samples": raw["failures"][:10],
        "missing_pushes": raw["missing_pushes"],
        "push_samples": len(raw["push_ms"]),
        "pushes": raw["pushes"],
        "tables_created": raw["tables_created"],
        "window_s": round(window, 2),
    }


def render(result: dict) -> str:
    """``result`` (a line of load.jsonl) as a small text table."""
    rows = [
        ("profile", f"{result['profile']} ({result['tables']} tables, think {result['think_s']} s, "
                    f"{result['workers']} process(es), {result['database']})"),
        ("window", f"{result['window_s']} s, {result['tables_created']} tables played"),
        ("client actions / s", f"{result['actions_per_s']} ({result['client_actions']} actions; "
                               f"{result['applied_per_s']} / s with the bots')"),
        ("round trip ms", "p50 {p50}  p95 {p95}  p99 {p99}".format(**result["rtt_ms"])),
        ("push delay ms", "p50 {p50}  p99 {p99}".format(**result["push_ms"])),
        ("client lag ms", "p50 {p50}  p99 {p99}  (how late locust ran a ready greenlet)".format(
            **result.get("client_lag_ms", {"p50": None, "p99": None}))),
        ("server CPU / action", f"{result['cpu_ms_per_action']} ms (server busy {result['server_cpu_share']} "
                                f"cores, locust {result['client_cpu_share']})"),
        ("memory / live table", f"{result['kib_per_table']} KiB"),
        ("conflicts (409)", f"{result['conflicts']} ({result['resent']} posts sent again on a new connection)"),
        ("failures", str(result["failures"])),
        ("missing pushes", str(result["missing_pushes"])),
    ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)
