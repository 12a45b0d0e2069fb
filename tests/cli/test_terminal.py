"""Terminal play as a newcomer meets it: screens that fit, details on demand, narrated bots,
numbered input that means what it says, secrets (the seed) kept, no traceback."""

from __future__ import annotations

import dataclasses
import io
import re

import pytest
from rich.console import Console
from rich.text import Text

from dicetable.bots import make_bot
from dicetable.cli import play as play_mod
from dicetable.cli.play import COMMANDS, INPUT_RULES, Elapsed, TerminalTable
from dicetable.engine import Rng, get_game, list_games, new_game, spec_of
from dicetable.engine.help import ComponentInfo, GameHelp, HelpSection
from dicetable.engine.testing import random_step, shipped_games

GAMES = [spec.id for spec in shipped_games()]


def make_table(state, lines, tmp_path, humans=frozenset({0}), width=120, height=40, terminal=False,
               bot="greedy", **kw):
    out = io.StringIO()
    console = Console(file=out, width=width, height=height, emoji=False, color_system=None,
                      force_terminal=terminal)
    feed = iter(lines)

    def read(prompt):
        console.print(prompt, end="")
        try:
            line = next(feed)
        except StopIteration:
            raise EOFError from None
        console.print(line)
        return line

    bots = {s: make_bot(bot, seed=s) for s in range(state.players) if s not in humans}
    table = TerminalTable(state, set(humans), bots, console=console, read=read,
                          save_dir=tmp_path / "saves", replay_dir=tmp_path / "replays", **kw)
    return table, out


def flat(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------ fitting the window
def _positions(game: str, players: int, seed: int, count: int = 4):
    """A few positions of a seeded random game where someone decides."""
    state = new_game(game, players, seed=seed)
    rng = Rng(seed)
    step = 0
    marks = {0, 7, 40, 150}
    while not state.is_over and step <= max(marks):
        if step in marks:
            yield state.clone()
        random_step(state, rng)
        step += 1


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
def test_prompt_and_choices_fit_below_the_table_for_every_player_count(game, size, tmp_path):
    # The view contract gives the table at most 26 lines at 120x40 and 12 in compact mode;
    # the prompt, the choices and the input line must fit in the rest of the window.
    width, height = size
    table_budget = 26 if width >= 120 else 12
    spec = get_game(game)
    for players in range(spec.min_players, spec.max_players + 1):
        for state in _positions(game, players, seed=players):
            seat = state.to_move[0]
            table, out = make_table(state, [], tmp_path, humans={seat}, width=width, height=height)
            table.choices(seat, table_budget)
            lines = out.getvalue().splitlines()
            assert len(lines) + 1 <= height - table_budget, (game, players, size, out.getvalue())
            assert max(len(line) for line in lines) <= width
            # every choice is there (numbered) or a page says how to see the rest
            numbers = {int(m) for m in re.findall(r"(?:^|\s)(\d+) \S", out.getvalue())}
            n = len(state.legal_actions(seat))
            assert numbers >= {1} and (max(numbers) >= n or "type more for the next page" in flat(out.getvalue()))


@pytest.mark.parametrize("game", GAMES)
def test_the_whole_screen_fits_when_the_game_has_a_text_view(game, tmp_path):
    spec = get_game(game)
    if spec.text_view is None:
        pytest.skip(f"{game} has no text_view yet: only its choices are fitted (the test above)")
    for width, height in ((120, 40), (80, 24)):
        for players in range(spec.min_players, spec.max_players + 1):
            for state in _positions(game, players, seed=players):
                seat = state.to_move[0]
                table, out = make_table(state, [], tmp_path, humans={seat}, width=width, height=height)
                table.show_turn(seat)
                lines = out.getvalue().splitlines()
                assert len(lines) + 1 <= height, (game, players, width, out.getvalue())
                assert max(len(line) for line in lines) <= width


def test_long_lists_are_paged_and_more_shows_the_next_page(tmp_path):
    state = new_game("dice-kingdoms-of-valeria", 1, seed=2)
    state.apply(state.legal_actions(0)[2].id, 0)   # to turn 2: 22 choices
    n = len(state.legal_actions(0))
    table, out = make_table(state, ["more", "more"], tmp_path, width=80, height=24)
    table.choices(0, 12)
    first = out.getvalue()
    assert f"of {n}: type more for the next page" in flat(first)
    footer = next(line for line in first.splitlines() if "type more" in line)
    assert footer.startswith("choices 1-") and len(footer) <= 80   # one line, the rest for choices
    table.command(0, "more")
    second = out.getvalue()[len(first):]
    shown_first = {int(x) for x in re.findall(r"^ ?(\d+) ", first, re.M)}
    shown_second = {int(x) for x in re.findall(r"^ ?(\d+) ", second, re.M)}
    # the next page starts right after the last choice shown, though this page has more room
    assert shown_first and min(shown_second) == max(shown_first) + 1
    table.command(0, "more")
    third = out.getvalue()[len(first) + len(second):]
    shown_third = {int(x) for x in re.findall(r"^ ?(\d+) ", third, re.M)}
    assert shown_third and min(shown_third) in (1, max(shown_second) + 1)


def test_compact_layout_is_chosen_by_window_size_or_forced(tmp_path):
    state = new_game("kingdom-of-dice", 2, seed=1)
    assert make_table(state, [], tmp_path, width=120, height=40)[0].compact() is False
    assert make_table(state, [], tmp_path, width=80, height=24)[0].compact() is True
    assert make_table(state, [], tmp_path, width=160, height=30)[0].compact() is True
    assert make_table(state, [], tmp_path, width=160, height=50, layout="compact")[0].compact() is True
    assert make_table(state, [], tmp_path, width=80, height=24, layout="wide")[0].compact() is False


# ------------------------------------------------------------------ details on demand
def _with_spec(monkeypatch, **changes):
    """Make the CLI see the game's spec with ``changes`` (a text_view, a help)."""
    real = play_mod.spec_of

    def fake(state):
        return dataclasses.replace(real(state), **changes)
    monkeypatch.setattr(play_mod, "spec_of", fake)


def test_show_n_draws_that_players_board_from_the_viewers_observation(tmp_path, monkeypatch):
    calls = []

    def text_view(obs, seat, *, width=120, focus=None):
        calls.append((obs, seat, width, focus))
        return Text(f"TABLE focus={focus} width={width}")

    _with_spec(monkeypatch, text_view=text_view)
    state = new_game("biblios-dice", 3, seed=7, options={"hidden_objectives": True})
    table, out = make_table(state, [], tmp_path, width=80, height=24)
    table.command(0, "show 3")
    obs, seat, width, focus = calls[-1]
    assert obs == state.observation(0) and seat == 0          # the viewer's eyes only
    assert focus == 2 and width == 80                          # Player 3, compact width
    assert "TABLE focus=2 width=80" in out.getvalue()
    for bad in ("show 4", "show 0", "show x"):
        with pytest.raises(ValueError, match="show takes a player number from 1 to 3"):
            table.command(0, bad)


def test_rules_prints_the_sections_of_the_current_decision_and_pieces_by_name(tmp_path, monkeypatch):
    help_ = GameHelp(
        section=(HelpSection(id="rolling", title="Rolling the Dice", source="rulebook: Rolling the Dice",
                             decisions=("set-aside",), text="Set aside at least one die."),
                 HelpSection(id="end", title="End of the Game", source="rulebook: End of the Game",
                             text="After three rounds.")),
        component=(ComponentInfo(id="queen", name="Queen", source="rulebook: Components",
                                 text="Joins in round 2, worth 12."),))
    _with_spec(monkeypatch, help=help_)
    state = new_game("kingdom-of-dice", 2, seed=1)
    table, out = make_table(state, [], tmp_path)
    table.command(0, "rules")
    text = flat(out.getvalue())
    assert "Rolling the Dice (rulebook: Rolling the Dice) Set aside at least one die." in text
    assert "After three rounds." not in text                    # another decision's section
    assert "Pieces (type rules NAME): Queen" in text and "Other sections (type rules TITLE): End of the Game" in text
    table.command(0, "rules queen")
    assert "Queen (rulebook: Components) Joins in round 2, worth 12." in flat(out.getvalue())
    table.command(0, "rules end of the game")
    assert "After three rounds." in flat(out.getvalue())
    with pytest.raises(ValueError, match="no rule or piece called 'kraken'; pieces: Queen"):
        table.command(0, "rules kraken")


def test_rules_without_help_data_falls_back_to_the_decisions_own_help(tmp_path, monkeypatch):
    _with_spec(monkeypatch, help=GameHelp())
    state = new_game("kingdom-of-dice", 2, seed=1)
    table, out = make_table(state, [], tmp_path)
    table.command(0, "rules")
    assert "After each roll you must set aside at least one die" in flat(out.getvalue())


@pytest.mark.pure_build
def test_scores_shows_the_public_scores_and_the_viewers_hidden_part_apart(tmp_path, monkeypatch):
    """Every seat's public score (the spectator's, so they compare), then what only the viewer
    knows of its own, labelled; the other seat's hidden score stays hidden."""
    state = new_game("biblios-dice", 2, seed=7)
    seen = set()

    def visible(self, seat):
        seen.add(seat)
        return [4, None] if seat == 0 else [1, None]

    monkeypatch.setattr(type(state), "visible_scores", visible)
    table, out = make_table(state, [], tmp_path)
    table.command(0, "scores")
    assert seen == {None, 0}
    assert "Scores so far Player 1: 1, Player 2: hidden (Player 1 only: +3 hidden, 4 in all)" in flat(out.getvalue())


def test_own_score_is_the_seats_view_of_its_score_beside_the_public_one():
    """GameState.own_score: Biblios Dice hides Gold, VP tokens and face-down cards, so mid-game a
    seat's own total differs from its public score; the split adds up, a spectator gets None."""
    import random

    state = new_game("biblios-dice", 3, seed=3)
    rng = random.Random(3)
    seen = 0
    for _ in range(60):
        assert state.own_score(None) is None
        for seat in range(3):
            own = state.own_score(seat)
            total, public = state.visible_scores(seat)[seat], state.visible_scores(None)[seat]
            if own is None:
                assert total == public
            else:
                seen += 1
                assert own == {"seat": seat, "total": total, "hidden": total - public} and total != public
        mover = state.to_move[0]
        state.apply(rng.choice(state.legal_actions(mover)), mover)
    assert seen > 0, "no hidden part in 60 Biblios Dice actions: the test saw nothing"


# ------------------------------------------------------------------ bots narrated
def test_kingdom_of_dice_bot_turn_says_which_dice_it_set_aside(tmp_path):
    state = new_game("kingdom-of-dice", 2, seed=5)
    table, out = make_table(state, [], tmp_path, humans=frozenset())
    table.run()
    text = out.getvalue()
    # each roll is followed by what was set aside from it, die by die (the game's own events), before
    # the next roll
    assert re.search(r"• Player 2 rolls [^\n]*\n(\s*• Player 2 sets aside an? [^\n]*\n)+\s*• Player 2 rolls", text)
    assert "• Player 2 sets aside a crown." in text


@pytest.mark.parametrize("how, said", [("planner", True), ("search", True), ("plan", False), ("only", False)])
def test_a_bot_that_thought_says_for_how_long(tmp_path, how, said):
    """A decision the bot searched or planned for 0.1 s or more is narrated with its time;
    the rest of a choice found earlier, or a forced move, is not."""
    from dicetable.bots.mcts import Choice

    class Thinker:
        name = "hard"
        last = None

        def choose(self, state, seat):
            action = make_bot("greedy", seed=1).choose(state, seat)
            self.last = Choice(action, None, "hand", 0, 1500.0, how)
            return action

    state = new_game("kingdom-of-dice", 2, seed=5)
    table, out = make_table(state, [], tmp_path, humans=frozenset())
    table.bots = {0: Thinker(), 1: Thinker()}
    while not table.narration:
        table.bot_turn(state.to_move[0])
    assert table.narration[-1][1].endswith("(after 1.5 s of thought)") is said


def test_corsairs_bot_turn_says_what_it_marked_and_the_order_of_its_symbols(tmp_path):
    state = new_game("corsairs-of-valeria", 2, seed=5)
    table, out = make_table(state, [], tmp_path, humans=frozenset())
    for _ in range(40):
        if state.is_over:
            break
        table.bot_turn(state.to_move[0])
        table.show_new_events(None)
    text = out.getvalue()
    assert re.search(r"▸ Player \d: Mark die \d \(\w[^)]*\) to re-roll it", text)
    assert "pays 1 Grog to re-roll" in text


def test_a_bots_secret_bid_is_never_narrated(tmp_path):
    state = new_game("biblios-dice", 3, seed=7)
    table, out = make_table(state, [], tmp_path, humans=frozenset({0}), bot="random")
    steps = 0
    while not state.is_over and steps < 400:
        seat = state.to_move[-1]
        if seat == 0:
            state.apply(state.legal_actions(0)[0].id, 0)
        else:
            table.bot_turn(seat)
        table.show_new_events(0)
        steps += 1
    text = out.getvalue()
    assert "places a Bidding Card face down" in text                 # bids happened
    assert not re.search(r"Player [23] secretly places", text)       # the hidden events stay hidden
    assert not re.search(r"▸ Player [23]:[^\n]*(Bid|bid|Pass)", text)  # and so do the bots' bid labels


def test_thinking_indicator_counts_seconds_and_stays_off_without_a_terminal(tmp_path):
    elapsed = Elapsed("Player 2 (hard bot) is thinking")
    assert re.fullmatch(r"Player 2 \(hard bot\) is thinking +\d+\.\d s", elapsed.__rich__().plain)
    state = new_game("kingdom-of-dice", 2, seed=1)
    table, out = make_table(state, [], tmp_path, humans=frozenset({0}), bot="easy")
    state.apply("keep:" + state.legal_actions(0)[0].id.split(":")[1], 0)
    while 0 in state.to_move:
        state.apply("stop" if any(a.id == "stop" for a in state.legal_actions(0)) else
                    state.legal_actions(0)[0].id, 0)
    table.bot_turn(state.to_move[0])
    assert "thinking" not in out.getvalue()       # piped output: no spinner frames
    table, out = make_table(state, [], tmp_path, humans=frozenset({0}), bot="easy", terminal=True)
    table.bot_turn(state.to_move[0])
    assert re.search(r"Player 2 \(easy bot\) is thinking +\d+\.\d s", out.getvalue())  # on a terminal


# ------------------------------------------------------------------ typed lines
def test_a_single_possible_choice_is_made_for_you_with_a_line(tmp_path):
    state = new_game("kingdom-of-dice", 1, seed=1, dice=["crown"] * 6)
    table, out = make_table(state, ["quit"], tmp_path)
    table.run()
    text = flat(out.getvalue())
    assert "Only one choice for Player 1: Set aside a crown (made for you)." in text
    assert table.state.history == [(0, "keep:crown")]


def test_every_number_on_a_line_means_the_list_as_it_was_shown(tmp_path):
    # Two crowns and four 1s: the list shows 1 = crown, 2 = a 1. "1 1" sets aside both crowns
    # (the list after the first crown starts with crown again, but the rule does not depend on
    # that); a third "1" means a crown too, and there is none left: the line stops there.
    state = new_game("kingdom-of-dice", 1, seed=1, dice=["crown", "crown", 1, 1, 1, 1])
    table, out = make_table(state, ["1 1 1", "quit"], tmp_path)
    table.run()
    assert [a for _, a in table.state.history] == ["keep:crown", "keep:crown"]
    assert "the line stopped at '1' (the choices before it were made" in flat(out.getvalue())


def test_a_stop_that_scores_nothing_asks_first(tmp_path):
    state = new_game("kingdom-of-dice", 1, seed=1, dice=["crown", 2, 3, 4, 5, 5])
    table, out = make_table(state, ["keep:crown", "stop", "no", "stop", "yes", "quit"], tmp_path)
    table.run()
    text = flat(out.getvalue())
    assert "Stopping now scores nothing: crown is not a valid result" in text
    assert "Not done: choose again." in text
    assert [a for _, a in table.state.history][:2] == ["keep:crown", "stop"]
    assert text.count("Stopping now scores nothing") == 2


def test_a_second_five_set_aside_asks_first(tmp_path):
    # Rulebook, "Checking the result": one 5 at most. After a first 5, a second one leaves no roll
    # that makes the result valid, and the turn ends with no marker: the same throw-away as a stop
    # that scores nothing, asked the same way ("5 5" on one line once ended the turn unasked).
    state = new_game("kingdom-of-dice", 1, seed=1, dice=["crown", 2, 3, 4, 5, 5])
    table, out = make_table(state, ["keep:5 keep:5", "no", "keep:crown", "quit"], tmp_path)
    table.run()
    text = flat(out.getvalue())
    assert "Setting aside this die scores nothing: no roll can make 5, 5 a valid result" in text
    assert "Not done: choose again." in text
    assert [a for _, a in table.state.history][:2] == ["keep:5", "keep:crown"]


def test_a_set_aside_that_every_choice_dooms_asks_nothing(tmp_path):
    # Crown, 1, 5 and a lone 2 set aside, then 5 and 4 rolled on the last two dice: a second 5 can
    # never be valid, nor a 4 with one die left for the 2 and three 4s: either choice ends the turn,
    # so there is nothing to warn about.
    state = new_game("kingdom-of-dice", 1, seed=1, dice=["crown", 1, 5, 2, 3, 4, 5, 4])
    table, out = make_table(state, ["keep:crown keep:1 keep:5 keep:2 reroll", "keep:5", "quit"], tmp_path)
    table.run()
    assert "scores nothing" not in out.getvalue()
    assert [a for _, a in table.state.history][:6] == ["keep:crown", "keep:1", "keep:5", "keep:2", "reroll",
                                                      "keep:5"]


def test_a_valid_stop_asks_nothing(tmp_path):
    state = new_game("kingdom-of-dice", 1, seed=1, dice=["crown", 1, 3, 4, 5, 5])
    table, out = make_table(state, ["keep:crown keep:1", "stop", "quit"], tmp_path)
    table.run()
    assert "scores nothing" not in out.getvalue()
    assert [a for _, a in table.state.history][:3] == ["keep:crown", "keep:1", "stop"]


def test_help_states_every_input_rule_and_command(tmp_path):
    state = new_game("kingdom-of-dice", 2, seed=1)
    table, out = make_table(state, [], tmp_path)
    table.command(0, "help")
    text = flat(out.getvalue())
    for rule in INPUT_RULES:
        assert flat(rule) in text
    for name, what in COMMANDS:
        assert f"{name}: {flat(what)}" in text
    assert "Choice ids: 1 keep:" in text


# ------------------------------------------------------------------ seeds stay secret
@pytest.mark.parametrize("game, players, options", [
    ("kingdom-of-dice", 2, {}), ("corsairs-of-valeria", 2, {}), ("biblios-dice", 2, {"hidden_objectives": True}),
    ("dice-kingdoms-of-valeria", 1, {}), ("valeria-card-kingdoms", 2, {}),
])
def test_the_seed_is_never_printed_while_the_game_runs(game, players, options, tmp_path):
    seed = 7_318_190_462_551_301_407
    state = new_game(game, players, seed=seed, options=options)
    lines = ["help", "rules", "scores", "show 1", "show 9", "log 5", "99", "nonsense", "1", "save",
             f"save {tmp_path / 'x.json'}", "load", f"load {tmp_path / 'x.json'}", "2", "more", "hint"]
    table, out = make_table(state, lines, tmp_path, hint=lambda s, seat: [(s.legal_actions(seat)[0], 1.0)])
    table.run()
    text = out.getvalue()
    assert str(seed) not in text and hex(seed)[2:] not in text
    assert "saved to" in text.lower()


def test_cli_paths_never_print_the_seed_unless_it_was_given(tmp_path, monkeypatch):
    from typer.testing import CliRunner
    from dicetable.cli.main import app

    monkeypatch.chdir(tmp_path)
    fixed = (0x1234_5678_9ABC_DEF1).to_bytes(8, "little")
    monkeypatch.setattr("dicetable.engine.registry.os.urandom", lambda n: fixed)
    seed = int.from_bytes(fixed, "little") >> 1
    runner = CliRunner()
    result = runner.invoke(app, ["play", "biblios-dice", "-p", "2", "-o", "hidden_objectives=true"],
                           input="help\nscores\n1\nsave\nquit\n")
    assert result.exit_code == 0 and str(seed) not in result.output
    (save,) = (tmp_path / "saves").glob("*.json")
    for args in (["hint", str(save), "--level", "easy"], ["play", "--load", str(save)]):
        result = runner.invoke(app, args, input="quit\n")
        assert str(seed) not in result.output, args
    # an unfinished game's replay: only public events and visible scores
    from dicetable.cli.play import load_table_file
    from dicetable.engine import write_json
    state, _ = load_table_file(save)
    record = write_json(tmp_path / "r.json", state.replay_record())
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 0 and str(seed) not in result.output
    assert "Hidden Objective: the" not in result.output     # each seat's secret objective event
    assert "the game is not over" in result.output
    # a finished game may show it
    result = runner.invoke(app, ["play", "kingdom-of-dice", "-p", "2", "--human", "0"])
    assert f"Seed of this game: {seed}" in result.output


def test_card_kingdoms_final_screen_in_80x24_shows_who_won_and_every_score(tmp_path):
    """The last 24 rows of an 80-column terminal at the end of a 5-player game: the view's
    verdict, with every seat's score, and who won (the score sheet's outcome sentence), none past
    80 columns or cut."""
    state = new_game("valeria-card-kingdoms", 5, seed=3)
    table, out = make_table(state, [], tmp_path, humans=set(), width=80, height=24, bot="random")
    table.run()
    screen = out.getvalue().rstrip("\n").split("\n")[-24:]
    assert max(map(len, screen)) <= 80
    text = " ".join(" ".join(screen).split())
    (winner,) = state.winners
    assert f"Player {winner + 1} wins" in text
    board = out.getvalue()[out.getvalue().rindex("the game is over"):]
    verdict = " ".join(board[board.index("Winner"):board.index("Score sheet")].split())
    for s in range(5):
        assert f"Player {s + 1} {state.scores[s]} (" in verdict, verdict


# ------------------------------------------------------------------ menu and loading
def test_the_menu_offers_a_first_player_among_the_seats_that_exist_and_refuses_another():
    from typer.testing import CliRunner
    from dicetable.cli.main import app

    number = [s.id for s in list_games()].index("corsairs-of-valeria") + 1
    lines = [str(number), "2", "none", "random", "3", "2", "1", "random"]  # first player 3 at 2 players, then 2
    result = CliRunner().invoke(app, ["play", "--seed", "1"], input="\n".join(lines) + "\nquit\n")
    out = flat(result.output)
    assert result.exit_code == 0, out
    asked = out[out.index("first_player:"):out.index("Which seats")]
    assert "random, 1, 2 first_player (value) [random]:" in asked   # the choices at 2 players, typed as they are
    assert "5" not in asked and "1-5" not in asked
    assert "option 'first_player' cannot be '3' with 2 players; allowed: random, 1, 2" in asked
    assert "Player 2 starts." in out


def test_the_menu_offers_every_option_seats_and_bot_level_and_the_save_remembers(tmp_path, monkeypatch):
    from typer.testing import CliRunner
    from dicetable.cli.main import app

    monkeypatch.chdir(tmp_path)
    number = [s.id for s in list_games()].index("corsairs-of-valeria") + 1
    lines = [str(number), "3", "none", "random", "2", "1,2", "1"]
    result = CliRunner().invoke(app, ["play"], input="\n".join(lines) + "\nquit\n")
    out = flat(result.output)
    assert result.exit_code == 0, out
    for opt in spec_of(new_game("corsairs-of-valeria", 3, seed=1)).options:
        assert f"{opt.name}:" in out          # every option asked, with its description
    assert "Bots: 1 random, 2 greedy, 3 easy, 4 medium, 5 hard" in out
    assert "Bot level [greedy]:" in out and "first_player (value) [random]:" in out  # not eaten as markup
    (save,) = (tmp_path / "saves").glob("*.json")
    import json
    data = json.loads(save.read_text())
    assert data["players"] == 3 and data["options"]["captains"] == "none"
    assert str(data["options"]["first_player"]) == "2"
    assert data["table"] == {"humans": [0, 1], "bot": "random"}
    result = CliRunner().invoke(app, ["play", "--load", str(save)], input="quit\n")
    assert ("Corsairs of Valeria, 3 players; people: Player 1, Player 2; bots (random): Player 3"
            in flat(result.output))


def test_the_menu_explains_a_refused_option_and_asks_again(tmp_path, monkeypatch):
    from typer.testing import CliRunner
    from dicetable.cli.main import app

    monkeypatch.chdir(tmp_path)
    number = [s.id for s in list_games()].index("kingdom-of-dice") + 1
    result = CliRunner().invoke(app, ["play"], input=f"{number}\n1\n9\n²\n3\n\nquit\n")
    out = flat(result.output)
    assert "option 'cat_level' cannot be 9; allowed: 1, 2, 3, 4, 5, 6" in out
    assert "option 'cat_level' needs a whole number, got '²'" in out
    assert "Traceback" not in result.output


def test_load_in_play_and_load_on_the_command_line_say_the_same(tmp_path, monkeypatch):
    from typer.testing import CliRunner
    from dicetable.cli.main import app

    monkeypatch.chdir(tmp_path)
    state = new_game("biblios-dice", 3, seed=4)
    table, _ = make_table(state, ["save b.json", "quit"], tmp_path)
    table.run()
    cli = CliRunner().invoke(app, ["play", "--load", "b.json"], input="quit\n")
    other, out = make_table(new_game("kingdom-of-dice", 2, seed=1), ["load b.json", "quit"], tmp_path)
    other.run()
    sentence = "Biblios Dice, 3 players; people: Player 1; bots (greedy): Player 2, Player 3"
    assert f"Loaded b.json: {sentence}." in flat(cli.output)
    assert (f"Loaded b.json: {sentence} (this table was Kingdom of Dice, 2 players; people: Player 1; "
            "bots (greedy): Player 2).") in flat(out.getvalue())
    assert other.state.game_id == "biblios-dice" and set(other.bots) == {1, 2}


def test_the_table_is_drawn_again_after_a_line_that_changed_it(tmp_path, monkeypatch):
    # Found in tmux: after setting a die aside, the table above still said "Set aside: nothing".
    drawn = []

    def text_view(obs, seat, *, width=120, focus=None):
        drawn.append(obs)
        return Text("TABLE")

    _with_spec(monkeypatch, text_view=text_view)
    state = new_game("kingdom-of-dice", 1, seed=1, dice=["crown", 1, 2, 3, 4, 5])
    table, out = make_table(state, ["keep:crown", "quit"], tmp_path)
    table.run()
    assert len(drawn) >= 2 and drawn[-1] == table.state.observation(0) != drawn[0]


def test_a_window_narrower_than_the_compact_table_is_told_once(tmp_path):
    # README: the table fits 120x40, a smaller window gets the compact table (80x24). At 60 columns
    # the compact table's lines are cut ("…") or fold: the player is told once, not on every redraw.
    state = new_game("dice-kingdoms-of-valeria", 1, seed=3)
    table, out = make_table(state, ["show", "show", "quit"], tmp_path, width=60, height=20)
    table.run()
    text = flat(out.getvalue())
    assert text.count("This window is 60 columns wide: the table is drawn for 80 or more") == 1
    table, out = make_table(state, ["show", "quit"], tmp_path, width=80, height=24)
    table.run()
    assert "columns wide" not in out.getvalue()
