"""Browser board of a Kingdom of Dice table: keyed HTML parts drawn from ``observation(seat)`` only.

``board_view(obs, actions, seat)`` lays the table out like the physical game
(rulebook: Components, Setup, Round Setup): the board's result spaces as a
road climbing to the castle, the Crown markers on them, the round's Influence
cards in a column beside the castle (highest at the top), the dice in the box
lid with those set aside beside it, and one panel per player (cards won,
points, Crown markers left), the Mischievous Cat's in solo.

Actions are placed on their pieces: ``keep:<face>`` on every die showing that
face, ``place`` on the space the marker would go to, ``reroll``, ``stop`` and
``decline`` beside the dice they concern. The parts contain no script and are
a pure function of the arguments (same arguments, byte-identical HTML).

Parts (see :mod:`dicetable.engine.markup`), cut so that one action changes
few of them: ``board`` (the root), ``status``, ``road`` (the board's picture)
with one part per space ``sp-<space>``, ``market`` with one claim badge per
card ``claim-<rank>``, ``dice`` holding ``dice-roll``, ``dice-kept``,
``result`` and ``turn-actions``, ``players`` holding one panel per player
``p-<seat>`` (``cat`` in solo), each with ``p-<seat>-markers`` and
``p-<seat>-won``.

Element keys for animation (``data-key``; docs/web.md): ``space-<space>`` (a
result space), ``marker-<space>`` (the Crown marker standing on it),
``dice-roll`` and ``dice-kept`` (dice areas; each die has ``data-die`` =
``crown`` or its number), ``market`` (the round's cards), ``card-<card id>``
(an Influence card, in the market or won), ``p-<seat>-markers`` (the Crown
markers a player holds), ``p-<seat>-won`` and ``cat-won`` (cards won), and the
counters (``data-count``) ``p-<seat>-left`` (markers left), ``p-<seat>-pts``
and ``cat-pts`` (points), ``on-board`` (markers on the board), ``round`` and
``pile`` (the draw pile).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import islice

from dicetable.engine import counted, seat_name
from dicetable.engine.markup import LEGEND, Coord, attr, die_svg, legend, memo, slot, text

from . import viewdata as vd
from .components import COMPONENTS, FACE_INDEX, FACE_ORDER, SPACES
from .viewdata import Observation, owner_name

MARKERS = COMPONENTS.markers.per_player
MARKERS_TO_END = COMPONENTS.round.markers_to_end
ROUNDS = COMPONENTS.round.rounds

# Road geometry: four rows of eight spaces, snaking up to the castle (top right).
_COLS = 8
_CELL_W, _CELL_H = 66, 64
_X0, _Y0 = 8, 8
_ROWS = (len(SPACES) + _COLS - 1) // _COLS
_SVG_W = _X0 + _COLS * _CELL_W + 78
_SVG_H = _Y0 * 2 + _ROWS * _CELL_H

_CROWN_POINTS = "-9,6 -9,-5 -4.5,0 0,-8 4.5,0 9,-5 9,6"
_CROWN_FACE = f'<polygon class="crown" transform="translate(20,21) scale(1.2)" points="{_CROWN_POINTS}"/>'
_FACE_HELP = {
    "crown": "A crown: a valid result needs at least one; the numbers' sum is multiplied by the crowns.",
    1: "A 1: any number of 1s may be in a result.",
    2: "A 2: 2s count only if there are at least two of them.",
    3: "A 3: 3s count only if there are at least three of them.",
    4: "A 4: 4s count only if there are at least four of them.",
    5: "A 5: a result may hold at most one 5.",
}
_TURN_TIPS = {
    "reroll": "Reroll the dice not set aside (at least one die must have been set aside since the last roll).",
    "stop": "Stop rolling: the dice set aside are checked as your result.",
    "decline": "Keep your Crown marker: a valid result may be refused.",
}


def _owner_class(owner) -> str:
    return "cat" if owner == "cat" else f"c-{vd.colour(owner)}"


def _space_xy(index: int) -> tuple[Coord, Coord]:
    """Top-left corner of the cell of ``SPACES[index]`` (row 0 at the bottom, snaking up)."""
    row, col = divmod(index, _COLS)
    rows_from_top = _ROWS - 1 - row
    # The top row runs left to right so that the highest space ends next to the castle.
    left_to_right = (row % 2) == ((_ROWS - 1) % 2)
    x = _X0 + (col if left_to_right else _COLS - 1 - col) * _CELL_W
    y = _Y0 + rows_from_top * _CELL_H
    return x, y


def _counter(key: str, value: int) -> str:
    """A counter the page can count up or down: ``data-key``, ``data-count`` and the number as its text."""
    return f'<b data-key="{key}" data-count="{value}">{value}</b>'


# ------------------------------------------------------------------ the road
def _crown_marker(cx: Coord, cy: Coord, owner, key: str = "", r: Coord = 15) -> str:
    cls = _owner_class(owner)
    keyed = f' data-key="{key}"' if key else ""
    if owner == "cat":
        return (f'<g class="kod-marker {cls}"{keyed} transform="translate({cx},{cy})">'
                f'<circle r="{r}"/><polygon class="ear" points="-11,-6 -8,-16 -2,-10"/>'
                f'<polygon class="ear" points="11,-6 8,-16 2,-10"/>'
                f'<circle class="eye" cx="-4.5" cy="-1" r="2"/><circle class="eye" cx="4.5" cy="-1" r="2"/>'
                f'<path class="eye-line" d="M-3,6 Q0,8 3,6"/></g>')
    return (f'<g class="kod-marker {cls}"{keyed} transform="translate({cx},{cy})"><circle r="{r}"/>'
            f'<polygon class="crown" points="{_CROWN_POINTS}"/></g>')


@lru_cache(maxsize=1)
def _road() -> str:
    """The road's picture (path, castle) with one slot per space: the same for every table."""
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
    parts.extend(slot(f"sp-{space}", "g") for space in SPACES)
    parts.append("</svg>")
    return "".join(parts)


@lru_cache(maxsize=1024)
def _space(i: int, owner, target: bool, preview: bool, place_label: str | None, current: int) -> str:
    """Part ``sp-<space>``: one result space, its number and the Crown marker on it (or the ghost of
    the one about to be placed); ``place_label`` makes it the ``place`` action."""
    space = SPACES[i]
    x, y = _space_xy(i)
    classes = ["kod-space"]
    if owner is not None:
        classes.append("taken")
    if target:
        classes.append("target")
    if preview:
        classes.append("preview")
    attrs = f'class="{" ".join(classes)}" data-space="{space}" data-key="space-{space}"'
    hit = ""
    if target and place_label is not None:
        attrs += f' data-action="place" role="button" tabindex="0" aria-label="{attr(place_label)}"'
        # The whole cell, gaps included, takes the tap: at least 32px on a phone's half-size road.
        hit = f'<rect class="hit" x="{x}" y="{y}" width="{_CELL_W}" height="{_CELL_H}"/>'
    if owner is None:
        tip = (f"Space {space}: a result worth {space} places a Crown marker here; if it is taken, "
               "the marker goes to the next lower free space.")
    elif owner == "cat":
        tip = f"Space {space}: the Mischievous Cat's Crown marker, which stays on the board all game."
    else:
        tip = (f"Space {space}: {owner_name(owner)}'s Crown marker. At the round's end the markers "
               "take the Influence cards from the highest space down.")
    if target:
        tip += " Your result's marker goes here: place it, or decline."
    elif preview:
        tip += " If you stop now, your marker would go here."
    out = (f'<g {attrs}><title>{text(tip)}</title>{hit}'
           f'<rect x="{x + 3}" y="{y + 3}" width="{_CELL_W - 6}" height="{_CELL_H - 6}" rx="9"/>'
           f'<text class="num" x="{x + 10}" y="{y + 19}">{space}</text>')
    if owner is not None:
        out += _crown_marker(x + _CELL_W / 2 + 8, y + _CELL_H / 2 + 6, owner, f"marker-{space}")
    elif target:
        # The marker about to be placed, drawn faintly where it would stand.
        out += (_crown_marker(x + _CELL_W / 2 + 8, y + _CELL_H / 2 + 6, current)
                .replace('class="kod-marker ', 'class="kod-marker ghost ', 1))
    return out + "</g>"


# ------------------------------------------------------------------ the dice
def _face_word(face) -> str:
    return "crown" if face == "crown" else str(face)


@lru_cache(maxsize=16)
def _die_picture(face) -> str:
    return die_svg(None, _CROWN_FACE) if face == "crown" else die_svg(face)


@lru_cache(maxsize=8)
def _dice_row(where: str, empty: bool) -> str:
    """Part ``dice-roll`` or ``dice-kept``: the dice area, one slot per face (``roll-<face>``,
    ``kept-<face>``) so that setting a die aside changes only the groups of its face."""
    groups = "".join(slot(f"{where}-{_face_word(face)}", "span", "kod-group") for face in FACE_ORDER)
    none = '<span class="kod-empty">no dice</span>' if empty and where == "roll" else ""
    return f'<div class="kod-dice-row" data-key="dice-{where}">{none}{groups}</div>'


@lru_cache(maxsize=256)
def _dice_group(face, n: int, where: str, label: str | None) -> str:
    """Part ``roll-<face>`` or ``kept-<face>``: the ``n`` dice showing ``face`` ("" for none); rolled
    dice carry their ``keep:<face>`` action when ``label`` (its label) is given."""
    if n == 0:
        return ""
    word = _face_word(face)
    picture = _die_picture(face)
    if label is not None:
        tip = _FACE_HELP[face] + " Click a die to set it aside."
        die = (f'<button type="button" class="kod-die face-{word}" data-die="{word}" '
               f'data-action="keep:{word}" aria-label="{attr(label)}">{picture}</button>')
    else:
        tip = _FACE_HELP[face]
        state = "set aside" if where == "kept" else "showing"
        die = (f'<span class="kod-die face-{word} {where}" data-die="{word}" role="img" '
               f'aria-label="a die {state} {word}">{picture}</span>')
    return f'<span class="kod-face" title="{attr(tip)}">{die * n}</span>'


def _result(obs: Observation, preview: int | None) -> str:
    """Part ``result``: what the dice set aside are worth, and where the marker would go."""
    kept = obs["kept"]
    counts = vd.dice_counts(obs, "kept")
    value = obs["result_value"]
    if not kept:
        out = '<span class="kod-result none">Nothing set aside yet.</span>'
    elif value is not None:
        numbers = [str(face) for face in sorted(kept, key=FACE_INDEX.__getitem__) if face != "crown"]
        formula = f"({' + '.join(numbers)}) &#xd7; {counts[0]}"
        out = f'<span class="kod-result valid">Result {formula} = <b>{value}</b></span>'
    else:
        out = f'<span class="kod-result invalid">Not a valid result: {text(vd.why_not_valid(counts))}</span>'
    target = vd.target_space(obs)
    if target is not None:
        out += f'<span class="kod-where">Marker goes to space <b>{target}</b></span>'
    elif preview is not None:
        out += f'<span class="kod-where">Stop now: space <b>{preview}</b></span>'
    return out


def _turn_actions(actions: dict) -> str:
    """Part ``turn-actions``: the reroll, stop and decline buttons the viewer may use now."""
    out = []
    for aid in ("reroll", "stop", "decline"):
        label = actions.get(aid)
        if label is not None:
            out.append(f'<button type="button" class="kod-btn {aid}" data-action="{aid}" '
                       f'aria-label="{attr(label)}" title="{attr(_TURN_TIPS[aid])}">{text(label)}</button>')
    return "".join(out)


_DICE = ('<div class="kod-lid" title="The box lid: the dice rolled and not set aside. After each roll '
         'you must set aside at least one die; set-aside dice are never rerolled.">'
         '<h3>Dice rolled</h3>' + slot("dice-roll") + '</div>'
         '<div class="kod-aside" title="The dice set aside this turn: they form the result.">'
         '<h3>Set aside</h3>' + slot("dice-kept") + slot("result") + '</div>'
         + slot("turn-actions", cls="kod-turn-actions"))


# ------------------------------------------------------------------ cards and players
@lru_cache(maxsize=256)
def _card(card_id: str, small: bool, rank: int = -1) -> str:
    """An Influence card (``data-key="card-<id>"``): in the market (``rank`` >= 0, with the slot of its
    claim badge ``claim-<rank>``) or small, among a player's cards won."""
    name, value, special = vd.card_name(card_id), vd.card_value(card_id), vd.special_round(card_id)
    classes = ["kod-card"] + (["special"] if special else [])
    tip = f"{name}: an Influence card worth {counted(value, 'point')}."
    if special:
        tip += f" A special card: it joins the cards of round {special}."
    if not small:
        tip += " At the round's end the markers take the cards from the highest space and best card down."
    inner = (f'<span class="v">{value}</span>'
             f'<span class="n">{text(name if special or not small else "")}</span>')
    if rank >= 0:
        inner += slot(f"claim-{rank}", "span", "claim-slot")
    # In the market a list item (named, its claim badge read after it), won a small picture.
    tag, role = ("li", "") if not small else ("span", ' role="img"')
    return (f'<{tag} class="{" ".join(classes)}" data-key="card-{attr(card_id)}"{role} '
            f'aria-label="{attr(name + ", " + counted(value, "point"))}" title="{attr(tip)}">{inner}</{tag}>')


def _claim(owner) -> str:
    """Part ``claim-<rank>``: who would take that card if the round ended now ("" for nobody)."""
    if owner is None:
        return ""
    return (f'<span class="claim {_owner_class(owner)}" '
            f'title="If the round ended now, {attr(owner_name(owner))} would take this card.">{vd.owner_short(owner)}</span>')


def _market(obs: Observation) -> str:
    """Part ``market``: the round's Influence cards, best first, and the draw pile."""
    out = [f'<h3>Influence cards</h3><ol data-key="market" aria-label="Influence cards of round {obs["round"]}">']
    out.extend(_card(card["id"], False, rank) for rank, card in enumerate(obs["market"]))
    if not obs["market"]:
        out.append('<li class="kod-empty">all handed out</li>')
    out.append('</ol><p class="kod-pile" title="The draw pile: regular Influence cards for the later rounds, '
               f'face down.">Draw pile: {_counter("pile", obs["draw_pile"])}</p>')
    return "".join(out)


@lru_cache(maxsize=64)
def _markers(seat: int, left: int) -> str:
    """Part ``p-<seat>-markers``: the Crown markers a player still holds this round."""
    cls = _owner_class(seat)
    icons = []
    for k in range(MARKERS):
        used = "" if k < left else " used"
        icons.append(f'<svg class="kod-mini {cls}{used}" viewBox="-11 -11 22 22" aria-hidden="true" focusable="false">'
                     f'<circle r="10"/><polygon class="crown" points="{_CROWN_POINTS}" transform="scale(0.75)"/></svg>')
    return (f'<div class="markers" data-key="p-{seat}-markers" title="Crown markers left this round: '
            f'{left} of {MARKERS}">{"".join(icons)}<span class="left">{_counter(f"p-{seat}-left", left)} left</span>'
            '</div>')


@lru_cache(maxsize=512)
def _won(key: str, cards: tuple) -> str:
    """Part ``p-<seat>-won`` (or the Cat's ``cat-won``): the Influence cards won so far."""
    inner = "".join(_card(c, True) for c in cards) or '<span class="kod-empty">no cards yet</span>'
    return (f'<div class="won" data-key="{key}" title="Influence cards won (kept face down; everyone saw '
            f'them handed out)">{inner}</div>')


def _player(obs: Observation, s: int, seat: int | None) -> str:
    """Part ``p-<seat>``: a player's panel (name, badges, points) with the slots of its markers and cards."""
    over = obs["is_over"]
    return _panel(s, not over and s == obs["current"], s == seat, not over and s == obs["first_player"],
                  over and s in obs["winners"], obs["scores"][s])


@lru_cache(maxsize=1024)
def _panel(s: int, to_move: bool, you: bool, first: bool, winner: bool, points: int) -> str:
    """Seat ``s``'s panel with these badges and points (see :func:`_player`)."""
    classes = ["kod-player", _owner_class(s)]
    badges = []
    if to_move:
        classes.append("to-move")
        badges.append('<span class="badge move">to move</span>')
    if you:
        badges.append('<span class="badge you">you</span>')
    if first:
        badges.append('<span class="badge first" title="First player of this round">first</span>')
    if winner:
        badges.append('<span class="badge win">winner</span>')
    return (f'<div class="{" ".join(classes)}" data-seat="{s}">'
            f'<div class="head"><span class="swatch"></span><b>{text(seat_name(s))}</b>{"".join(badges)}'
            f'<span class="pts" title="Points: the total of the Influence cards won">'
            f'{_counter(f"p-{s}-pts", points)} pts</span></div>'
            + slot(f"p-{s}-markers") + slot(f"p-{s}-won") + '</div>')


def _cat(cat: vd.CatView) -> str:
    """Part ``cat``: the Mischievous Cat's panel (solo)."""
    spaces = ", ".join(map(str, cat["spaces"]))
    return (f'<div class="kod-player cat" title="The Mischievous Cat (level {cat["level"]}): its Crown markers '
            f'stand on spaces {spaces} all game and take cards like a player\'s.">'
            f'<div class="head"><span class="swatch"></span><b>Mischievous Cat</b>'
            f'<span class="badge">level {cat["level"]}</span>'
            f'<span class="pts">{_counter("cat-pts", cat["score"])} pts</span></div>'
            f'<div class="markers">markers stay on {spaces}</div>' + slot("cat-won") + '</div>')


def _status(obs: Observation, seat: int | None) -> str:
    """Part ``status``: the round, the markers on the board and who is doing what."""
    if obs["is_over"]:
        winners = obs["winners"]
        if winners:
            line = "Game over. Winner: " + ", ".join(seat_name(s) for s in winners)
        else:
            line = "Game over. The Mischievous Cat wins."
        return (f'<div class="kod-status over"><span class="round">Round {_counter("round", obs["round"])} of '
                f'{ROUNDS}</span><span class="on-board">Markers on the board: '
                f'{_counter("on-board", vd.markers_on_board(obs))}</span><span class="who">{text(line)}</span></div>')
    who = "You" if obs["current"] == seat else seat_name(obs["current"])
    doing = "place a Crown marker or decline" if obs["phase"] == "place" else "set dice aside, reroll or stop"
    return (f'<div class="kod-status"><span class="round" title="The game lasts three rounds (days)">'
            f'Round {_counter("round", obs["round"])} of {ROUNDS}</span>'
            f'<span class="on-board" title="A round ends when seven Crown markers are on the board">'
            f'Markers on the board: {_counter("on-board", vd.markers_on_board(obs))} of {MARKERS_TO_END}</span>'
            f'<span class="who">{text(who)}: {doing}</span></div>')


_ROOT = ('<div class="board board-kingdom-of-dice">' + slot("status")
         + '<div class="kod-table">' + slot("road", cls="kod-road-box")
         + slot("market", "section", "kod-market") + '</div>'
         + '<div class="kod-lower">' + slot("dice", "section", "kod-dice", 'aria-label="The dice"')
         + slot("players", "section", "kod-players", 'aria-label="Players"') + '</div>' + slot(LEGEND) + '</div>')


def _legend() -> str:
    """Part ``legend``: the key to the dice faces, markers and marks (rulebook: Components, Solo Mode)."""
    mini = ('<svg class="kod-mini {cls}" viewBox="-11 -11 22 22" aria-hidden="true" focusable="false"><circle r="10"/>'
            f'<polygon class="crown" points="{_CROWN_POINTS}" transform="scale(0.75)"/></svg>')
    return legend([
        (f'<span class="lg-die">{_die_picture("crown")}</span>', "A crown face: a valid result needs at least one; "
                                                                  "the result is the sum of the numbers times the crowns"),
        (mini.format(cls=_owner_class(0)), "A player's Crown marker, placed on the space of its result (the "
                                           "higher, the closer to the castle)"),
        (mini.format(cls=_owner_class(0) + " used"), "A Crown marker already on the board this round"),
        (f'<span class="claim {_owner_class(1)}">P2</span>', "Beside an Influence card: who would take it if the "
                                                             "round ended now"),
        ("<b>10</b>", "An Influence card's points"),
    ])


_LEGEND = _legend()


def board_view(obs: Observation, actions: list, seat: int | None) -> dict[str, str]:
    """The Kingdom of Dice board as keyed parts ``{part id: HTML}`` (see the module docstring).

    ``obs`` is ``state.observation(seat)``; ``actions`` is the seat's legal
    actions as ``[{"id": str, "label": str}]`` (empty when it is not to
    move); ``seat`` is the viewer (None for a spectator). The root part
    ``"board"`` is a ``<div class="board board-kingdom-of-dice">``;
    ``markup.assemble`` makes the whole board. Every ``keep:*``, ``reroll``,
    ``stop``, ``place`` and ``decline`` action is placed on its piece as a
    focusable element with ``data-action`` and the action's label as its
    accessible name. Pure: the same arguments give the same parts.
    Rulebook: Components, How to Play, End of a Round, Solo Mode.
    """
    if not actions:  # drawn once for every viewer without actions; the viewer's own parts drawn for it
        shared = _board_without_actions({k: v for k, v in obs.items() if k != "seat"})
        if seat is None:
            return dict(shared)
        parts = _in_order(shared, vd.seat_order(obs, seat))
        parts.update(_viewer_parts(obs, seat))
        return parts
    # the pieces no action lands on are every viewer's (shared); the few that carry one drawn with it
    shared = _board_without_actions({k: v for k, v in obs.items() if k != "seat"})
    parts = _in_order(shared, vd.seat_order(obs, seat)) if seat is not None else dict(shared)
    _place_actions(obs, {a["id"]: a["label"] for a in actions}, parts)
    parts.update(_viewer_parts(obs, seat))
    return parts


def whole_board_view(obs: Observation, actions: list, seat: int | None) -> dict[str, str]:
    """:func:`board_view` drawn the plain way, every piece with the actions: the reference its parts
    (values and order) must equal."""
    parts = _board(obs, actions, seat)
    parts.update(_viewer_parts(obs, seat))
    return parts


def _place_actions(obs: Observation, labels: dict[str, str], parts: dict[str, str]) -> None:
    """Draw again in ``parts`` (a board without actions) the pieces that carry one of ``labels``
    (``{id: label}``): the target space (``place``), the rolled dice of each face (``keep:<face>``) and
    the turn's buttons, as :func:`_board` draws them."""
    place = labels.get("place")
    target = vd.target_space(obs)
    if place is not None and target is not None:
        i = SPACES.index(target)
        parts[f"sp-{target}"] = _space(i, vd.owners(obs)[i], True, target == vd.preview_space(obs), place,
                                       obs["current"])
    counts = vd.dice_counts(obs, "roll")
    for i, face in enumerate(FACE_ORDER):
        label = labels.get(f"keep:{face}")
        if label is not None:
            parts[f"roll-{_face_word(face)}"] = _dice_group(face, counts[i], "roll", label)
    parts["turn-actions"] = _turn_actions(labels)


def _in_order(parts: dict[str, str], order: list[int]) -> dict[str, str]:
    """``parts`` with the players' parts in the viewer's ``order`` (as :func:`_board` puts them)."""
    out = dict(islice(parts.items(), list(parts).index("players") + 1))  # the parts up to the players'
    for s in order:
        for key in (f"p-{s}", f"p-{s}-markers", f"p-{s}-won"):
            out[key] = parts[key]
    for key in ("cat", "cat-won"):
        if key in parts:
            out[key] = parts[key]
    return out


@memo(256)
def _board_without_actions(obs: Observation) -> dict[str, str]:
    """The parts of a spectator's board (``obs`` without its ``seat``, which the board does not read)."""
    parts = _board(obs, [], None)
    parts.update(_viewer_parts(obs, None))
    return parts


def _viewer_parts(obs: Observation, seat: int | None) -> dict[str, str]:
    """The parts that depend on the viewer: ``status``, ``players`` (the viewer's order) and ``p-<seat>``."""
    order = vd.seat_order(obs, seat)
    parts = {"status": _status(obs, seat),
             "players": _player_slots(tuple(order), "cat" in obs and obs["cat"] is not None)}
    for s in order:
        parts[f"p-{s}"] = _player(obs, s, seat)
    return parts


@lru_cache(maxsize=64)
def _player_slots(order: tuple[int, ...], cat: bool) -> str:
    """Part ``players``: the slots of the players' panels in the viewer's ``order``, then the Cat's."""
    return "".join(slot(f"p-{s}") for s in order) + (slot("cat") if cat else "")


def _board(obs: Observation, actions: list, seat: int | None) -> dict[str, str]:
    """The parts of :func:`board_view` but those of :func:`_viewer_parts`."""
    labels = {a["id"]: a["label"] for a in actions}
    target = vd.target_space(obs)
    preview = vd.preview_space(obs)
    owners = vd.owners(obs)
    parts = {"board": _ROOT, "status": "", "road": _road(), LEGEND: _LEGEND}
    place_label = labels.get("place")
    for i, space in enumerate(SPACES):  # only the target space reads whose marker is next (``current``)
        parts[f"sp-{space}"] = _space(i, owners[i], space == target, space == preview,
                                      place_label if space == target else None,
                                      obs["current"] if space == target else 0)
    parts["market"] = _market(obs)
    claims = vd.claims(obs)
    for rank in range(len(obs["market"])):
        parts[f"claim-{rank}"] = _claim(claims[rank] if rank < len(claims) else None)
    parts["dice"] = _DICE
    for where in ("roll", "kept"):
        counts = vd.dice_counts(obs, where)
        parts[f"dice-{where}"] = _dice_row(where, not any(counts))
        for i, face in enumerate(FACE_ORDER):
            label = labels.get(f"keep:{face}") if where == "roll" else None
            parts[f"{where}-{_face_word(face)}"] = _dice_group(face, counts[i], where, label)
    parts["result"] = _result(obs, preview)
    parts["turn-actions"] = _turn_actions(labels)
    order = vd.seat_order(obs, seat)
    cat = obs.get("cat")
    parts["players"] = ""
    for s in order:
        parts[f"p-{s}"] = ""
        parts[f"p-{s}-markers"] = _markers(s, obs["markers_left"][s])
        parts[f"p-{s}-won"] = _won(f"p-{s}-won", tuple(obs["won"][s]))
    if cat is not None:
        parts["cat"] = _cat(cat)
        parts["cat-won"] = _won("cat-won", tuple(cat["won"]))
    return parts
