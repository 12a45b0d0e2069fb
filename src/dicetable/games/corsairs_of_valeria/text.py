def render(state, seat=None):
    return str(state.observation(seat))
