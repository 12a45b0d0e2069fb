"""A round robin between bots and agents at two seats, with 95% intervals and ratings.

Entrants are dicetable bots (a level: ``"greedy"``, ``"hard"``...) or policies (anything an
:class:`~dicetable.agent.Agent` takes: ``policy(decision) -> catalogue index``). Every pair of
entrants plays ``games`` games of one title, seats alternating, game ``i`` of a pair seeded
``series_seed(seed, i)`` (``seed * 1_000_003 + i``, modulo 2**64: the ladder's scheme,
:func:`dicetable.simulate.make_jobs`).

Two ways to play, one result:

* locally (no ``server``): in this process on the engine; a policy sees exactly the
  :class:`Decision` it would get at a table (the same encoding of ``observation(seat)``);
* through the protocol (``server`` = a dicetable server's URL): each game is a server table,
  bots in bot seats and each policy an :class:`Agent` over HTTP and the live WebSocket.

The result (:func:`round_robin`) gives per entrant its win rate with the 95% Wilson interval and
its mean score with a 95% interval (as the ladder reports them, :mod:`dicetable.ladder`),
per pair the first entrant's win rate with its interval, and Bradley-Terry ratings on the Elo
scale (see :func:`ratings`).
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import math
from dataclasses import dataclass
from typing import Any, Callable

from dicetable.bots import BOT_NAMES, make_bot
from dicetable.ladder import pct, run_jobs
from dicetable.engine import Action, GameConfigError, GameState, new_game, series_seed
from dicetable.simulate import Job, interval_text, mean_interval, seat_rotation, summarize, wilson

from .client import Agent, AgentError, AgentTimeout, Decision, Encoder, modules, run_sync

PLAYERS = 2


@dataclass(frozen=True)
class Entrant:
    """One entrant: ``name`` (shown in the results, unique), and either ``bot`` (a dicetable bot
    level) or ``policy`` (a function of a :class:`Decision` returning a catalogue index)."""

    name: str
    bot: str | None = None
    policy: Callable[[Decision], int] | None = None

    def __post_init__(self) -> None:
        if (self.bot is None) == (self.policy is None):
            raise GameConfigError(f"entrant {self.name!r} needs either a bot level or a policy, not both or neither")
        if self.bot is not None and self.bot not in BOT_NAMES:
            raise GameConfigError(f"entrant {self.name!r}: unknown bot {self.bot!r}; bots: {', '.join(BOT_NAMES)}")


class PolicyBot:
    """A policy in a local game: a :class:`dicetable.bots.Bot` that hands the policy the Decision an
    agent would get at a table (from ``observation(seat)`` and the legal actions only)."""

    def __init__(self, name: str, policy: Callable[[Decision], int], encoder: Encoder) -> None:
        self.name = name
        self.policy = policy
        self.encoder = encoder

    def choose(self, state: GameState, seat: int) -> Action:
        """The policy's action; AgentError (as a remote :class:`Agent` gives) when the policy answers no
        catalogue index, ValueError naming the action when it picks one that is not legal now."""
        legal = state.legal_actions(seat)
        view = {"observation": state.observation(seat), "legal_actions": [a.to_json() for a in legal],
                "seat": seat, "version": 0}
        decision = self.encoder.decision(view)
        chosen = decision.catalogue[decision.check_choice(self.policy(decision), f"policy {self.name!r}")]
        for action in legal:
            if action.id == chosen:
                return action
        raise ValueError(f"policy {self.name!r} chose {chosen!r}, which is not legal now")


def _play_local(job: Job, entrants: dict[str, Entrant], encoder: Encoder) -> dict:
    """One local game of ``job`` (its ``seats`` are entrant names); a record as ``run_game`` gives
    (its bots built with ``job.clock``)."""
    state = new_game(job.game, job.players, seed=job.seed, options=job.options)
    seats = []
    for s, name in enumerate(job.seats):
        e = entrants[name]
        seats.append(make_bot(e.bot, seed=job.seed * 31 + s, clock=job.clock) if e.bot is not None
                     else PolicyBot(name, e.policy, encoder))  # type: ignore[arg-type]
    steps = 0
    while not state.is_over:
        seat = state.to_move[0]
        state.apply(seats[seat].choose(state, seat), seat)
        steps += 1
    return {"game": job.game, "index": job.index, "seed": job.seed, "players": job.players,
            "bots": list(job.seats), "scores": list(state.scores), "winners": list(state.winners), "steps": steps,
            "clock": job.clock}


async def _play_remote(job: Job, entrants: dict[str, Entrant], server: str, idle: float) -> dict:
    """One game of ``job`` at a table of ``server``: bot entrants in bot seats, policies as agents."""
    httpx = modules()[0]
    seats = [{"kind": "bot", "level": entrants[n].bot} if entrants[n].bot else {"kind": "human"}
             for n in job.seats]
    async with httpx.AsyncClient() as http:
        waited = 0.0
        while True:
            try:
                made = await http.post(server + "/api/tables", json={"game": job.game, "players": job.players,
                                                                     "options": job.options, "seed": job.seed,
                                                                     "seats": seats}, timeout=30)
            except httpx.HTTPError as exc:  # httpx's own words ("All connection attempts failed") name no server
                raise AgentError(f"cannot reach the server {server}: {exc}") from None
            # A server limits the tables one address makes a minute (429 with Retry-After): a round robin of
            # more games than that waits as the server asks, for at most ``idle`` seconds in all.
            after = _retry_after(made) if made.status_code == 429 else None
            if after is None or waited + after > idle:
                break
            await asyncio.sleep(after)
            waited += after
        if made.status_code != 201:
            raise GameConfigError(f"the server refused the table (game {job.index} of the round robin, seed "
                                  f"{job.seed}): HTTP {made.status_code}: {made.text[:300]}")
        table = made.json()
        agents = [Agent(server, table["table_id"], entrants[name].policy, token=table["seats"][s]["token"],  # type: ignore[arg-type]
                        options=job.options, idle=idle)
                  for s, name in enumerate(job.seats) if entrants[name].policy is not None]
        await asyncio.gather(*(a.run() for a in agents))
        # A pair of bots has no agent to wait for, and an agent returns once its own view is over:
        # either way the record is asked for only when the table says it is over (403 before that).
        await _wait_over(http, server, table["table_id"], idle)
        record = _answer(await http.get(f"{server}/api/tables/{table['table_id']}/record", timeout=30),
                         f"the record of table {table['table_id']}")
    return {"game": job.game, "index": job.index, "seed": job.seed, "players": job.players,
            "bots": list(job.seats), "scores": record["scores"], "winners": record["winners"],
            "steps": len(record["actions"]), "table_id": table["table_id"], "clock": True}


def _retry_after(resp: Any) -> float | None:
    """The seconds of an answer's ``Retry-After`` header (at least 0.1), None without a number there."""
    try:
        return max(0.1, float(resp.headers.get("Retry-After", "")))
    except ValueError:
        return None


def _answer(resp: Any, what: str) -> dict:
    """The JSON of a 200 answer; AgentError naming ``what`` with the status and the server's words
    (its ``detail``) for any other answer, never a KeyError on an error's body."""
    try:
        data = resp.json()
    except ValueError:
        data = None
    if resp.status_code != 200 or not isinstance(data, dict):
        detail = data.get("detail", data) if isinstance(data, dict) else resp.text[:300]
        raise AgentError(f"{what}: the server answered HTTP {resp.status_code}: {detail}")
    return data


async def _wait_over(http: Any, server: str, table_id: str, idle: float, poll: float = 0.2) -> None:
    """Return once table ``table_id`` is over, asking its spectator view (``GET /api/tables/{id}``)
    every ``poll`` seconds. AgentTimeout naming the table when its version has not moved for ``idle``
    seconds (the bots stopped, or a seat waits for someone); AgentError for a refused view."""
    loop = asyncio.get_running_loop()
    version: Any = None
    since = loop.time()
    while True:
        view = _answer(await http.get(f"{server}/api/tables/{table_id}", timeout=30), f"the view of table {table_id}")
        if view.get("over"):
            return
        if view.get("version") != version:
            version, since = view.get("version"), loop.time()
        elif loop.time() - since > idle:
            raise AgentTimeout(f"table {table_id} did not move for {idle} s (still at version {version}, "
                               "not over): its seats stopped playing")
        await asyncio.sleep(poll)


def ratings(records: list[dict], names: list[str], prior: float = 1.0, rounds: int = 200) -> dict[str, float]:
    """Bradley-Terry ratings of two-seat games on the Elo scale (mean 1500; 400 points = 10 to 1 odds).

    Each game is a win for its winner (a shared win half a win each); ``prior`` adds that many
    drawn games between every two entrants, so an entrant that never lost still has a finite
    rating. Fitted by the usual minorisation-maximisation steps (``rounds`` of them).
    """
    wins = {n: 0.0 for n in names}
    games: dict[tuple[str, str], float] = {}
    for a, b in itertools.combinations(names, 2):
        games[(a, b)] = prior
        wins[a] += prior / 2
        wins[b] += prior / 2
    for rec in records:
        a, b = rec["bots"]
        key = (a, b) if (a, b) in games else (b, a)
        games[key] = games.get(key, 0.0) + 1
        for seat in rec["winners"]:
            wins[rec["bots"][seat]] += 1.0 / len(rec["winners"])
    strength = {n: 1.0 for n in names}
    for _ in range(rounds):
        new = {}
        for n in names:
            denom = sum(count / (strength[a] + strength[b]) for (a, b), count in games.items() if n in (a, b))
            new[n] = wins[n] / denom if denom else strength[n]
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        strength = {n: v / math.exp(mean_log) for n, v in new.items()}
    return {n: 1500 + 400 * math.log10(strength[n]) for n in names}


def round_robin(game: str, entrants: list[Entrant], games: int, seed: int = 2026,
                options: dict[str, Any] | None = None, server: str | None = None,
                idle: float = 120.0, clock: bool = True) -> dict:
    """Play every pair of ``entrants`` ``games`` times at two seats; the results.

    ``{"game", "games", "seed", "clock", "entrants": [{"name", "seats", "wins", "win_rate", "win_ci",
    "mean_score", "score_ci", "rating"}] (best rating first), "pairs": [{"a", "b", "games",
    "a_wins", "a_win_rate", "a_win_ci"}], "records": [...]}``. ``clock=False`` (local only): the
    search bots play without their levels' wall-clock caps (``make_bot(..., clock=False)``), so the
    seed alone decides the games whatever the machine's load, and each search decision runs its
    whole iteration budget; each record's ``clock`` says which. GameConfigError for fewer than two
    entrants, repeated names, fewer than 1 game, a game that has no two-seat mode, or
    ``clock=False`` with a ``server`` (a server's bots always keep their caps).
    """
    names = [e.name for e in entrants]
    if len(entrants) < 2 or len(set(names)) != len(names):
        raise GameConfigError(f"a round robin needs two or more entrants with distinct names, got {names}")
    if games < 1:
        raise GameConfigError(f"each pair plays at least 1 game, got {games}")
    if not clock and server is not None:
        raise GameConfigError("clock=False is for a local round robin only: a server's bots always play "
                              "with their levels' wall-clock caps (play locally, or keep the clock)")
    new_game(game, PLAYERS, seed=seed, options=options)  # checks the game, two seats and the options
    by_name = {e.name: e for e in entrants}
    jobs: list[Job] = []
    for a, b in itertools.combinations(names, 2):
        for i in range(games):
            jobs.append(Job(game, PLAYERS, len(jobs), series_seed(seed, i), seat_rotation([a, b], PLAYERS, i),
                            dict(options or {}), clock))
    if server is None:
        encoder = Encoder(game, PLAYERS, options)
        records = run_jobs(jobs, 1, play=lambda job: _play_local(job, by_name, encoder))
    else:
        url = server.rstrip("/")
        records = [run_sync(functools.partial(_play_remote, job, by_name, url, idle)) for job in jobs]
    rated = ratings(records, names)
    rows = []
    for r in summarize(records):
        rows.append({"name": r["bot"], "seats": r["seats"], "wins": r["wins"], "win_rate": r["win_rate"],
                     "win_ci": r["win_ci"], "mean_score": r["mean_score"],
                     "score_ci": mean_interval(r["mean_score"], r["sd_score"], r["seats"]),
                     "rating": rated[r["bot"]]})
    rows.sort(key=lambda r: -r["rating"])
    pairs = []
    for a, b in itertools.combinations(names, 2):
        mine = [rec for rec in records if set(rec["bots"]) == {a, b}]
        a_wins = sum(1.0 / len(rec["winners"]) for rec in mine for s in rec["winners"] if rec["bots"][s] == a)
        pairs.append({"a": a, "b": b, "games": len(mine), "a_wins": a_wins, "a_win_rate": a_wins / len(mine),
                      "a_win_ci": wilson(a_wins, len(mine))})
    return {"game": game, "games": games, "seed": seed, "clock": clock, "entrants": rows, "pairs": pairs,
            "records": records}


def table(result: dict) -> str:
    """The result as a Markdown table: entrants by rating, win rate with its 95% interval, mean score."""
    lines = ["| entrant | rating | games | win rate (95% CI) | mean score (95% CI) |", "|---|---:|---:|---|---|"]
    for r in result["entrants"]:
        lo, hi = r["win_ci"]
        lines.append(f"| {r['name']} | {r['rating']:.0f} | {r['seats']} | {pct(r['win_rate'])} "
                     f"({pct(lo)}-{pct(hi)}) | {r['mean_score']:.1f} ({interval_text(r['score_ci'])}) |")
    return "\n".join(lines)
