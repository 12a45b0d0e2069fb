"""Balance facts of a finished Valeria: Card Kingdoms game, for ``dicetable analyze``.

Read from the spectator observation only (``GameSpec.balance_facts``); Dukes are
face down during play and revealed at the end, so the final observation shows them.
"""

from __future__ import annotations


def balance_facts(obs: dict) -> dict:
    """Per seat ``duke`` and ``turn_order``; per table ``setup`` (and ``dark_lord`` solo).

    ``obs`` is ``state.observation(None)`` of a finished game. ``turn_order``
    is 1 for the first player, 2 for the next, and so on (the first player
    is drawn at random in setup). ``setup`` is the rulebook setup played;
    for ``random`` it names the Monster areas left to right instead, e.g.
    ``random: Hills, Forest, ...``.
    """
    n = obs["players"]
    setup = obs["setup"]
    if setup == "random":
        setup = "random: " + ", ".join(m["area"] for m in obs["monsters"])
    facts = {
        "duke": [p.get("duke") or "none" for p in obs["player"]],
        "turn_order": [(s - obs["first_player"]) % n + 1 for s in range(n)],
        "setup": setup,
    }
    if "dark_lord" in obs:
        facts["dark_lord"] = obs["dark_lord"]["duke"] or "none"
    return facts
