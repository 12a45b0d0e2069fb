"""Corsairs of Valeria views: rules help, terminal text_view and browser board_view (docs/views.md)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.engine import Rng, new_game, spec_of
from dicetable.engine.testing import random_step
from dicetable.games.corsairs_of_valeria import SPEC
from dicetable.engine.markup import ROOT, assemble, check_key
from dicetable.games.corsairs_of_valeria.board import board_view
from dicetable.games.corsairs_of_valeria.components import CAPTAINS, COMPONENTS
from dicetable.games.corsairs_of_valeria.text import text_view
from dicetable.games.corsairs_of_valeria.viewdata import track_of

from .corsairs_views_kit import actions_of, find_state, sampled_states, text_screen, whole_board

GAME = "corsairs-of-valeria"
LAYOUTS = ("random", "T1B,T3A,T2A", "T1A,T2A,T4B")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def _decision_kinds_in_rules() -> set:
    """Every Decision kind the rules can produce (read from the sources of the rules package:
    ``Decision(seat, "kind", ...)``)."""
    package = resources.files("dicetable.games.corsairs_of_valeria").joinpath("rules")
    src = "\n".join(f.read_text() for f in package.iterdir() if f.name.endswith(".py"))
    return set(re.findall(r'Decision\(\s*[^,()]+(?:\[\d\])?,\s*"([a-z0-9-]+)"', src))


# ---------------------------------------------------------------- help

def test_help_is_registered_and_covers_every_decision_kind():
    kinds = _decision_kinds_in_rules()
    # the rulebook's decision points, as the rules name them
    assert kinds == {"roll", "reroll", "captain-b", "skull5", "give", "skulls", "order", "move", "back",
                     "cannons", "jager"}
    help_ = SPEC.help
    for kind in kinds:
        assert help_.for_decision(kind), f"no help section explains decision {kind!r}"
    for section in help_.section:
        assert set(section.decisions) <= kinds, f"{section.id} names an unknown decision kind"
        assert section.source.startswith(("rulebook: ", "facts", "reconstructed: "))


def test_decisions_met_in_play_are_explained():
    seen = set()
    for players in (2, 5):
        for state in sampled_states(players, seed=11, every=1, limit=600):
            for seat in state.to_move:
                seen.add(state.decision(seat).kind)
    assert {"reroll", "order"} <= seen
    assert all(SPEC.help.for_decision(k) for k in seen)


def test_help_ids_are_unique_and_name_every_piece_a_player_meets():
    help_ = SPEC.help
    sections = [s.id for s in help_.section]
    components = [c.id for c in help_.component]
    assert len(set(sections)) == len(sections)
    assert len(set(components)) == len(components)
    names = {c.name for c in help_.component}
    # hazards, track features, dice faces and every dealt Captain (issue 16: rules reference)
    for piece in ("Whirlpool", "Sea Monster", "Cutthroat", "Merchant ship", "Island", "Skull Island",
                  "Start Island", "Ship Board", "Grog dial", "Treasure dial", "Skull", "Skull-and-Grog",
                  "Grog", "Silver", "Map", "Cannon"):
        assert piece in names, piece
    for captain in CAPTAINS:
        assert help_.component_info(captain.name) is not None, captain.name
        assert help_.component_info(captain.id) is not None, captain.id


def test_help_sections_use_the_rulebook_headings():
    rulebook_headings = {"Objective", "Game Setup", "Game Flow", "Roll Dice", "Re-roll Dice", "Execute Dice Actions",
                         "Cursed Dice", "Acquire Grog", "Collect Silver Coins", "Move Your Ship", "Use Your Cannons",
                         "End Your Turn", "Reaching Skull Island", "Ending the Game", "Captain Cards"}
    for section in SPEC.help.section:
        assert section.title.split(":")[0] in rulebook_headings, section.title


def test_every_captain_has_a_short_power_digest():
    for captain in COMPONENTS.captains:
        assert 0 < len(captain.summary) <= 54


# ---------------------------------------------------------------- text_view

def _check_fits(state, viewer, focus=None, widths=(120, 80)):
    for width in widths:
        screen = text_screen(state, viewer, width, focus)
        lines = screen.splitlines()
        limit = 26 if width >= 120 else 12
        assert len(lines) <= limit, (width, len(lines), screen)
        assert max(len(line) for line in lines) <= width, (width, screen)
        assert "…" not in screen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("tracks", LAYOUTS)
def test_text_view_fits_120x26_and_80x12(players, tracks):
    for seed in (1, 2):
        for i, state in enumerate(sampled_states(players, seed, every=15, tracks=tracks)):
            viewers = [None, *state.to_move]
            for viewer in viewers:
                _check_fits(state, viewer)
            if i == 3:
                for focus in range(players):
                    _check_fits(state, None, focus, widths=(120, 80, 100, 150))


def test_text_view_fits_without_captains_and_at_the_end():
    for players in (2, 5):
        state = new_game(GAME, players, seed=4, options={"captains": "none", "tracks": "T1B,T3A,T4A"})
        rng = Rng(4)
        while not state.is_over:
            random_step(state, rng)
        _check_fits(state, None)
        _check_fits(state, 0, focus=players - 1)
        screen = text_screen(state, None, 120)
        assert ("Winner: " in screen) or ("Shared victory: " in screen)


def test_text_view_names_every_captain_and_marks_dice_for_reroll():
    state = find_state(5, "reroll", tracks="T1B,T3A,T2A",
                       want=lambda s: len(s.observation(None)["marked"]) >= 1)
    obs = state.observation(None)
    wide = text_screen(state, None, 120)
    for ship in obs["ships"]:
        cap = next(c for c in CAPTAINS if c.id == ship["captain"])
        assert cap.name.removeprefix("Captain ") in wide
        assert cap.summary in wide
    for i in obs["marked"]:
        assert re.search(rf"{i}:[A-Za-z-]+↻", wide), wide
    unmarked = set(range(1, 6)) - set(obs["marked"])
    for i in unmarked:
        assert not re.search(rf"{i}:[A-Za-z-]+↻", wide)
    # every hazard kind of this layout is named in the legend
    for word in ("Whirlpool", "Sea Monster", "Cutthroat", "Merchant ship"):
        assert word in wide


def test_text_view_focus_shows_that_captain_in_full_and_rejects_a_bad_focus():
    state = find_state(3, "order")
    obs = state.observation(0)
    for focus in range(3):
        cap = next(c for c in CAPTAINS if c.id == obs["ships"][focus]["captain"])
        screen = text_screen(state, 0, 120, focus).replace("\n", " ")
        assert f"Ship Board of Player {focus + 1}" in screen
        assert cap.text.split(",")[0] in screen
    for bad in (3, -1, True, "1"):
        with pytest.raises(ValueError, match="focus"):
            text_view(obs, 0, focus=bad)


def test_render_shim_draws_the_same_as_text_view():
    state = find_state(2, "order")
    assert SPEC.render is not None and SPEC.text_view is text_view
    from io import StringIO

    from rich.console import Console

    def show(renderable):
        c = Console(width=120, file=StringIO(), record=True, color_system=None)
        c.print(renderable)
        return c.export_text()
    assert show(SPEC.render(state, 1)) == show(text_view(state.observation(1), 1))


# ---------------------------------------------------------------- board_view

class _Html(HTMLParser):
    """Collects tag balance problems and every element carrying data-action."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []
        self.actions = []       # (tag, attrs dict, text inside)
        self._open_action = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in VOID:
            self.stack.append(tag)
        if "data-action" in a:
            self.actions.append([tag, a, ""])
            if tag not in VOID:
                self._open_action.append((len(self.stack), len(self.actions) - 1))

    def handle_startendtag(self, tag, attrs):
        a = dict(attrs)
        if "data-action" in a:
            self.actions.append([tag, a, ""])

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
            return
        if self._open_action and self._open_action[-1][0] == len(self.stack):
            self._open_action.pop()
        self.stack.pop()

    def handle_data(self, data):
        for _, idx in self._open_action:
            self.actions[idx][2] += data


def _parse(html: str) -> _Html:
    p = _Html()
    p.feed(html)
    p.close()
    assert not p.errors, p.errors[:5]
    assert not p.stack, f"unclosed tags: {p.stack}"
    return p


def _check_board(state, seat):
    obs = state.observation(seat)
    acts = actions_of(state, seat)
    html = whole_board(obs, acts, seat)
    assert html.startswith('<div class="board board-corsairs-of-valeria"')
    assert "<script" not in html.lower()
    parsed = _parse(html)
    legal = {a["id"] for a in acts}
    placed = set()
    for tag, attrs, text in parsed.actions:
        aid = attrs["data-action"]
        assert aid in legal, (aid, legal)
        placed.add(aid)
        if tag == "button":
            assert (attrs.get("aria-label") or text).strip(), attrs
        else:
            assert attrs.get("role") == "button" and attrs.get("tabindex") == "0", attrs
            assert attrs.get("aria-label", "").strip(), attrs
    assert len(placed) == len(parsed.actions), "an action is placed twice"
    return html, legal, placed


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("tracks", ["T1B,T3A,T2A", "random"])
def test_board_is_valid_and_places_every_action_on_a_piece(players, tracks):
    kinds = set()
    for seed in (3, 4):
        for state in sampled_states(players, seed, every=2, limit=240, tracks=tracks):
            if state.is_over:
                continue
            seat = state.to_move[0]
            kind = state.decision(seat).kind
            html, legal, placed = _check_board(state, seat)
            # every decision of this game concerns a piece: the dice, a space, a ship, a Ship Board
            # or a Captain card, so nothing is left for the page's action bar
            assert placed == legal, (kind, legal - placed)
            kinds.add(kind)
            other = (seat + 1) % players
            assert "data-action" not in whole_board(state.observation(other), [], other)
    assert {"reroll", "order"} <= kinds


def test_board_places_rare_decisions_on_their_pieces():
    cases = {
        "cannons": dict(players=5, waiting_for="cannons", want=lambda s: any(
            a.id.startswith("attack:") for a in s.legal_actions(s.to_move[0]))),
        "move": dict(players=3, waiting_for="move"),
        "skulls": dict(players=3, waiting_for="skulls"),
        "captain-b": dict(players=3, waiting_for="captain-b"),
        "roll": dict(players=3, waiting_for="roll"),
    }
    for name, case in cases.items():
        state = find_state(case["players"], case["waiting_for"], want=case.get("want"))
        seat = state.to_move[0]
        html, legal, placed = _check_board(state, seat)
        assert placed == legal, (name, legal - placed)
        if name == "cannons":
            target = next(a for a in legal if a.startswith("attack:"))
            n = int(target.split(":p")[1])
            board = html.split(f'aria-label="Player {n}\'s Ship Board"')[1].split("</article>")[0]
            assert f'data-action="{target}"' in board, "the attack sits on the target's Ship Board"


def test_move_actions_sit_on_the_space_they_lead_to():
    from dicetable.games.corsairs_of_valeria.viewdata import move_target, track_of
    checked = 0
    for seed in range(1, 40):
        state = new_game(GAME, 3, seed=seed, options={"tracks": "T1B,T3A,T2A"})
        rng = Rng(seed)
        for _ in range(300):
            if state.is_over:
                break
            seat = state.to_move[0]
            if state.decision(seat).kind in ("move", "back"):
                obs = state.observation(seat)
                for action in state.legal_actions(seat):
                    node = move_target(obs, track_of(obs), action.id)
                    events = state.clone().apply(action.id, seat)
                    moved = [e for e in events if e.kind == "move"]
                    assert moved and moved[0].data["to"] == node, (action.id, node, moved)
                    checked += 1
            random_step(state, rng)
        if checked > 30:
            break
    assert checked > 30


def test_marked_dice_are_drawn_marked():
    state = find_state(4, "reroll", want=lambda s: len(s.observation(None)["marked"]) >= 2)
    seat = state.to_move[0]
    obs = state.observation(seat)
    html = whole_board(obs, actions_of(state, seat), seat)
    dice = re.findall(r'<button type="button" class="(cov-die[^"]*)" data-action="mark:(\d)"', html)
    assert len(dice) == 5
    for cls, n in dice:
        assert ("cov-marked" in cls) == (int(n) in obs["marked"])
    # a spectator sees the same marks, without buttons
    spectator = whole_board(state.observation(None), [], None)
    assert spectator.count("cov-marked") == len(obs["marked"])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(1, 10_000), steps=st.integers(0, 150), players=st.integers(2, 5), k=st.integers(0, 99))
def test_board_and_text_depend_only_on_what_the_seat_sees(seed, steps, players, k):
    state = new_game(GAME, players, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        random_step(state, rng)
    for seat in [None, *range(players)]:
        other = state.determinize(seat if seat is not None else 0, k)
        assert other.observation(seat) == state.observation(seat)
        acts = actions_of(state, seat)
        first = whole_board(state.observation(seat), acts, seat)
        assert first == whole_board(other.observation(seat), actions_of(other, seat), seat)
        assert first == whole_board(state.observation(seat), acts, seat), "not deterministic"
        for width in (120, 80):
            assert text_screen(state, seat, width) == text_screen(other, seat, width)


def test_board_escapes_text():
    state = new_game(GAME, 2, seed=1)
    obs = state.observation(0)
    obs["ships"][0]["space"] = '<b onclick="x">"&'
    html = whole_board(obs, [{"id": "roll\"><script>", "label": "<i>x</i>"}], 0)
    assert "<b onclick" not in html and "<script>" not in html and "<i>x</i>" not in html
    _parse(html)


def test_spec_is_registered():
    spec = spec_of(new_game(GAME, 2, seed=1))
    assert spec.board_view is board_view and spec.text_view is text_view
    css = resources.files("dicetable.games.corsairs_of_valeria").joinpath("static", "board.css").read_text()
    assert ".board-corsairs-of-valeria" in css


# ---------------------------------------------------------------- scripted rare decisions

def _placed_ids(state):
    seat = state.to_move[0]
    html, legal, placed = _check_board(state, seat)
    assert placed == legal, (state.decision(seat).kind, legal - placed)
    return html


def _section(html: str, player: int) -> str:
    """The HTML of Player ``player``'s Ship Board (1-based)."""
    return html.split(f'aria-label="Player {player}\'s Ship Board"')[1].split("</article>")[0]


def test_five_skulls_hand_out_is_played_on_the_ship_boards():
    from .corsairs_testkit import SK, game, play
    state = play(game(players=3, dice=[SK] * 5), "lock")
    assert state.decision(0).kind == "skull5"
    html = _placed_ids(state)
    assert 'data-action="give"' in html.split('class="cov-boards"')[0], "hand-out choice sits in the dice tray"
    play(state, "give")
    assert state.decision(0).kind == "give"
    html = _placed_ids(state)
    for player in (2, 3):
        assert f'data-action="give:p{player}"' in _section(html, player)
    assert "give:p1" not in html
    play(state, "give:p3")
    html = _placed_ids(state)
    assert html.count('class="cov-giventag"') == 1 and "to Player 3" in html
    assert "die 2 next (1→P3)" in text_screen(state, 0, 120)


def test_jager_and_hook_choices_sit_on_the_captain_card_and_the_target_ship():
    from .corsairs_testkit import CN, GR, MP, game, play
    state = play(game(players=2, dice=[CN, CN, CN, GR, GR], captains="jager,none"), "lock", "cannons")
    assert state.decision(0).kind == "cannons"
    html = _placed_ids(state)
    assert 'data-action="attack:p2"' in _section(html, 2)
    play(state, "attack:p2")
    assert state.decision(0).kind == "jager"
    html = _placed_ids(state)
    captain = _section(html, 1).split('class="cov-captain"')[1]
    assert 'data-action="jager:move"' in captain and 'data-action="jager:stay"' in captain

    state = play(game(players=2, dice=[CN, CN, MP, MP, GR], captains="hook,none"), "lock", "maps")
    while state.decision(0).kind != "cannons":
        play(state, state.legal_actions(0)[0].id)
    html = _placed_ids(state)
    svg = html.split("</svg>")[0]
    hook = svg.split('data-action="hook:p2"')[1].split("</g>")[0]
    assert 'class="cov-hooktarget"' in hook, "Hook's jump is placed on Player 2's ship token"


def test_views_never_show_the_seed():
    """The seed is the key to every future die (docs/engine.md): no view may print it while a game runs."""
    seed = 987_654_321_123
    state = new_game(GAME, 4, seed=seed)
    rng = Rng(5)
    for _ in range(80):
        random_step(state, rng)
    for seat in (None, *state.to_move):
        html = whole_board(state.observation(seat), actions_of(state, seat), seat)
        assert str(seed) not in html
        for width in (120, 80):
            assert str(seed) not in text_screen(state, seat, width)


def test_views_reject_a_seat_that_is_not_at_the_table():
    state = new_game(GAME, 3, seed=2)
    obs = state.observation(None)
    for bad, error in ((3, ValueError), (-1, ValueError), (True, TypeError), (1.0, TypeError), ("1", TypeError)):
        with pytest.raises(error, match="seat"):
            text_view(obs, bad)
        with pytest.raises(error, match="seat"):
            whole_board(obs, [], bad)


def test_every_track_feature_kind_is_in_the_reference_and_explained_on_hover():
    from dicetable.games.corsairs_of_valeria.components import FEATURE_KINDS
    ids = {c.id for c in SPEC.help.component}
    assert set(FEATURE_KINDS) <= ids
    # T1B has a Whirlpool and a Sea Monster, T2B a Cutthroat; all have Merchant ships and islands
    state = new_game(GAME, 2, seed=1, options={"tracks": "T1B,T2B,T4A"})
    html = whole_board(state.observation(None), [], None)
    assert "<title>Track 1 (T1B), space 3, right lane; Whirlpool: a ship ending its movement here returns to " \
           "the Start space</title>" in html
    assert "Sea Monster: a ship ending its movement here returns all its Silver to the supply" in html
    assert "Cutthroat: a ship ending its movement here loses all its Grog" in html
    assert "Merchant ship: attack it with the Cannons of a ship on this space to gain 1 Silver per Cannon" in html
    assert "Island: a ship crossing this line towards Skull Island gains 2 Silver" in html
    ships = state.observation(None)["ships"]
    for ship in ships:
        cap = next(c for c in CAPTAINS if c.id == ship["captain"])
        assert f'title="{cap.name}: {cap.text}"'.replace("'", "&#x27;") in html, cap.name
        assert cap.summary in html


# ---------------------------------------------------------------- keyed parts

def _slots(html: str) -> list[str]:
    return re.findall(r'data-part="([^"]+)"', html)


@pytest.mark.parametrize("players", [2, 5])
def test_board_parts_are_keyed_slotted_once_and_fixed_by_the_player_count(players):
    ids = None
    for state in sampled_states(players, seed=8, every=5, limit=300):
        for seat in (None, *range(players)):
            parts = board_view(state.observation(seat), actions_of(state, seat), seat)
            assert isinstance(parts, dict) and next(iter(parts)) == ROOT
            for key in parts:
                check_key(key)
            slots = [s for html in parts.values() for s in _slots(html)]
            # every part but the root has exactly one slot, and every slot has its part
            assert sorted(slots) == sorted(k for k in parts if k != ROOT)
            if ids is None:
                ids = list(parts)
            assert list(parts) == ids, "part ids depend on the player count only"
            # no slot element carries anything that changes: classes on slots are fixed names
            for html in parts.values():
                for m in re.finditer(r'<(\w+) data-part="([^"]+)"([^>]*)></\1>', html):
                    assert m.group(3) in ("", ' class="cov-dieslot"', ' class="cov-boardslot"'), m.group(0)
    assert {"die-1", "die-5", "p-0", f"p-{players - 1}-cap", "track", "ships", "moves"} <= set(ids)


def test_marking_a_die_changes_only_that_die_and_the_tray_choices():
    state = find_state(4, "reroll", want=lambda s: not s.observation(None)["marked"])
    seat = state.to_move[0]
    before = board_view(state.observation(seat), actions_of(state, seat), seat)
    state.apply("mark:2", seat)
    after = board_view(state.observation(seat), actions_of(state, seat), seat)
    changed = {k for k in after if after[k] != before[k]}
    # die 2 is now marked; the re-roll choice ("Re-roll the 1 marked die ...") appears in the tray
    assert changed == {"die-2", "choices"}, changed
    assert "cov-marked" in after["die-2"] and "cov-marked" not in before["die-2"]


def test_the_track_part_is_the_same_for_every_viewer_and_state_of_a_race():
    state = new_game(GAME, 3, seed=4, options={"tracks": "T1B,T3A,T2A"})
    first = board_view(state.observation(None), [], None)["track"]
    rng = Rng(4)
    for _ in range(60):
        random_step(state, rng)
        if state.is_over or state.observation(None)["race"] > 1:
            break
        for seat in (None, *range(3)):
            assert board_view(state.observation(seat), actions_of(state, seat), seat)["track"] == first


def test_assembled_board_holds_nothing_the_content_security_policy_blocks():
    """No inline script, style attribute or event handler (the pages send ``style-src 'self'``)."""
    for state in sampled_states(3, seed=5, every=9, limit=200):
        for seat in (None, *state.to_move):
            html = whole_board(state.observation(seat), actions_of(state, seat), seat)
            assert not re.findall(r"<script|<style\b|\s(?:on[a-z]+|style)\s*=|javascript:", html), html[:200]


# ---------------------------------------------------------------- element keys for animation

def _keyed(html: str) -> dict[str, dict]:
    """``{data-key: attributes and text}`` of the assembled board; asserts each key is used once."""
    class P(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.keys, self.open = {}, []

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if "data-key" in a:
                assert a["data-key"] not in self.keys, f"data-key {a['data-key']} used twice"
                check_key(a["data-key"])
                self.keys[a["data-key"]] = {**a, "text": ""}
            if tag not in VOID:
                self.open.append(a.get("data-key"))

        def handle_endtag(self, tag):
            if tag not in VOID:
                self.open.pop()

        def handle_data(self, data):
            for key in self.open:
                if key is not None:
                    self.keys[key]["text"] += data
    p = P()
    p.feed(html)
    p.close()
    return p.keys


def keys_of(html: str) -> set:
    """Every ``data-key`` of an assembled board."""
    return set(_keyed(html))


@pytest.mark.parametrize("players", [2, 4])
def test_board_keys_name_the_dice_spaces_ships_and_counters_with_their_values(players):
    for state in sampled_states(players, seed=21, every=3, limit=300):
        for seat in (None, *state.to_move):
            obs = state.observation(seat)
            html = whole_board(obs, actions_of(state, seat), seat)
            keys = _keyed(html)
            # counters: data-count and the text inside are the observation's numbers
            counters = {"supply": obs["supply"], "skull-silver": obs["skull_island_silver"]}
            for ship in obs["ships"]:
                s = ship["seat"]
                counters |= {f"p-{s}-treasure": ship["treasure"], f"p-{s}-grog": ship["grog"],
                             f"p-{s}-silver": ship["silver"]}
                assert f"ship-{s}" in keys
                assert f"space-{ship['node']}" in keys
            for key, n in counters.items():
                assert keys[key]["data-count"] == str(n) and keys[key]["text"].strip() == str(n), key
            # the dice area holds one data-die per die, in the observation's order
            assert "dice" in keys
            assert re.findall(r'data-die="([a-z-]+)"', html) == obs["dice"]
            # every space of the track has a key, Skull Island included
            assert {f"space-{n}" for n in range(len(track_of(obs).fwd))} <= set(keys)
