"""The end-of-game score sheet of every title: its categories add up to the engine's final scores
for every seat (and solo opponent), the winners are the engine's, and a tie names the rulebook's
tie-break (seeds searched once for a tie on the top score, listed here)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.engine import Rng, ScoreLine, ScoreSheet, TieMeasure, new_game, outcome_text
from dicetable.engine.testing import random_playout

#: (game, players, the solo opponent's name or None, the rulebook's scoring categories).
TITLES = [
    ("kingdom-of-dice", 1, "the Mischievous Cat", ("Influence cards",)),
    ("kingdom-of-dice", 4, None, ("Influence cards",)),
    ("corsairs-of-valeria", 3, None, ("Treasure",)),
    ("biblios-dice", 2, "Cadfael", ("Scrolls Track", "Manuscripts Track", "Pigments Track", "Quills Track",
                                    "Ink Track", "Gold", "Losing VPs", "VP tokens")),
    ("biblios-dice", 4, None, ("Scrolls Track", "Manuscripts Track", "Pigments Track", "Quills Track",
                               "Ink Track", "Gold", "Losing VPs", "VP tokens")),
    ("dice-kingdoms-of-valeria", 1, None, ("Star pips", "Claimed Domains", "Monster Lairs", "Statue Cards")),
    ("dice-kingdoms-of-valeria", 3, None, ("Star pips", "Claimed Domains", "Monster Lairs", "Statue Cards")),
    ("valeria-card-kingdoms", 1, "the Dark Lord", ("Monsters", "Domains", "VP tokens", "Duke")),
    ("valeria-card-kingdoms", 3, None, ("Monsters", "Domains", "VP tokens", "Duke")),
]


def _finished(game: str, players: int, seed: int):
    state = new_game(game, players, seed=seed)
    random_playout(state, Rng(seed))
    assert state.is_over
    return state


def _opponent_score(state, name: str) -> int:
    """The engine's own score of a solo opponent (rulebook: the Cat's cards, Cadfael's places, R12.18)."""
    if name == "the Mischievous Cat":
        return state.cat_score
    if name == "Cadfael":
        return state.cadfael_score
    return state.dark_lord_score()


@pytest.mark.parametrize("game,players,opponent,categories", TITLES)
@pytest.mark.parametrize("seed", range(6))
def test_categories_add_up_to_the_engines_final_scores(game, players, opponent, categories, seed):
    state = _finished(game, players, seed)
    sheet = state.score_sheet()
    assert sheet.categories == categories
    seats = [ln for ln in sheet.lines if ln.seat is not None]
    assert [ln.seat for ln in seats] == list(range(players))  # every seat, in seat order
    for ln in seats:
        assert sum(ln.points) == ln.total == state.scores[ln.seat]
        assert ln.won == (ln.seat in state.winners)
    others = [ln for ln in sheet.lines if ln.seat is None]
    if opponent is None:
        assert others == []
    else:
        (line,) = others
        assert line.name.startswith(opponent)
        assert sum(line.points) == line.total == _opponent_score(state, opponent)
        if opponent != "Cadfael":  # Cadfael never wins (rulebook: Rules for 2 Players)
            assert line.won == (not state.winners)
    assert sheet.outcome and sheet.source.startswith(("rulebook", "rules"))
    data = sheet.to_json()
    assert [ln["total"] for ln in data["lines"]] == [ln.total for ln in sheet.lines]
    assert data["categories"] == list(categories)


#: Seeds of random games (``random_playout``) whose top score is tied, and the tie-break that decides.
TIES = [
    ("kingdom-of-dice", 3, 0, "Player 1 wins on a higher best Influence card (rulebook: End of the Game and Winner)"),
    ("corsairs-of-valeria", 2, 197, "Player 2 wins on more Silver (rulebook: Ending the Game)"),
    ("biblios-dice", 2, 6, "Player 2 wins on more Gold left (rulebook: Determining a Winner)"),
    ("biblios-dice", 2, 8, "Player 2 wins on being further up the Bishop Track (rulebook: Determining a Winner)"),
    ("dice-kingdoms-of-valeria", 2, 8, "Player 1 wins on more Star pips (rulebook: Scoring)"),
    ("valeria-card-kingdoms", 2, 228, "Player 1 wins on fewer cards in the tableau (rule R8.6"),
    ("valeria-card-kingdoms", 2, 247, "they share the victory (rule R8.6"),
]


@pytest.mark.parametrize("game,players,seed,says", TIES)
def test_a_tie_names_the_rulebooks_tie_break(game, players, seed, says):
    state = _finished(game, players, seed)
    top = max(state.scores)
    assert state.scores.count(top) >= 2  # the seed's game is a tie on the top score
    sheet = state.score_sheet()
    assert f"tied on {top}" in sheet.outcome and says in sheet.outcome


def test_outcome_sentences():
    """No tie; a tie broken by the second measure; a tie no measure breaks; a non-contender's top score."""
    gold, bishop = TieMeasure("Gold left"), TieMeasure("Bishop space", True, "being further up")
    a = ScoreLine("Player 1", 0, (30, 1), 31, (2, 5), False)
    b = ScoreLine("Player 2", 1, (31, 0), 31, (2, 7), True)
    c = ScoreLine("Player 3", 2, (20,), 20, (9, 9), False)
    assert outcome_text([a, b, c], [gold, bishop], "rulebook: X") == \
        "Player 1 and Player 2 tied on 31; Player 2 wins on being further up (rulebook: X)."
    both = ScoreLine("Player 1", 0, (31,), 31, (2, 7), True)
    assert outcome_text([both, b], [gold, bishop], "rulebook: X") == \
        "Player 1 and Player 2 tied on 31 and on every tie-break (Gold left, Bishop space): " \
        "they share the victory (rulebook: X)."
    assert outcome_text([b, c], [gold], "rulebook: X") == "Player 2 wins with 31."
    cad = ScoreLine("Cadfael", None, (40,), 40, (None, 1), False, contender=False)
    assert outcome_text([b, c, cad], [gold], "rulebook: X") == "Player 2 wins with 31."
    fewer = TieMeasure("cards", False)
    assert outcome_text([ScoreLine("Player 1", 0, (5,), 5, (3,), True), ScoreLine("Player 2", 1, (5,), 5, (4,))],
                        [fewer], "R") == "Player 1 and Player 2 tied on 5; Player 1 wins on fewer cards (R)."
    with pytest.raises(ValueError, match="add up"):
        ScoreLine("Player 1", 0, (1, 2), 4)


@pytest.mark.parametrize("seed", range(4))
def test_the_hidden_objective_variant_adds_its_category(seed):
    """Biblios Dice's Hidden Objective Variant: a sixth scoring line, still adding up to the score."""
    state = new_game("biblios-dice", 3, seed=seed, options={"hidden_objectives": True})
    random_playout(state, Rng(seed))
    sheet = state.score_sheet()
    assert sheet.categories[-1] == "Hidden Objective"
    for line in sheet.lines:
        assert sum(line.points) == line.total == state.scores[line.seat]
        assert line.points[-1] in (0, 3)  # the rulebook's bonus: 3 VPs for first place on the secret track



@settings(max_examples=300, deadline=None)
@given(totals=st.lists(st.integers(0, 5), min_size=2, max_size=4),
       ties=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=4, max_size=4))
def test_outcome_names_the_first_measure_that_separates_the_tied(totals, ties):
    """Winners ranked as a rulebook does (total, then each measure in turn, more wins): the sentence
    names the winners, says "tied on" exactly when the top total is shared, and names the first
    measure on which the winners beat the others tied with them, or a shared victory."""
    n = len(totals)
    keys = [(totals[i], *ties[i]) for i in range(n)]
    best = max(keys)
    lines = [ScoreLine(f"Player {i + 1}", i, (totals[i],), totals[i], ties[i], keys[i] == best) for i in range(n)]
    measures = [TieMeasure("Silver"), TieMeasure("Grog")]
    text = outcome_text(lines, measures, "rulebook: R")
    top = max(totals)
    tied = [i for i in range(n) if totals[i] == top]
    winners = [i for i in range(n) if keys[i] == best]
    assert all(f"Player {i + 1}" in text for i in winners)
    assert (f"tied on {top}" in text) == (len(tied) > 1)
    if len(tied) > 1 and len(winners) < len(tied):
        alive = [i for i in tied if ties[i][0] == max(ties[j][0] for j in tied)]
        first = 0 if alive == winners else 1  # Silver alone decided, or Grog among the most Silver
        assert f"on more {measures[first].name} (rulebook: R)" in text
    if len(tied) > 1 and len(winners) == len(tied):
        assert "share the victory" in text


# ------------------------------------------------------------------ places
def _sheet_of(rows, lower_second):
    """A sheet of seat lines (total, first measure, second measure), the winners chosen as a rulebook
    would: best total, then the higher first measure, then the second (lower wins when ``lower_second``)."""
    measures = (TieMeasure("a"), TieMeasure("b", not lower_second))

    def rank(r):
        return (r[0], r[1], -r[2] if lower_second else r[2])

    best = max(rank(r) for r in rows)
    lines = tuple(ScoreLine(f"P{s}", s, (r[0],), r[0], (r[1], r[2]), rank(r) == best) for s, r in enumerate(rows))
    return ScoreSheet(("Score",), lines, "", "rulebook", measures), [rank(r) for r in rows]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 2), st.integers(0, 2)), min_size=1, max_size=5),
       st.booleans())
def test_places_are_competition_ranks_of_the_rulebook_order(rows, lower_second):
    sheet, ranks = _sheet_of(rows, lower_second)
    got = sheet.places()
    for s, mine in enumerate(ranks):
        # 1 + the seats strictly ahead by score, then each tie measure in its own direction
        assert got[s] == 1 + sum(1 for other in ranks if other > mine)
    assert min(got) == 1


def test_a_solo_opponent_that_won_puts_the_seat_second():
    lines = (ScoreLine("Player 1", 0, (50,), 50, (), False), ScoreLine("the Cat", None, (60,), 60, (), True))
    assert ScoreSheet(("Score",), lines, "", "rulebook").places() == (2,)
