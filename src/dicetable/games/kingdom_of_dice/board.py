"""Browser board of a Kingdom of Dice table: an HTML fragment drawn from ``observation(seat)`` only.

``board_view(obs, actions, seat)`` lays the table out like the physical game
(rulebook: Components, Setup, Round Setup): the board's result spaces as a
road climbing to the castle, the Crown markers on them, the round's Influence
cards in a column beside the castle (highest at the top), the dice in the box
lid with those set aside beside it, and one panel per player (cards won,
points, Crown markers left), the Mischievous Cat's in solo.

Actions are placed on their pieces: ``keep:<face>`` on every die showing that
face, ``place`` on the space the marker would go to, ``reroll``, ``stop`` and
``decline`` beside the dice they concern. The fragment contains no script and
is a pure function of its arguments (same arguments, byte-identical HTML).
"""

from __future__ import annotations

from html import escape

from dicetable.engine import seat_name

from .components import CARD_INDEX, CARD_NAME, CARD_VALUE, CARDS, COMPONENTS, FACE_INDEX, FACE_ORDER, SPACES
from .rules import face_counts, free_space_at_or_below, observed_board, observed_claims

COLOURS = COMPONENTS.markers.colours
MARKERS = COMPONENTS.markers.per_player
MARKERS_TO_END = COMPONENTS.round.markers_to_end
ROUNDS = COMPONENTS.round.rounds
SPECIAL_ROUND = {c.id: c.special_round for c in CARDS}

# Road geometry: four rows of eight spaces, snaking up to the castle (top right).
_COLS = 8
_CELL_W, _CELL_H = 66, 58
_X0, _Y0 = 8, 8
_ROWS = (len(SPACES) + _COLS - 1) // _COLS
_SVG_W = _X0 + _COLS * _CELL_W + 78
_SVG_H = _Y0 * 2 + _ROWS * _CELL_H

_CROWN_POINTS = "-9,6 -9,-5 -4.5,0 0,-8 4.5,0 9,-5 9,6"
_PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
}
_FACE_HELP = {
    "crown": "A crown: a valid result needs at least one; the numbers' sum is multiplied by the crowns.",
    1: "A 1: any number of 1s may be in a result.",
    2: "A 2: 2s count only if there are at least two of them.",
    3: "A 3: 3s count only if there are at least three of them.",
    4: "A 4: 4s count only if there are at least four of them.",
    5: "A 5: a result may hold at most one 5.",
}


def _a(value) -> str:
    """Escape an attribute value (quotes included)."""
    return escape(str(value), quote=True)


def _t(value) -> str:
    """Escape element text."""
    return escape(str(value), quote=False)


def _owner_name(owner) -> str:
    if owner == "cat":
        return "the Mischievous Cat"
    return f"{seat_name(owner)} ({COLOURS[owner % len(COLOURS)]})"


def _owner_class(owner) -> str:
    return "cat" if owner == "cat" else f"c-{COLOURS[owner % len(COLOURS)]}"


def _space_xy(index: int) -> tuple[float, float]:
    """Top-left corner of the cell of ``SPACES[index]`` (row 0 at the bottom, snaking up)."""
    row, col = divmod(index, _COLS)
    rows_from_top = _ROWS - 1 - row
    # The top row runs left to right so that the highest space ends next to the castle.
    left_to_right = (row % 2) == ((_ROWS - 1) % 2)
    x = _X0 + (col if left_to_right else _COLS - 1 - col) * _CELL_W
    y = _Y0 + rows_from_top * _CELL_H
    return x, y


def _why_not_valid(counts) -> str:
    """Which conditions of a valid result the set-aside dice miss (rulebook step 2)."""
    missing = []
    if counts[0] == 0:
        missing.append("a crown")
    if sum(counts[1:]) == 0:
        missing.append("a number")
    for face in (2, 3, 4):
        if 0 < counts[face] < face:
            missing.append(f"{face - counts[face]} more {face}{'s' if face - counts[face] > 1 else ''}")
    text = "needs " + ", ".join(missing) if missing else ""
    if counts[5] > 1:
        text = (text + "; " if text else "") + "more than one 5 can never be valid"
    return text


# ------------------------------------------------------------------ pieces
def _crown_marker(cx: float, cy: float, owner, r: float = 15) -> str:
    cls = _owner_class(owner)
    if owner == "cat":
        return (f'<g class="kod-marker {cls}" transform="translate({cx},{cy})">'
                f'<circle r="{r}"/><polygon class="ear" points="-11,-6 -8,-16 -2,-10"/>'
                f'<polygon class="ear" points="11,-6 8,-16 2,-10"/>'
                f'<circle class="eye" cx="-4.5" cy="-1" r="2"/><circle class="eye" cx="4.5" cy="-1" r="2"/>'
                f'<path class="eye-line" d="M-3,6 Q0,8 3,6"/></g>')
    return (f'<g class="kod-marker {cls}" transform="translate({cx},{cy})"><circle r="{r}"/>'
            f'<polygon class="crown" points="{_CROWN_POINTS}"/></g>')


def _road(obs: dict, actions: dict, target: int | None, preview: int | None) -> str:
    board = obs["board"]
    parts = [f'<svg class="kod-road" viewBox="0 0 {_SVG_W} {_SVG_H}" '
             f'aria-label="The board: result spaces {SPACES[0]} to {SPACES[-1]}, the castle after space {SPACES[-1]}">']
    centres = []
    for i in range(len(SPACES)):
        x, y = _space_xy(i)
        centres.append((x + _CELL_W / 2, y + _CELL_H / 2))
    path = " ".join(f"{'M' if i == 0 else 'L'}{cx:.0f},{cy:.0f}" for i, (cx, cy) in enumerate(centres))
    parts.append(f'<path class="kod-path" d="{path}"/>')
    # The castle, beside the highest space.
    cx, cy = centres[-1]
    parts.append(f'<g class="kod-castle" transform="translate({cx + _CELL_W / 2 + 36:.0f},{cy:.0f})">'
                 '<title>The castle: the higher your result, the closer to the castle your Crown marker '
                 'stands, and the better the Influence card it takes at the round&#x27;s end.</title>'
                 '<path d="M-30,24 V-10 H-22 V-18 H-14 V-10 H-6 V-26 H6 V-10 H14 V-18 H22 V-10 H30 V24 Z"/>'
                 '<path class="door" d="M-7,24 V12 Q0,4 7,12 V24 Z"/></g>')
    place_label = actions.get("place")
    for i, space in enumerate(SPACES):
        x, y = _space_xy(i)
        owner = board.get(str(space))
        classes = ["kod-space"]
        if owner is not None:
            classes.append("taken")
        if space == target:
            classes.append("target")
        if space == preview:
            classes.append("preview")
        attrs = f'class="{" ".join(classes)}" data-space="{space}"'
        if space == target and place_label is not None:
            attrs += f' data-action="place" role="button" tabindex="0" aria-label="{_a(place_label)}"'
        if owner is None:
            tip = (f"Space {space}: a result worth {space} places a Crown marker here; if it is taken, "
                   "the marker goes to the next lower free space.")
        elif owner == "cat":
            tip = f"Space {space}: the Mischievous Cat's Crown marker, which stays on the board all game."
        else:
            tip = (f"Space {space}: {_owner_name(owner)}'s Crown marker. At the round's end the markers "
                   "take the Influence cards from the highest space down.")
        if space == target:
            tip += " Your result's marker goes here: place it, or decline."
        elif space == preview:
            tip += " If you stop now, your marker would go here."
        parts.append(f'<g {attrs}><title>{_t(tip)}</title>'
                     f'<rect x="{x + 3}" y="{y + 3}" width="{_CELL_W - 6}" height="{_CELL_H - 6}" rx="9"/>'
                     f'<text class="num" x="{x + 10}" y="{y + 19}">{space}</text>')
        if owner is not None:
            parts.append(_crown_marker(x + _CELL_W / 2 + 8, y + _CELL_H / 2 + 6, owner))
        elif space == target:
            # The marker about to be placed, drawn faintly where it would stand.
            parts.append(_crown_marker(x + _CELL_W / 2 + 8, y + _CELL_H / 2 + 6, obs["current"])
                         .replace('class="kod-marker ', 'class="kod-marker ghost ', 1))
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def _die_svg(face) -> str:
    body = '<rect x="1.5" y="1.5" width="37" height="37" rx="7"/>'
    if face == "crown":
        body += '<polygon class="crown" transform="translate(20,21) scale(1.2)" points="' + _CROWN_POINTS + '"/>'
    else:
        body += "".join(f'<circle cx="{20 + dx * 10}" cy="{20 + dy * 10}" r="3.6"/>' for dx, dy in _PIPS[face])
    return f'<svg viewBox="0 0 40 40" aria-hidden="true" focusable="false">{body}</svg>'


def _face_word(face) -> str:
    return "crown" if face == "crown" else str(face)


def _dice_row(faces, actions: dict, where: str) -> str:
    out = []
    for face in sorted(faces, key=FACE_INDEX.__getitem__):
        aid = f"keep:{face}"
        label = actions.get(aid) if where == "roll" else None
        tip = _FACE_HELP[face]
        if label is not None:
            out.append(f'<button type="button" class="kod-die face-{_a(_face_word(face))}" data-action="{_a(aid)}" '
                       f'aria-label="{_a(label)}" title="{_a(tip + " Click to set it aside.")}">'
                       f'{_die_svg(face)}</button>')
        else:
            state = "set aside" if where == "kept" else "showing"
            out.append(f'<span class="kod-die face-{_a(_face_word(face))} {where}" role="img" '
                       f'aria-label="{_a(f"a die {state} {_face_word(face)}")}" title="{_a(tip)}">'
                       f'{_die_svg(face)}</span>')
    return "".join(out)


def _result_text(obs: dict) -> str:
    counts = face_counts(obs["kept"])
    value = obs["result_value"]
    if not obs["kept"]:
        return '<span class="kod-result none">Nothing set aside yet.</span>'
    if value is not None:
        numbers = [str(FACE_ORDER[i]) for i in range(1, 6) for _ in range(counts[i])]
        formula = f"({' + '.join(numbers)}) &#xd7; {counts[0]}"
        return f'<span class="kod-result valid">Result {formula} = <b>{value}</b></span>'
    return f'<span class="kod-result invalid">Not a valid result: {_t(_why_not_valid(counts))}</span>'


def _dice(obs: dict, actions: dict, preview: int | None) -> str:
    phase = obs["phase"]
    parts = ['<section class="kod-dice" aria-label="The dice">']
    parts.append('<div class="kod-lid" title="The box lid: the dice rolled and not set aside. After each roll '
                 'you must set aside at least one die; set-aside dice are never rerolled.">'
                 '<h3>Dice rolled</h3><div class="kod-dice-row">')
    parts.append(_dice_row(obs["roll"], actions, "roll") or '<span class="kod-empty">no dice</span>')
    parts.append('</div></div>')
    parts.append('<div class="kod-aside" title="The dice set aside this turn: they form the result.">'
                 '<h3>Set aside</h3><div class="kod-dice-row">')
    parts.append(_dice_row(obs["kept"], actions, "kept"))
    parts.append('</div>')
    parts.append(_result_text(obs))
    if phase == "place" and obs.get("target_space") is not None:
        parts.append(f'<span class="kod-where">Marker goes to space <b>{obs["target_space"]}</b></span>')
    elif preview is not None:
        parts.append(f'<span class="kod-where">Stop now: space <b>{preview}</b></span>')
    parts.append('</div><div class="kod-turn-actions">')
    tips = {
        "reroll": "Reroll the dice not set aside (at least one die must have been set aside since the last roll).",
        "stop": "Stop rolling: the dice set aside are checked as your result.",
        "place": "Place a Crown marker on the space shown on the board.",
        "decline": "Keep your Crown marker: a valid result may be refused.",
    }
    for aid in ("reroll", "stop", "decline"):
        label = actions.get(aid)
        if label is not None:
            parts.append(f'<button type="button" class="kod-btn {aid}" data-action="{aid}" '
                         f'aria-label="{_a(label)}" title="{_a(tips[aid])}">{_t(label)}</button>')
    parts.append('</div></section>')
    return "".join(parts)


def _card(card_id: str, extra_class: str = "", claim=None, small: bool = False) -> str:
    i = CARD_INDEX[card_id]
    name, value = CARD_NAME[i], CARD_VALUE[i]
    special = SPECIAL_ROUND.get(card_id)
    classes = ["kod-card"] + (["special"] if special else []) + ([extra_class] if extra_class else [])
    tip = f"{name}: an Influence card worth {value} point{'s' if value != 1 else ''}."
    if special:
        tip += f" A special card: it joins the cards of round {special}."
    if claim is not None:
        tip += f" If the round ended now, {_owner_name(claim)} would take it."
    elif not small:
        tip += " At the round's end the markers take the cards from the highest space and best card down."
    label = f"{name}, {value} points"
    inner = (f'<span class="v">{value}</span>'
             f'<span class="n">{_t(name if special or not small else "")}</span>')
    if claim is not None:
        inner += f'<span class="claim {_owner_class(claim)}">{_t("Cat" if claim == "cat" else f"P{claim + 1}")}</span>'
    tag = "li" if not small else "span"
    return f'<{tag} class="{" ".join(classes)}" role="img" aria-label="{_a(label)}" title="{_a(tip)}">{inner}</{tag}>'


def _market(obs: dict) -> str:
    board = obs["board"]
    claims = observed_claims(board)
    parts = [f'<section class="kod-market" aria-label="Influence cards of round {obs["round"]}">'
             f'<h3>Influence cards</h3><ol>']
    for rank, card in enumerate(obs["market"]):
        parts.append(_card(card["id"], claim=claims[rank] if rank < len(claims) else None))
    if not obs["market"]:
        parts.append('<li class="kod-empty">all handed out</li>')
    parts.append(f'</ol><p class="kod-pile" title="The draw pile: regular Influence cards for the later rounds, '
                 f'face down.">Draw pile: {obs["draw_pile"]}</p></section>')
    return "".join(parts)


def _marker_icons(left: int, owner) -> str:
    cls = _owner_class(owner)
    icons = []
    for k in range(MARKERS):
        used = "" if k < left else " used"
        icons.append(f'<svg class="kod-mini {cls}{used}" viewBox="-11 -11 22 22" aria-hidden="true" focusable="false">'
                     f'<circle r="10"/><polygon class="crown" points="{_CROWN_POINTS}" transform="scale(0.75)"/></svg>')
    return "".join(icons)


def _players(obs: dict, seat: int | None) -> str:
    parts = ['<section class="kod-players" aria-label="Players">']
    over = obs["is_over"]
    winners = set(obs["winners"])
    order = list(range(len(obs["won"])))
    if seat is not None:
        order = order[seat:] + order[:seat]
    for s in order:
        classes = ["kod-player", _owner_class(s)]
        badges = []
        if not over and s == obs["current"]:
            classes.append("to-move")
            badges.append('<span class="badge move">to move</span>')
        if s == seat:
            badges.append('<span class="badge you">you</span>')
        if not over and s == obs["first_player"]:
            badges.append('<span class="badge first" title="First player of this round">first</span>')
        if over and s in winners:
            badges.append('<span class="badge win">winner</span>')
        left = obs["markers_left"][s]
        cards = "".join(_card(c, small=True) for c in obs["won"][s]) or '<span class="kod-empty">no cards yet</span>'
        parts.append(
            f'<div class="{" ".join(classes)}" data-seat="{s}">'
            f'<div class="head"><span class="swatch"></span><b>{_t(seat_name(s))}</b>{"".join(badges)}'
            f'<span class="pts" title="Points: the total of the Influence cards won">{obs["scores"][s]} pts</span>'
            f'</div><div class="markers" title="Crown markers left this round: {left} of {MARKERS}">'
            f'{_marker_icons(left, s)}</div>'
            f'<div class="won" title="Influence cards won (kept face down; everyone saw them handed out)">{cards}</div>'
            f'</div>')
    cat = obs.get("cat")
    if cat is not None:
        cards = "".join(_card(c, small=True) for c in cat["won"]) or '<span class="kod-empty">no cards yet</span>'
        spaces = ", ".join(map(str, cat["spaces"]))
        parts.append(
            f'<div class="kod-player cat" title="The Mischievous Cat (level {cat["level"]}): its Crown markers '
            f'stand on spaces {spaces} all game and take cards like a player\'s.">'
            f'<div class="head"><span class="swatch"></span><b>Mischievous Cat</b>'
            f'<span class="badge">level {cat["level"]}</span>'
            f'<span class="pts">{cat["score"]} pts</span></div>'
            f'<div class="markers">markers stay on {spaces}</div><div class="won">{cards}</div></div>')
    parts.append('</section>')
    return "".join(parts)


def _status(obs: dict, seat: int | None) -> str:
    if obs["is_over"]:
        winners = obs["winners"]
        if winners:
            text = "Game over. Winner: " + ", ".join(seat_name(s) for s in winners)
        else:
            text = "Game over. The Mischievous Cat wins."
        return f'<div class="kod-status over">{_t(text)}</div>'
    who = "You" if obs["current"] == seat else seat_name(obs["current"])
    doing = "place a Crown marker or decline" if obs["phase"] == "place" else "set dice aside, reroll or stop"
    return (f'<div class="kod-status"><span class="round" title="The game lasts three rounds (days)">'
            f'Round {obs["round"]} of {ROUNDS}</span>'
            f'<span class="on-board" title="A round ends when seven Crown markers are on the board">'
            f'Markers on the board: {len(obs["board"])} of {MARKERS_TO_END}</span>'
            f'<span class="who">{_t(who)}: {doing}</span></div>')


def board_view(obs: dict, actions: list, seat: int | None) -> str:
    """The Kingdom of Dice board as an HTML fragment (a ``<div class="board board-kingdom-of-dice">``).

    ``obs`` is ``state.observation(seat)``; ``actions`` is the seat's legal
    actions as ``[{"id": str, "label": str}]`` (empty when it is not to
    move); ``seat`` is the viewer (None for a spectator). Every ``keep:*``,
    ``reroll``, ``stop``, ``place`` and ``decline`` action is placed on its
    piece as a focusable element with ``data-action`` and the action's label
    as its accessible name. Pure: the same arguments give the same string.
    Rulebook: Components, How to Play, End of a Round, Solo Mode.
    """
    labels = {a["id"]: a["label"] for a in actions}
    target = obs.get("target_space") if obs["phase"] == "place" else None
    preview = None
    if obs["phase"] == "set-aside" and obs["result_value"] is not None:
        space = free_space_at_or_below(observed_board(obs["board"]), obs["result_value"], empty=None)
        preview = SPACES[space] if space >= 0 else None
    return ('<div class="board board-kingdom-of-dice">'
            + _status(obs, seat)
            + '<div class="kod-table">' + _road(obs, labels, target, preview) + _market(obs) + '</div>'
            + '<div class="kod-lower">' + _dice(obs, labels, preview) + _players(obs, seat) + '</div>'
            + '</div>')
