"""Browser board of a Biblios Dice table: keyed HTML parts drawn from ``observation(seat)`` only.

``board_view(obs, actions, seat)`` lays the table out like the physical game
(rulebook: Contents, Setup): the five Resource Tracks in a row with their
Value Dice at the top, VP stacks and penalty icons, the Bishop Track to their
right (Gold ratios, Bishop Token stacks), the Market Board with the Mule's
path under them; beside them the dice (pool, marked dice, market groups), the
auction, and one panel per player with what may be seen behind the shield
(everything for the viewer's own shield, nothing for the others' until the
game ends), Bidding Cards (revealed ones face up, a placed card face down,
the viewer's own face-down card visible to the viewer only) and Cadfael in a
two-player game.

The board is cut into parts (:mod:`dicetable.engine.markup`) that one action
changes independently: every track space, every Value Die, the Mule, each
kind of die in the pool, each market group, and each player panel's head,
line, bids and hand. Part ids are fixed names (``sp-ink-5``, ``value-ink``,
``pool-gold``, ``p-2-head``), never derived from hidden information.

Actions are placed on their pieces: ``take:*``, ``mark:*`` and ``small:*`` on
the dice, ``group:*`` on the market groups, ``bid:*`` on the viewer's Bidding
Cards, ``raise:*``/``lower:*``/``set3:*`` on the Value Dice, ``advance:*`` on
the space a Bishop Token's move reaches, ``reroll``/``keep``/``clear`` beside
the dice. ``convert``/``forgo`` (the Conversion Rule) has no piece and is left
to the page's action bar. No script; a pure function of its arguments.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping, Sequence

from dicetable.engine import counted, seat_name
from dicetable.engine.markup import LEGEND, ROOT, attr, die_svg, legend, memo, slot, text

from .keys import die_face, marker_key
from .rules.common import Marker
from .viewdata import (
    Observation, PlayerRow, Standing, cadfael_standing, last_auction_text, marker_name, mover_names, observation,
    space_of,
)
from .components import (
    ADJ_FACES, CADFAEL_COLOUR, COLOURS, MULE_FINAL, NRES, PENALTY, RATIOS, SYMBOL_NAMES,
    SYMBOLS, TOKENS, TOP, TRACK_NAMES, VP_STACKS, ratio_at,
)

_NAME = dict(zip(SYMBOLS, SYMBOL_NAMES))
_ADJ_LABEL = {a.id: a.label for a in ADJ_FACES}
_TOKEN_LABEL = {t.id: t.label for t in TOKENS}
_RATIO = dict(RATIOS)
_VP_STACK_AT = {space: k for k, (space, _) in enumerate(VP_STACKS)}
_ROWS = max(TOP)
# One SVG per track (they sit in a row, or wrap on a narrow screen), in user units: a space is
# _ROW_H - 2 high, so at the narrowest scale (about 1:1) a space to tap stays 32 px high.
_COL_W, _ROW_H, _HEAD = 98, 34, 22
_SVG_W = _COL_W + 4
_SVG_H = _HEAD + _ROWS * _ROW_H + 4
#: The kinds of dice in the pool, in the order they are drawn (Resource and Bishop dice, then the rest).
_POOL_KINDS = SYMBOLS + ("gold", "adjustment", "mule")
_PHASE = {
    "reroll": "Phase I: roll dice",
    "select": "Phase III: select dice",
    "split": "Market: split the dice",
    "bid": "Market: auction",
    "choose-group": "Market: choose a group",
    "resolve": "Market: resolve a group",
    "over": "Game over",
}
_DIE_TIPS = {
    "bishop": "A Bishop die: moves your marker up the Bishop Track (better Gold ratios, Bishop Tokens).",
    "gold": "The Gold Die: its number of Gold goes behind the taker's shield.",
    "gold-for-all": "The Gold Die showing gold for all: every player gains Gold (players minus 1).",
    "adjustment": "The Adjustment Die: changes the Value Dice at the top of the Resource Tracks.",
    "mule": "The Mule Die: moves the Mule along the Market Board.",
}
# Icons drawn in a 40x40 die, centred on 20,20.
_ICONS = {
    "scrolls": '<rect x="11" y="15" width="18" height="10" rx="2"/><circle cx="11" cy="20" r="4"/>'
               '<circle cx="29" cy="20" r="4"/>',
    "manuscripts": '<path d="M9,13 Q14,11 20,14 Q26,11 31,13 V28 Q26,26 20,29 Q14,26 9,28 Z"/>'
                   '<path class="line" d="M20,14 V29"/>',
    "pigments": '<path d="M10,19 H30 Q30,30 20,30 Q10,30 10,19 Z"/><circle cx="15" cy="15" r="3"/>'
                '<circle cx="23" cy="13" r="3"/>',
    "quills": '<path d="M12,31 Q14,17 28,9 Q27,21 15,27 Z"/><path class="line" d="M12,31 L24,15"/>',
    "ink": '<rect x="13" y="17" width="14" height="13" rx="3"/><rect x="17" y="11" width="6" height="6"/>',
    "bishop": '<path d="M13,31 V18 Q13,11 20,8 Q27,11 27,18 V31 Z"/>'
              '<path class="line" d="M20,13 V25 M16,18 H24"/>',
}


def _colour(m: Marker) -> str:
    return CADFAEL_COLOUR if m == "cadfael" else COLOURS[m % len(COLOURS)]


def _button_attrs(aid: str, label: str) -> str:
    """Attributes making an SVG element a focusable action button."""
    return f' data-action="{attr(aid)}" role="button" tabindex="0" aria-label="{attr(label)}"'


# ------------------------------------------------------------------ the frame (root part)
def _col_x(t: int) -> int:
    """The left edge of the spaces in track ``t``'s own SVG (the same for every track)."""
    return 2


def _row_y(space: int) -> int:
    return _HEAD + (_ROWS - space) * _ROW_H + 2


@lru_cache(maxsize=64)
def _root(players: int, cadfael: bool, seat: int | None) -> str:
    """The root part: the layout and every slot; fixed for a table and viewer."""
    out = ['<div class="board board-biblios-dice">', slot("status"),
           '<div class="bd-main"><div class="bd-left">'
           '<div class="bd-tracks" role="group" aria-label="The five Resource Tracks and the Bishop Track">']
    for t, sym in enumerate(SYMBOLS):
        x = _col_x(t)
        name = SYMBOL_NAMES[t] if t < NRES else "Bishop"
        out.append(f'<svg class="bd-col r-{sym}" viewBox="0 0 {_SVG_W} {_SVG_H}" role="group" '
                   f'aria-label="{attr(TRACK_NAMES[t])}"><rect class="bg" x="{x - 1}" y="0" width="{_COL_W + 2}" '
                   f'height="{_SVG_H}" rx="6"/><text class="head" x="{x + _COL_W // 2}" y="16">{text(name)}</text>')
        out.extend(slot(f"sp-{sym}-{space}", "g") for space in range(1, TOP[t] + 1))
        if t < NRES:
            out.append(slot(f"value-{sym}", "g"))
        out.append("</svg>")
    out.append('</div><div class="bd-market" role="group" aria-label="The Market Board and the Mule">'
               + slot("mule", "div", "bd-mule-path") + "</div>" + slot("last") + '</div><div class="bd-right">'
               + slot("dice") + '<section class="bd-players" aria-label="Players">')
    order = list(range(players))
    if seat is not None:
        order = order[seat:] + order[:seat]
    out.extend(slot(f"p-{s}") for s in order)
    if cadfael:
        out.append(slot("cadfael"))
    out.append("</section></div></div>" + slot(LEGEND) + "</div>")
    return "".join(out)


# ------------------------------------------------------------------ tracks
@lru_cache(maxsize=512)
def _value_die(t: int, pips: int, act: tuple[str, str] | None) -> str:
    sym = SYMBOLS[t]
    x = _col_x(t) + _COL_W // 2 - 22
    y = _row_y(TOP[t] + 1) + 8 - (_ROW_H if TOP[t] + 2 <= _ROWS else 0)
    tip = (f"The {SYMBOL_NAMES[t]} Value Die shows {pips}. At the end, first place on this track scores "
           f"{2 * pips} VP, second {pips}, third {-(-pips // 2)}.")
    attrs = ""
    classes = "bd-value"
    if act is not None:
        attrs = _button_attrs(*act)
        classes += " act"
        tip += " " + act[1] + "."
    return (f'<g class="{classes} r-{sym}" data-die="{pips}"{attrs}><title>{text(tip)}</title>'
            f'<g transform="translate({x},{y})">{die_svg(pips, size=44)}</g>'
            f'<text class="vnum" x="{x + 47}" y="{y + 40}" data-key="value-{sym}" data-count="{pips}">{pips}'
            '</text></g>')


def _value_act(sym: str, actions: dict) -> tuple[str, str] | None:
    for aid in (f"raise:{sym}", f"lower:{sym}", f"set3:{sym}"):
        if aid in actions:
            return aid, actions[aid]
    return None


def _advance_targets(obs: Observation, seat: int | None, actions: dict) -> dict[tuple[int, int], tuple[str, str]]:
    """(track, space) -> (action id, label) for a Bishop Token's moves."""
    out: dict[tuple[int, int], tuple[str, str]] = {}
    if seat is None:
        return out
    for t in range(NRES):
        aid = f"advance:{SYMBOLS[t]}"
        if aid in actions:
            out[(t, space_of(obs, SYMBOLS[t], seat) + 1)] = (aid, actions[aid])
    return out


@lru_cache(maxsize=4096)
def _track_space(t: int, space: int, markers: tuple, vp_left: tuple | None, tokens: tuple | None,
                 target: tuple[str, str] | None) -> str:
    """One space of track ``t``: its markers (ahead first), VP stack (tokens left, top first) or Bishop
    Token stack (count, ids left) and the action moving there, if any."""
    sym = SYMBOLS[t]
    x, y = _col_x(t), _row_y(space)
    classes = ["bd-space"]
    badges = []
    name = SYMBOL_NAMES[t] + " Track" if t < NRES else "Bishop Track"
    tip = f"{name}, space {space}."
    if space == TOP[t]:
        classes.append("top")
        tip += " The top space." + (" Four markers on top spaces end the game; taking more dice of this "
                                    "resource then converts them (Conversion Rule)." if t < NRES else
                                    " A marker here ends the game.")
    if t < NRES:
        pen = PENALTY[t].get(space)
        if pen:
            classes.append("penalty")
            badges.append(f'<text class="pen" x="{x + 3}" y="{y + 28}">-{pen}</text>')
            tip += f" A marker left here at the end loses {pen} VP."
        if space == 4:
            tip += " From this space on a marker can score a place."
        if vp_left is not None:
            top = vp_left[0] if vp_left else "-"
            badges.append(f'<g class="vp-stack" data-key="vps-{sym}-{_VP_STACK_AT[space]}">'
                          f'<circle cx="{x + _COL_W - 12}" cy="{y + 16}" r="11"/>'
                          f'<text x="{x + _COL_W - 12}" y="{y + 20}">{top}</text></g>')
            tip += (f" VP stack, topmost first: {', '.join(map(str, vp_left))} VP; the next marker to reach or "
                    "pass this space takes the top token." if vp_left else " Its VP stack is used up.")
    else:
        ratio = _RATIO.get(space)
        if ratio:
            badges.append(f'<text class="ratio" x="{x + 2}" y="{y + 28}">{ratio}:1</text>')
            tip += f" Reaching it converts Gold at {ratio} Gold per VP at the end."
        if tokens is not None:
            count, left_ids = tokens
            badges.append(f'<g class="tok-stack"><rect x="{x + _COL_W - 21}" y="{y + 6}" width="19" height="20" '
                          f'rx="2"/><text x="{x + _COL_W - 11}" y="{y + 21}" data-key="tokens-{space}" '
                          f'data-count="{count}">{count}</text></g>')
            left = "; ".join(_TOKEN_LABEL[i] for i in left_ids) or "none"
            tip += (f" Bishop Tokens: {count} left, face down in unknown order (still in the stack: "
                    f"{left}). The next marker to reach or pass it takes the top one.")
    attrs = ""
    if target is not None:
        classes.append("target")
        attrs = _button_attrs(*target)
        tip += " " + target[1] + "."
    if markers:
        tip += " Markers, ahead first: " + ", ".join(marker_name(m) for m in markers) + "."
    out = [f'<g class="{" ".join(classes)}" data-track="{sym}" data-space="{space}" '
           f'data-key="{sym}-{space}"{attrs}>'
           f'<title>{text(tip)}</title>'
           f'<rect x="{x}" y="{y}" width="{_COL_W}" height="{_ROW_H - 2}" rx="3"/>'
           f'<text class="num" x="{x + 3}" y="{y + 13}">{space}</text>']
    out.extend(badges)
    for i, m in enumerate(markers):
        out.append(f'<rect class="cube c-{_colour(m)}" data-key="{marker_key(sym, m)}" x="{x + 21 + i * 11}" '
                   f'y="{y + 10}" width="10" height="13" rx="2"/>')
    out.append("</g>")
    return "".join(out)


def _tracks(obs: Observation, seat: int | None, actions: dict, parts: dict[str, str]) -> None:
    targets = _advance_targets(obs, seat, actions)
    parts.update(_track_parts(obs["tracks"], obs["vp_stacks"], obs["bishop_stacks"], obs["value_dice"],
                              sorted(targets.items()), [_value_act(sym, actions) for sym in SYMBOLS[:NRES]]))


@memo(512)
def _track_parts(tracks: dict, vp_stacks: dict, bishop_stacks: list, value_dice: dict, targets: list,
                 value_acts: list) -> dict[str, str]:
    """The parts of the tracks (``sp-<sym>-<space>``, ``value-<sym>``): the same for every viewer who has
    the same ``targets`` (``[((track, space), (action id, label))]``) and ``value_acts`` (per Resource
    Track, its Value Die's action or None), so drawn once for them all."""
    parts: dict[str, str] = {}
    at = dict(targets)
    stacks = {b["space"]: (b["count"], tuple(b["tokens_left"])) for b in bishop_stacks}
    for t, sym in enumerate(SYMBOLS):
        spaces = tracks[sym]
        for space in range(1, TOP[t] + 1):
            vp_left = None
            if t < NRES:
                k = _VP_STACK_AT.get(space)
                if k is not None:
                    vp_left = tuple(vp_stacks[sym][k])
            parts[f"sp-{sym}-{space}"] = _track_space(
                t, space, tuple(spaces[space - 1]), vp_left, stacks.get(space) if t == NRES else None,
                at.get((t, space)))
        if t < NRES:
            act = value_acts[t]
            parts[f"value-{sym}"] = _value_die(t, value_dice[sym], tuple(act) if act is not None else None)
    return parts


@lru_cache(maxsize=64)
def _mule(mule: int, mule_die: int) -> str:
    """The Market Board: the Mule's path (the last space is the market), the Mule on space ``mule``
    (0 the first) and the Mule Die."""
    n = MULE_FINAL + 1
    out = []
    for i in range(n):
        final = i == MULE_FINAL
        tip = ("The final space: when the Mule reaches it, everyone goes to the market (an auction for two "
               "groups of dice), then the Mule returns to the first space." if final else
               f"Space {i + 1} of the Mule's path." + (" The Mule starts here." if i == 0 else ""))
        here = (f'<span class="mule" data-key="mule" title="The Mule, on space {i + 1} of {n}.">Mule</span>'
                if i == mule else "")
        out.append(f'<div class="mule-space{" final" if final else ""}" data-mule-space="{i + 1}" '
                   f'data-key="mule-{i + 1}" title="{attr(tip)}"><span class="n">{"Market" if final else i + 1}'
                   f'</span>{here}</div>')
    out.append(f'<span class="die-note">Mule Die {mule_die}</span>')
    return "".join(out)


# ------------------------------------------------------------------ dice
def _die_face(kind: str, face: int | str | None) -> str:
    if kind in _ICONS:
        body = f'<g class="icon">{_ICONS[kind]}</g>'
    elif kind == "gold":
        body = ('<circle class="coin" cx="20" cy="20" r="12"/><text x="20" y="25">'
                + ("all" if face == "gold-for-all" else text(face)) + "</text>")
    elif kind == "adjustment":
        body = f'<text class="adj" x="20" y="25">{text(face)}</text>'
    else:  # mule
        body = f'<text x="20" y="26">{text(face)}</text>'
    return die_svg(symbol=body)


@lru_cache(maxsize=1024)
def _die(kind: str, face: int | str | None, act: tuple[str, str] | None, marked: bool = False) -> str:
    """One die of the pool or a group; ``act`` (action id, label) makes it a button."""
    if kind in _NAME and kind != "bishop":
        tip = f"A {_NAME[kind]} die: moves its taker up the {_NAME[kind]} Track."
    elif kind == "gold" and face == "gold-for-all":
        tip = _DIE_TIPS["gold-for-all"]
    elif kind == "adjustment":
        tip = f"The Adjustment Die ({face}): {_ADJ_LABEL[str(face)]}."
    elif kind == "mule":
        tip = f"The Mule Die ({face}): the Mule advances {counted(int(face or 0), 'space')}."
    else:
        tip = _DIE_TIPS[kind]
        if kind == "gold":
            tip += f" It shows {face}."
    classes = f"bd-die k-{kind}" + (" marked" if marked else "")
    if marked:
        tip += " Marked for the re-roll."
    if act is not None:
        aid, label = act
        return (f'<button type="button" class="{classes}" data-die="{attr(die_face(kind, face))}" '
                f'data-action="{attr(aid)}" aria-label="{attr(label)}" '
                f'title="{attr(tip + " " + label + ".")}">{_die_face(kind, face)}</button>')
    name = _NAME.get(kind, kind) if kind not in ("gold", "adjustment", "mule") else f"{kind} die {face}"
    name += " (marked)" if marked else ""
    return (f'<span class="{classes}" data-die="{attr(die_face(kind, face))}" role="img" aria-label="{attr(name)}" '
            f'title="{attr(tip)}">{_die_face(kind, face)}</span>')


def _dice_of(kind: str, d: dict, mule: int | None, actions: dict, prefix: str | None, marked: dict) -> str:
    """The dice of one ``kind`` in a dice set (observation shape); ``prefix`` is the action verb on them."""
    act = None
    if prefix is not None:
        aid = f"{prefix}:{kind}"
        if aid in actions:
            act = (aid, actions[aid])
    if kind in _NAME:
        m = marked.get(kind, 0)
        return "".join(_die(kind, None, None if i < m else act, i < m) for i in range(d.get(kind, 0)))
    face = mule if kind == "mule" else d.get(kind)
    if face is None:
        return ""
    is_marked = bool(marked.get(kind))
    return _die(kind, face, None if is_marked else act, is_marked)


def _dice_set(d: dict, actions: dict, prefix: str | None) -> str:
    """Every die of a dice set (a market group, the group of 3)."""
    return "".join(_dice_of(k, d, None, actions, prefix, {}) for k in _POOL_KINDS) \
        or '<span class="bd-empty">no dice</span>'


_SHORT = {"reroll": "Re-roll marked dice (1 VP)", "clear": "Unmark all", "keep": "Keep the dice"}
_BUTTON_TIPS = {
    "reroll": "Pay 1 VP token and re-roll the marked dice; allowed once per round, first player only.",
    "keep": "Keep the dice; the Mule advances by the Mule Die.",
    "clear": "Unmark every die.",
}
_PENDING = {"adjust": "Adjustment Die: click a Value Die at the top of a Resource Track.",
            "advance": "Bishop Token: click the highlighted space of a Resource Track.",
            "convert": "Conversion Rule: convert the dice, or forgo them (buttons below the board)."}
#: The same follow-up as read by a viewer who cannot act on it (a spectator, a waiting seat): whose decision
#: it is, never an instruction addressed to them; ``{who}`` is the deciding seat's name.
_PENDING_OTHERS = {"adjust": "Adjustment Die: {who} chooses which Value Dice to change.",
                   "advance": "Bishop Token: {who} chooses where to move up on the Resource Tracks.",
                   "convert": "Conversion Rule: {who} chooses whether to convert the dice or forgo them."}


def _buttons(actions: dict, ids: Sequence[str]) -> str:
    """Buttons for actions without a piece of their own; the accessible name is the action's label."""
    return "".join(f'<button type="button" class="bd-btn" data-action="{attr(aid)}" aria-label="{attr(actions[aid])}" '
                   f'title="{attr(_BUTTON_TIPS.get(aid, actions[aid]))}">{text(_SHORT.get(aid, actions[aid]))}</button>'
                   for aid in ids if aid in actions)


@lru_cache(maxsize=8)
def _pool_slots(prefix: str) -> str:
    kinds = "".join(slot(f"{prefix}-{k}", "span", "bd-kind") for k in _POOL_KINDS)
    return f'<div class="row" data-key="dice">{kinds}</div>'


def _dice(obs: Observation, actions: dict, parts: dict[str, str]) -> None:
    """The dice area (part ``dice``) and its pieces: the pool by kind, the group of 3, the market groups."""
    phase = obs["phase"]
    if phase == "over":
        parts["dice"] = _final(obs)
        return
    out = ['<section class="bd-dice" aria-label="The dice">']
    if phase in ("reroll", "select", "split"):
        verb = {"reroll": "mark", "select": "take", "split": "small"}[phase]
        # what to click is said only to the viewer who can act (a spectator or a waiting seat has no actions)
        head = {"reroll": "Dice rolled", "select": "Dice pool", "split": "Market: split the dice"}[phase]
        how = {"reroll": "click dice to mark them for the re-roll", "select": "take all dice of one type",
               "split": "click a die to put it in the group of 3"}[phase]
        out.append(f"<h3>{head} <small>({how})</small></h3>" if actions else f"<h3>{head}</h3>")
        out.append(_pool_slots("pool"))
        mule = obs["mule_die"] if phase == "reroll" else None
        marked = obs["marked"] if phase == "reroll" else {}
        for k in _POOL_KINDS:
            parts[f"pool-{k}"] = _dice_of(k, obs["pool"], mule, actions, verb, marked)
        if phase == "reroll":
            out.append(slot("dice-btns", "div", "row btns"))
            parts["dice-btns"] = _buttons(actions, ("reroll", "clear", "keep"))
        elif phase == "split":
            out.append('<h4>Group of 3</h4>' + slot("small-group", "div", "row small-group", 'data-key="small-group"'))
            parts["small-group"] = _dice_set(obs["small_group"], actions, None)
    else:
        out.append('<h3>Market groups</h3><div class="groups">' + slot("group-large") + slot("group-small")
                   + "</div>")
        for g, name in enumerate(("large", "small")):
            parts[f"group-{name}"] = _group(obs, g, name, actions)
    out.append(slot("pending") + "</section>")
    pending = obs.get("pending")
    parts["pending"] = f'<p class="bd-pending">{text(_pending_line(pending, actions))}</p>' if pending else ""
    parts["dice"] = "".join(out)


def _pending_line(pending: Sequence[Any], actions: dict) -> str:
    """The line under the dice for a take's follow-up (observation ``pending``: its kind, then the deciding
    seat): what to click for the viewer who has actions, whose decision it is for everyone else."""
    if actions:
        return _PENDING.get(pending[0], "")
    return _PENDING_OTHERS.get(pending[0], "").format(who=seat_name(pending[1]))


def _group(obs: Observation, g: int, name: str, actions: dict) -> str:
    aid = f"group:{name}"
    resolving = obs.get("resolving_group") == name
    dice = _dice_set(obs["groups"][g], actions, "take" if resolving else None)
    head = f'<span class="gname">{name.capitalize()} group</span>'
    if aid in actions:
        return (f'<button type="button" class="bd-group act" data-key="group-{name}" data-action="{attr(aid)}" '
                f'aria-label="{attr(actions[aid])}" title="{attr(actions[aid])}">{head}'
                f'<span class="row">{dice}</span></button>')
    return (f'<div class="bd-group{" resolving" if resolving else ""}" data-key="group-{name}">{head}'
            f'<span class="row">{dice}</span></div>')


# ------------------------------------------------------------------ players and auction
def _card(value: int, cls: str = "", act: tuple[str, str] | None = None, tip: str = "", key: str = "") -> str:
    shown = "pass" if value == 0 else str(value)
    keyed = f' data-key="{key}"' if key else ""
    if act is not None:
        return (f'<button type="button" class="bd-card {cls}"{keyed} data-action="{attr(act[0])}" '
                f'aria-label="{attr(act[1])}" title="{attr(tip or act[1])}">{shown}</button>')
    return f'<span class="bd-card {cls}"{keyed} title="{attr(tip)}">{shown}</span>'


def _bids(p: PlayerRow, seat: int | None, phase: str) -> str:
    """Part ``p-<s>-bid``: the player's cards of this auction (its face-down card shown to itself only)."""
    own = p.get("face_down") if p["seat"] == seat and p["face_down_placed"] else None
    return _bids_of(p["seat"], tuple(p["revealed"]), p["face_down_placed"], own, phase, p["sitting_out"],
                    p["bidding"])


@lru_cache(maxsize=2048)
def _bids_of(s: int, revealed: tuple[int, ...], placed: bool, own: int | None, phase: str, sitting_out: bool,
             bidding: bool) -> str:
    """:func:`_bids` from what it reads of the player (``own``: its face-down card when the viewer may see it)."""
    out = [_card(v, "up", tip=f"Revealed Bidding Card: {'pass' if v == 0 else v}.", key=f"card-{s}-{i}")
           for i, v in enumerate(revealed)]
    if placed:
        if own is not None:
            out.append(_card(own, "down mine", tip="Your card, face down: only you see it until all are revealed.",
                             key=f"card-{s}-down"))
        else:
            out.append(f'<span class="bd-card down" data-key="card-{s}-down" title="A Bidding Card placed face down: '
                       'hidden until all bidders have placed theirs.">?</span>')
    if phase == "bid":
        if sitting_out:
            out.append('<span class="bd-note">sits out (overbid)</span>')
        elif not bidding:
            out.append('<span class="bd-note">passed</span>')
        elif not placed:
            out.append('<span class="bd-note">choosing</span>')
    if not out:
        return f'<div class="bids" data-key="p-{s}-bid"></div>'
    total = f' = <b>{sum(revealed)}</b>' if revealed else ""
    return f'<div class="bids" data-key="p-{s}-bid">Bid: {"".join(out)}{total}</div>'


def _player_head(obs: Observation, s: int, seat: int | None) -> str:
    over = obs["is_over"]
    badges = []
    if s == seat:
        badges.append('<span class="badge you">you</span>')
    if s == obs["first_player"]:
        badges.append('<span class="badge monastery" data-key="monastery" title="The Monastery Card: this player '
                      'rolls the dice and chooses first.">Monastery</span>')
    if s in obs["to_move"]:
        badges.append('<span class="badge move">to move</span>')
    if over and s in obs["winners"]:
        badges.append('<span class="badge win">winner</span>')
    score = ""
    if s == seat and "my_score" in obs:
        sc = obs["my_score"]
        score = (f'<span class="score" title="Your score if the game ended now: tracks {sum(sc["tracks"])}, '
                 f'penalty -{sc["penalty"]}, VP tokens {sc["tokens"]}, Gold {sc["gold_vp"]} VP'
                 + (f', objective {sc["objective"]}' if obs["hidden_objectives"] else "")
                 + f'"><span data-key="p-{s}-now" data-count="{sc["total"]}">{sc["total"]}</span> VP now</span>')
    elif over and obs.get("final"):
        score = f'<span class="score">{obs["final"][s]["total"]} VP</span>'
    return f'<div class="head"><span class="swatch"></span><b>{text(seat_name(s))}</b>{"".join(badges)}{score}</div>'


def _public(standing: Standing, key: str) -> str:
    """The public score now, said as the sum it is: "score now −14 = places 0 − penalty 14"."""
    places, penalty = sum(standing["tracks"]), standing["penalty"]
    now = places - penalty
    return (f'<span class="pub" title="The score everyone sees if the game ended now: the places on the '
            f'Resource Tracks minus the penalty for markers still below the 4th space (every marker starts '
            f'there, so every score starts below zero); Gold and VP tokens count only at the end">'
            f'score now {"−" if now < 0 else ""}{abs(now)} = places '
            f'<span data-key="{key}" data-count="{places}">{places}</span> VP'
            + (f' − penalty {penalty} (markers below space 4)' if penalty else ", no penalty") + '</span>')


def _player_line(obs: Observation, p: PlayerRow) -> str:
    standing = obs["standing"][p["seat"]]
    return _line(p["seat"], p["gold"], p["vp_tokens"], p["objective"], space_of(obs, "bishop", p["seat"]),
                 obs["hidden_objectives"], tuple(standing["tracks"]), standing["penalty"])


@lru_cache(maxsize=1024)
def _line(s: int, gold: int | None, vp_tokens: int | None, objective: str | None, bishop: int,
          hidden_objectives: bool, tracks: tuple[int, ...], penalty: int) -> str:
    """Seat ``s``'s line: Bishop space, shield (Gold, VP tokens, objective when shown: ``gold`` not None) and
    public score (its ``tracks`` places and ``penalty``)."""
    ratio = ratio_at(bishop)
    shield = []
    if gold is not None:
        shield.append(f'<span class="gold" title="Gold behind the shield"><span data-key="p-{s}-gold" '
                      f'data-count="{gold}">{gold}</span> Gold</span>')
        shield.append(f'<span class="vp" title="VP tokens behind the shield"><span data-key="p-{s}-vp" '
                      f'data-count="{vp_tokens}">{vp_tokens}</span> VP</span>')
        if objective:
            shield.append(f'<span class="obj" title="Hidden Objective: first place on this track scores 3 VP more">'
                          f'objective {text(_NAME[objective])}</span>')
    else:
        shield.append('<span class="hidden" title="Behind the shield: Gold, VP tokens'
                      + (' and a Hidden Objective' if hidden_objectives else '')
                      + ', hidden from you (every gain and payment is in the log).">shield</span>')
    return (f'<div class="line"><span title="Bishop Track space'
            f'{"; Gold converts at " + str(ratio) + ":1" if ratio else ""}">'
            f'Bishop {bishop}{" (" + str(ratio) + ":1)" if ratio else ""}</span>'
            f'<span class="shield" data-key="p-{s}-shield">{"".join(shield)}</span>'
            f'{_public({"tracks": list(tracks), "penalty": penalty}, f"p-{s}-places")}</div>')


def _player_hand(obs: Observation, p: PlayerRow, seat: int | None, actions: dict) -> str:
    s = p["seat"]
    if obs["is_over"]:
        return ""
    if s == seat and "hand" in p:
        hand = tuple(p["hand"])
        bids = tuple((aid, actions[aid]) for aid in (f"bid:{'pass' if v == 0 else v}" for v in hand) if aid in actions)
        return _own_hand(s, hand, p["pass_card_aside"], bids)
    return _other_hand(tuple(p["cards_not_revealed"]), p["pass_card_aside"])


@lru_cache(maxsize=1024)
def _own_hand(s: int, hand: tuple[int, ...], aside: bool, bids: tuple[tuple[str, str], ...]) -> str:
    """Seat ``s``'s own Bidding Cards ``hand``, those it may bid now (``bids``: (id, label)) as buttons."""
    actions = dict(bids)
    cards = []
    for v in hand:
        aid = f"bid:{'pass' if v == 0 else v}"
        act = (aid, actions[aid]) if aid in actions else None
        cards.append(_card(v, "hand", act,
                           "The pass card: stop bidding." if v == 0 else f"Bidding Card {v}: bid {v} Gold more.",
                           key=f"hand-{s}-{v}"))
    note = ' <span class="bd-note">pass card aside</span>' if aside else ""
    return f'<div class="hand" aria-label="Your Bidding Cards">Cards: {"".join(cards)}{note}</div>'


@lru_cache(maxsize=1024)
def _other_hand(left: tuple[int, ...], aside: bool) -> str:
    """A hand the viewer may not see: the values of the cards ``left`` unrevealed, the pass card ``aside``."""
    return ('<div class="hand other" title="Bidding Cards not revealed">Cards: '
            + " ".join("pass" if v == 0 else str(v) for v in left)
            + (' <span class="bd-note">pass card aside</span>' if aside else "") + '</div>')


@lru_cache(maxsize=64)
def _player_shell(s: int, to_move: bool) -> str:
    """Part ``p-<s>``: seat ``s``'s panel with the slots of its pieces."""
    classes = f"bd-player c-{_colour(s)}" + (" to-move" if to_move else "")
    pieces = "".join(slot(f"p-{s}-{piece}") for piece in ("head", "line", "bids", "hand"))
    return f'<div class="{classes}" data-seat="{s}" data-key="p-{s}">{pieces}</div>'


def _players(obs: Observation, seat: int | None, actions: dict, parts: dict[str, str]) -> None:
    for p in obs["players"]:
        s = p["seat"]
        parts[f"p-{s}"] = _player_shell(s, s in obs["to_move"])
        parts[f"p-{s}-head"] = _player_head(obs, s, seat)
        parts[f"p-{s}-line"] = _player_line(obs, p)
        parts[f"p-{s}-bids"] = _bids(p, seat, obs["phase"])
        parts[f"p-{s}-hand"] = _player_hand(obs, p, seat, actions)
    if "cadfael" in obs:
        parts["cadfael"] = _cadfael_panel(obs)


def _cadfael_panel(obs: Observation) -> str:
    cf = obs["cadfael"]
    standing = cadfael_standing(obs)
    bishop = space_of(obs, "bishop", "cadfael")
    revealed = "".join(_card(v, "up", tip=f"Cadfael's revealed card: {v}.", key=f"card-cf-{i}")
                       for i, v in enumerate(cf["revealed"]))
    bid = (f'<div class="bids" data-key="cf-bid">'
           + (f'Bid: {revealed} <b>{sum(cf["revealed"])}</b>' if cf["revealed"] else "") + "</div>")
    face_up = " ".join(map(str, cf["face_up"])) or "none"
    return (f'<div class="bd-player c-{CADFAEL_COLOUR} cadfael" data-key="cadfael" title="Cadfael, the third '
            'colour of a two-player game: Phase 0 rolls 3 Resource Dice for him; he bids two cards from his deck '
            'in every auction and takes groups without using them.">'
            f'<div class="head"><span class="swatch"></span><b>Cadfael</b></div>'
            f'<div class="line">Bishop {bishop}{_public(standing, "cf-places")}'
            f'<span>deck {cf["draw_pile"]}, face up: {face_up}</span></div>{bid}</div>')


def _svg(body: str) -> str:
    """A legend's picture drawn with the board's classes (a 24-unit box around 0, 0)."""
    return f'<svg viewBox="-12 -12 24 24" aria-hidden="true" focusable="false">{body}</svg>'


def _legend() -> str:
    """Part ``legend``: the key to the dice and track symbols (rulebook: Components, Resource Tracks)."""
    rows = [(f'<span class="lg-die lg-{sym}">{_die_face(sym, None)}</span>',
             f"A {_NAME[sym]} die: its taker moves up the {_NAME[sym]} Track"
             if sym != "bishop" else "A Bishop die: its taker moves up the Bishop Track")
            for sym in SYMBOLS]
    rows += [
        (f'<span class="lg-die lg-gold">{_die_face("gold", 3)}</span>', "The Gold Die: that much Gold behind the "
                                                                        "taker's shield; 'all': every player gains Gold"),
        (f'<span class="lg-die lg-adjustment">{_die_face("adjustment", "+1")}</span>',
         "The Adjustment Die: raises (+) or lowers (−) the Value Dice at the top of the tracks"),
        ('<span class="bd-swatch-legend">▪</span>', "A player's marker (the colour of the player's panel)"),
        (_svg('<g class="vp-stack"><circle r="9"/><text y="4">5</text></g>'),
         "A VP stack: the next marker to reach or pass this space takes its top VP token"),
        (_svg('<g class="tok-stack"><rect x="-9" y="-10" width="19" height="20"/><text y="4">3</text></g>'),
         "Bishop Tokens on the Bishop Track: the next marker to reach this space takes one"),
        ('<b class="lg-ratio">2:1</b>', "Your Gold ratio from this Bishop space on: Gold per VP at the end"),
        ('<b class="lg-pen">-2</b>', "Penalty: a marker left on this space at the end loses that many VP"),
    ]
    return legend(rows)


_LEGEND = _legend()


def _last_auction(obs: Observation) -> str:
    line = last_auction_text(obs)
    return f'<p class="bd-last">{text(line)}</p>' if line else ""


def _final(obs: Observation) -> str:
    rows = obs.get("final")
    if not rows:
        return ""
    players = len(obs["players"])
    names = [seat_name(m) if m < players else "Cadfael" for m in range(len(rows))]
    head = "".join(f"<th>{text(n)}</th>" for n in names)
    lines: list[tuple[str, list[int | str]]] = []
    for t in range(NRES):
        lines.append((SYMBOL_NAMES[t], [r["tracks"][t] for r in rows]))
    lines += [("Penalty", [-r["penalty"] for r in rows]), ("VP tokens", [r["tokens"] for r in rows]),
              ("Gold", [r["gold_vp"] for r in rows])]
    if obs["hidden_objectives"]:
        lines.append(("Objective", [r["objective"] for r in rows]))
    lines += [("Total", [r["total"] for r in rows]),
              ("Gold left", [r["gold_left"] if m < players else "-" for m, r in enumerate(rows)])]
    body = "".join(f'<tr{" class=total" if name == "Total" else ""}><th>{text(name)}</th>'
                   + "".join(f"<td>{text(v)}</td>" for v in vals) + "</tr>" for name, vals in lines)
    return (f'<section class="bd-final" aria-label="Final scoring"><h3>Final scoring</h3>'
            f'<table><tr><th></th>{head}</tr>{body}</table>'
            f'<p class="bd-note">Ties: most Gold left, then further up the Bishop Track.</p></section>')


def _status(obs: Observation, seat: int | None) -> str:
    if obs["is_over"]:
        winners = ", ".join(seat_name(s) for s in obs["winners"])
        return f'<div class="bd-status over">Game over. Winner: {text(winners)}</div>'
    movers = mover_names(obs, seat)
    return (f'<div class="bd-status"><b>Round <span data-key="round" data-count="{obs["round"]}">{obs["round"]}'
            f'</span></b>'
            f'<span>Monastery Card: {text(seat_name(obs["first_player"]))}</span>'
            f'<span>{text(_PHASE.get(obs["phase"], obs["phase"]))}</span>'
            f'<span class="who">To move: {text(", ".join(movers))}</span></div>')


def board_view(obs: Mapping[str, Any], actions: list, seat: int | None) -> dict[str, str]:
    """The Biblios Dice board as keyed parts ``{part id: inner HTML}``; root part ``"board"``.

    Assembled (:func:`dicetable.engine.markup.assemble`), the parts make one
    ``<div class="board board-biblios-dice">``. ``obs`` is
    ``state.observation(seat)``; ``actions`` is the seat's legal actions as
    ``[{"id": str, "label": str}]`` (empty when it is not to move); ``seat`` is
    the viewer (None for a spectator). Every action but ``convert``/``forgo``
    is placed on its piece as a focusable element with ``data-action`` and the
    action's label as its accessible name. Pure: the same arguments give the
    same parts. Rulebook: Contents, Setup, Playing the Game, Market Rules,
    Auctions, Scoring, Rules for 2 Players.
    """
    obs = observation(obs)
    labels = {a["id"]: a["label"] for a in actions}
    parts: dict[str, str] = {ROOT: _root(len(obs["players"]), "cadfael" in obs, seat),
                             "status": _status(obs, seat)}
    if labels:
        _middle(obs, seat, labels, parts)
    else:  # the same for every viewer without actions: it reads nothing of the players but their number
        parts.update(_middle_without_actions({k: v for k, v in obs.items() if k not in _PER_VIEWER},
                                             len(obs["players"])))
    _players(obs, seat, labels, parts)
    return parts


#: Observation entries that differ between viewers (the players' rows show the viewer's own secrets).
_PER_VIEWER = frozenset({"seat", "players", "my_score", "my_gold", "my_vp_tokens"})


def _middle(obs: Observation, seat: int | None, labels: dict, parts: dict[str, str]) -> None:
    """The parts between the status and the players: tracks, Mule, last auction, legend, dice."""
    _tracks(obs, seat, labels, parts)
    parts["mule"] = _mule(obs["mule"], obs["mule_die"])
    parts["last"] = _last_auction(obs)
    parts[LEGEND] = _LEGEND
    _dice(obs, labels, parts)


@memo(256)
def _middle_without_actions(public: dict[str, Any], players: int) -> dict[str, str]:
    """:func:`_middle`'s parts for a viewer without actions, from the observation without the entries
    of :data:`_PER_VIEWER` (``players``: how many players there are)."""
    parts: dict[str, str] = {}
    _middle(observation({**public, "players": [{}] * players}), None, {}, parts)
    return parts


__all__ = ["board_view"]
