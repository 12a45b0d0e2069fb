def greedy(state, seat):
    return state.legal_actions(seat)[0]
def evaluate(state, seat):
    return 0.5
