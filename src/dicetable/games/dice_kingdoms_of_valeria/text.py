def render(state, seat=None):
    from rich.text import Text
    return Text(str(state.observation(seat)["phase"]))
