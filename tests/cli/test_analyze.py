"""`dicetable simulate` records balance facts; `dicetable analyze` turns them into an HTML report."""

from __future__ import annotations

import json
import math
import re
import sys

import pytest
from typer.testing import CliRunner

from dicetable.cli.main import app
from dicetable.engine import get_game, new_game
from dicetable.engine.testing import shipped_games
from dicetable.bots import make_bot, play_out
from dicetable.games.corsairs_of_valeria.components import CAPTAINS
from dicetable.games.valeria_card_kingdoms.components import DUKE_NAME

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def records(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def textbook_wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval written out from its definition (test oracle)."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = (z / (1 + z * z / n)) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def table_row(html: str, label: str) -> list[str]:
    """Cells of the first report table row whose first cell is ``label``."""
    m = re.search(r"<tr><td>" + re.escape(label) + r"</td>((?:<td>[^<]*</td>)+)</tr>", html)
    assert m, f"no table row {label!r}"
    return re.findall(r"<td>([^<]*)</td>", m.group(1))


def rows_of_section(html: str, heading: str) -> str:
    start = html.index(f"<h3>{heading}</h3>")
    nxt = html.find("<h3>", start + 1)
    return html[start:nxt if nxt > 0 else len(html)]


def assert_self_contained(html: str) -> None:
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert "<script" not in html.lower() and "<link" not in html.lower()
    assert "@import" not in html and "url(" not in html


@pytest.fixture(scope="module")
def corsairs(tmp_path_factory):
    """A small Corsairs run (random bots, 3 seats) and its report."""
    tmp = tmp_path_factory.mktemp("corsairs")
    jsonl, html = tmp / "r.jsonl", tmp / "report.html"
    result = run("simulate", "corsairs-of-valeria", "-n", 12, "--bots", "random,random,greedy",
                 "--seed", 5, "--workers", 1, "--jsonl", jsonl)
    assert result.exit_code == 0, result.output
    result = run("analyze", jsonl, "-o", html)
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output
    return records(jsonl), html.read_text()


def test_simulate_records_captains_and_tracks_from_the_end_of_the_game(corsairs):
    recs, _ = corsairs
    ids = {c.id for c in CAPTAINS}
    assert len(recs) == 12
    for rec in recs:
        captains = rec["facts"]["captain"]
        # rulebook (Captains): each player is dealt one Captain card; no two alike
        assert len(captains) == 3 and set(captains) <= ids and len(set(captains)) == 3
        tracks = rec["facts"]["tracks"].split(",")
        # rulebook (Setup): three of the four Tracks, each on side A or B
        assert len(tracks) == 3 and len({t[:2] for t in tracks}) == 3
        assert all(re.fullmatch(r"T[1-4][AB]", t) for t in tracks)
        left_out = {"T1", "T2", "T3", "T4"} - {t[:2] for t in tracks}
        assert [rec["facts"]["track_left_out"]] == sorted(left_out)
        for key in ("game", "index", "seed", "players", "options", "bots", "scores", "winners", "steps"):
            assert key in rec  # the older fields stay


def test_report_has_a_plot_per_section_and_is_self_contained(corsairs):
    _, html = corsairs
    assert_self_contained(html)
    for heading in ("Win rate by seat position", "Win rate by bot", "Score distributions", "Game length",
                    "Balance: win rate by captain"):
        section = rows_of_section(html, heading)
        assert re.search(r'<img src="data:image/png;base64,[A-Za-z0-9+/=]{500,}"', section), heading
    # the tracks differ between games: table facts, shown as score boxes per value
    assert "Balance: scores by tracks" in html and "Balance: scores by track left out" in html


def test_report_win_rates_match_the_jsonl(corsairs):
    recs, html = corsairs
    n = len(recs)
    seat_section = rows_of_section(html, "Win rate by seat position")
    for seat in range(3):
        wins = sum(1 / len(r["winners"]) for r in recs if seat in r["winners"])
        lo, hi = textbook_wilson(wins, n)
        cells = table_row(seat_section, f"Player {seat + 1}")
        assert cells[0] == str(n) and cells[2] == f"{wins / n:.1%}"
        assert cells[3] == f"{lo:.1%} - {hi:.1%}"
    bot_section = rows_of_section(html, "Win rate by bot")
    for bot in ("greedy", "random"):
        seats = [(r, s) for r in recs for s, b in enumerate(r["bots"]) if b == bot]
        wins = sum(1 / len(r["winners"]) for r, s in seats if s in r["winners"])
        cells = table_row(bot_section, bot)
        assert cells[0] == str(len(seats)) and cells[2] == f"{wins / len(seats):.1%}"
    captain_section = rows_of_section(html, "Balance: win rate by captain")
    for cap in {c for r in recs for c in r["facts"]["captain"]}:
        held = [(r, r["facts"]["captain"].index(cap)) for r in recs if cap in r["facts"]["captain"]]
        wins = sum(1 / len(r["winners"]) for r, s in held if s in r["winners"])
        cells = table_row(captain_section, cap)
        assert cells[0] == str(len(held)) and cells[2] == f"{wins / len(held):.1%}"


def test_solo_cat_levels_from_two_files_make_one_view(tmp_path):
    files = []
    for level in (1, 6):
        path = tmp_path / f"cat{level}.jsonl"
        result = run("simulate", "kingdom-of-dice", "-n", 8, "--bots", "greedy", "--seed", level,
                     "--workers", 1, "-o", f"cat_level={level}", "--jsonl", path)
        assert result.exit_code == 0, result.output
        files.append(path)
    result = run("analyze", *files)
    assert result.exit_code == 0, result.output
    html = (tmp_path / "cat1.html").read_text()  # default name: the first file's, as .html
    assert_self_contained(html)
    section = rows_of_section(html, "Balance: result by cat level")
    assert "data:image/png;base64," in section
    for level, path in zip((1, 6), files):
        recs = records(path)
        assert all(r["facts"] == {"cat_level": level} for r in recs)
        wins = sum(1 for r in recs if r["winners"] == [0])
        assert table_row(section, str(level))[2] == f"{wins / len(recs):.1%}"


@pytest.mark.parametrize("game,players,options,expected", [
    ("corsairs-of-valeria", 2, {"captains": "hook,bones"}, {"captain": ["hook", "bones"]}),
    ("corsairs-of-valeria", 2, {"captains": "none", "tracks": "T1A,T3B,T2A"},
     {"captain": ["none", "none"], "tracks": "T1A,T3B,T2A"}),
    ("valeria-card-kingdoms", 3, {"setup": "monster-blood"}, {"setup": "monster-blood"}),
    ("dice-kingdoms-of-valeria", 2, {"sheets": "winter"}, {"sheets": "winter"}),
    ("kingdom-of-dice", 1, {"cat_level": 4}, {"cat_level": 4}),
    ("kingdom-of-dice", 3, {}, {}),
    ("biblios-dice", 3, {}, {}),
])
def test_balance_facts_follow_the_options(game, players, options, expected):
    from dicetable.simulate import balance_facts

    state = new_game(game, players, seed=3, options=options)
    play_out(state, [make_bot("random", seed=s) for s in range(players)])
    facts = balance_facts(state)
    assert {k: facts[k] for k in expected} == expected
    if not expected:
        assert facts == {}


def test_card_kingdoms_facts_reveal_each_dukes_and_turn_order():
    from dicetable.simulate import balance_facts

    state = new_game("valeria-card-kingdoms", 4, seed=9, options={"setup": "random"})
    play_out(state, [make_bot("random", seed=s) for s in range(4)])
    facts = balance_facts(state)
    obs = state.observation(None)
    # rulebook (Setup): each player keeps one Duke; different cards
    assert set(facts["duke"]) <= set(DUKE_NAME) and len(set(facts["duke"])) == 4
    # the first player is 1 in turn order, play goes on clockwise (seat order)
    assert sorted(facts["turn_order"]) == [1, 2, 3, 4]
    assert facts["turn_order"][obs["first_player"]] == 1
    assert facts["setup"].startswith("random: ")


def test_dice_kingdoms_facts_list_the_statues_drafted():
    from dicetable.simulate import balance_facts

    state = new_game("dice-kingdoms-of-valeria", 3, seed=4)
    play_out(state, [make_bot("random", seed=s) for s in range(3)])
    facts = balance_facts(state)
    drafted = [x for seat in facts["statues"] for x in seat]
    # rulebook (Statue Cards): 14 different Statues, each card drafted by one player at most
    assert all(1 <= x <= 14 for x in drafted) and len(drafted) == len(set(drafted))
    assert facts["statue_count"] == [len(s) for s in facts["statues"]]
    assert facts["sheets"] == "summer"


def test_every_game_declares_balance_facts_that_fit_the_seats():
    shipped = shipped_games()
    assert shipped  # other tests register toy games in this process: not ours to check
    for spec in shipped:
        assert spec.balance_facts is not None, spec.id
        for players in {spec.min_players, spec.max_players}:
            state = new_game(spec.id, players, seed=1)
            play_out(state, [make_bot("random", seed=s) for s in range(players)])
            facts = spec.balance_facts(state.observation(None))
            json.dumps(facts)
            for value in facts.values():
                if isinstance(value, list):
                    assert len(value) == players, spec.id


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def _write_bytes(path, data):
    path.write_bytes(data)
    return path


GOOD = {"game": "kingdom-of-dice", "players": 2, "bots": ["a", "b"], "scores": [3, 4], "winners": [1],
        "steps": 10}


@pytest.mark.parametrize("make,message", [
    (lambda d: d / "missing.jsonl", "does not exist"),
    (lambda d: d, "is a folder"),
    (lambda d: _write(d / "empty.jsonl", "\n\n"), "holds no games"),
    (lambda d: _write(d / "bad.jsonl", json.dumps(GOOD) + "\n{not json\n"), "line 2 is not JSON"),
    (lambda d: _write(d / "list.jsonl", "[1, 2]\n"), "expected a JSON object"),
    (lambda d: _write(d / "short.jsonl", json.dumps({"game": "x", "players": 2}) + "\n"),
     "missing bots, scores, winners, steps"),
    (lambda d: _write(d / "seats.jsonl", json.dumps({**GOOD, "scores": [1]}) + "\n"),
     "'scores' must list one entry per seat (2)"),
    (lambda d: _write(d / "win.jsonl", json.dumps({**GOOD, "winners": [5]}) + "\n"),
     "'winners' must list seats 0..1"),
    (lambda d: _write(d / "fact.jsonl", json.dumps({**GOOD, "facts": {"duke": ["x"]}}) + "\n"),
     "seat fact 'duke' must list one entry per seat"),
    (lambda d: _write_bytes(d / "bin.jsonl", b"\xff\xfe\x00"), "not a text file"),
])
def test_bad_results_files_get_clear_errors(tmp_path, make, message):
    path = make(tmp_path)
    result = run("analyze", path, "-o", tmp_path / "out.html")
    assert result.exit_code == 2
    assert "error:" in result.output and message in " ".join(result.output.split())
    assert "Traceback" not in result.output
    assert not (tmp_path / "out.html").exists()


def test_bad_output_names_are_refused(tmp_path):
    good = _write(tmp_path / "r.jsonl", json.dumps(GOOD) + "\n")
    named_html = _write(tmp_path / "r.html", json.dumps(GOOD) + "\n")
    for results, out, message in ((good, tmp_path / "r.txt", "must end in .html"),
                                  (good, tmp_path, "must end in .html"),
                                  (named_html, named_html, "is one of the results files")):
        result = run("analyze", results, "-o", out)
        assert result.exit_code == 2 and message in " ".join(result.output.split())
    assert named_html.read_text() == json.dumps(GOOD) + "\n"  # the results file is untouched


def test_missing_matplotlib_says_how_to_install(tmp_path, monkeypatch):
    good = _write(tmp_path / "r.jsonl", json.dumps(GOOD) + "\n")
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    result = run("analyze", good)
    assert result.exit_code == 2
    assert "needs matplotlib" in result.output and "dicetable[report]" in result.output
    assert "Traceback" not in result.output and result.output.startswith("error: ")
    assert not (tmp_path / "r.html").exists()


def test_records_without_facts_still_report(tmp_path):
    """A JSONL from before balance facts: the common plots, and a note to re-run simulate."""
    lines = [{**GOOD, "winners": [i % 2], "steps": 10 + i} for i in range(6)]
    path = _write(tmp_path / "old.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    result = run("analyze", path)
    assert result.exit_code == 0, result.output
    html = (tmp_path / "old.html").read_text()
    assert html.count('<img src="data:image/png;base64,') == 4
    assert "none recorded" in html
    cells = table_row(rows_of_section(html, "Win rate by seat position"), "Player 1")
    assert cells[2] == "50.0%"


def test_the_report_extra_is_not_in_the_plain_install():
    """`make run` installs the package without extras: matplotlib must stay optional."""
    import tomllib
    from pathlib import Path

    meta = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert not any(d.startswith("matplotlib") for d in meta["project"]["dependencies"])
    extras = meta["project"]["optional-dependencies"]
    assert any(d.startswith("matplotlib>=3.8") for d in extras["report"])
    assert set(extras["report"]) <= set(extras["dev"])
    assert get_game("corsairs-of-valeria").balance_facts is not None


def test_fact_rates_count_each_listed_value_and_split_shared_wins():
    from dicetable.report import fact_rates, seat_facts, table_facts

    recs = [
        {**GOOD, "winners": [0], "facts": {"statues": [[2, 11], [5]], "sheets": "summer"}},
        {**GOOD, "winners": [0, 1], "facts": {"statues": [[5], [2]], "sheets": "winter"}},
        {**GOOD, "winners": [1], "facts": {"statues": [[11], []], "sheets": "summer"}},
    ]
    assert seat_facts(recs) == ["statues"]
    assert table_facts(recs) == {"sheets": ["summer", "winter"]}
    rates = {r.label: (r.wins, r.n) for r in fact_rates(recs, "statues")}
    # Statue 2: won game 1 alone, shared game 2 -> 1.5 of 2; 5: lost game 1, shared game 2;
    # 11: won game 1, lost game 3
    assert rates == {"2": (1.5, 2), "5": (0.5, 2), "11": (1.0, 2)}
    assert [r.label for r in fact_rates(recs, "statues")] == ["2", "5", "11"]  # number order


@pytest.mark.parametrize("games", [1, 2, 7, 28, 94])  # 94: the lower end rounds above 0
def test_seats_that_always_or_never_win_still_plot(tmp_path, games):
    """0% and 100% win rates (interval end at the rate itself) make a report, not a crash."""
    lines = [{**GOOD, "winners": [1], "facts": {"statues": [[13], [3]]}} for _ in range(games)]
    path = _write(tmp_path / "edge.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    result = run("analyze", path)
    assert result.exit_code == 0, result.output
    html = (tmp_path / "edge.html").read_text()
    seat = rows_of_section(html, "Win rate by seat position")
    assert table_row(seat, "Player 1")[2] == "0.0%" and table_row(seat, "Player 2")[2] == "100.0%"
    statues = rows_of_section(html, "Balance: win rate by statues")
    assert table_row(statues, "13")[2] == "0.0%" and table_row(statues, "3")[2] == "100.0%"


def test_a_table_fact_with_many_values_is_named_not_plotted(tmp_path):
    lines = [{**GOOD, "facts": {"tracks": f"layout {i}", "sheets": ("summer", "winter")[i % 2]}}
             for i in range(13)]
    path = _write(tmp_path / "many.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    assert run("analyze", path).exit_code == 0
    html = (tmp_path / "many.html").read_text()
    assert "13 different values" in html and "scores by tracks" not in html
    assert "Balance: scores by sheets" in html and "Balance: game length by sheets" in html
