"""Browser board of a Biblios Dice table: an HTML fragment drawn from ``observation(seat)`` only.

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

Actions are placed on their pieces: ``take:*``, ``mark:*`` and ``small:*`` on
the dice, ``group:*`` on the market groups, ``bid:*`` on the viewer's Bidding
Cards, ``raise:*``/``lower:*``/``set3:*`` on the Value Dice, ``advance:*`` on
the space a Bishop Token's move reaches, ``reroll``/``keep``/``clear`` beside
the dice. ``convert``/``forgo`` (the Conversion Rule) has no piece and is left
to the page's action bar. No script; a pure function of its arguments.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from dicetable.engine import seat_name

from .rules.common import Marker
from .components import (
    ADJ_FACES, CADFAEL_COLOUR, COLOURS, MULE_FINAL, NRES, PENALTY, RATIOS, SYMBOL_NAMES,
    SYMBOLS, TOKENS, TOP, VP_STACKS, ratio_at,
)

_NAME = dict(zip(SYMBOLS, SYMBOL_NAMES))
_ADJ_LABEL = {a.id: a.label for a in ADJ_FACES}
_TOKEN_LABEL = {t.id: t.label for t in TOKENS}
_RATIO = dict(RATIOS)
_VP_STACK_AT = {space: k for k, (space, _) in enumerate(VP_STACKS)}
_ROWS = max(TOP)
_COL_W, _GAP, _ROW_H, _HEAD = 98, 6, 30, 22
_SVG_W = len(SYMBOLS) * _COL_W + (len(SYMBOLS) - 1) * _GAP + 4
_SVG_H = _HEAD + _ROWS * _ROW_H + 4
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


def _a(value: object) -> str:
    return escape(str(value), quote=True)


def _t(value: object) -> str:
    return escape(str(value), quote=False)


def _colour(m: Marker) -> str:
    return CADFAEL_COLOUR if m == "cadfael" else COLOURS[m % len(COLOURS)]


def _who(m: Marker) -> str:
    return "Cadfael" if m == "cadfael" else seat_name(m)


def _button_attrs(aid: str, label: str) -> str:
    """Attributes making an SVG element a focusable action button."""
    return f' data-action="{_a(aid)}" role="button" tabindex="0" aria-label="{_a(label)}"'


# ------------------------------------------------------------------ tracks
def _col_x(t: int) -> int:
    return 2 + t * (_COL_W + _GAP)


def _row_y(space: int) -> int:
    return _HEAD + (_ROWS - space) * _ROW_H + 2


def _value_die(t: int, pips: int, actions: dict) -> str:
    sym = SYMBOLS[t]
    x = _col_x(t) + _COL_W // 2 - 22
    y = _row_y(TOP[t] + 1) + 8 - (_ROW_H if TOP[t] + 2 <= _ROWS else 0)
    acts = [(aid, actions[aid]) for aid in (f"raise:{sym}", f"lower:{sym}", f"set3:{sym}") if aid in actions]
    tip = (f"The {SYMBOL_NAMES[t]} Value Die shows {pips}. At the end, first place on this track scores "
           f"{2 * pips} VP, second {pips}, third {-(-pips // 2)}.")
    attrs = ""
    classes = "bd-value"
    if acts:
        aid, label = acts[0]
        attrs = _button_attrs(aid, label)
        classes += " act"
        tip += " " + label + "."
    pips_svg = "".join(f'<circle cx="{x + 22 + dx * 9}" cy="{y + 22 + dy * 9}" r="3.4"/>' for dx, dy in _PIP_POS[pips])
    return (f'<g class="{classes} r-{sym}"{attrs}><title>{_t(tip)}</title>'
            f'<rect x="{x}" y="{y}" width="44" height="44" rx="8"/>{pips_svg}</g>')


_PIP_POS = {
    1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)), 5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def _advance_targets(obs: dict, seat: int | None, actions: dict) -> dict[tuple[int, int], tuple[str, str]]:
    """(track, space) -> (action id, label) for a Bishop Token's moves."""
    out: dict[tuple[int, int], tuple[str, str]] = {}
    if seat is None:
        return out
    for t in range(NRES):
        aid = f"advance:{SYMBOLS[t]}"
        if aid in actions:
            spaces = obs["tracks"][SYMBOLS[t]]
            here = next(s + 1 for s, ms in enumerate(spaces) if seat in ms)
            out[(t, here + 1)] = (aid, actions[aid])
    return out


def _track_space(obs: dict, t: int, space: int, targets: dict) -> str:
    sym = SYMBOLS[t]
    x, y = _col_x(t), _row_y(space)
    markers = obs["tracks"][sym][space - 1]
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
            badges.append(f'<text class="pen" x="{x + 3}" y="{y + 24}">-{pen}</text>')
            tip += f" A marker left here at the end loses {pen} VP."
        if space == 4:
            tip += " From this space on a marker can score a place."
        k = _VP_STACK_AT.get(space)
        if k is not None:
            left = obs["vp_stacks"][sym][k]
            top = left[0] if left else "-"
            badges.append(f'<g class="vp-stack"><circle cx="{x + _COL_W - 11}" cy="{y + 14}" r="10"/>'
                          f'<text x="{x + _COL_W - 11}" y="{y + 18}">{top}</text></g>')
            tip += (f" VP stack, topmost first: {', '.join(map(str, left))} VP; the next marker to reach or pass "
                    "this space takes the top token." if left else " Its VP stack is used up.")
    else:
        ratio = _RATIO.get(space)
        if ratio:
            badges.append(f'<text class="ratio" x="{x + 2}" y="{y + 24}">{ratio}:1</text>')
            tip += f" Reaching it converts Gold at {ratio} Gold per VP at the end."
        stack = next((b for b in obs["bishop_stacks"] if b["space"] == space), None)
        if stack is not None:
            badges.append(f'<g class="tok-stack"><rect x="{x + _COL_W - 19}" y="{y + 5}" width="17" height="18" '
                          f'rx="2"/>'
                          f'<text x="{x + _COL_W - 10}" y="{y + 18}">{stack["count"]}</text></g>')
            left = "; ".join(_TOKEN_LABEL[i] for i in stack["tokens_left"]) or "none"
            tip += (f" Bishop Tokens: {stack['count']} left, face down in unknown order (still in the stack: "
                    f"{left}). The next marker to reach or pass it takes the top one.")
    target = targets.get((t, space))
    attrs = ""
    if target is not None:
        classes.append("target")
        attrs = _button_attrs(*target)
        tip += " " + target[1] + "."
    if markers:
        tip += " Markers, ahead first: " + ", ".join(_who(m) for m in markers) + "."
    out = [f'<g class="{" ".join(classes)}" data-track="{sym}" data-space="{space}"{attrs}>'
           f'<title>{_t(tip)}</title>'
           f'<rect x="{x}" y="{y}" width="{_COL_W}" height="{_ROW_H - 2}" rx="3"/>'
           f'<text class="num" x="{x + 3}" y="{y + 11}">{space}</text>']
    out.extend(badges)
    for i, m in enumerate(markers):
        out.append(f'<rect class="cube c-{_colour(m)}" x="{x + 21 + i * 12}" y="{y + 8}" width="11" height="12" '
                   f'rx="2"/>')
    out.append("</g>")
    return "".join(out)


def _tracks(obs: dict, seat: int | None, actions: dict) -> str:
    targets = _advance_targets(obs, seat, actions)
    parts = [f'<svg class="bd-tracks" viewBox="0 0 {_SVG_W} {_SVG_H}" '
             f'aria-label="The five Resource Tracks and the Bishop Track">']
    for t, sym in enumerate(SYMBOLS):
        x = _col_x(t)
        name = SYMBOL_NAMES[t] if t < NRES else "Bishop"
        parts.append(f'<g class="bd-col r-{sym}"><rect class="bg" x="{x - 1}" y="0" width="{_COL_W + 2}" '
                     f'height="{_SVG_H}" rx="6"/><text class="head" x="{x + _COL_W // 2}" y="15">{_t(name)}</text></g>')
        for space in range(1, TOP[t] + 1):
            parts.append(_track_space(obs, t, space, targets))
        if t < NRES:
            parts.append(_value_die(t, obs["value_dice"][sym], actions))
    parts.append("</svg>")
    return "".join(parts)


def _mule_path(obs: dict) -> str:
    n = MULE_FINAL + 1
    w = 46
    parts = [f'<svg class="bd-market" viewBox="0 0 {n * w + 80} 52" aria-label="The Market Board and the Mule">']
    for i in range(n):
        x = 4 + i * w
        final = i == MULE_FINAL
        tip = ("The final space: when the Mule reaches it, everyone goes to the market (an auction for two "
               "groups of dice), then the Mule returns to the first space." if final else
               f"Space {i + 1} of the Mule's path." + (" The Mule starts here." if i == 0 else ""))
        parts.append(f'<g class="mule-space{" final" if final else ""}" data-mule-space="{i + 1}">'
                     f'<title>{_t(tip)}</title>'
                     f'<rect x="{x}" y="4" width="{w - 6}" height="44" rx="6"/>'
                     f'<text x="{x + (w - 6) // 2}" y="17">{"Market" if final else i + 1}</text>'
                     + "</g>")
        if i == obs["mule"]:
            parts.append(f'<g class="mule"><title>The Mule, on space {i + 1} of {n}.</title>'
                         f'<ellipse cx="{x + (w - 6) // 2}" cy="34" rx="16" ry="10"/>'
                         f'<path d="M{x + 28},26 l4,-7 l2,7 z"/><text x="{x + (w - 6) // 2}" y="38">Mule</text></g>')
    parts.append(f'<text class="die-note" x="{n * w + 6}" y="30">Mule Die {obs["mule_die"]}</text></svg>')
    return "".join(parts)


# ------------------------------------------------------------------ dice
def _die_svg(kind: str, face: int | str | None) -> str:
    body = '<rect x="1.5" y="1.5" width="37" height="37" rx="7"/>'
    if kind in _ICONS:
        body += f'<g class="icon">{_ICONS[kind]}</g>'
    elif kind == "gold":
        body += ('<circle class="coin" cx="20" cy="20" r="12"/><text x="20" y="25">'
                 + ("all" if face == "gold-for-all" else _t(face)) + "</text>")
    elif kind == "adjustment":
        body += f'<text class="adj" x="20" y="25">{_t(face)}</text>'
    else:  # mule
        body += f'<text x="20" y="26">{_t(face)}</text>'
    return f'<svg viewBox="0 0 40 40" aria-hidden="true" focusable="false">{body}</svg>'


def _die(kind: str, face: int | str | None, actions: dict, aid: str | None, marked: bool = False) -> str:
    if kind in _NAME and kind != "bishop":
        tip = f"A {_NAME[kind]} die: moves its taker up the {_NAME[kind]} Track."
    elif kind == "gold" and face == "gold-for-all":
        tip = _DIE_TIPS["gold-for-all"]
    elif kind == "adjustment":
        tip = f"The Adjustment Die ({face}): {_ADJ_LABEL[str(face)]}."
    elif kind == "mule":
        tip = f"The Mule Die ({face}): the Mule advances {face} spaces."
    else:
        tip = _DIE_TIPS[kind]
        if kind == "gold":
            tip += f" It shows {face}."
    classes = f"bd-die k-{kind}" + (" marked" if marked else "")
    if marked:
        tip += " Marked for the re-roll."
    label = actions.get(aid) if aid else None
    if label is not None:
        return (f'<button type="button" class="{classes}" data-action="{_a(aid)}" aria-label="{_a(label)}" '
                f'title="{_a(tip + " " + label + ".")}">{_die_svg(kind, face)}</button>')
    name = _NAME.get(kind, kind) if kind not in ("gold", "adjustment", "mule") else f"{kind} die {face}"
    return (f'<span class="{classes}" role="img" aria-label="{_a(name + (" (marked)" if marked else ""))}" '
            f'title="{_a(tip)}">{_die_svg(kind, face)}</span>')


def _dice_set(d: dict, actions: dict, prefix: str | None, marked: dict | None = None,
              mule: int | None = None) -> str:
    """Every die of a dice set (observation shape); ``prefix`` is the action verb on them (take, small, mark)."""
    marked = marked or {}
    out = []
    for sym in SYMBOLS:
        count = d.get(sym, 0)
        m = marked.get(sym, 0)
        for i in range(count):
            is_marked = i < m
            out.append(_die(sym, None, actions, None if is_marked or not prefix else f"{prefix}:{sym}", is_marked))
    if d.get("gold") is not None:
        is_marked = bool(marked.get("gold"))
        out.append(_die("gold", d["gold"], actions, None if is_marked or not prefix else f"{prefix}:gold", is_marked))
    if d.get("adjustment") is not None:
        is_marked = bool(marked.get("adjustment"))
        out.append(_die("adjustment", d["adjustment"], actions,
                        None if is_marked or not prefix else f"{prefix}:adjustment", is_marked))
    if mule is not None:
        is_marked = bool(marked.get("mule"))
        out.append(_die("mule", mule, actions, None if is_marked or not prefix else f"{prefix}:mule", is_marked))
    return "".join(out) or '<span class="bd-empty">no dice</span>'


_SHORT = {"reroll": "Re-roll marked dice (1 VP)", "clear": "Unmark all", "keep": "Keep the dice"}


def _buttons(actions: dict, ids: Sequence[str], tips: dict) -> str:
    """Buttons for actions without a piece of their own; the accessible name is the action's label."""
    out = []
    for aid in ids:
        if aid in actions:
            out.append(f'<button type="button" class="bd-btn" data-action="{_a(aid)}" aria-label="{_a(actions[aid])}" '
                       f'title="{_a(tips.get(aid, actions[aid]))}">{_t(_SHORT.get(aid, actions[aid]))}</button>')
    return "".join(out)


def _dice_area(obs: dict, actions: dict) -> str:
    phase = obs["phase"]
    parts = ['<section class="bd-dice" aria-label="The dice">']
    if phase == "reroll":
        parts.append('<h3>Dice rolled <small>(click dice to mark them for the re-roll)</small></h3><div class="row">')
        parts.append(_dice_set(obs["pool"], actions, "mark", obs["marked"], mule=obs["mule_die"]))
        parts.append('</div><div class="row btns">')
        parts.append(_buttons(actions, ("reroll", "clear", "keep"), {
            "reroll": "Pay 1 VP token and re-roll the marked dice; allowed once per round, first player only.",
            "keep": "Keep the dice; the Mule advances by the Mule Die.",
            "clear": "Unmark every die."}))
        parts.append('</div>')
    elif phase == "select":
        parts.append('<h3>Dice pool <small>(take all dice of one type)</small></h3><div class="row">')
        parts.append(_dice_set(obs["pool"], actions, "take"))
        parts.append('</div>')
    elif phase == "split":
        parts.append('<h3>Market: split the dice <small>(click a die to put it in the group of 3)</small></h3>'
                     '<div class="row">')
        parts.append(_dice_set(obs["pool"], actions, "small"))
        parts.append('</div><h4>Group of 3</h4><div class="row small-group">')
        parts.append(_dice_set(obs["small_group"], actions, None))
        parts.append('</div>')
    elif phase in ("bid", "choose-group", "resolve"):
        parts.append('<h3>Market groups</h3><div class="groups">')
        for g, name in enumerate(("large", "small")):
            group = obs["groups"][g]
            aid = f"group:{name}"
            resolving = obs.get("resolving_group") == name
            dice = _dice_set(group, actions, "take" if resolving else None)
            head = f'<span class="gname">{"Large" if g == 0 else "Small"} group</span>'
            if aid in actions:
                parts.append(f'<button type="button" class="bd-group act" data-action="{_a(aid)}" '
                             f'aria-label="{_a(actions[aid])}" title="{_a(actions[aid])}">{head}'
                             f'<span class="row">{dice}</span></button>')
            else:
                parts.append(f'<div class="bd-group{" resolving" if resolving else ""}">{head}'
                             f'<span class="row">{dice}</span></div>')
        parts.append('</div>')
    else:
        parts.append('<h3>Dice</h3><p class="bd-empty">The game is over.</p>')
    pending = obs.get("pending")
    if pending:
        what = {"adjust": "Adjustment Die: click a Value Die at the top of a Resource Track.",
                "advance": "Bishop Token: click the highlighted space of a Resource Track.",
                "convert": "Conversion Rule: convert the dice, or forgo them (buttons below the board)."}
        parts.append(f'<p class="bd-pending">{_t(what.get(pending[0], ""))}</p>')
    parts.append('</section>')
    return "".join(parts)


# ------------------------------------------------------------------ players and auction
def _card(value: int, cls: str = "", aid: str | None = None, label: str | None = None, tip: str = "") -> str:
    text = "pass" if value == 0 else str(value)
    if aid is not None:
        return (f'<button type="button" class="bd-card {cls}" data-action="{_a(aid)}" aria-label="{_a(label)}" '
                f'title="{_a(tip or label)}">{text}</button>')
    return f'<span class="bd-card {cls}" title="{_a(tip)}">{text}</span>'


def _bids(p: dict, seat: int | None, phase: str) -> str:
    out = []
    for v in p["revealed"]:
        out.append(_card(v, "up", tip=f"Revealed Bidding Card: {'pass' if v == 0 else v}."))
    if p["face_down_placed"]:
        own = p.get("face_down") if p["seat"] == seat else None
        if own is not None:
            out.append(_card(own, "down mine", tip="Your card, face down: only you see it until all are revealed."))
        else:
            out.append('<span class="bd-card down" title="A Bidding Card placed face down: hidden until all '
                       'bidders have placed theirs.">?</span>')
    if phase == "bid":
        if p["sitting_out"]:
            out.append('<span class="bd-note">sits out (overbid)</span>')
        elif not p["bidding"]:
            out.append('<span class="bd-note">passed</span>')
        elif not p["face_down_placed"]:
            out.append('<span class="bd-note">choosing</span>')
    if not out:
        return ""
    total = f' = <b>{sum(p["revealed"])}</b>' if p["revealed"] else ""
    return f'<div class="bids">Bid: {"".join(out)}{total}</div>'


def _player_panel(obs: dict, p: dict, seat: int | None, actions: dict) -> str:
    s = p["seat"]
    over = obs["is_over"]
    classes = ["bd-player", f"c-{_colour(s)}"]
    if s in obs["to_move"]:
        classes.append("to-move")
    badges = []
    if s == seat:
        badges.append('<span class="badge you">you</span>')
    if s == obs["first_player"] and not over:
        badges.append('<span class="badge monastery" title="The Monastery Card: this player rolls the dice '
                      'and chooses first.">Monastery</span>')
    if s in obs["to_move"]:
        badges.append('<span class="badge move">to move</span>')
    if over and s in obs["winners"]:
        badges.append('<span class="badge win">winner</span>')
    bishop = next(i + 1 for i, ms in enumerate(obs["tracks"]["bishop"]) if s in ms)
    ratio = ratio_at(bishop)
    standing = obs["standing"][s]
    shield = []
    if p["gold"] is not None:
        shield.append(f'<span class="gold" title="Gold behind the shield">{p["gold"]} Gold</span>')
        shield.append(f'<span class="vp" title="VP tokens behind the shield">{p["vp_tokens"]} VP</span>')
        if p["objective"]:
            shield.append(f'<span class="obj" title="Hidden Objective: first place on this track scores 3 VP more">'
                          f'objective {_t(_NAME[p["objective"]])}</span>')
    else:
        shield.append('<span class="hidden" title="Behind the shield: Gold, VP tokens'
                      + (' and a Hidden Objective' if obs["hidden_objectives"] else '')
                      + ', hidden from you (every gain and payment is in the log).">shield</span>')
    score = ""
    if s == seat and "my_score" in obs:
        sc = obs["my_score"]
        score = (f'<span class="score" title="Your score if the game ended now: tracks {sum(sc["tracks"])}, '
                 f'penalty -{sc["penalty"]}, VP tokens {sc["tokens"]}, Gold {sc["gold_vp"]} VP'
                 + (f', objective {sc["objective"]}' if obs["hidden_objectives"] else "")
                 + f'">{sc["total"]} VP now</span>')
    elif over and obs.get("final"):
        score = f'<span class="score">{obs["final"][s]["total"]} VP</span>'
    public = (f'<span class="pub" title="The public part of the score if the game ended now: places on the '
              f'Resource Tracks and the penalty for markers below the 4th space">places {sum(standing["tracks"])} VP, '
              + (f'penalty -{standing["penalty"]}' if standing["penalty"] else "no penalty") + '</span>')
    hand = ""
    if s == seat and not over and "hand" in p:
        cards = []
        for v in p["hand"]:
            aid = f"bid:{'pass' if v == 0 else v}"
            label = actions.get(aid)
            cards.append(_card(v, "hand", aid if label else None, label,
                               "The pass card: stop bidding." if v == 0 else f"Bidding Card {v}: bid {v} Gold more."))
        aside = ' <span class="bd-note">pass card aside</span>' if p["pass_card_aside"] else ""
        hand = f'<div class="hand" aria-label="Your Bidding Cards">Cards: {"".join(cards)}{aside}</div>'
    elif not over:
        left = p["cards_not_revealed"]
        hand = ('<div class="hand other" title="Bidding Cards not revealed">Cards: '
                + " ".join("pass" if v == 0 else str(v) for v in left)
                + (' <span class="bd-note">pass card aside</span>' if p["pass_card_aside"] else "") + '</div>')
    return (f'<div class="{" ".join(classes)}" data-seat="{s}">'
            f'<div class="head"><span class="swatch"></span><b>{_t(seat_name(s))}</b>{"".join(badges)}{score}</div>'
            f'<div class="line"><span title="Bishop Track space'
            f'{"; Gold converts at " + str(ratio) + ":1" if ratio else ""}">'
            f'Bishop {bishop}{" (" + str(ratio) + ":1)" if ratio else ""}</span>{"".join(shield)}{public}</div>'
            f'{_bids(p, seat, obs["phase"])}{hand}</div>')


def _cadfael_panel(obs: dict) -> str:
    cf = obs["cadfael"]
    standing = obs["standing"][len(obs["players"])]
    bishop = next(i + 1 for i, ms in enumerate(obs["tracks"]["bishop"]) if "cadfael" in ms)
    revealed = "".join(_card(v, "up", tip=f"Cadfael's revealed card: {v}.") for v in cf["revealed"])
    bid = f'<div class="bids">Bid: {revealed} <b>{sum(cf["revealed"])}</b></div>' if cf["revealed"] else ""
    face_up = " ".join(map(str, cf["face_up"])) or "none"
    return (f'<div class="bd-player c-{CADFAEL_COLOUR} cadfael" title="Cadfael, the third colour of a two-player '
            f'game: Phase 0 rolls 3 Resource Dice for him; he bids two cards from his deck in every auction and '
            f'takes groups without using them.">'
            f'<div class="head"><span class="swatch"></span><b>Cadfael</b></div>'
            f'<div class="line">Bishop {bishop}<span class="pub">places {sum(standing["tracks"])} VP, '
            + (f'penalty -{standing["penalty"]}' if standing["penalty"] else "no penalty")
            + f'</span><span>deck {cf["draw_pile"]}, face up: {face_up}</span></div>{bid}</div>')


def _players(obs: dict, seat: int | None, actions: dict) -> str:
    order = list(range(len(obs["players"])))
    if seat is not None:
        order = order[seat:] + order[:seat]
    parts = ['<section class="bd-players" aria-label="Players">']
    parts.extend(_player_panel(obs, obs["players"][s], seat, actions) for s in order)
    if "cadfael" in obs:
        parts.append(_cadfael_panel(obs))
    parts.append("</section>")
    return "".join(parts)


def _last_auction(obs: dict) -> str:
    last = obs.get("last_auction")
    if not last or obs["phase"] == "bid":
        return ""
    parts = [f"{seat_name(s)} {t}" for s, t in enumerate(last["totals"]) if t is not None]
    if last["cadfael"] is not None:
        parts.append(f"Cadfael {last['cadfael']}")
    text = "Last auction: " + ", ".join(parts)
    if last["winner"] is not None and last["winner"] >= 0:
        cadfael_won = "cadfael" in obs and last["winner"] == len(obs["players"])
        text += f"; won by {_who('cadfael' if cadfael_won else last['winner'])}"
    if last["penalized"]:
        text += "; overbid: " + ", ".join(seat_name(s) for s in last["penalized"])
    return f'<p class="bd-last">{_t(text)}</p>'


def _final(obs: dict) -> str:
    rows = obs.get("final")
    if not rows:
        return ""
    players = len(obs["players"])
    names = [seat_name(m) if m < players else "Cadfael" for m in range(len(rows))]
    head = "".join(f"<th>{_t(n)}</th>" for n in names)
    lines = []
    for t in range(NRES):
        lines.append((SYMBOL_NAMES[t], [r["tracks"][t] for r in rows]))
    lines += [("Penalty", [-r["penalty"] for r in rows]), ("VP tokens", [r["tokens"] for r in rows]),
              ("Gold", [r["gold_vp"] for r in rows])]
    if obs["hidden_objectives"]:
        lines.append(("Objective", [r["objective"] for r in rows]))
    lines += [("Total", [r["total"] for r in rows]),
              ("Gold left", [r["gold_left"] if m < players else "-" for m, r in enumerate(rows)])]
    body = "".join(f'<tr{" class=total" if name == "Total" else ""}><th>{_t(name)}</th>'
                   + "".join(f"<td>{_t(v)}</td>" for v in vals) + "</tr>" for name, vals in lines)
    return (f'<section class="bd-final" aria-label="Final scoring"><h3>Final scoring</h3>'
            f'<table><tr><th></th>{head}</tr>{body}</table>'
            f'<p class="bd-note">Ties: most Gold left, then further up the Bishop Track.</p></section>')


def _status(obs: dict, seat: int | None) -> str:
    if obs["is_over"]:
        winners = ", ".join(seat_name(s) for s in obs["winners"])
        return f'<div class="bd-status over">Game over. Winner: {_t(winners)}</div>'
    movers = ["you" if s == seat else seat_name(s) for s in obs["to_move"]]
    return (f'<div class="bd-status"><b>Round {obs["round"]}</b>'
            f'<span>Monastery Card: {_t(seat_name(obs["first_player"]))}</span>'
            f'<span>{_t(_PHASE.get(obs["phase"], obs["phase"]))}</span>'
            f'<span class="who">To move: {_t(", ".join(movers))}</span></div>')


def board_view(obs: dict, actions: list, seat: int | None) -> str:
    """The Biblios Dice board as an HTML fragment (a ``<div class="board board-biblios-dice">``).

    ``obs`` is ``state.observation(seat)``; ``actions`` is the seat's legal
    actions as ``[{"id": str, "label": str}]`` (empty when it is not to
    move); ``seat`` is the viewer (None for a spectator). Every action but
    ``convert``/``forgo`` is placed on its piece as a focusable element with
    ``data-action`` and the action's label as its accessible name. Pure: the
    same arguments give the same string. Rulebook: Contents, Setup, Playing
    the Game, Market Rules, Auctions, Scoring, Rules for 2 Players.
    """
    labels = {a["id"]: a["label"] for a in actions}
    right = _final(obs) if obs["is_over"] else _dice_area(obs, labels)
    return ('<div class="board board-biblios-dice">' + _status(obs, seat)
            + '<div class="bd-main"><div class="bd-left">' + _tracks(obs, seat, labels) + _mule_path(obs)
            + _last_auction(obs) + '</div><div class="bd-right">' + right + _players(obs, seat, labels)
            + '</div></div></div>')


__all__ = ["board_view"]
