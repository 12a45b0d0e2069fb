"""Kingdom of Dice as a fixed-length feature vector (the research observation space).

Drawn from ``observation(seat)`` only; seat slices start from the observer. See
:mod:`dicetable.engine.encoding` for the mechanism; ``Encoding.slices`` documents each position.
"""

from __future__ import annotations

from array import array
from typing import Any, cast, Final

from dicetable.engine.encoding import (
    DirectFill, Encoding, Feature, Obs, counts, one_hot, per_seat, put_counts, scalar, seat_order, shared_memo,
)

from .components import CAT_LEVELS, CARD_VALUE, CARDS, FACE_ORDER, SPACES
from .rules import CAT, DICE, EMPTY, MARKERS, OVER, PLACE, ROUNDS, SET_ASIDE, KingdomOfDiceState, result_value
from .viewdata import Observation, market_ids, owners

_CARD_IDS: Final = tuple(c.id for c in CARDS)
#: A memoised slice of the vector: as a float32 memoryview and as Python floats.
Block = tuple[memoryview, tuple[float, ...]]
_SCORE_SCALE: Final = 200.0


def _board(players: int) -> Feature:
    """Each board space: empty, a seat's Crown marker (from the observer on), or the Cat's."""
    width = players + 2

    def fill(obs: Obs, out: list[float], start: int) -> None:
        rel = {s: k for k, s in enumerate(seat_order(obs, players))}
        for i, owner in enumerate(owners(cast(Observation, obs))):
            offset = start + i * width
            if owner is None:
                out[offset] = 1.0
            else:
                out[offset + (players + 1 if owner == "cat" else 1 + rel[owner])] = 1.0
    return Feature("board", len(SPACES) * width,
                   f"per board space {SPACES[0]}..{SPACES[-1]}: one-hot of empty, each seat's Crown "
                   "marker from the observer on, the Cat's marker", fill)


def observation_encoding(players: int, options: dict[str, Any]) -> Encoding:
    """The feature layout for ``players`` seats (rulebook sections: Setting dice aside, Placing a
    Crown marker, End of a round; solo: the Mischievous Cat)."""
    feats = [
        one_hot("round", lambda o: o["round"], range(1, ROUNDS + 1), "the round, 1-3"),
        one_hot("phase", lambda o: o["phase"], (SET_ASIDE, PLACE, OVER), "set-aside, place, over"),
        per_seat(players, scalar("is_current", lambda v: v["obs"]["current"] == v["seat"], 1,
                                 "1 for the seat taking its turn")),
        per_seat(players, scalar("is_first", lambda v: v["obs"]["first_player"] == v["seat"], 1,
                                 "1 for the round's first player")),
        counts("roll", lambda o: o["roll"], FACE_ORDER, DICE, "dice just rolled, by face (count / 6)"),
        counts("kept", lambda o: o["kept"], FACE_ORDER, DICE, "dice set aside, by face (count / 6)"),
        scalar("picked_since_roll", lambda o: o["picked_since_roll"], DICE, "dice set aside since the roll / 6"),
        scalar("result_value", lambda o: o["result_value"], 100, "value of the dice set aside / 100 (0: not valid)"),
        scalar("target_space", lambda o: o["target_space"], SPACES[-1], "space the result may take / last space"),
        _board(players),
        per_seat(players, scalar("markers_left", lambda v: v["obs"]["markers_left"][v["seat"]], MARKERS,
                                 "Crown markers left / markers per player")),
        counts("market", lambda o: market_ids(cast(Observation, o)), _CARD_IDS, 1, "Influence cards on offer"),
        per_seat(players, counts("won", lambda v: v["obs"]["won"][v["seat"]], _CARD_IDS, 1,
                                 "Influence cards the seat has won")),
        per_seat(players, scalar("score", lambda v: (v["obs"]["scores"] or [0] * players)[v["seat"]],
                                 _SCORE_SCALE, "the seat's points / 200")),
        scalar("draw_pile", lambda o: o["draw_pile"], len(CARDS), "cards left in the draw pile / all cards"),
    ]
    if players == 1:
        feats += [
            one_hot("cat_level", lambda o: o["cat"]["level"], sorted(CAT_LEVELS), "the Cat's level"),
            counts("cat_won", lambda o: o["cat"]["won"], _CARD_IDS, 1, "Influence cards the Cat has won"),
            scalar("cat_score", lambda o: o["cat"]["score"], _SCORE_SCALE, "the Cat's points / 200"),
        ]
    return Encoding(feats, direct=lambda offsets: _direct(players, offsets))


def _direct(players: int, at: dict[str, int]) -> DirectFill:
    """The same vector as the features above, written from the state (only the draw pile's
    order is hidden in this game, and only its size is read)."""
    width = players + 2
    phase_index = {SET_ASIDE: 0, PLACE: 1, OVER: 2}
    n_cards = len(_CARD_IDS)
    solo = players == 1
    cat_levels = sorted(CAT_LEVELS)
    o_round, o_phase, o_current, o_first, o_roll, o_kept = (at[k] for k in (
        "round", "phase", "is_current", "is_first", "roll", "kept"))
    o_picked, o_value, o_target, o_board, o_markers, o_market = (at[k] for k in (
        "picked_since_roll", "result_value", "target_space", "board", "markers_left", "market"))
    o_won, o_score, o_pile = at["won"], at["score"], at["draw_pile"]

    board_size = len(SPACES) * width
    # each memoised block twice: a float32 memoryview (copied into a buffer in one slice) and
    # its values as Python floats (a list output takes them without making new float objects)
    blocks: dict[tuple[tuple[int, ...], int], Block] = shared_memo("kingdom-of-dice", "board", players)

    def board_block(board: tuple[int, ...], first: int) -> Block:
        """The board slice for ``board`` seen from seat ``first`` on (memoised: a board changes once a turn)."""
        got = blocks.get((board, first))
        if got is None:
            if len(blocks) > 4096:  # bound the memory of long runs
                blocks.clear()
            # float32, as the vector is: a memoryview of it copies into a float32 buffer in one slice
            block = array("f", bytes(4 * board_size))
            for i, owner in enumerate(board):
                block[i * width + (0 if owner == EMPTY else players + 1 if owner == CAT
                                   else 1 + (owner - first) % players)] = 1.0
            got = blocks[board, first] = (memoryview(block), tuple(block))
        return got

    # the market, each seat's cards won and score are one run of the vector, changed once a round
    if o_won != o_market + n_cards or o_score != o_won + players * n_cards:
        raise ValueError("the market, won and score features must follow one another")
    cards_size = n_cards * (1 + players) + players
    cards_blocks: dict[tuple[Any, ...], Block] = shared_memo("kingdom-of-dice", "cards", players)

    def cards_block(market: tuple[int, ...], won: tuple[tuple[int, ...], ...], first: int) -> Block:
        """The market, cards-won and score slices, seats from ``first`` on (memoised)."""
        key = (market, won, first)
        got = cards_blocks.get(key)
        if got is None:
            if len(cards_blocks) > 4096:  # bound the memory of long runs
                cards_blocks.clear()
            # float32, as the vector is: a memoryview of it copies into a float32 buffer in one slice
            block = array("f", bytes(4 * cards_size))
            put_counts(block, 0, market)
            for s, cards in enumerate(won):
                k = (s - first) % players
                put_counts(block, n_cards * (1 + k), cards)
                block[n_cards * (1 + players) + k] = sum(CARD_VALUE[c] for c in cards) / _SCORE_SCALE
            got = cards_blocks[key] = (memoryview(block), tuple(block))
        return got

    # per observer, the board and the cards (market, cards won) of this fill's last call with their
    # blocks: the fills of one game follow each other, the board changes once a turn and the cards
    # once a round, so an equal list spares the key (one tuple each, read once: a fill in another
    # thread replaces it whole)
    no_block: Block = (memoryview(b""), ())
    last_board: list[tuple[list[int], Block]] = [([], no_block)] * players
    last_cards: list[tuple[list[int], list[list[int]], Block]] = [([], [], no_block)] * players
    board_slice, cards_slice = slice(o_board, o_board + board_size), slice(o_market, o_market + cards_size)

    def fill(state: KingdomOfDiceState, seat: int | None, out: Any) -> None:
        if 1 <= state.round_no <= ROUNDS:
            out[o_round + state.round_no - 1] = 1.0
        out[o_phase + phase_index[state.phase]] = 1.0
        first = seat if seat is not None else 0
        rel = [(s - first) % players for s in range(players)]
        out[o_current + rel[state.current]] = 1.0
        out[o_first + rel[state.first]] = 1.0
        for i, n in enumerate(state.rolled):
            if n:
                out[o_roll + i] = n / DICE
        kept = state.kept
        for i, n in enumerate(kept):
            if n:
                out[o_kept + i] = n / DICE
        out[o_picked] = state.picked / DICE
        value = result_value(kept)
        if value is not None:
            out[o_value] = value / 100
        target = state.target
        if target >= 0:
            out[o_target] = SPACES[target] / SPACES[-1]
        pick = 1 if type(out) is list else 0  # which form of a memoised block (see above)
        board = state.board
        seen = last_board[first]
        if board == seen[0]:
            block = seen[1]
        else:
            block = board_block(tuple(board), first)
            last_board[first] = (board.copy(), block)
        out[board_slice] = block[pick]
        spent = state.spent if solo else 0
        for s, placed in enumerate(state.placed):
            out[o_markers + rel[s]] = (MARKERS - placed - spent) / MARKERS
        market, won = state.market, state.won
        seen_cards = last_cards[first]
        if market == seen_cards[0] and won == seen_cards[1]:
            cards = seen_cards[2]
        else:
            cards = cards_block(tuple(market), tuple(map(tuple, won)), first)
            last_cards[first] = (market.copy(), [w.copy() for w in won], cards)
        out[cards_slice] = cards[pick]
        out[o_pile] = len(state.deck) / len(CARDS)
        if solo:
            out[at["cat_level"] + cat_levels.index(state.options["cat_level"])] = 1.0
            put_counts(out, at["cat_won"], state.cat_won)
            out[at["cat_score"]] = state.cat_score / _SCORE_SCALE
    return fill
