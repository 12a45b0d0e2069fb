"""Biblios Dice as a fixed-length feature vector (the research observation space).

Drawn from ``observation(seat)`` only: another seat's Gold, VP tokens, face-down card and Hidden
Objective are not in it, so they cannot be encoded. Seat slices start from the observer; track
positions count Cadfael as one more marker when he plays (2 players). See
:mod:`dicetable.engine.encoding`; ``Encoding.slices`` documents each position.
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from typing import Any, Callable, Final

from dicetable.engine.encoding import (
    DirectFill, Encoding, Feature, Obs, counts, numbers, one_hot, per_seat, scalar, seat_order, shared_memo,
)

from .components import (
    ADJ_FACES, ADJUST, CARD_VALUES, GOLD, MULE_FINAL, NRES, NTRACKS, RESOURCES, SYMBOLS, TOKEN_SPOTS, TOP,
)
from .rules import GOLD_VALUES, MARK_KINDS, OVER, PHASES, BibliosDiceState
from .viewdata import own_row
_DICE_KINDS: Final = SYMBOLS
_GOLD_SCALE: Final = 30.0


def _tracks(players: int, cadfael: bool) -> Feature:
    """Each track's marker of each seat (from the observer on, then Cadfael): space / top."""
    markers = players + (1 if cadfael else 0)

    def fill(obs: Obs, out: list[float], start: int) -> None:
        order = seat_order(obs, players) + (["cadfael"] if cadfael else [])
        slot = {m: k for k, m in enumerate(order)}
        for t, sym in enumerate(SYMBOLS):
            for space, who in enumerate(obs["tracks"][sym]):
                for m in who:
                    out[start + t * markers + slot[m]] = (space + 1) / TOP[t]
    return Feature("tracks", len(SYMBOLS) * markers, "per track (" + ", ".join(SYMBOLS)
                   + "): each marker's space / the track's top, seats from the observer on"
                   + (", then Cadfael" if cadfael else ""), fill)


def _dice(name: str, get: Callable[[Obs], Any], meaning: str) -> list[Feature]:
    return [
        numbers(name, lambda o: [get(o).get(k, 0) for k in _DICE_KINDS], len(_DICE_KINDS), 6,
                f"{meaning}: Resource and Bishop dice by symbol (count / 6)"),
        one_hot(f"{name}_gold", lambda o: get(o).get("gold"), GOLD_VALUES, f"{meaning}: the Gold Die's face"),
        one_hot(f"{name}_adjustment", lambda o: get(o).get("adjustment"), tuple(f.id for f in ADJ_FACES),
                f"{meaning}: the Adjustment Die's face"),
    ]


def _group(k: int) -> Callable[[Obs], Any]:
    return lambda o: o["groups"][k] if len(o["groups"]) > k else {}


def _player(key: str) -> Callable[[Obs], Any]:
    return lambda v: v["obs"]["players"][v["seat"]][key]


def observation_encoding(players: int, options: dict[str, Any]) -> Encoding:
    """The feature layout for ``players`` seats (rulebook sections: Phase I-III, the Market,
    Bidding, End of the game)."""
    cadfael = players == 2
    feats = [
        one_hot("phase", lambda o: o["phase"], PHASES, "the phase of the round"),
        scalar("round", lambda o: o["round"], 20, "round / 20"),
        per_seat(players, scalar("is_first", lambda v: v["obs"]["first_player"] == v["seat"], 1,
                                 "1 for the first player")),
        per_seat(players, scalar("to_move", lambda v: v["seat"] in v["obs"]["to_move"], 1,
                                 "1 for each seat asked to decide now")),
        numbers("value_dice", lambda o: [o["value_dice"][r] for r in RESOURCES], NRES, 6,
                "each Resource's Value Die / 6"),
        _tracks(players, cadfael),
        numbers("vp_stacks", lambda o: [sum(o["vp_stacks"][r][k]) for r in RESOURCES for k in (0, 1)],
                NRES * 2, 10, "VP left in each Resource Track's lower and upper stack / 10"),
        numbers("bishop_stacks", lambda o: [b["count"] for b in o["bishop_stacks"]], len(TOKEN_SPOTS), 3,
                "Bishop Tokens left at each spot / 3"),
        scalar("mule", lambda o: o["mule"], MULE_FINAL, "the Mule's position / the market"),
        *_dice("pool", lambda o: o["pool"], "dice in the pool"),
        numbers("marked", lambda o: [o["marked"].get(k, 0) for k in MARK_KINDS], len(MARK_KINDS), 6,
                "dice marked for a re-roll, by kind"),
        *_dice("small_group", lambda o: o["small_group"], "the small group being split off"),
        *_dice("group_large", _group(0), "the large group on auction"),
        *_dice("group_small", _group(1), "the small group on auction"),
        per_seat(players, scalar("face_down_placed", _player("face_down_placed"), 1, "placed a card face down")),
        per_seat(players, scalar("bidding", _player("bidding"), 1, "still bidding")),
        per_seat(players, scalar("sitting_out", _player("sitting_out"), 1, "sits this auction out")),
        per_seat(players, scalar("revealed_total", lambda v: sum(v["obs"]["players"][v["seat"]]["revealed"]),
                                 _GOLD_SCALE, "sum of Bidding Cards revealed in this auction / 30")),
        per_seat(players, counts("cards_not_revealed", _player("cards_not_revealed"), CARD_VALUES, 1,
                                 "Bidding Cards not yet revealed, by value")),
        scalar("my_gold", lambda o: o.get("my_gold"), _GOLD_SCALE, "the observer's Gold / 30 (behind its shield)"),
        scalar("my_vp_tokens", lambda o: o.get("my_vp_tokens"), 30, "the observer's VP tokens / 30"),
        counts("my_hand", lambda o: own_row(o).get("hand", ()), CARD_VALUES, 1, "the observer's Bidding Cards in hand"),
        one_hot("my_face_down", lambda o: own_row(o).get("face_down"), CARD_VALUES, "the observer's face-down card"),
        one_hot("my_objective", lambda o: own_row(o).get("objective"), RESOURCES, "the observer's Hidden Objective"),
        scalar("auctions_held", lambda o: o["auctions_held"], 10, "auctions held / 10"),
    ]
    if cadfael:
        feats.append(scalar("cadfael_revealed", lambda o: sum(o["cadfael"]["revealed"]), _GOLD_SCALE,
                            "sum of Cadfael's revealed cards / 30"))
    return Encoding(feats, direct=lambda offsets: _direct(players, cadfael, offsets))


def _direct(players: int, cadfael: bool, at: dict[str, int]) -> DirectFill:
    """The same vector as the features above, written from the state.

    Reads another seat's hand and face-down card only as the observation shows them (together,
    as cards not yet revealed); its Gold, VP tokens and objective never.
    """
    markers = players + (1 if cadfael else 0)
    phase_index = {p: i for i, p in enumerate(PHASES)}
    card_index = {v: i for i, v in enumerate(CARD_VALUES)}
    n_cards = len(CARD_VALUES)
    n_gold, n_adj = len(GOLD_VALUES), len(ADJ_FACES)
    dice_at = [(at[name], at[f"{name}_gold"], at[f"{name}_adjustment"])
               for name in ("pool", "small_group", "group_large", "group_small")]
    o = at

    def dice(values: Any, where: tuple[int, int, int], out: Any) -> None:
        kinds, gold, adjustment = where
        for k in range(NTRACKS):
            if values[k]:
                out[kinds + k] = values[k] / 6
        if 0 <= values[GOLD] < n_gold:
            out[gold + values[GOLD]] = 1.0
        if 0 <= values[ADJUST] < n_adj:
            out[adjustment + values[ADJUST]] = 1.0

    # the Value Dice, tracks, VP and Bishop stacks and the Mule are one run of the vector
    o_board = o["value_dice"]
    board_size = o["mule"] + 1 - o_board
    # each block twice: a float32 memoryview (copied into a buffer in one slice) and its values as
    # Python floats (a list output takes them without making new float objects)
    boards: dict[tuple[Any, ...], tuple[memoryview, tuple[float, ...]]] = shared_memo("biblios-dice", "board", players)

    def board_block(state: BibliosDiceState, key: tuple[Any, ...]) -> tuple[memoryview, tuple[float, ...]]:
        """The board's slices seen from seat ``key[-1]`` on (memoised on the public board)."""
        if len(boards) > 4096:  # bound the memory of long runs
            boards.clear()
        value, pos, stacks, bishops, mule, first = key
        n = state.players
        # float32, as the vector is: a memoryview of it copies into a float32 buffer in one slice
        block = array("f", bytes(4 * board_size))
        for d in range(NRES):
            block[o["value_dice"] - o_board + d] = value[d] / 6
        nm, cad = state.nm, state.cad
        for t in range(NTRACKS):
            row = o["tracks"] - o_board + t * markers
            for m in range(nm):
                block[row + (players if m == cad else (m - first) % n)] = pos[t * nm + m] / TOP[t]
        for i in range(NRES * 2):
            block[o["vp_stacks"] - o_board + i] = sum(stacks[i]) / 10
        for g, count in enumerate(bishops):
            block[o["bishop_stacks"] - o_board + g] = count / 3
        block[o["mule"] - o_board] = mule / MULE_FINAL
        got = boards[key] = (memoryview(block), tuple(block))
        return got

    @lru_cache(maxsize=None)
    def card_slots(bits: int) -> tuple[int, ...]:
        """Slots among CARD_VALUES of the cards in a bit mask (bit v: the card of value v)."""
        return tuple(i for i, v in enumerate(CARD_VALUES) if bits >> v & 1)

    # the fill's slots, looked up once here rather than by name at every write (a dict access each)
    at_auctions_held = o["auctions_held"]
    at_bidding = o["bidding"]
    at_cadfael_revealed = o.get("cadfael_revealed", -1)  # -1: not in this layout (never written then)
    at_cards_not_revealed = o["cards_not_revealed"]
    at_face_down_placed = o["face_down_placed"]
    at_is_first = o["is_first"]
    at_marked = o["marked"]
    at_my_face_down = o["my_face_down"]
    at_my_gold = o["my_gold"]
    at_my_hand = o["my_hand"]
    at_my_objective = o["my_objective"]
    at_my_vp_tokens = o["my_vp_tokens"]
    at_phase = o["phase"]
    at_revealed_total = o["revealed_total"]
    at_round = o["round"]
    at_sitting_out = o["sitting_out"]
    at_to_move = o["to_move"]

    def fill(state: BibliosDiceState, seat: int | None, out: Any) -> None:
        n = state.players
        over = state.phase == OVER
        out[at_phase + phase_index[state.phase]] = 1.0
        out[at_round] = state.round_no / 20
        first = seat if seat is not None else 0
        rel = [(s - first) % n for s in range(n)]
        out[at_is_first + rel[state.first]] = 1.0
        for s in state.to_move:
            out[at_to_move + rel[s]] = 1.0
        key = (tuple(state.value), tuple(state.pos), tuple(state.vp_stacks),
               tuple(map(len, state.bishop_stacks)), state.mule, first)
        block = boards.get(key)
        if block is None:
            block = board_block(state, key)
        out[o_board:o_board + board_size] = block[1 if type(out) is list else 0]
        dice(state.pool, dice_at[0], out)
        for k, c in enumerate(state.marks):
            if c:
                out[at_marked + k] = c / 6
        dice(state.small, dice_at[1], out)
        for g, group in enumerate(state.groups[:2]):
            dice(group, dice_at[2 + g], out)
        hands, facedown = state.hands, state.facedown
        for s in range(n):
            k = rel[s]
            if facedown[s] >= 0:
                out[at_face_down_placed + k] = 1.0
            if state.active >> s & 1:
                out[at_bidding + k] = 1.0
            if state.sitting >> s & 1:
                out[at_sitting_out + k] = 1.0
            out[at_revealed_total + k] = sum(state.played[s]) / _GOLD_SCALE
            unrevealed = hands[s] | (1 << facedown[s] if facedown[s] >= 0 else 0)
            row = at_cards_not_revealed + k * n_cards
            for i in card_slots(unrevealed):
                out[row + i] = 1.0
        if seat is not None:
            if not over:
                out[at_my_gold] = state.gold[seat] / _GOLD_SCALE
                out[at_my_vp_tokens] = state.vp[seat] / 30
                for i in card_slots(hands[seat]):
                    out[at_my_hand + i] = 1.0
                if facedown[seat] >= 0:
                    out[at_my_face_down + card_index[facedown[seat]]] = 1.0
            if state.objectives[seat] >= 0:
                out[at_my_objective + state.objectives[seat]] = 1.0
        out[at_auctions_held] = state.auctions / 10
        if cadfael:
            out[at_cadfael_revealed] = sum(state.cad_played) / _GOLD_SCALE
    return fill
