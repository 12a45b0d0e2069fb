"""Balance reports: the JSON lines of ``dicetable simulate`` as one self-contained HTML page.

``load_results(paths)`` reads and checks the records (one JSON object a line,
as written by :func:`dicetable.simulate.run_game`); ``build_report(records)``
returns the HTML: win rates by seat position and by bot with 95% Wilson
intervals, score distributions, game length, and one view per balance fact
the game declares (``GameSpec.balance_facts``: Captains, Dukes, Statues,
setups, Cat levels...). Plots are matplotlib figures (Agg backend) embedded as
base64 PNG, so the page needs no other file and no network.

matplotlib comes with the optional extra ``report`` (``pip install 'dicetable[report]'``);
:func:`build_report` raises :class:`~dicetable.extras.MissingExtra` without it.
"""

from __future__ import annotations

import base64
import io
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Iterable

from dicetable.engine import DicetableError
from dicetable.extras import require
from dicetable.simulate import summarize, wilson

if TYPE_CHECKING:
    from matplotlib.figure import Figure

class ReportInputError(DicetableError):
    """A results file is missing, empty, or not the JSON lines of ``dicetable simulate``."""


# ------------------------------------------------------------------ reading

_REQUIRED = ("game", "players", "bots", "scores", "winners", "steps")


def _check_record(rec: Any, where: str) -> dict[str, Any]:
    if not isinstance(rec, dict):
        raise ReportInputError(f"{where}: expected a JSON object (one game), got {type(rec).__name__}")
    missing = [k for k in _REQUIRED if k not in rec]
    if missing:
        raise ReportInputError(f"{where}: a game record needs {', '.join(_REQUIRED)}; "
                               f"missing {', '.join(missing)} (is this a `dicetable simulate --jsonl` file?)")
    n = rec["players"]
    if not isinstance(rec["game"], str):
        raise ReportInputError(f"{where}: 'game' must be a game id, got {rec['game']!r}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ReportInputError(f"{where}: 'players' must be a whole number of at least 1, got {n!r}")
    for key in ("bots", "scores"):
        if not isinstance(rec[key], list) or len(rec[key]) != n:
            raise ReportInputError(f"{where}: '{key}' must list one entry per seat ({n}), got {rec[key]!r}")
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in rec["scores"]):
        raise ReportInputError(f"{where}: 'scores' must be numbers, got {rec['scores']!r}")
    if not isinstance(rec["winners"], list) or not all(
            isinstance(w, int) and not isinstance(w, bool) and 0 <= w < n for w in rec["winners"]):
        raise ReportInputError(f"{where}: 'winners' must list seats 0..{n - 1}, got {rec['winners']!r}")
    if isinstance(rec["steps"], bool) or not isinstance(rec["steps"], int) or rec["steps"] < 0:
        raise ReportInputError(f"{where}: 'steps' must be a whole number, got {rec['steps']!r}")
    for key in ("options", "facts"):
        if key in rec and not isinstance(rec[key], dict):
            raise ReportInputError(f"{where}: '{key}' must be a JSON object, got {rec[key]!r}")
    for name, value in rec.get("facts", {}).items():
        if isinstance(value, list) and len(value) != n:
            raise ReportInputError(f"{where}: seat fact {name!r} must list one entry per seat ({n}), "
                                   f"got {value!r}")
    return rec


def load_results(paths: Iterable[Path]) -> list[dict]:
    """Every game record of the JSONL files ``paths``, in file and line order.

    Blank lines are skipped. Raises :class:`ReportInputError` naming the file
    (and line) for a missing or unreadable file, a folder, a file without any
    game, a line that is not JSON, or a record without the fields
    ``game, players, bots, scores, winners, steps`` (per-seat lists of
    ``players`` entries).
    """
    records: list[dict] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            raise ReportInputError(f"{path} is a folder; give the JSONL file written by "
                                   f"`dicetable simulate GAME --jsonl FILE`")
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ReportInputError(f"{path} does not exist; write one with "
                                   f"`dicetable simulate GAME --jsonl {path}`") from None
        except UnicodeDecodeError:
            raise ReportInputError(f"{path} is not a text file: expected JSON lines from "
                                   f"`dicetable simulate --jsonl`") from None
        except OSError as exc:
            raise ReportInputError(f"cannot read {path}: {exc.strerror or exc}") from None
        found = 0
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            where = f"{path} line {number}"
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ReportInputError(f"{where} is not JSON ({exc.msg}); each line must be one game "
                                       f"record from `dicetable simulate --jsonl`") from None
            records.append(_check_record(rec, where))
            found += 1
        if not found:
            raise ReportInputError(f"{path} holds no games (it is empty); run `dicetable simulate GAME "
                                   f"--jsonl {path}` first")
    return records


# ------------------------------------------------------------------ counting


@dataclass
class Rate:
    """A win rate: ``wins`` (shared wins split evenly) out of ``n`` seats, with its 95% Wilson interval."""

    label: str
    wins: float
    n: int
    lo: float = field(init=False)
    hi: float = field(init=False)

    def __post_init__(self) -> None:
        self.lo, self.hi = wilson(self.wins, self.n)

    @property
    def rate(self) -> float:
        """wins / n (0 when n is 0)."""
        return self.wins / self.n if self.n else 0.0


def win_share(rec: dict, seat: int) -> float:
    """The seat's share of the win: 1/k if it is one of k winners, else 0 (as ``summarize`` counts)."""
    winners = rec["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def seat_rates(records: list[dict]) -> list[Rate]:
    """Win rate of each seat position (Player 1, 2, ...) over ``records`` of one player count."""
    n = records[0]["players"]
    return [Rate(f"Player {s + 1}", sum(win_share(r, s) for r in records), len(records)) for s in range(n)]


def fact_rates(records: list[dict], name: str) -> list[Rate]:
    """Win rate per value of the seat fact ``name``; a seat whose entry is a list counts once for
    each value in it (e.g. each Statue it drafted). Numbered values (turn order, Statue numbers)
    come in number order, named ones (Captains, Dukes) by win rate, highest first."""
    wins: dict[str, float] = defaultdict(float)
    seats: dict[str, int] = defaultdict(int)
    for rec in records:
        values = rec.get("facts", {}).get(name)
        if not isinstance(values, list):
            continue
        for seat, value in enumerate(values):
            for v in (value if isinstance(value, list) else [value]):
                key = _label(v)
                seats[key] += 1
                wins[key] += win_share(rec, seat)
    rates = [Rate(k, wins[k], seats[k]) for k in seats]
    if all(_is_number(r.label) for r in rates):
        return sorted(rates, key=lambda r: float(r.label))
    return sorted(rates, key=lambda r: (-r.rate, r.label))


def _label(value: Any) -> str:
    return "none" if value is None else str(value)


def seat_facts(records: list[dict]) -> list[str]:
    """Names of the per-seat facts (list values) present in ``records``, in first-seen order."""
    names: dict[str, None] = {}
    for rec in records:
        for name, value in rec.get("facts", {}).items():
            if isinstance(value, list):
                names[name] = None
    return list(names)


def table_facts(records: list[dict]) -> dict[str, list[str]]:
    """Table-wide facts (plain fact values, and options) that take more than one value
    in ``records``: ``{name: sorted values}``. Options already given as a fact of the
    same name are not repeated."""
    values: dict[str, set] = defaultdict(set)
    for rec in records:
        facts = rec.get("facts", {})
        for name, value in facts.items():
            if not isinstance(value, list):
                values[name].add(_label(value))
        for name, value in rec.get("options", {}).items():
            if name not in facts:
                values[f"option {name}"].add(_label(value))
    return {k: sorted(v, key=_sort_key) for k, v in values.items() if len(v) > 1}


def _sort_key(text: str) -> tuple[int, float, str]:
    return (0, float(text), "") if _is_number(text) else (1, 0.0, text)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def table_value(rec: dict, name: str) -> str:
    """The record's value of a table fact named as in :func:`table_facts`."""
    if name.startswith("option "):
        return _label(rec.get("options", {}).get(name[len("option "):]))
    return _label(rec.get("facts", {}).get(name))


# ------------------------------------------------------------------ plotting


def _pyplot() -> ModuleType:
    """matplotlib's pyplot on the Agg backend; MissingExtra without the ``report`` extra."""
    matplotlib = require("matplotlib", "report", "the balance report")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Figure) -> str:
    """The figure as a ``data:image/png;base64,...`` URI (the figure is closed)."""
    import matplotlib.pyplot as plt
    from PIL import Image  # Pillow comes with matplotlib

    raw = io.BytesIO()
    fig.savefig(raw, format="png", dpi=88, bbox_inches="tight")
    plt.close(fig)
    raw.seek(0)
    # a plot has few colours: a 64-colour palette PNG is about a third of the size, and looks the same
    buf = io.BytesIO()
    Image.open(raw).convert("RGB").quantize(colors=64).save(buf, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def rate_plot(rates: list[Rate], title: str, expected: float | None, xlabel: str = "win rate") -> str:
    """Horizontal bars of win rates with 95% Wilson intervals and a dashed line at ``expected``."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 0.6 + 0.32 * max(len(rates), 2)))
    ys = list(range(len(rates)))[::-1]
    ax.barh(ys, [r.rate for r in rates], color="#4c78a8", height=0.6)
    ax.errorbar([r.rate for r in rates], ys,
                xerr=[[max(0.0, r.rate - r.lo) for r in rates],  # rounding can cross 0 at 0% and 100%
                      [max(0.0, r.hi - r.rate) for r in rates]],
                fmt="none", ecolor="black", capsize=3, linewidth=1)
    ax.set_yticks(ys, [f"{r.label} (n={r.n})" for r in rates])
    if expected is not None:  # named in the title: a legend would cover a bar
        ax.axvline(expected, color="#e45756", linestyle="--", linewidth=1)
        title += f" (dashed: equal chances, {expected:.1%})"
    ax.set_xlim(0, min(1.0, max([r.hi for r in rates] + [expected or 0]) * 1.15 + 0.02))
    ax.xaxis.set_major_formatter(lambda x, _: f"{x:.0%}")
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    return _png(fig)


def score_plot(groups: dict[str, list[float]], title: str, xlabel: str = "final score") -> str:
    """Box plots of ``groups`` (scores, or steps), one box per group (bot, seat, setup), mean as a dot."""
    plt = _pyplot()
    labels = list(groups)
    fig, ax = plt.subplots(figsize=(7.5, 0.8 + 0.4 * max(len(labels), 2)))
    data = [groups[k] for k in labels][::-1]
    import matplotlib

    # matplotlib 3.10 renamed vert=False to orientation="horizontal" (vert warns from 3.11)
    horizontal = ({"orientation": "horizontal"} if tuple(map(int, matplotlib.__version__.split(".")[:2])) >= (3, 10)
                  else {"vert": False})
    ax.boxplot(data, **horizontal, showmeans=True, widths=0.6,
               meanprops={"marker": "o", "markerfacecolor": "#e45756", "markeredgecolor": "#e45756",
                          "markersize": 4}, flierprops={"markersize": 2, "alpha": 0.4})
    ax.set_yticks(range(1, len(labels) + 1), [f"{k} (n={len(groups[k])})" for k in labels][::-1])
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    return _png(fig)


def histogram_plot(values: list[float], title: str, xlabel: str) -> str:
    """A histogram of ``values`` with the mean and median marked."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 2.8))
    lo, hi = min(values), max(values)
    bins = min(40, max(1, int(hi - lo) + 1)) if all(float(v).is_integer() for v in values) else 30
    ax.hist(values, bins=bins, color="#72b7b2", edgecolor="white")
    mean = sum(values) / len(values)
    median = sorted(values)[len(values) // 2]
    ax.axvline(mean, color="#e45756", linestyle="--", linewidth=1, label=f"mean {mean:.1f}")
    ax.axvline(median, color="black", linestyle=":", linewidth=1, label=f"median {median:g}")
    ax.legend(fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title, fontsize=10)
    return _png(fig)


# ------------------------------------------------------------------ the report


@dataclass
class Plot:
    """One figure of the report: a title, the image (data: URI) and how to read it."""

    title: str
    image: str
    text: str
    table: list[tuple] = field(default_factory=list)


@dataclass
class Section:
    """The plots of one game at one player count."""

    title: str
    facts: list[tuple]
    plots: list[Plot]


def _fmt_rate(r: Rate) -> tuple:
    wins = f"{r.wins:.0f}" if float(r.wins).is_integer() else f"{r.wins:.1f}"  # shared wins: 493.3
    return (r.label, r.n, wins, f"{r.rate:.1%}", f"{r.lo:.1%} - {r.hi:.1%}")


def _game_name(game_id: str) -> str:
    try:
        from dicetable.engine import get_game

        return get_game(game_id).name
    except DicetableError:
        return game_id


MAX_VALUES = 12  # a table fact with more values than this gets no plot of its own


def build_section(records: list[dict]) -> Section:
    """The plots of one group of records (one game, one player count)."""
    game, n = records[0]["game"], records[0]["players"]
    solo = n == 1
    expected = None if solo else 1.0 / n
    plots: list[Plot] = []
    fair = ("" if solo else f" With {n} seats and equal chances every bar would sit near "
            f"{1 / n:.1%} (the dashed line); a bar whose interval misses that line differs by more "
            f"than chance explains.")
    win_word = "beat the solo target" if solo else "won"
    shared = "" if solo else " A shared win counts 1/k for each of the k winners."

    rates = seat_rates(records)
    if not solo:  # one seat: the same numbers as the bot view below
        plots.append(Plot(
            "Win rate by seat position", rate_plot(rates, "win rate by seat position", expected),
            f"How often each seat {win_word}, whoever played it, with its 95% Wilson interval (the black "
            f"whisker: intervals built this way hold the true rate 19 times out of 20).{fair}{shared} Bots "
            f"rotate through the seats, so differences here come from the seat, not from the bots.",
            [_fmt_rate(r) for r in rates]))

    bot_rows = summarize(records)
    bot_rates = []
    for row in bot_rows:
        bot_rates.append(Rate(row["bot"], row["wins"], row["seats"]))
    plots.append(Plot(
        "Win rate by bot", rate_plot(bot_rates, "win rate by bot", expected),
        f"How often each bot {win_word}, over every seat it played, with 95% Wilson intervals (intervals "
        f"built this way hold the true rate 19 times out of 20); "
        f"the same numbers as the table `dicetable simulate` prints. Two bots whose intervals do "
        f"not overlap differ in strength beyond chance.{shared}",
        [_fmt_rate(r) for r in bot_rates]))

    by_bot: dict[str, list[float]] = {row["bot"]: [] for row in bot_rows}
    by_seat: dict[str, list[float]] = {f"Player {s + 1}": [] for s in range(n)}
    for rec in records:
        for s, (bot, score) in enumerate(zip(rec["bots"], rec["scores"])):
            by_bot[bot].append(score)
            by_seat[f"Player {s + 1}"].append(score)
    groups = {**{f"bot {k}": v for k, v in by_bot.items()}, **(by_seat if n > 1 else {})}
    plots.append(Plot(
        "Score distributions", score_plot(groups, "final scores by bot and by seat"),
        "Each box spans the middle half of the final scores (first to third quartile), the line in "
        "it is the median, the red dot the mean, and the whiskers reach the furthest score within "
        "1.5 box lengths; dots beyond are single games. Boxes per bot show how far apart the bots "
        "play; boxes per seat show whether a seat scores more, even where it does not win more."))

    steps = [rec["steps"] for rec in records]
    plots.append(Plot(
        "Game length", histogram_plot(steps, "game length", "steps (actions taken, all seats)"),
        "How many actions a game took from setup to the final scoring, all seats together (each "
        "choice a seat made is one step, choosing to roll included; how the dice land is not a step). A wide spread means games "
        "vary a lot in length; a long tail to the right shows rare drawn-out games."))

    for name in seat_facts(records):
        rates = fact_rates(records, name)
        listy = any(isinstance(v, list) for rec in records
                    for v in rec.get("facts", {}).get(name, []) or [])
        plots.append(Plot(
            f"Balance: win rate by {name.replace('_', ' ')}",
            rate_plot(rates, f"win rate by {name.replace('_', ' ')}", expected),
            f"Win rate of the seats by {name.replace('_', ' ')}, one bar per value, with 95% Wilson "
            f"intervals; n is how many seats had that value.{fair}"
            + (" A seat holding several values (e.g. several Statues) counts once under each, so "
               "these rates overlap and favour whatever comes with many others."
               if listy else "")
            + " A value far above the others is a candidate for being too strong; with few seats "
            "(small n) the interval is wide and the bar says little.",
            [_fmt_rate(r) for r in rates]))

    crowded = {}
    for name, values in table_facts(records).items():
        label = name.replace("_", " ")
        if len(values) > MAX_VALUES:  # e.g. every Corsairs race track: one box per value says nothing
            crowded[label] = len(values)
            continue
        if solo:
            rates = [Rate(v, sum(win_share(r, 0) for r in records if table_value(r, name) == v),
                          sum(1 for r in records if table_value(r, name) == v)) for v in values]
            plots.append(Plot(
                f"Balance: result by {label}", rate_plot(rates, f"solo win rate by {label}", None),
                f"How often the solo player won at each {label}, with 95% Wilson intervals. A "
                f"well-graded difficulty falls step by step from the easiest to the hardest.",
                [_fmt_rate(r) for r in rates]))
        groups = {v: [s for r in records if table_value(r, name) == v for s in r["scores"]]
                  for v in values}
        plots.append(Plot(
            f"Balance: scores by {label}", score_plot(groups, f"final scores by {label}"),
            f"Final scores of all seats, one box per {label} played (box: middle half; line: "
            f"median; red dot: mean). A {label} whose box sits higher gives more points to "
            f"everyone; that changes the feel of the game but not who wins."))
        lengths = {v: [r["steps"] for r in records if table_value(r, name) == v] for v in values}
        plots.append(Plot(
            f"Balance: game length by {label}",
            score_plot(lengths, f"game length by {label}", xlabel="steps (actions taken, all seats)"),
            f"Steps per game, one box per {label} played (box: middle half; line: median; red dot: "
            f"mean). A {label} whose box sits to the right makes longer games."))

    facts = [("games", len(records)), ("seats", n),
             ("bots (seat 1 first)", ", ".join(records[0]["bots"]) + " (rotated a seat each game)")]
    options = {k: {_label(r.get("options", {}).get(k)) for r in records}
               for r0 in records[:1] for k in r0.get("options", {})}
    for k, vs in sorted(options.items()):
        facts.append((f"option {k}", ", ".join(sorted(vs, key=_sort_key))))
    facts.append(("mean steps per game", f"{sum(steps) / len(steps):.1f}"))
    for label, count in crowded.items():
        facts.append((label, f"{count} different values: too many to plot one by one (each game's "
                             f"value is in the JSON lines)"))
    if not any(rec.get("facts") for rec in records):
        facts.append(("balance facts", "none recorded (the game declares none at this player count, "
                                       "or the file predates them: rerun `dicetable simulate`)"))
    title = f"{_game_name(game)}: {n} player{'s' if n > 1 else ''} ({'solo' if solo else 'seats rotated'})"
    return Section(title, facts, plots)


def group_records(records: list[dict]) -> list[list[dict]]:
    """Records grouped by (game, player count), in order of first appearance."""
    groups: dict[tuple, list[dict]] = {}
    for rec in records:
        groups.setdefault((rec["game"], rec["players"]), []).append(rec)
    return list(groups.values())


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{{ title }}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 1rem auto; padding: 0 1rem;
       color: #222; line-height: 1.45; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.25rem; border-bottom: 1px solid #ccc; margin-top: 2.5rem; }
h3 { font-size: 1.05rem; margin-top: 1.8rem; }
table { border-collapse: collapse; font-size: 0.85rem; margin: 0.4rem 0; }
td, th { border: 1px solid #ddd; padding: 0.15rem 0.5rem; text-align: right; }
td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; display: block; }
p.read { margin: 0.3rem 0 0.6rem; } nav a { margin-right: 1rem; }
</style></head><body>
<h1>{{ title }}</h1>
<p>Made by <code>dicetable analyze</code> from {{ n_games }} games in {{ sources }}.
Win rates carry 95% Wilson score intervals; a shared win counts 1/k for each of k winners.
Games, seeds and bots are in the JSON lines; replay any game with its seed.</p>
{% if sections|length > 1 %}<nav>{% for s in sections %}<a href="#s{{ loop.index }}">{{ s.title }}</a>{% endfor %}</nav>{% endif %}
{% for s in sections %}
<section id="s{{ loop.index }}">
<h2>{{ s.title }}</h2>
<table>{% for k, v in s.facts %}<tr><th>{{ k }}</th><td>{{ v }}</td></tr>{% endfor %}</table>
{% for p in s.plots %}
<h3>{{ p.title }}</h3>
<img src="{{ p.image }}" alt="{{ p.title }}">
<p class="read">{{ p.text }}</p>
{% if p.table %}<table><tr><th></th><th>seats</th><th>wins</th><th>win rate</th><th>95% interval</th></tr>
{% for row in p.table %}<tr>{% for c in row %}<td>{{ c }}</td>{% endfor %}</tr>{% endfor %}</table>{% endif %}
{% endfor %}
</section>
{% endfor %}
</body></html>
"""


def build_report(records: list[dict], sources: str = "the results file", title: str | None = None) -> str:
    """The whole HTML page for ``records`` (one section per game and player count).

    ``sources`` names the input in the page's first paragraph. Raises
    :class:`~dicetable.extras.MissingExtra` without matplotlib (the ``report`` extra), and
    :class:`ReportInputError` if ``records`` is empty.
    """
    if not records:
        raise ReportInputError("no games to report on")
    _pyplot()
    import jinja2  # a base dependency (pyproject.toml), imported here to keep the module light

    sections = [build_section(group) for group in group_records(records)]
    if title is None:
        names = list(dict.fromkeys(_game_name(r["game"]) for r in records))
        title = "Balance report: " + ", ".join(names)
    env = jinja2.Environment(autoescape=True)
    return env.from_string(PAGE).render(title=title, sections=sections, n_games=len(records),
                                        sources=sources)


__all__ = ["Rate", "ReportInputError", "build_report",
           "build_section", "fact_rates", "group_records", "load_results", "seat_facts", "seat_rates",
           "table_facts", "win_share"]

