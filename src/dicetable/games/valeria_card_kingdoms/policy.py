"""Placeholder policy (replaced below)."""
from dicetable.engine import Action


def greedy(state, seat) -> Action:
    return state.legal_actions(seat)[0]


def evaluate(state, seat) -> float:
    return 0.5
