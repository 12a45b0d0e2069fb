"""Placeholder renderer."""
from rich.text import Text


def render(state, seat=None):
    return Text(str(state.observation(seat)))
