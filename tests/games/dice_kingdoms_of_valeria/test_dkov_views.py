"""Dice Kingdoms of Valeria views: terminal fit, browser board contract, rules help coverage."""

from __future__ import annotations

import copy
import re
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

import dicetable.games.dice_kingdoms_of_valeria as dkov
from dicetable.engine import Rng, new_game
from dicetable.engine.help import load_help
from dicetable.engine.markup import as_parts, assemble, check_key
from dicetable.games.dice_kingdoms_of_valeria.board import board_view as board_parts
from dicetable.games.dice_kingdoms_of_valeria.components import EVENTS
from dicetable.games.dice_kingdoms_of_valeria.layout import LAYOUTS
from dicetable.games.dice_kingdoms_of_valeria.text import render, text_view

GAME = "dice-kingdoms-of-valeria"
RULES = Path(dkov.__file__).with_name("rules")  # the rules package, one module per phase
#: Every Decision kind the rules ask for (their ``prompt`` handlers); checked against the source below.
KINDS = {"action", "recruit", "road", "slay", "statue", "harvest-fallback", "guild-strike"}


def board_view(obs, actions, seat) -> str:
    """The whole board as the page shows it: the keyed parts assembled."""
    return assemble(as_parts(board_parts(obs, actions, seat)))


def sample_states(players: int, sheets: str, seed: int, every: int = 9):
    """States of one seeded random game: every ``every``-th decision, and the final one."""
    state = new_game(GAME, players, seed=seed, options={"sheets": sheets})
    rng = Rng(seed)
    out, n = [], 0
    while not state.is_over:
        seat = state.to_move[0]
        if n % every == 0:
            out.append(state.clone())
        acts = state.legal_actions(seat)
        state.apply(acts[rng.randbelow(len(acts))], seat)
        n += 1
    out.append(state)
    return out


def screen(obs, seat, width, focus=None) -> list[str]:
    console = Console(width=width, record=True, color_system=None, file=open("/dev/null", "w"))
    console.print(text_view(obs, seat, width=width, focus=focus))
    return console.export_text().splitlines()


def actions_of(state, seat):
    if seat is None or seat not in state.to_move:
        return []
    return [{"id": a.id, "label": a.label} for a in state.legal_actions(seat)]


# ---------------------------------------------------------------- rules help

def test_every_decision_kind_of_the_rules_is_explained_by_a_help_section():
    src = "\n".join(p.read_text(encoding="utf-8") for p in sorted(RULES.glob("*.py")))
    found = set(re.findall(r'Decision\(\s*task\[1\], "([a-z-]+)"', src))
    found |= set(re.findall(r'^\s+"choose-[a-z]+": \("([a-z-]+)",', src, re.M))
    assert found == KINDS
    help_ = dkov.SPEC.help
    for kind in KINDS:
        assert help_.for_decision(kind), f"no help section explains {kind!r}"
    # Each section names a rulebook section (or says it is reconstructed); titles are headings.
    for sec in help_.section:
        assert sec.source.startswith(("rulebook: ", "reconstructed: "))
        assert set(sec.decisions) <= KINDS, sec.id


def test_help_data_loads_with_unique_ids_and_covers_the_pieces():
    help_ = load_help("dicetable.games.dice_kingdoms_of_valeria")
    assert help_ == dkov.SPEC.help
    ids = [c.id for c in help_.component]
    assert len(ids) == len(set(ids))
    assert len({s.id for s in help_.section}) == len(help_.section)
    # The pieces a player meets: every Statue, every Solo Event, the Reward Pips, the dice.
    for n in range(1, 15):
        assert help_.component_info(f"Statue {n}") is not None, n
    for ev in EVENTS:
        assert help_.component_info(ev.name) is not None, ev.name
    for name in ("Recruit Reward Pip", "Gold Reward Pip", "Road Reward Pip", "Knight Reward Pip",
                 "Slay Reward Pip", "Plinth Reward Pip", "Star Pip", "Range Block", "Monster Lair",
                 "Domain", "Bridge", "Trailhead", "Guild Track", "Gold Chart", "Knights on the Wall",
                 "black dice", "Blue die", "Statue draft line", "trees", "ships"):
        assert help_.component_info(name) is not None, name


# ---------------------------------------------------------------- terminal

@pytest.mark.parametrize("sheets", ["summer", "winter"])
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_text_view_fits_120x26_and_80x12_for_every_viewer_and_focus(players, sheets):
    for state in sample_states(players, sheets, seed=players * 11 + len(sheets), every=29):
        for seat in [None, *range(players)]:
            obs = state.observation(seat)
            for focus in [None, *range(players)]:
                if seat is not None and focus is not None:
                    continue   # every focus (the spectator's view) and every seat's own view
                big = screen(obs, seat, 120, focus)
                small = screen(obs, seat, 80, focus)
                assert len(big) <= 26, (players, sheets, seat, focus, len(big))
                assert max(map(len, big)) <= 120
                assert len(small) <= 12, (players, sheets, seat, focus, len(small))
                assert max(map(len, small)) <= 80
                assert "…" not in "".join(big + small), "\n".join(big + small)   # nothing had to be cut
                shown = focus if focus is not None else (seat if seat is not None else None)
                if shown is not None:
                    total = obs["players"][shown]["score"]["total"]
                    assert f"= {total} VP" in "\n".join(big)   # the shown seat's Score Tally


def _maxed(obs: dict) -> dict:
    """A copy of ``obs`` with every sheet as full as the rules allow and every seat deciding: the widest table.

    Copied first: an observation's sheet views are shared (``rules.sheet_view``) and never to be changed."""
    obs = copy.deepcopy(obs)
    lay = LAYOUTS[obs["sheets"]]
    for pl in obs["players"]:
        for c in pl["citizens"].values():
            c["marked"] = 2
        pl["guild_tracks"] = dict.fromkeys(pl["guild_tracks"], 24)
        pl["gold"], pl["wall"] = lay.gold_len, lay.wall_len
        for lair in pl["lairs"].values():
            lair["blocks"] = {k: 9 for k in lair["blocks"]}
            lair["result"], lair["access"] = "low", True
        for rid, road in pl["roads"].items():
            road["marked"] = lay.road_len[lay.road_ids.index(rid)]
        pl["domains"] = list(lay.dom_ids)
        pl["statues"] = [10, 11, 12, 14]
        pl["plinths_to_draft"] = 1
        pl["score"] = {"stars": 40, "domains": 13, "lairs": 26, "statues": 58, "total": 137,
                       "statue_vp": {"10": 20, "11": 24, "12": 0, "14": 0}}
    obs["round"], obs["last_round"], obs["phase"] = 19, True, "harvest"
    obs["deciding"] = list(range(len(obs["players"])))
    obs["statue_line"] = ["10-day", "11-night", "13-day", "9-night", "8-day", "14-night"]
    obs["dice"] = {"black": [6, 6], "yellow": 6, "red": 6, "green": 6, "blue": 6}
    obs["my_tasks"] = ["Recruit Reward", "Road Reward", "Slay Reward", "Statue pick"]
    if "solo" in obs:
        obs["solo"].update(trees=20, ships=6, heavy_rain=True, drought=True, second_harvest=True,
                           events_drawn=["washed-out-bridge", "rival-hunters", "royal-stipend", "guild-strike",
                                         "road-crew", "heavy-rain"])
    return obs


@pytest.mark.parametrize("sheets", ["summer", "winter"])
@pytest.mark.parametrize("players", [1, 5])
def test_text_view_fits_the_widest_table_without_cutting(players, sheets):
    state = new_game(GAME, players, seed=1, options={"sheets": sheets})
    for seat in (None, 0):
        obs = _maxed(state.observation(seat))
        for width in (120, 80):
            lines = screen(obs, seat, width, focus=players - 1)
            assert len(lines) <= (26 if width == 120 else 12)
            assert max(map(len, lines)) <= width
            assert "…" not in "".join(lines), "\n".join(lines)


def test_text_view_focus_draws_that_seats_sheets_and_rejects_a_bad_seat():
    state = sample_states(3, "summer", 5)[-2]
    obs = state.observation(0)
    text = "\n".join(screen(obs, 0, 120, focus=2))
    assert "Player 3: Castle" in text and "Player 3: Forest" in text
    assert "Player 1 (you): Castle" not in text
    assert "\n".join(screen(obs, 0, 80, focus=2)).count("P3 1Ho") == 1
    for bad in (3, -1, True, "1"):
        with pytest.raises(ValueError, match="focus must be a seat 0..2"):
            text_view(obs, 0, focus=bad)
    # The old entry point draws the same table at 120 columns.
    console = Console(width=120, record=True, color_system=None, file=open("/dev/null", "w"))
    console.print(render(state, 0))
    assert console.export_text().splitlines() == screen(obs, 0, 120)


def test_text_view_narrower_than_80_still_keeps_its_width():
    state = sample_states(5, "winter", 3)[3]
    for width in (60, 72, 100, 119):
        lines = screen(state.observation(1), 1, width)
        assert len(lines) <= 12 and max(map(len, lines)) <= width


# ---------------------------------------------------------------- browser board

VOID = {"input", "br", "img", "meta", "link", "hr", "wbr", "source", "col", "area", "base", "embed", "track"}


class _Check(HTMLParser):
    """Collects tag balance problems and every data-action element's attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.actions: list[tuple[str, dict]] = []
        self.roots = 0

    def _seen(self, tag, attrs):
        a = dict(attrs)
        if "data-action" in a:
            self.actions.append((tag, a))
        if not self.stack:
            self.roots += 1

    def handle_starttag(self, tag, attrs):
        self._seen(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self._seen(tag, attrs)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
        else:
            self.stack.pop()


def check_html(html: str) -> _Check:
    c = _Check()
    c.feed(html)
    c.close()
    assert not c.errors, c.errors[:3]
    assert not c.stack, c.stack
    assert c.roots == 1 and html.startswith(f'<div class="board board-{GAME}')
    assert "<script" not in html
    return c


#: Decision kinds whose every action is a pip, a Range Block pip, a Road pip or a Statue card.
ON_BOARD = KINDS


@pytest.mark.parametrize("players,sheets", [(1, "summer"), (1, "winter"), (2, "winter"), (3, "summer"),
                                            (5, "winter")])
def test_board_places_every_action_on_its_piece_and_is_well_formed(players, sheets):
    kinds = set()
    for i, state in enumerate(sample_states(players, sheets, seed=players + 40, every=3 + 2 * players)):
        for seat in state.to_move:
            acts = actions_of(state, seat)
            html = board_view(state.observation(seat), acts, seat)
            c = check_html(html)
            legal = {a["id"] for a in acts}
            placed = [a["data-action"] for _, a in c.actions]
            assert set(placed) <= legal
            for tag, a in c.actions:   # focusable, with a name
                assert tag == "button" or (a.get("tabindex") == "0" and a.get("role") == "button")
                assert a.get("aria-label", "").strip()
            if acts:
                kind = state.decision(seat).kind
                kinds.add(kind)
                # Every action of these kinds is on the board; only "take no action" is not.
                assert kind in ON_BOARD
                assert set(placed) == legal - {"pass"}, (kind, legal - set(placed))
        spectator = board_view(state.observation(None), [], None)
        assert "data-action" not in spectator
        if i % 4 == 0:
            check_html(spectator)
    assert "action" in kinds


def test_board_is_deterministic_and_identical_for_states_the_seat_cannot_tell_apart():
    for players, sheets in ((1, "summer"), (3, "winter")):
        for state in sample_states(players, sheets, seed=9, every=23):
            for seat in [None, *range(players)]:
                obs = state.observation(seat)
                acts = actions_of(state, seat)
                html = board_view(obs, acts, seat)
                assert html == board_view(state.observation(seat), actions_of(state, seat), seat)
                for k in range(2):
                    other = state.determinize(seat if seat is not None else 0, k)
                    if other.observation(seat) == obs:
                        assert board_view(other.observation(seat), actions_of(other, seat), seat) == html
                        assert screen(other.observation(seat), seat, 120) == screen(obs, seat, 120)


def test_board_and_table_never_name_an_undrawn_solo_event():
    for sheets in ("summer", "winter"):
        for state in sample_states(1, sheets, seed=21, every=6):
            obs = state.observation(0)
            drawn = set(obs["solo"]["events_drawn"])
            html = board_view(obs, actions_of(state, 0), 0)
            text = "\n".join(screen(obs, 0, 120) + screen(obs, 0, 80))
            for ev in EVENTS:
                if ev.id not in drawn and ev.id not in ("drought", "heavy-rain"):
                    assert ev.name not in html and ev.name not in text, ev.name


@settings(max_examples=25, deadline=None)
@given(players=st.integers(1, 5), seed=st.integers(0, 10_000), cut=st.integers(0, 200),
       sheets=st.sampled_from(["summer", "winter"]))
def test_board_shows_each_seats_pips_as_the_observation_marks_them(players, seed, cut, sheets):
    state = new_game(GAME, players, seed=seed, options={"sheets": sheets})
    rng = Rng(seed)
    for _ in range(cut):
        if state.is_over:
            break
        seat = state.to_move[0]
        acts = state.legal_actions(seat)
        state.apply(acts[rng.randbelow(len(acts))], seat)
    obs = state.observation(None)
    html = board_view(obs, [], None)
    lay = LAYOUTS[sheets]
    # Every pip of every sheet is drawn once: Citizens, Guild Tracks, Gold Chart, Wall, lairs, Roads.
    per_sheet = 20 + 96 + lay.gold_len + lay.wall_len + sum(lay.block_len) + sum(lay.road_len)
    assert html.count('class="pip ') == players * per_sheet
    # ... with its 4 starting pips, 13 Domains and 1 dead end on each Forest sheet.
    assert (html.count('class="start"'), html.count('class="deadend"')) == (4 * players, players)
    assert html.count('<g class="domain') == 13 * players
    drawn_whole = tracked = 0   # marked pips of the sections drawn whole / drawn as marks over their pips
    for s, pl in enumerate(obs["players"]):
        drawn_whole += sum(c["marked"] for c in pl["citizens"].values())
        drawn_whole += sum(sum(lr["blocks"].values()) for lr in pl["lairs"].values())
        drawn_whole += sum(r["marked"] for r in pl["roads"].values())
        tracked += sum(pl["guild_tracks"].values()) + pl["gold"] + pl["wall"]
        # ... and each count is shown as a counter the page can count up.
        for g, n in pl["guild_tracks"].items():
            assert f'data-key="p-{s}-trk-{g}" data-count="{n}"' in html
        assert f'data-key="p-{s}-gold" data-count="{pl["gold"]}"' in html
        assert f'data-key="p-{s}-wall" data-count="{pl["wall"]}"' in html
        assert f'data-key="p-{s}-total" data-count="{pl["score"]["total"]}"' in html
    whole = len(re.findall(r'class="pip \w+ marked"', html))
    voided = len(re.findall(r'class="pip \w+ voided"', html))
    # Voided pips are drawn crossed out (a voided Citizen pip stays marked underneath).
    assert whole + voided >= drawn_whole >= whole
    # A row of marked Guild Track or Gold Chart pips is one dotted line: (length / step) + 1 dots.
    dots = sum(round(float(length) / float(step)) + 1 for length, step in re.findall(
        r'class="mkrow" d="M[\d.]+ [\d.]+h([\d.]+)" stroke-width="[\d.]+" stroke-dasharray="0 ([\d.]+)"', html))
    over = html.count('class="mk marked"') + html.count('class="mk voided"')
    assert dots <= tracked <= dots + over


def test_board_css_is_shipped_with_the_package():
    css = resources.files("dicetable.games.dice_kingdoms_of_valeria").joinpath("static", "board.css").read_text()
    assert ".board-dice-kingdoms-of-valeria" in css
    assert "#dkv-tab-4:checked" in css   # a tab for each of up to 5 seats


def _on_piece(html: str, action_id: str) -> str:
    """The hover title of the pip under the element that carries ``action_id`` (what it is)."""
    m = re.search(rf'data-action="{re.escape(action_id)}"[^>]*>.*?<circle class="ring" cx="([\d.]+)" cy="([\d.]+)"',
                  html)
    assert m, action_id
    pip = re.search(rf'<g><title>([^<]*)</title><circle class="pip [\w ]+" cx="{m.group(1)}" cy="{m.group(2)}"', html)
    assert pip, (action_id, m.groups())
    return "(" + pip.group(1)


def test_guild_strike_and_harvest_fallback_choices_sit_on_their_track_pips():
    from dkov_helpers import CALM, HALT, new
    from test_dkov_solo import with_event

    # Guild Strike, Worker and Soldier tied at 2 pips: each choice is on the Reward Pip it would
    # void, pip 3 of that track (rulebook: Solo Rules; reconstructed Event).
    s, _ = with_event("guild-strike")
    html = board_view(s.observation(0), actions_of(s, 0), 0)
    assert "(Worker Guild Track pip 3: Road Reward Pip" in _on_piece(html, "strike:Worker")
    assert "(Soldier Guild Track pip 3: Knight Reward Pip" in _on_piece(html, "strike:Soldier")
    # A Harvest that marks nothing: the fallback pip is the next pip of each Guild Track.
    s = new(1, dice=[*HALT])
    assert s.decision(0).kind == "harvest-fallback"
    html = board_view(s.observation(0), actions_of(s, 0), 0)
    for g in ("Holy", "Worker", "Shadow", "Soldier"):
        n = s.observation(0)["players"][0]["guild_tracks"][g]
        assert f"({g} Guild Track pip {n + 1}:" in _on_piece(html, f"harvest:{g}")
    # Recruit actions on the Citizen section's next pip; Build on the pip where it stops.
    s = new(1, dice=[*CALM, 2, 1, 3, 1])
    html = board_view(s.observation(0), actions_of(s, 0), 0)
    assert "(2 Citizen, left pip" in _on_piece(html, "yellow:2")
    assert "(Road R02 (S2-D2), pip 3" in _on_piece(html, "green:R02@S2:3")
    assert "(Road R02 (S2-D2), pip 1" in _on_piece(html, "green:R02@S2:1")


@pytest.mark.parametrize("players,sheets", [(1, "winter"), (4, "summer")])
def test_board_parts_fit_together_and_name_their_elements_once(players, sheets):
    """Keyed parts (docs/web.md, "Live updates"): every part but the root has one slot, keys are
    unique, every counter shows its count, every die its face, and a sheet looks the same to every viewer."""
    for state in sample_states(players, sheets, seed=5, every=7):
        by_viewer = {}
        for seat in [None, *range(players)]:
            parts = board_parts(state.observation(seat), actions_of(state, seat), seat)
            by_viewer[seat] = parts
            assert next(iter(parts)) == "board"
            for k in parts:
                check_key(k)
            html = assemble(parts)
            assert sorted(re.findall(r'data-part="([^"]+)"', html)) == sorted(set(parts) - {"board"})
            keys = re.findall(r'data-key="([^"]+)"', html)
            assert len(keys) == len(set(keys)), [k for k in keys if keys.count(k) > 1][:3]
            for k in keys:
                check_key(k)
            counters = re.findall(r'data-key="([^"]+)" data-count="(\d+)"[^>]*>([^<]*)<', html)
            assert len(counters) == html.count("data-count=")
            assert all(shown == n for _, n, shown in counters)
            obs = state.observation(seat)
            d = obs["dice"]
            faces = [int(f) for f in re.findall(r'data-die="(\d+)"', html)]
            assert faces == [*d["black"], d["yellow"], d["red"], d["green"], d["blue"]]
            assert all(f'data-key="draft-{i}"' in html for i in range(4))
        # The sheets are public: a sheet's parts (not the viewer's actions) are the same for everyone.
        for s in range(players):
            sheet = {k: v for k, v in by_viewer[None].items() if k.startswith(f"p-{s}") and "-acts-" not in k}
            for parts in by_viewer.values():
                assert {k: parts[k] for k in sheet} == sheet


def test_board_css_tabs_work_with_the_seat_radios_in_their_own_part():
    css = resources.files("dicetable.games.dice_kingdoms_of_valeria").joinpath("static", "board.css").read_text()
    for s in range(5):
        assert f":has(#dkv-tab-{s}:checked) .dkv-panel-{s}" in css
