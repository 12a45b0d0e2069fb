"""Browser board of a Corsairs of Valeria table: keyed HTML parts with an inline SVG race track.

Drawn from ``state.observation(seat)`` and the game's public component data
only (docs/views.md). Laid out like the table in the rulebook's Game Setup:
the race track is a column, Start Island at the bottom, the three Tracks
above it and Skull Island (with its Silver) on top; beside it the dice, the
Dice Actions still to execute and every Ship Board (Treasure dial, Silver
coins, Grog dial, Captain card with its power).

Legal actions sit on the pieces they concern: ``mark:N`` on die N; the
re-roll, lock and next-Dice-Action choices on the dice tray; lanes and
5-Map steps (``forward:left``, ``backward``...) on the space they lead to;
``merchant`` on the Merchant ship; Captain Hook's ``hook:pN`` on the ship
he would sail to; ``attack:pN``, ``steal:pN`` and ``give:pN`` on the target
player's Ship Board; Captain powers (``set-cannon``, ``mistress``,
``reo:N``, ``bones:*``, ``jager:*``, ``jaxn``, ``pass``) on the Captain
card. Anything else is left to the page's action bar.

The board is cut into keyed parts (docs/web.md, "Live updates") so that
one action changes little: the root ``board`` holds the frame and the
slots; ``track`` (the Tracks, spaces, hazards, islands and Merchant ships:
a pure function of the layout, memoised), ``skull`` (Silver on Skull
Island), ``moves`` (the spaces and Merchant ship the seat may pick),
``ships`` (the Ship tokens, Captain Hook's targets on them), ``status``,
``phase``, ``die-1`` .. ``die-5``, ``notes`` and ``choices`` (the dice
tray), and per seat ``p-N`` (Ship Board: name, distance), ``p-N-stats``
(dials, Silver), ``p-N-cap`` (Captain card and its choices) and ``p-N-act``
(choices aimed at that ship).

Board elements the rules' effects name carry ``data-key`` (docs/web.md):
the dice area ``dice`` (each die ``data-die="<face>"``), every space
``space-<node>`` (Skull Island too), each Ship token ``ship-<seat>``, and
the counters ``p-<seat>-treasure``, ``p-<seat>-grog``, ``p-<seat>-silver``,
``skull-silver`` and ``supply`` (``data-count`` and the number as text).
Seats are 0-based, as in the observation.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

from dicetable.engine import counted, seat_name
from dicetable.engine.markup import LEGEND, ROOT, Coord, attr, legend, memo, slot, text

from .components import COLOURS, DICE, GROG_MAX, SILVER_PER_TREASURE, TREASURE_TO_WIN, RaceTrack
from .rules.common import DICE_KEY, ISLAND_KEY, SUPPLY_KEY, counter_key, ship_key, space_key
from .viewdata import (
    FACE_NAME,
    HAZARDS,
    PHASE_NAME,
    captain_of,
    check_seat,
    deciding_seat,
    group_text,
    left_to_execute,
    marked_dice,
    move_target,
    pending,
    reward_text,
    ships_by_node,
    space_text,
    track_of,
    turn_flags,
)

SHIP_FILL = {"purple": "#8e44ad", "white": "#f4f4f4", "yellow": "#f1c40f", "red": "#d63031", "blue": "#2e6fd8"}
SHIP_INK = {"purple": "#fff", "white": "#222", "yellow": "#222", "red": "#fff", "blue": "#fff"}
FACE_TEXT = {
    "skull": "Skull: executed first, 1 Silver from your Ship Board goes to Skull Island",
    "skull-grog": "Skull-and-Grog: a Skull (executed first) and a Grog (gained with the Grog faces)",
    "grog": "Grog: turn your Grog dial up 1 (at most 4 Grog)",
    "silver": "Silver: take 1 Silver coin from the supply",
    "map": "Map: move your Ship 1 space towards Skull Island",
    "cannon": "Cannon: with 3 or more attack another player; or attack the Merchant ship on your space",
}
#: where the dice tray puts the phase's shared choices (ids or id prefixes)
TRAY_IDS = ("roll", "reroll", "reroll-silver", "lock", "grog", "silver", "maps", "cannons", "hold", "give")
CAPTAIN_IDS = ("set-cannon", "set-map", "mistress", "reo:", "bones:", "jager:", "jaxn", "pass")

# track geometry (SVG user units)
MARGIN = 74          # left column with the Track names
LANES_W = 250        # width of the lanes
ROW_H = 34           # one space
GAP = 8              # between two Tracks
SKULL_H = 62
ISLAND_W = 10        # the island strip between two lanes of a split Track


def _act(action: dict[str, Any], cls: str, inner: str = "", label: str | None = None, extra: str = "") -> str:
    """A ``<button>`` carrying ``data-action``, named by the action's label; ``extra``: more attributes."""
    body = inner or text(action["label"])
    aria = f' aria-label="{attr(label or action["label"])}"' if inner else ""
    return (f'<button type="button" class="{cls}" data-action="{attr(action["id"])}"{aria} '
            f'title="{attr(action["label"])}"{extra}>{body}</button>')


def _svg_act(action: dict[str, Any], body: str, cls: str = "cov-act", key: str = "") -> str:
    """An SVG group acting as a button (role, tabindex, aria-label, data-action; ``key``: its data-key)."""
    keyed = f' data-key="{key}"' if key else ""
    return (f'<g class="{cls}"{keyed} role="button" tabindex="0" data-action="{attr(action["id"])}" '
            f'aria-label="{attr(action["label"])}"><title>{text(action["label"])}</title>{body}</g>')


# ---------------------------------------------------------------- the race track

Box = tuple[Coord, Coord, Coord, Coord]
"""``(x, y, width, height)`` of a space on the board, in SVG units."""


@lru_cache(maxsize=64)
def _layout(track: RaceTrack) -> tuple[dict[int, Box], int]:
    """``({node: (x, y, w, h)}, height)``: every space's rectangle, Skull Island on top (memoised per track)."""
    segs = track.segments[:-1]
    rows = [max(len(nodes) for _, nodes, _ in lanes) for _, lanes in segs]
    height = SKULL_H + GAP + sum(r * ROW_H for r in rows) + GAP * (len(segs) - 1) + 4
    boxes: dict[int, Box] = {track.skull: (MARGIN, 2, LANES_W, SKULL_H - 4)}
    y = height - 2
    for seg, (_, lanes) in enumerate(segs):
        n = len(lanes)
        lane_w = (LANES_W - ISLAND_W * (n - 1)) / n
        for li, (_, nodes, _) in enumerate(lanes):
            x = MARGIN + li * (lane_w + ISLAND_W)
            for r, node in enumerate(nodes):
                boxes[node] = (x, y - (r + 1) * ROW_H, lane_w, ROW_H)
        y -= rows[seg] * ROW_H + GAP
    return boxes, height


def _hazard_icon(kind: int, x: Coord, y: Coord) -> str:
    """A small drawing of a hazard symbol centred on (x, y)."""
    if kind == 1:   # Whirlpool: a spiral
        return (f'<path class="cov-whirl" d="M{x} {y} m0 -2 a2 2 0 1 1 -2 2 a4 4 0 1 1 4 4 '
                f'a6 6 0 1 1 -6 -6 a8 8 0 1 1 8 8"/>')
    if kind == 2:   # Sea Monster: a tentacle over waves
        return (f'<path class="cov-monster" d="M{x - 9} {y + 7} q4 -4 8 0 q4 4 8 0 M{x - 2} {y + 5} '
                f'c-3 -8 6 -14 8 -8 c1 3 -3 4 -4 2"/>')
    # Cutthroat: a pirate flag
    return (f'<path class="cov-cutthroat" d="M{x - 6} {y + 9} v-18 h13 l-3 4 l3 4 h-13"/>'
            f'<circle class="cov-flagskull" cx="{x + 1}" cy="{y - 5}" r="2"/>')


def _merchant_body(track: RaceTrack, node: int) -> str:
    """The Merchant ship drawn on ``node`` with its reward per Cannon."""
    x, y, w, h = _layout(track)[0][node]
    m = track.merchant[node]
    assert m is not None
    return (f'<path class="cov-merchant" d="M{x + 5} {y + h - 14} h26 l-4 7 h-18 z M{x + 17} {y + h - 14} '
            f'v-16 l9 8 z"/><text class="cov-merchantreward" x="{x + 34}" y="{y + h / 2}">'
            f'{text(reward_text(*m, short=False).replace("+", ""))}'
            f'{"/Cannon" if w > 160 else ""}</text>')


@lru_cache(maxsize=64)
def _track_part(track: RaceTrack) -> str:
    """The ``track`` part: Tracks, spaces, hazards, Merchant ships and islands (a pure function of the layout)."""
    boxes, _ = _layout(track)
    out = []
    # Track tiles and their names
    segs = track.segments[:-1]
    for seg, (title, lanes) in enumerate(segs):
        tile_nodes = [n for _, ns, _ in lanes for n in ns]
        top = min(boxes[n][1] for n in tile_nodes)
        bottom = max(boxes[n][1] + boxes[n][3] for n in tile_nodes)
        split = len(lanes) > 1
        tile_cls = "cov-tile cov-start" if seg == 0 else "cov-tile"
        out.append(f'<rect class="{tile_cls}" x="{MARGIN - 2}" y="{top - 2}" width="{LANES_W + 4}" '
                   f'height="{bottom - top + 4}" rx="6"><title>{attr(title)}'
                   + (": split lengthwise by an island; choose a side on entering it, forwards or backwards"
                      if split else "") + '</title></rect>')
        name, _, side = title.partition(" (")
        if not side and " " in name:
            name, side = name.split(" ", 1)
        out.append(f'<text class="cov-tilename" x="{MARGIN - 8}" y="{(top + bottom) / 2 - 2}">{text(name)}</text>')
        if side:
            out.append(f'<text class="cov-tileside" x="{MARGIN - 8}" y="{(top + bottom) / 2 + 11}">'
                       f'{text(side.rstrip(")"))}{" split" if split else ""}</text>')
        if split:
            for li in range(1, len(lanes)):
                x = boxes[lanes[li][1][0]][0] - ISLAND_W
                out.append(f'<rect class="cov-splitisland" x="{x + 1}" y="{top + 3}" width="{ISLAND_W - 2}" '
                           f'height="{bottom - top - 6}" rx="4"><title>An island the length of the Track: '
                           f'ships cannot cross from one side to the other</title></rect>')
    # spaces
    for node in range(len(track.fwd)):
        x, y, w, h = boxes[node]
        if node == track.skull:
            out.append(f'<g class="cov-skull" data-key="{space_key(node)}">'
                       f'<title>{attr(space_text(track, node))}</title>'
                       f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="12"/>'
                       f'<path class="cov-volcano" d="M{x + 14} {y + h - 6} l18 -34 h10 l18 34 z"/>'
                       f'<text class="cov-skullname" x="{x + 72}" y="{y + 22}">Skull Island</text></g>')
            continue
        cls = "cov-space" + (" cov-startspace" if node == track.start else "") + (" cov-narrow" if w < 160 else "")
        out.append(f'<g class="{cls}" data-key="{space_key(node)}"><title>{attr(space_text(track, node))}</title>'
                   f'<rect x="{x}" y="{y}" width="{w}" height="{h}"/>')
        if node == track.start:
            out.append(f'<text class="cov-startmark" x="{x + 6}" y="{y + h / 2 + 2}">⚑ Start</text>')
        hz = track.hazard[node]
        if hz:
            out.append(_hazard_icon(hz, x + 14, y + h / 2 - 3))
            out.append(f'<text class="cov-hazardname" x="{x + 28}" y="{y + h / 2}">{HAZARDS[hz][0]}</text>')
        out.append('</g>')
        m = track.merchant[node]
        if m is not None:
            title = ("Merchant ship: attack it with the Cannons of a ship on this space to gain "
                     + reward_text(*m).replace("+", "") + " per Cannon")
            out.append(f'<g class="cov-merchantship"><title>{attr(title)}</title>{_merchant_body(track, node)}</g>')
    # islands on dividing lines
    for seg, (_, lanes) in enumerate(segs):
        for _, nodes, rewards in lanes:
            for k in range(1, len(nodes)):
                if rewards[k] == (0, 0):
                    continue
                x, y, w, _ = boxes[nodes[k]]
                ly = y + ROW_H
                label = reward_text(*rewards[k])
                wide = " cov-wideisland" if w > 160 else ""
                rx = min(w / 2 - 4, cast(Coord, 52))  # 52, not 52.0, when it is the smaller (compiled too)
                out.append(f'<g class="cov-island{wide}"><title>Island: a ship crossing this line towards Skull Island '
                           f'gains {attr(label.replace("+", ""))} (nothing when moving backwards)</title>'
                           f'<ellipse cx="{x + w / 2}" cy="{ly}" rx="{rx}" ry="6.5"/>'
                           f'<text x="{x + w / 2}" y="{ly + 3.2}">{text(label)}</text></g>')
    return "".join(out)


def _skull_part(obs: dict[str, Any], track: RaceTrack) -> str:
    """The ``skull`` part: the Silver lying on Skull Island."""
    x, y, _, _ = _layout(track)[0][track.skull]
    n = obs["skull_island_silver"]
    return (f'<text class="cov-skullsilver" x="{x + 72}" y="{y + 42}">'
            f'<tspan data-key="{ISLAND_KEY}" data-count="{n}">{n}</tspan> Silver</text>')


def _moves_part(obs: dict[str, Any], track: RaceTrack, by_id: dict[str, dict[str, Any]], placed: set[str]) -> str:
    """The ``moves`` part: the Merchant ship to attack and the spaces a movement choice leads to."""
    boxes, _ = _layout(track)
    out = []
    act = by_id.get("merchant")
    mover = deciding_seat(obs)
    if act is not None and mover is not None and track.merchant[obs["ships"][mover]["node"]] is not None:
        node = obs["ships"][mover]["node"]
        x, y, w, h = boxes[node]
        placed.add("merchant")
        out.append(_svg_act(act, f'<rect class="cov-hit" x="{x + 2}" y="{y + 0.5}" width="{w * 0.62}" '
                                 f'height="{h - 1}" rx="4"/>' + _merchant_body(track, node),
                            "cov-act cov-merchantact"))
    for action in by_id.values():
        target = move_target(obs, track, action["id"])
        if target is None:
            continue
        x, y, w, h = boxes[target]
        placed.add(action["id"])
        out.append(_svg_act(action, f'<rect class="cov-target" x="{x + 2}" y="{y + 0.5}" width="{w - 4}" '
                                    f'height="{h - 1}" rx="5"/>', "cov-act cov-moveact"))
    return "".join(out)


def _ships_part(obs: dict[str, Any], track: RaceTrack, by_id: dict[str, dict[str, Any]], placed: set[str]) -> str:
    """The ``ships`` part: every Ship token on its space (Captain Hook's jump targets on them)."""
    boxes, _ = _layout(track)
    mover = deciding_seat(obs)
    out = []
    for node, seats in sorted(ships_by_node(obs).items()):
        x, y, w, h = boxes[node]
        for i, s in enumerate(seats):
            ship = obs["ships"][s]
            colour = ship["colour"]
            cx = x + w - 12 - i * 19 if node != track.skull else x + w - 14 - i * 21
            cy = y + h / 2 if node != track.skull else y + h - 14
            cap = captain_of(ship)
            title = f"{seat_name(s)}'s Ship ({colour})" + (f", {cap.name}" if cap else "")
            token = (f'<circle class="cov-ship{" cov-mover" if s == mover else ""}" cx="{cx}" cy="{cy}" r="9" '
                     f'fill="{SHIP_FILL.get(colour, "#888")}"/><text class="cov-shipnum" x="{cx}" y="{cy + 4}" '
                     f'fill="{SHIP_INK.get(colour, "#000")}">{s + 1}</text>')
            act = by_id.get(f"hook:p{s + 1}")
            if act is not None:
                placed.add(act["id"])
                out.append(_svg_act(act, f'<circle class="cov-hooktarget" cx="{cx}" cy="{cy}" r="17"/>' + token,
                                    key=ship_key(s)))
            else:
                out.append(f'<g class="cov-shipg" data-key="{ship_key(s)}"><title>{attr(title)}</title>{token}</g>')
    return "".join(out)


# ---------------------------------------------------------------- dice and Dice Actions

_ICON = {
    "skull": '<circle cx="20" cy="17" r="11"/><rect x="14" y="24" width="12" height="7" rx="2"/>'
             '<circle class="cov-hole" cx="16" cy="16" r="3"/><circle class="cov-hole" cx="24" cy="16" r="3"/>',
    "grog": '<rect x="15" y="6" width="10" height="8" rx="2"/><rect x="11" y="13" width="18" height="22" rx="5"/>',
    "silver": '<circle cx="20" cy="20" r="13"/><circle class="cov-hole" cx="20" cy="20" r="8"/>',
    "map": '<rect x="7" y="9" width="26" height="22" rx="2"/><path class="cov-x" d="M15 14 l10 12 M25 14 l-10 12"/>',
    "cannon": '<rect x="6" y="13" width="26" height="9" rx="4" transform="rotate(-15 20 18)"/>'
              '<circle cx="16" cy="28" r="6"/>',
}


def _die_face(face: str) -> str:
    if face == "skull-grog":
        icon = ('<g transform="translate(-4 0) scale(0.8)">' + _ICON["skull"] + '</g>'
                '<g transform="translate(18 10) scale(0.6)">' + _ICON["grog"] + '</g>')
    else:
        icon = _ICON[face]
    return (f'<svg class="cov-dieicon" viewBox="0 0 40 40" aria-hidden="true">{icon}</svg>'
            f'<span class="cov-dieword">{text(FACE_NAME[face])}</span>')


def _phase_part(obs: dict[str, Any]) -> str:
    """The ``phase`` part: whose turn and which phase, or the winners."""
    if obs["is_over"]:
        win = obs["winners"]
        ships = obs["ships"]
        return ('<p class="cov-phase cov-over" title="A sixth Treasure wins at once; otherwise most Treasure, '
                'then most Silver, then most Grog; players still tied share the victory">'
                + text(("Winner: " if len(win) == 1 else "Shared victory: ") + ", ".join(
                    f"{seat_name(s)} ({ships[s]['treasure']} Treasure, {ships[s]['silver']} Silver, "
                    f"{ships[s]['grog']} Grog)" for s in win)) + '</p>')
    cur = obs["current"]
    phase = obs["phase"]
    return (f'<p class="cov-phase"><span class="cov-swatch cov-col-{attr(COLOURS[cur])}"></span>'
            f'{text(seat_name(cur))}\'s turn · phase '
            f'{text(PHASE_NAME.get(phase, phase))}'
            + (f' · {counted(obs["rerolls"], "re-roll")}' if obs["rerolls"] else "")
            + '</p>')


def _die_part(obs: dict[str, Any], i: int, by_id: dict[str, dict[str, Any]], placed: set[str]) -> str:
    """The ``die-<i>`` part: die ``i`` (1-5) as rolled, a button when it may be marked; "" when not rolled.

    Before the roll the first die's part holds the note that the dice are not rolled yet.
    """
    dice = obs["dice"]
    if i > len(dice):
        return '<p class="cov-nodice">The 5 dice are not rolled yet.</p>' if i == 1 and not obs["is_over"] else ""
    face = dice[i - 1]
    marked = marked_dice(obs)[i - 1]
    task = pending(obs)
    given = task.given if task else ()
    to = given[i - 1] if i <= len(given) else None
    act = by_id.get(f"mark:{i}")
    if act is not None:
        placed.add(act["id"])
        cls, inner = _die_look(face, marked, to)
        return _act(act, cls, inner, extra=f' data-die="{attr(face)}"')
    return _die_shown(i, face, marked, to)


def _die_look(face: str, marked: bool, to: int | None) -> tuple[str, str]:
    """A die's classes and inner HTML: its face, a re-roll tag when marked, to whom it goes (5 Skulls)."""
    cls = f"cov-die cov-face-{face}" + (" cov-marked" if marked else "")
    inner = _die_face(face) + ('<span class="cov-rerolltag">re-roll</span>' if marked else "")
    if to is not None:
        inner += f'<span class="cov-giventag">to {text(seat_name(to))}</span>'
    return cls, inner


@memo(256)
def _die_shown(i: int, face: str, marked: bool, to: int | None) -> str:
    """Die ``i`` as rolled, not a button (see :func:`_die_part`)."""
    cls, inner = _die_look(face, marked, to)
    state = " (marked for a re-roll)" if marked else ""
    return (f'<div class="{cls}" data-die="{attr(face)}" role="img" '
            f'aria-label="Die {i}: {attr(FACE_NAME[face])}{state}" title="{attr(FACE_TEXT[face])}">{inner}</div>')


def _notes_part(obs: dict[str, Any]) -> str:
    """The ``notes`` part: what is still to execute and the turn's 5-of-a-kind bonuses."""
    task = pending(obs)
    kind = task.kind if task else None
    left = left_to_execute(obs)
    flags = turn_flags(obs)
    notes = []
    if obs["phase"] == "C" and task and kind not in ("skull5", "give"):
        notes.append("Still to execute: " + (", ".join(left) if left else "nothing")
                     + (" and Lucky Jax'n's move" if flags["jaxn"] else ""))
    if task and kind == "cannons":
        notes.append(f"{group_text('cannons', task.count)} to fire")
    if task and kind == "move":
        notes.append(f"{counted(task.count, 'move')} left: pick the space on the track")
    if task and kind == "back":
        notes.append(f"{seat_name(task.seat)} is knocked back {task.count}: pick the side on the track")
    if task and kind == "give":
        notes.append(f"5 Skulls handed out: who gets die {len(task.given) + 1}? Pick a Ship Board")
    if flags["five_maps"]:
        notes.append("5 Maps: forward or backward at each step")
    if flags["five_grog"]:
        notes.append("5 Grog: the turn begins again after the Dice Actions")
    if flags["arrived"]:
        notes.append("reached Skull Island this turn")
    return '<p class="cov-notes">' + text(" · ".join(notes)) + '</p>' if notes else ""


def _choices_part(obs: dict[str, Any], by_id: dict[str, dict[str, Any]], placed: set[str]) -> str:
    """The ``choices`` part: the phase's shared choices (roll, re-roll, lock, next Dice Action...)."""
    buttons = []
    waiting = obs.get("waiting_for")
    for action in by_id.values():
        aid = action["id"]
        if aid in placed:
            continue
        if aid in TRAY_IDS or (aid == "keep" and waiting == "skull5"):
            placed.add(aid)
            buttons.append(_act(action, "cov-choice"))
    return '<div class="cov-choices">' + "".join(buttons) + '</div>' if buttons else ""


# ---------------------------------------------------------------- Ship Boards

def _counter(key: str, n: int) -> str:
    """A counter the page may count up or down: ``data-key`` ``key``, ``data-count`` and the number as text."""
    return f'<span class="cov-count" data-key="{key}" data-count="{n}">{n}</span>'


def _pips(n: int, of: int, cls: str, what: str) -> str:
    dots = "".join(f'<span class="cov-pip{" cov-on" if i < n else ""}"></span>' for i in range(of))
    return f'<span class="cov-dial {cls}" role="img" aria-label="{attr(what)}" title="{attr(what)}">{dots}</span>'


def _ship_part(obs: dict[str, Any], ship: dict[str, Any], seat: int | None) -> str:
    """The ``p-<n>`` part: a Ship Board's frame, name and distance, with the slots of its other parts."""
    return _ship_frame(ship["seat"], ship["colour"], ship["space"], ship["to_skull_island"],
                       ship["seat"] == deciding_seat(obs) and not obs["is_over"], ship["seat"] == seat)


@memo(1024)
def _ship_frame(s: int, colour: str, space: str, to_skull: int, to_move: bool, you: bool) -> str:
    """Seat ``s``'s Ship Board frame (see :func:`_ship_part`); ``you``: the viewer's own."""
    cls = "cov-shipboard" + (" cov-tomove" if to_move else "") + (" cov-you" if you else "")
    return (f'<article class="{cls}" aria-label="{attr(seat_name(s))}\'s Ship Board">'
            f'<header><span class="cov-swatch cov-col-{attr(colour)}"></span>'
            f'<b>{text(seat_name(s))}</b> <span class="cov-colour">{text(colour)}</span>'
            + (' <span class="cov-youtag">you</span>' if you else "")
            + (' <span class="cov-movetag">to move</span>' if to_move else "")
            + f'<span class="cov-where" title="{attr(space)}">{to_skull} to Skull Island'
            f'</span></header>' + slot(f"p-{s}-stats") + slot(f"p-{s}-cap") + slot(f"p-{s}-act") + '</article>')


@memo(1024)
def _stats_part(ship: dict[str, Any]) -> str:
    """The ``p-<n>-stats`` part: a Ship Board's Treasure and Grog dials and its Silver coins."""
    s = ship["seat"]
    return ('<div class="cov-stats">'
            + f'<span class="cov-stat">Treasure '
              f'{_counter(counter_key(s, "treasure"), ship["treasure"])}/{TREASURE_TO_WIN} '
            + _pips(ship["treasure"], TREASURE_TO_WIN, "cov-treasure",
                    f"Treasure dial: {ship['treasure']} of {TREASURE_TO_WIN} (6 wins)") + '</span>'
            + f'<span class="cov-stat">Grog {_counter(counter_key(s, "grog"), ship["grog"])}/{GROG_MAX} '
            + _pips(ship["grog"], GROG_MAX, "cov-grog",
                    f"Grog dial: {ship['grog']} of {GROG_MAX}; 1 Grog pays a re-roll") + '</span>'
            + f'<span class="cov-stat" title="Silver coins on the Ship Board: {SILVER_PER_TREASURE} are '
              f'exchanged for 1 Treasure at once">Silver {_counter(counter_key(s, "silver"), ship["silver"])} '
            + "".join('<span class="cov-coin"></span>' for _ in range(min(ship["silver"], 8)))
            + '</span></div>')


def _captain_part(obs: dict[str, Any], ship: dict[str, Any], by_id: dict[str, dict[str, Any]],
                  placed: set[str]) -> str:
    """The ``p-<n>-cap`` part: the ship's Captain card, with its power's choices when that seat decides."""
    s = ship["seat"]
    cap = captain_of(ship)
    cap_buttons = []
    if s == deciding_seat(obs):
        for action in by_id.values():
            aid = action["id"]
            if aid in placed:
                continue
            if any(aid == c or (c.endswith(":") and aid.startswith(c)) for c in CAPTAIN_IDS) or \
                    (aid == "keep" and obs.get("waiting_for") == "captain-b"):
                placed.add(aid)
                cap_buttons.append(_act(action, "cov-choice cov-capchoice"))
    if cap is not None:
        return (f'<div class="cov-captain" title="{attr(cap.name + ": " + cap.text)}">'
                f'<span class="cov-capname">{text(cap.name)}</span> '
                f'<span class="cov-cappower">{text(cap.summary)}</span>' + "".join(cap_buttons) + '</div>')
    return '<div class="cov-captain">' + "".join(cap_buttons) + '</div>' if cap_buttons else ""


def _targets_part(ship: dict[str, Any], by_id: dict[str, dict[str, Any]], placed: set[str]) -> str:
    """The ``p-<n>-act`` part: the attack, steal and give choices aimed at this ship."""
    s = ship["seat"]
    targets = []
    for prefix in ("attack", "steal", "give"):
        act = by_id.get(f"{prefix}:p{s + 1}")
        if act is not None and act["id"] not in placed:
            placed.add(act["id"])
            targets.append(_act(act, f"cov-choice cov-target-{prefix}"))
    return '<div class="cov-targets">' + "".join(targets) + '</div>' if targets else ""


# ---------------------------------------------------------------- the whole board

@lru_cache(maxsize=64)
def _legend() -> str:
    """Part ``legend``: the key to the race track's and the Ship Boards' symbols (rulebook: Components,
    Hazards, Ship Boards), drawn with the board's own classes."""
    def pic(body: str) -> str:
        return f'<svg viewBox="-11 -11 22 22" aria-hidden="true" focusable="false">{body}</svg>'
    return legend([
        (pic(_hazard_icon(1, 0, 0)), "Whirlpool: a Ship whose move ends here goes back to the Start space"),
        (pic(_hazard_icon(2, 0, 0)), "Sea Monster: a Ship whose move ends here returns all its Silver"),
        (pic(_hazard_icon(3, 0, 0)), "Cutthroat: a Ship whose move ends here loses all its Grog"),
        (pic(f'<circle class="cov-ship" r="9" fill="{SHIP_FILL.get("purple", "#888")}"/>'
             '<text class="cov-shipnum" y="4">1</text>'), "A player's Ship, numbered by player"),
        ('<b>+1 Silver</b>', "An island: a Ship crossing it forwards gains what it shows"),
        ('<span class="cov-dial cov-grog"><span class="cov-pip cov-on"></span><span class="cov-pip"></span></span>',
         "A dial on a Ship Board: filled squares are Treasure or Grog held, empty ones room left"),
    ])


_LEGEND = _legend()


@lru_cache(maxsize=64)
def _root(track: RaceTrack, players: int) -> str:
    """The root part: the frame with every other part's slot (depends on the layout and player count only)."""
    _, height = _layout(track)
    width = MARGIN + LANES_W + 4
    dice = "".join(slot(f"die-{i}", "div", "cov-dieslot") for i in range(1, DICE + 1))
    boards = "".join(slot(f"p-{s}", "div", "cov-boardslot") for s in range(players))
    return (f'<div class="board board-corsairs-of-valeria" data-players="{players}"><div class="cov-layout">'
            f'<div class="cov-trackcol"><svg class="cov-track" viewBox="0 0 {width} {height}" role="group" '
            f'aria-label="Race track: Start Island at the bottom, Skull Island at the top">'
            + slot("track", "g") + slot("skull", "g") + slot("moves", "g") + slot("ships", "g") + '</svg></div>'
            '<div class="cov-side">' + slot("status")
            + '<section class="cov-tray" aria-label="The dice">' + slot("phase")
            + f'<div class="cov-dice" data-key="{DICE_KEY}">{dice}</div>'
            + slot("notes") + slot("choices") + '</section>'
            f'<div class="cov-boards">{boards}</div></div></div>' + slot(LEGEND) + '</div>')


def board_view(obs: dict[str, Any], actions: list[dict[str, Any]], seat: int | None) -> dict[str, str]:
    """The board as ``seat`` sees it: keyed parts ``{part id: html}``, root ``"board"`` (see the module docstring).

    ``obs`` is ``state.observation(seat)``; ``actions`` the seat's legal
    actions as ``[{"id": str, "label": str}]`` (empty when it is not to move;
    ignored for a spectator, ``seat`` None). Every action concerning a piece
    is placed on it with ``data-action`` and an accessible name; the rest are
    left for the page's action bar. Part ids depend on the player count only.
    Pure: the same arguments give the same parts. TypeError/ValueError for a
    ``seat`` that is neither None nor a seat of this table. Rulebook: Game
    Setup (the race track column), Components (Ship Boards, dice), Execute
    Dice Actions, Captain Cards.
    """
    check_seat(obs, seat)
    claims = _claims(obs, actions) if seat is not None and actions else frozenset()
    if claims is None:  # an action of a kind not known to _claims: every piece drawn with the actions
        return _board(obs, actions, seat)
    # drawn as the spectator's board, the same for every viewer but one frame; the pieces the seat's
    # actions may land on are drawn again with them
    parts = dict(_board_without_actions({k: v for k, v in obs.items() if k != "seat"}))
    for ship in obs["ships"]:
        if ship["seat"] == seat:
            parts[f"p-{seat}"] = _ship_part(obs, ship, seat)
    if claims:
        _place_actions(obs, actions, claims, parts)
    return parts


def whole_board_view(obs: dict[str, Any], actions: list[dict[str, Any]], seat: int | None) -> dict[str, str]:
    """:func:`board_view` drawn the plain way, every piece with the actions: the reference its parts
    (values and order) must equal."""
    check_seat(obs, seat)
    return _board(obs, actions, seat)


def _claims(obs: dict[str, Any], actions: list[dict[str, Any]]) -> frozenset | None:
    """The parts the ``actions`` may be placed on (every part that takes one in :func:`_board` is among
    them); None when an action is of a kind not known here."""
    out: set[str] = set()
    decider = deciding_seat(obs)
    cap = f"p-{decider}-cap" if decider is not None else None
    for action in actions:
        aid = action["id"]
        kind, _, rest = aid.partition(":")
        if kind == "mark":
            out.add(f"die-{rest}")
        elif aid in TRAY_IDS or aid == "keep":  # the tray's choices (a Captain's "keep" too)
            out.add("choices")
            if aid == "keep" and cap is not None:
                out.add(cap)
        elif any(aid == c or (c.endswith(":") and aid.startswith(c)) for c in CAPTAIN_IDS):
            if cap is not None:
                out.add(cap)
        elif kind in ("attack", "steal", "give") and rest[:1] == "p" and rest[1:].isdigit():
            out.add(f"p-{int(rest[1:]) - 1}-act")
        elif aid == "merchant" or kind in ("forward", "backward"):
            out.add("moves")
        elif kind == "hook":
            out.add("ships")
        else:
            return None
    return frozenset(out)


def _place_actions(obs: dict[str, Any], actions: list[dict[str, Any]], claims: frozenset,
                   parts: dict[str, str]) -> None:
    """Draw again in ``parts`` the parts named in ``claims`` with the ``actions``, in :func:`_board`'s order
    (an action goes to the first part that takes it)."""
    by_id = {a["id"]: a for a in actions}
    placed: set[str] = set()
    for i in range(1, DICE + 1):
        if f"die-{i}" in claims:
            parts[f"die-{i}"] = _die_part(obs, i, by_id, placed)
    if "choices" in claims:
        parts["choices"] = _choices_part(obs, by_id, placed)
    for ship in obs["ships"]:
        s = ship["seat"]
        if f"p-{s}-cap" in claims:
            parts[f"p-{s}-cap"] = _captain_part(obs, ship, by_id, placed)
        if f"p-{s}-act" in claims:
            parts[f"p-{s}-act"] = _targets_part(ship, by_id, placed)
    track = track_of(obs)
    if "moves" in claims:
        parts["moves"] = _moves_part(obs, track, by_id, placed)
    if "ships" in claims:
        parts["ships"] = _ships_part(obs, track, by_id, placed)


@memo(256)
def _board_without_actions(obs: dict[str, Any]) -> dict[str, str]:
    """The parts of a viewer without actions, but for its own Ship Board's frame (``obs`` without its
    ``seat``: the board reads nothing else of the viewer)."""
    return _board(obs, [], None)


def _board(obs: dict[str, Any], actions: list[dict[str, Any]], seat: int | None) -> dict[str, str]:
    """The parts of :func:`board_view` (``seat`` checked)."""
    track = track_of(obs)
    by_id = {} if seat is None else {a["id"]: a for a in actions}
    placed: set[str] = set()
    flags = turn_flags(obs)
    parts = {ROOT: _root(track, len(obs["ships"]))}
    parts["status"] = (f'<p class="cov-status">Turn {obs["turn"]} · race {obs["race"]} of 2 · Skull Island '
                       f'reached {obs["skull_island_visits"]} of 2 times · '
                       f'supply {_counter(SUPPLY_KEY, obs["supply"])} Silver'
                       + (" · 5 Cannons: a Treasure may be stolen" if flags["five_cannons"] else "") + '</p>')
    parts["phase"] = _phase_part(obs)
    for i in range(1, DICE + 1):
        parts[f"die-{i}"] = _die_part(obs, i, by_id, placed)
    parts["notes"] = _notes_part(obs)
    parts["choices"] = _choices_part(obs, by_id, placed)
    for ship in obs["ships"]:
        s = ship["seat"]
        parts[f"p-{s}"] = _ship_part(obs, ship, seat)
        parts[f"p-{s}-stats"] = _stats_part(ship)
        parts[f"p-{s}-cap"] = _captain_part(obs, ship, by_id, placed)
        parts[f"p-{s}-act"] = _targets_part(ship, by_id, placed)
    parts["track"] = _track_part(track)
    parts["skull"] = _skull_part(obs, track)
    parts["moves"] = _moves_part(obs, track, by_id, placed)
    parts["ships"] = _ships_part(obs, track, by_id, placed)
    parts[LEGEND] = _LEGEND
    return parts
