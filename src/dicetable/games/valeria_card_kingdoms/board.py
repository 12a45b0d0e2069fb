"""Browser board of Valeria: Card Kingdoms: keyed HTML parts drawn from ``observation(seat)``.

``board_view(obs, actions, seat)`` lays the table out as in the rulebook's Table layout: the
Center Stacks as a grid of 4 rows by 5 columns (Monsters by Area, the Citizen stacks by roll
number in two rows, the Domains), with each stack's count, top card and Exhausted mark; the
dice and what they activate, the last Harvest and, in solo, the Dark Lord above them; beside
the grid every player's tableau (Citizens by roll number, Domains, the Victory stack) and
resources, with the viewer's own Duke (others' only once the game is over, Dukes).

Every legal action that concerns a piece is a ``<button data-action=...>`` on that piece:
Recruit on a Citizen stack, Slay on a Monster stack, Build on a Domain stack, the payment
choices beside the card being paid for, Gain a Resource on the player's own tokens, a Thief's
take on the robbed player's tokens, Dukes, die changes on the dice, trades and returns on the
tableau's cards. Actions with no piece (choosing one side of an "or" reward, declining, ending
the Harvest's trades) are left to the page's action bar. The parts are a pure function of
the arguments and hold no script.

Parts (``dicetable.engine.markup``; the root is ``"board"``), cut so that one action changes
little: ``turn``, ``dice``, ``info`` (Exhausted count, last move), ``harvest``, ``over``,
``dark-lord`` (solo); per Center Stack ``m-<i>`` / ``c-<i>`` / ``d-<i>`` (the stack with its
marks and the action on its card) holding ``<same>-face`` (the top card's face, which changes
only when the card or count does); per player ``p-<s>`` (the panel: name and tags) holding
``p-<s>-head`` (Roles, VP), ``p-<s>-res`` (the token slots, which never change) with
``p-<s>-gold`` / ``-strength`` / ``-magic`` / ``-vp``, ``p-<s>-cits`` with one part per
Citizen card ``p-<s>-cit-<slug>``, ``p-<s>-doms``, ``p-<s>-vic`` with one part per Monster
``p-<s>-mon-<slug>``, and ``p-<s>-duke``. Every slot has its part (an empty one when there is
nothing to show); a tableau card's part comes and goes with its slot.

Element keys (``data-key``) for the effects the rules emit: ``dice`` (each die ``die-<i>``
with ``data-die``), ``exhausted``; the stacks ``m-<i>``, ``c-<i>``, ``d-<i>``, their top cards
``<stack>-top`` and counts ``<stack>-count``; per player ``p-<s>`` and its counters
``p-<s>-gold``, ``-strength``, ``-magic``, ``-vp`` (VP tokens), ``-score``; its areas
``p-<s>-cits``, ``-doms``, ``-victory`` and their cards ``p-<s>-cit-<slug>``, ``-dom-<slug>``,
``-mon-<slug>``, its Duke ``p-<s>-duke``; solo: ``dark-lord`` with ``dl-cit-<slug>`` and
``dl-dom-<slug>``. Counters carry ``data-count``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping

from dicetable.engine import counted, seat_name
from dicetable.engine.markup import LEGEND, ROOT, attr, die_svg, legend, memo, slot, text

from .viewdata import (
    Observation, exhausted_goal, exhausted_words, player_tags, shown_vp, PHASE_WORDS, RESOURCE_OF, activated, card_slug,
    citizen_cost, citizen_powers, citizen_role, citizen_title, citizens_by_roll, tallied, domain_cost,
    domain_power, domain_title, domain_vp, duke_words, harvest_summary, last_move_text, monster_attacks,
    monster_cost, monster_reward, monster_title, monster_vp, role_counts, roles_needed,
)

GAME_ID = "valeria-card-kingdoms"
ROLE_CLASS = {"Worker": "worker", "Soldier": "soldier", "Shadow": "shadow", "Holy": "holy", "": "starter"}
ROLE_ICON = {"worker": "⚒", "soldier": "⚔", "shadow": "☾", "holy": "✚"}
RES_TITLE = {
    "gold": "Gold: pays for Citizens and Domains (Recruit a Citizen, Build a Domain).",
    "strength": "Strength: pays for Monsters (Slay a Monster).",
    "magic": "Magic: stands in for Gold or Strength one for one in an Action, with at least one "
             "real token paid; some Monsters also cost Magic.",
    "vp": "Victory Point tokens: count toward the final score.",
}
#: A player's marks (``viewdata.player_tags``) as the panel words them.
TAG_WORDS = (("Active", "active"), ("First player", "first"), ("Resting", "resting"), ("Winner", "winner"))
#: The Center Stacks' part ids and element keys, in the grid's order (4 rows of 5).
STACK_KEYS = tuple([f"m-{i}" for i in range(5)] + [f"c-{i}" for i in range(10)] + [f"d-{i}" for i in range(5)])


def _button(action: dict, inner: str, cls: str, title: str = "", key: str = "") -> str:
    """A focusable piece carrying the action (its label is the accessible name)."""
    t = f' title="{attr(title)}"' if title else ""
    k = f' data-key="{key}"' if key else ""
    return (f'<button type="button" class="{cls}"{k} data-action="{attr(action["id"])}" '
            f'aria-label="{attr(action["label"])}"{t}>{inner}</button>')


def _counter(key: str, n: int, cls: str, title: str = "") -> str:
    """A counter the effects may count up or down: ``data-key``, ``data-count`` and the number as text."""
    t = f' title="{attr(title)}"' if title else ""
    return f'<span class="{cls}" data-key="{key}" data-count="{n}"{t}>{n}</span>'


class _Actions:
    """The seat's legal actions by id, handed out once each to the piece they concern."""

    def __init__(self, actions) -> None:
        self.by_id = {a["id"]: a for a in actions}
        self.placed: set[str] = set()

    def take(self, aid: str) -> dict | None:
        if not self.by_id:
            return None
        a = self.by_id.get(aid)
        if a is not None and aid not in self.placed:
            self.placed.add(aid)
            return a
        return None

    def prefixed(self, prefix: str) -> list[dict]:
        if not self.by_id:
            return []
        out = [a for aid, a in self.by_id.items() if aid.startswith(prefix) and aid not in self.placed]
        self.placed.update(a["id"] for a in out)
        return out


# ------------------------------------------------------------------ status parts
def _die_change_text(label: str) -> str:
    """``"Palace of the Dawn: change die 1 from 4 to 3"`` -> ``"Palace of the Dawn → 3"``."""
    m = re.match(r"(.*): change die \d from \d+ to (\d+)(.*)", label)
    return f"{m.group(1)} → {m.group(2)}{m.group(3)}" if m else label


def _turn(obs: Observation) -> str:
    """Part ``turn``: whose turn, which phase, who decides."""
    phase = obs["phase"]
    n = obs["players"]
    head = f'<div class="vck-turn" data-phase="{attr(phase)}">'
    if phase == "choose-duke":
        chosen = sum(p["duke_chosen"] for p in obs["player"])
        return (f'{head}<b>Dukes</b>: each player keeps one of two, in secret '
                f'({chosen} of {n} chosen)</div>')
    if phase == "over":
        return f'{head}<b>The game is over</b> after turn {obs["turn"]}</div>'
    pend = obs.get("pending") or {}
    words = PHASE_WORDS.get(phase, phase)
    if "actions_left" in pend:
        left = pend["actions_left"]
        words += f" · {counted(left, 'Action')} left"
    who = ""
    if pend.get("seat") is not None and pend["seat"] != obs["active"]:
        who = f' · <span class="vck-s{pend["seat"]}">{text(seat_name(pend["seat"]))}</span> decides'
    detail = ""
    if pend.get("card"):
        detail = f'<div class="vck-pending">{text(pend["card"])}: {text(pend.get("effect", ""))}</div>'
    return (f'{head}Turn {obs["turn"]} · <b class="vck-s{obs["active"]}">'
            f'{text(seat_name(obs["active"]))}</b> is the Active player · {text(words)}{who}{detail}</div>')


def _dice(obs: Observation, acts: _Actions) -> str:
    """Part ``dice``: the two dice (keyed ``dice``, each die ``die-<i>`` with ``data-die``), die changes,
    what they activate; solo: what the Monsters will attack."""
    dice = obs["dice"]
    if not dice:
        return '<div class="vck-dice" data-key="dice"></div>'
    out = ['<div class="vck-dice" data-key="dice" title="The Active player\'s two dice: each die and their sum '
           'activate Citizens (Harvest Phase)">']
    changes = acts.prefixed("die:")
    for i, v in enumerate(dice):
        buttons = "".join(_button(a, text(_die_change_text(a["label"])), "vck-mini")
                          for a in changes if a["id"].endswith(f":{i + 1}"))
        out.append(f'<div class="vck-die-slot"><span class="vck-die" data-key="die-{i}" data-die="{v}">'
                   f'{die_svg(v, size=32, label=f"Die {i + 1}: {v}")}</span>{buttons}</div>')
    nums = activated(dice)
    out.append(f'<div class="vck-activates">activate <b>{nums[0]}</b>, <b>{nums[1]}</b> and <b>{nums[2]}</b>')
    done = acts.take("dice:done")
    if done:
        out.append(_button(done, "Announce these dice", "vck-mini vck-go"))
    out.append("</div></div>")
    if obs["players"] == 1 and obs["phase"] != "over":
        out.append(f'<div class="vck-attack" title="Solo: each die activates the Monster stack of its '
                   f'number, which attacks its column (Solo variant)">Monsters attack: '
                   f'{text(monster_attacks(obs))}</div>')
    return "".join(out)


def _info(obs: Observation) -> str:
    """Part ``info``: the Exhausted count (keyed ``exhausted``) and the last card taken."""
    n = obs["players"]
    goal = exhausted_goal(obs)
    out = [f'<div class="vck-exh" title="The game ends when {goal} Center Stacks are Exhausted, or every '
           f'{"Monster is slain" if n == 1 else "Monster is slain or every Domain built"} (End of game)">'
           + exhausted_words(obs).replace(f' {obs["exhausted"]}', f' <b data-key="exhausted" data-count="{obs["exhausted"]}">'
                                          f'{obs["exhausted"]}</b>', 1) + '</div>']
    last = last_move_text(obs)
    if last:
        out.append(f'<div class="vck-lastmove" title="The last card taken from the Center Stacks (its stack is '
                   f'marked with a dashed outline)">Last: {text(last)}</div>')
    return "".join(out)


def _harvest(obs: Observation) -> str:
    """Part ``harvest``: what each player got in the last Harvest ("" before the first)."""
    harvest = harvest_summary(obs)
    if not harvest:
        return ""
    words = text("; ".join(harvest))
    return (f'<div class="vck-harvest" title="What each player got in the last Harvest: {attr("; ".join(harvest))}">'
            f'<b>Last Harvest</b>: {words}</div>')


def _dark_lord(obs: Observation) -> str:
    """Part ``dark-lord`` (solo): its Duke (face down until the end), captured cards, score."""
    dl = obs.get("dark_lord")
    if not dl:
        return ""
    duke = text(dl["duke"]) if dl.get("duke") else "Duke face down"
    cits = ", ".join(f'<span data-key="dl-cit-{card_slug(n)}">{text(n)}' + (f" ×{c}" if c > 1 else "") + "</span>"
                     for n, c in tallied(dl["captured_citizens"]))
    doms = ", ".join(f'<span data-key="dl-dom-{card_slug(d)}">{text(d)}</span>' for d in dl["captured_domains"])
    score = f' · scores <b>{dl["score"]}</b>' if dl.get("score") is not None else ""
    return (f'<div class="vck-darklord" data-key="dark-lord" title="Solo: the Dark Lord scores the surviving '
            f'Monsters, the captured Domains and its Duke on them; it wins a tie (Solo variant)"><b>The Dark Lord</b> '
            f'({duke}){score}<br>Captured Citizens: {cits or "none"}<br>Captured Domains: {doms or "none"}</div>')


def _verdict(obs: Observation) -> str:
    """Part ``over``: who won, once the game is over ("" before)."""
    if not obs["is_over"]:
        return ""
    if obs["players"] == 1:
        return '<div class="vck-verdict">' + ("You win!" if obs["winners"] else "The Dark Lord wins.") + "</div>"
    return ('<div class="vck-verdict">Winner: ' + ", ".join(text(seat_name(s)) for s in obs["winners"])
            + ' <small>(a tie goes to the fewest cards in the tableau)</small></div>')


# ------------------------------------------------------------------ Center Stacks
def _pay_buttons(obs: Observation, acts: _Actions, row: str, index: int) -> str:
    pend = obs.get("pending") or {}
    if pend.get("task") != "pay" or pend.get("row") != row or pend.get("index") != index:
        return ""
    pays = acts.prefixed("pay:")
    if not pays:
        return ""
    return ('<div class="vck-pay" role="group" aria-label="How to pay">'
            + "".join(_button(a, text(a["label"].removeprefix("Pay ")), "vck-mini vck-go") for a in pays) + "</div>")


def _marks(obs: Observation, row: str, index: int) -> str:
    """" vck-paying" on the stack whose card is being paid for, " vck-last" on the one the last card left."""
    pend: Mapping[str, Any] = obs.get("pending") or {}
    last: Mapping[str, Any] = obs.get("last_move") or {}
    out = " vck-paying" if pend.get("task") == "pay" and (pend.get("row"), pend.get("index")) == (row, index) else ""
    return out + (" vck-last" if (last.get("row"), last.get("index")) == (row, index) else "")


def _card(key: str, action: dict | None, cls: str) -> str:
    """The top card of stack ``key``: a button when it carries an action; its face is part ``<key>-face``."""
    face = _slot(f"{key}-face", "div", "vck-fslot")
    if action is not None:
        return _button(action, face, f"vck-card {cls} vck-can", key=f"{key}-top")
    return f'<div class="vck-card {cls}" data-key="{key}-top">{face}</div>'


EXHAUSTED = "<span>Exhausted</span>"


def _exhausted(key: str, what: str) -> str:
    """An Exhausted card on stack ``key`` (its face part says so)."""
    return (f'<div class="vck-card vck-exhausted" data-key="{key}-top" title="An Exhausted stack: every card of '
            f'this {what} stack is gone; Exhausted stacks count toward the end of the game (Exhausted stacks)">'
            f'{_slot(f"{key}-face", "div", "vck-fslot")}</div>')


def _stack(key: str, cls: str, inner: str) -> str:
    return f'<div class="vck-stack {cls}" data-key="{key}">{inner}</div>'


def _exhausted_stack(parts: dict, key: str, cls: str, what: str) -> str:
    """An emptied stack ``key``: the Exhausted card, whose face part says so."""
    parts[f"{key}-face"] = EXHAUSTED
    return _stack(key, cls, _exhausted(key, what))


@lru_cache(maxsize=256)
def _monster_face(key: str, area: str, top: str, n: int) -> str:
    """Part ``m-<i>-face``: the Monster on top of a stack of ``n``."""
    return (f'<div class="vck-face" title="{attr(monster_title(top))}"><div class="vck-col-head">{text(area)}'
            f'<span class="vck-count" data-key="{key}-count" data-count="{n}" title="{counted(n, "Monster")} in this stack">'
            f'{n}</span></div><div class="vck-name vck-wrap">{text(top)}</div>'
            f'<div class="vck-stats"><span class="vck-str" title="Strength cost (Magic cost on top)">'
            f'{text(monster_cost(top))}</span> <span class="vck-vp">{monster_vp(top)} VP</span></div>'
            f'<div class="vck-text">→ {text(monster_reward(top))}</div></div>')


def _monster_stack(obs: Observation, acts: _Actions, p: int, parts: dict) -> str:
    key = f"m-{p}"
    m = obs["monsters"][p]
    cards = m["cards"]
    marks = _marks(obs, "monsters", p)
    if not cards:
        return _exhausted_stack(parts, key, f"vck-mstack{marks}", "Monster")
    top = cards[-1]
    slug = card_slug(m["area"])
    action = acts.take(f"slay:{slug}") or acts.take(f"attack:{slug}")
    parts[f"{key}-face"] = _monster_face(key, m["area"], top, len(cards))
    pend = obs.get("pending") or {}
    attacking = " vck-attacking" if pend.get("task") == "attack" and pend.get("column") == p else ""
    return _stack(key, f"vck-mstack{attacking}{marks}",
                  _card(key, action, "vck-monster") + _pay_buttons(obs, acts, "monsters", p))


def _trade(words: str) -> str:
    """``"may pay 1 Gold to gain 2 Magic"`` -> ``"may pay 1 Gold → 2 Magic"`` (a card is narrow)."""
    return words.replace(" to gain ", " → ")


def _icon(role: str, title: str) -> str:
    """A Role icon (Worker, Soldier, Shadow, Holy) with its name on hover."""
    return f'<i class="vck-icon vck-{role}" title="{attr(title)}">{ROLE_ICON[role]}</i>'


@lru_cache(maxsize=64)
def _slot_numbers(numbers: str) -> tuple[int, ...]:
    return tuple(int(x) for x in numbers.split("-"))


@lru_cache(maxsize=256)
def _citizen_face(key: str, numbers: str, top: str, n: int, down: int) -> str:
    """Part ``c-<i>-face``: the Citizen on top, ``n`` face up and ``down`` face down."""
    role = citizen_role(top)
    on, off = (_trade(x) for x in citizen_powers(top))
    below = (f' <span class="vck-down" title="{down} face-down Citizens below (Mixed Citizen variant)">'
             f'+{down}▾</span>' if down else "")
    return (f'<div class="vck-face" title="{attr(citizen_title(top))}"><div class="vck-col-head">'
            f'<span class="vck-slot" title="Activation number: the Citizen harvests when a die or the sum shows it">'
            f'{text(numbers)}</span>'
            f'{below}<span class="vck-count" data-key="{key}-count" data-count="{n}" title="{n} face-up Citizens in '
            f'this stack">{n}</span></div><div class="vck-name">{text(top)}</div>'
            f'<div class="vck-stats"><span class="vck-gold" title="Base cost in Gold, +1 per card of that name '
            f'you own">{citizen_cost(top)}+</span> <span class="vck-role vck-{ROLE_CLASS[role]}">{text(role)}</span>'
            f'</div><div class="vck-text"><span class="vck-on" title="On-turn power (the Active player)">{text(on)}'
            f'</span><span class="vck-off" title="Off-turn power (the other players)">{text(off)}</span></div></div>')


def _citizen_stack(obs: Observation, acts: _Actions, i: int, parts: dict, hits: frozenset) -> str:
    key = f"c-{i}"
    c = obs["citizens"][i]
    up = c["face_up"]
    marks = _marks(obs, "citizens", i)
    if not up:
        return _exhausted_stack(parts, key, f"vck-cstack{marks}", "Citizen")
    top = up[-1]
    slug = card_slug(top)
    pend = obs.get("pending") or {}
    action = acts.take(f"recruit:{slug}") or acts.take(f"take:{slug}")
    if action is None and pend.get("task") == "attack" and pend.get("column") in (i, i - 5):
        action = acts.take(f"capture:{slug}")
    parts[f"{key}-face"] = _citizen_face(key, c["slot"], top, len(up), c["face_down"])
    hit = " vck-hit" if hits.intersection(_slot_numbers(c["slot"])) else ""
    role = ROLE_CLASS[citizen_role(top)]
    return _stack(key, f"vck-cstack{hit}{marks}",
                  _card(key, action, f"vck-citizen vck-{role}") + _pay_buttons(obs, acts, "citizens", i))


@lru_cache(maxsize=256)
def _domain_face(key: str, i: int, top: str, down: int) -> str:
    """Part ``d-<i>-face``: the face-up Domain with ``down`` face-down ones below."""
    need = roles_needed(top)
    icons = "".join(_icon(ROLE_CLASS[r], r) for r in need.split(", ") if r)
    return (f'<div class="vck-face" title="{attr(domain_title(top))}"><div class="vck-col-head">'
            f'<span class="vck-colno" title="Domain stack {i + 1}">{i + 1}</span> '
            f'<span class="vck-needs" title="Citizens needed to build it: '
            f'{attr(need or "none")}">{icons}</span><span class="vck-count" title="{counted(down, "face-down Domain")} below">'
            f'+<span data-key="{key}-count" data-count="{down}">{down}</span>▾</span></div>'
            f'<div class="vck-name vck-wrap">{text(top)}</div>'
            f'<div class="vck-stats"><span class="vck-gold" title="Cost in Gold">{domain_cost(top)}</span> '
            f'<span class="vck-vp">{domain_vp(top)} VP</span></div>'
            f'<div class="vck-text">{text(domain_power(top))}</div></div>')


def _domain_stack(obs: Observation, acts: _Actions, i: int, parts: dict) -> str:
    key = f"d-{i}"
    d = obs["domains"][i]
    top = d["top"]
    marks = _marks(obs, "domains", i)
    if top is None:
        return _exhausted_stack(parts, key, f"vck-dstack{marks}", "Domain")
    action = acts.take(f"build:{card_slug(top)}")
    parts[f"{key}-face"] = _domain_face(key, i, top, d["face_down"])
    return _stack(key, f"vck-dstack{marks}",
                  _card(key, action, "vck-domain") + _pay_buttons(obs, acts, "domains", i))


# ------------------------------------------------------------------ players
def _resource(obs: Observation, acts: _Actions, s: int, seat, res: str) -> str:
    """Part ``p-<s>-<res>``: one kind of token (counter ``p-<s>-<res>``), Gain on one's own, a Thief's takes."""
    p = obs["player"][s]
    row: Mapping[str, Any] = p
    value = row["vp_tokens" if res == "vp" else res]
    word = RESOURCE_OF.get(res, "VP tokens")
    token = _counter(f"p-{s}-{res}", value, f"vck-token vck-t-{res}")
    action = None
    if s == seat and res != "vp":
        action = acts.take(f"gain:{res}") or acts.take(f"free:{res}")
    if action is not None:
        return _button(action, token + '<span class="vck-plus">+1</span>', "vck-resbtn vck-can",
                       f"{word} {value}. {RES_TITLE[res]}")
    steals = acts.prefixed(f"steal:p{s + 1}:{res}:") if res != "vp" else []
    if not steals:
        return _token_box(s, res, value)
    takes = "".join(_button(a, f"take {text(a['id'].rsplit(':', 1)[-1])}", "vck-mini vck-go") for a in steals)
    return f'<span class="vck-resbox" title="{attr(word)} {value}">{token}{takes}</span>'


@lru_cache(maxsize=1024)
def _token_box(s: int, res: str, value: int) -> str:
    """Player ``s``'s tokens of one kind, with no action on them."""
    word = RESOURCE_OF.get(res, "VP tokens")
    return (f'<span class="vck-resbox" title="{attr(word)} {value}">'
            f'{_counter(f"p-{s}-{res}", value, f"vck-token vck-t-{res}")}</span>')


def _head(obs: Observation, s: int, vp: int | None = None) -> str:
    """Part ``p-<s>-head``: the player's Roles and VP (counter ``p-<s>-score``; ``vp`` when known)."""
    p = obs["player"][s]
    vp = shown_vp(obs, s) if vp is None else vp
    vp_title = ("Final score, Duke included" if obs["is_over"] else
                "VP everyone can see: slain Monsters, built Domains and VP tokens (the Dukes stay secret)")
    return (f'{_roles(tuple(role_counts(p["citizens"])))}'
            f'<span class="vck-score" title="{vp_title}">{_counter(f"p-{s}-score", vp, "vck-vpn")} VP</span>')


@lru_cache(maxsize=512)
def _roles(roles: tuple[int, ...]) -> str:
    """A player's Citizens per Role, as icons and numbers."""
    return '<span class="vck-roles">' + " ".join(
        _icon(k, f"{w} Citizens: {n}") + str(n)
        for k, w, n in zip(("worker", "soldier", "shadow", "holy"), ("Worker", "Soldier", "Shadow", "Holy"), roles)
    ) + "</span>"


def _fresh(obs: Observation, s: int, move: str, name: str) -> str:
    """" vck-lastcard" on the card player ``s`` took with the last move."""
    last: Mapping[str, Any] = obs.get("last_move") or {}
    return " vck-lastcard" if last.get("seat") == s and last.get("move") == move and last.get("card") == name else ""


def _citizens(obs: Observation, acts: _Actions, s: int, seat, parts: dict) -> str:
    """Part ``p-<s>-cits``: the slots of the Citizens by roll number (area ``p-<s>-cits``); each card is
    part and element ``p-<s>-cit-<slug>``."""
    p = obs["player"][s]
    slots = []
    for numbers, name, c in citizens_by_roll(p["citizens"]):
        slug = card_slug(name)
        key = f"p-{s}-cit-{slug}"
        action = None
        if s == seat:
            action = acts.take(f"exchange:{slug}") or acts.take(f"return:{slug}")
        fresh = _fresh(obs, s, "citizen", name)
        if action is not None:
            label = _chip_label(numbers, name, c)
            parts[key] = _button(action, label, f"vck-chip vck-{ROLE_CLASS[citizen_role(name)]}{fresh} vck-can",
                                 citizen_title(name) + " " + action["label"] + ".", key=key)
        else:
            parts[key] = _citizen_chip(key, numbers, name, c, fresh)
        slots.append(_slot(key, "span"))
    return f'<div class="vck-cits" data-key="p-{s}-cits">{"".join(slots)}</div>'


def _chip_label(numbers: str, name: str, c: int) -> str:
    return f'<b>{text(numbers)}</b> {text(name.replace("Starter ", "St. "))}' + (f" ×{c}" if c > 1 else "")


@lru_cache(maxsize=1024)
def _citizen_chip(key: str, numbers: str, name: str, c: int, fresh: str) -> str:
    """A Citizen card of a tableau, ``c`` copies (no action on it)."""
    return (f'<span class="vck-chip vck-{ROLE_CLASS[citizen_role(name)]}{fresh}" data-key="{key}" '
            f'title="{attr(citizen_title(name))}">{_chip_label(numbers, name, c)}</span>')


@lru_cache(maxsize=1024)
def _slot(key: str, tag: str = "div", cls: str = "", extra: str = "") -> str:
    """``markup.slot``, remembered (the board draws the same few hundred slots again and again)."""
    return slot(key, tag, cls, extra)


def _domains(obs: Observation, s: int) -> str:
    """Part ``p-<s>-doms``: the Domains built (area ``p-<s>-doms``, cards ``p-<s>-dom-<slug>``)."""
    chips = "".join(
        f'<span class="vck-chip vck-dchip{_fresh(obs, s, "build", d)}" data-key="p-{s}-dom-{card_slug(d)}" '
        f'title="{attr(domain_title(d))}">{text(d)} <small>{domain_vp(d)} VP</small></span>'
        for d in obs["player"][s]["domains"])
    return f'<div class="vck-doms" data-key="p-{s}-doms">{chips}</div>'


def _victory(obs: Observation, acts: _Actions, s: int, seat, parts: dict) -> str:
    """Part ``p-<s>-vic``: the Victory stack (area ``p-<s>-victory``) with the slots of its Monsters, each
    part and element ``p-<s>-mon-<slug>``."""
    p = obs["player"][s]
    target = acts.take(f"target:p{s + 1}")
    slots = []
    for name, c in tallied(p["victory"]):
        action = acts.take(f"return:{card_slug(name)}") if s == seat else None
        key = f"p-{s}-mon-{card_slug(name)}"
        fresh = _fresh(obs, s, "slay", name)
        if action is not None:
            label = text(name) + (f" ×{c}" if c > 1 else "")
            parts[key] = _button(action, label, "vck-chip vck-mchip vck-can" + fresh,
                                 monster_title(name) + " " + action["label"], key=key)
        else:
            parts[key] = _monster_chip(key, name, c, fresh)
        slots.append(_slot(key, "span"))
    vp = sum(monster_vp(m) for m in p["victory"])
    head = f'<span class="vck-vhead">Victory stack {vp} VP</span>' if p["victory"] or target else ""
    key = f"p-{s}-victory"
    if target is not None:
        # another player's Victory stack, to take a random Monster from (Purloiner's Perch)
        return _button(target, head + "".join(slots), "vck-victory vck-can",
                       "Victory stack: the Monsters this player slew. " + target["label"], key=key)
    if p["victory"]:
        return (f'<div class="vck-victory" data-key="{key}" title="Victory stack: the Monsters this player slew">'
                f'{head}{"".join(slots)}</div>')
    return f'<div class="vck-victory" data-key="{key}"></div>'


@lru_cache(maxsize=512)
def _monster_chip(key: str, name: str, c: int, fresh: str) -> str:
    """A slain Monster in a Victory stack, ``c`` of that name (no action on it)."""
    label = text(name) + (f" ×{c}" if c > 1 else "")
    return (f'<span class="vck-chip vck-mchip{fresh}" data-key="{key}" title="{attr(monster_title(name))}">'
            f'{label}</span>')


def _duke(obs: Observation, acts: _Actions, s: int, seat) -> str:
    """Part ``p-<s>-duke``: the two Dukes to keep one of, or the kept Duke (``p-<s>-duke``) if the viewer may see it."""
    p = obs["player"][s]
    if p.get("duke_offer"):
        cards = []
        for d in p["duke_offer"]:
            a = acts.take(f"duke:{card_slug(d)}")
            inner = f'<b>{text(d)}</b><br><small>{text(duke_words(d))}</small>'
            title = f"Duke {d}: at the end, {duke_words(d)}."
            cards.append(_button(a, inner, "vck-duke vck-can", title) if a else
                         f'<div class="vck-duke" title="{attr(title)}">{inner}</div>')
        return '<div class="vck-dukes" aria-label="Your two Dukes: keep one">' + "".join(cards) + "</div>"
    duke = p.get("duke")
    if not duke:
        return ""
    now = "" if obs["is_over"] else " now"
    return (f'<div class="vck-duke" data-key="p-{s}-duke" '
            f'title="{attr("Duke " + duke + ": scores at the end, " + duke_words(duke))}">'
            f'<b>Duke: {text(duke)}</b> = {p.get("duke_vp", 0)} VP{now}<br>'
            f'<small>{text(duke_words(duke))}</small></div>')


def _player(obs: Observation, acts: _Actions, s: int, seat, parts: dict, marks: dict | None = None,
            vp: int | None = None) -> str:
    """Part ``p-<s>``: the panel (key ``p-<s>``): name and tags, the slots of its pieces; fills their parts.
    ``marks`` and ``vp``: the player's tags and shown VP when known (else read from ``obs``)."""
    marks = player_tags(obs, s) if marks is None else marks
    cls = f"vck-player vck-p{s}" + (" vck-active" if marks["active"] else "") + (" vck-me" if s == seat else "")
    tags = [word for word, mark in TAG_WORDS if marks[mark]]
    name = seat_name(s) + (" (you)" if s == seat else "")
    k = f"p-{s}"
    parts[f"{k}-head"] = _head(obs, s, vp)
    parts[f"{k}-res"] = _res_slots(k)
    for res in RESOURCES:
        parts[f"{k}-{res}"] = _resource(obs, acts, s, seat, res)
    parts[f"{k}-cits"] = _citizens(obs, acts, s, seat, parts)
    parts[f"{k}-doms"] = _domains(obs, s)
    parts[f"{k}-vic"] = _victory(obs, acts, s, seat, parts)
    parts[f"{k}-duke"] = _duke(obs, acts, s, seat)
    return (f'<section class="{cls}" data-key="{k}" aria-label="{attr(name)}: tableau"><header><b>{text(name)}</b> '
            f'<small>{text(" · ".join(tags))}</small>{_slot(f"{k}-head", "span", "vck-hslot")}</header>'
            f'{_panel_slots(k)}</section>')


RESOURCES = ("gold", "strength", "magic", "vp")


@lru_cache(maxsize=16)
def _res_slots(k: str) -> str:
    """Part ``p-<s>-res``: the slots of player ``k``'s tokens, each explained on hover (it never changes)."""
    res = "".join(_slot(f"{k}-{r}", "span", "vck-rslot", f'title="{attr(RES_TITLE[r])}"') for r in RESOURCES)
    return f'<div class="vck-res">{res}</div>'


@lru_cache(maxsize=16)
def _panel_slots(k: str) -> str:
    """The slots of player panel ``k``'s tokens, tableau and Duke."""
    return f'{_slot(f"{k}-res")}{_slot(f"{k}-cits")}{_slot(f"{k}-doms")}{_slot(f"{k}-vic")}{_slot(f"{k}-duke")}'



def _legend() -> str:
    """Part ``legend``: the key to the icons and marks of the cards and tableaus (rulebook: Card
    anatomy, Resources, Citizen Roles), drawn with the board's own classes."""
    rows = [(f'<i class="vck-icon vck-{role}">{ROLE_ICON[role]}</i>',
             f"{role.capitalize()}: a Citizen Role; Domains ask for them, Dukes score them")
            for role in ("worker", "soldier", "shadow", "holy")]
    rows += [(f'<span class="vck-token vck-t-{res}">1</span>', what) for res, what in (
        ("gold", "Gold: pays for Citizens and Domains"), ("strength", "Strength: slays Monsters"),
        ("magic", "Magic: slays Monsters, or stands in for Gold or Strength"),
        ("vp", "Victory Point tokens (VP)"))]
    rows += [
        ('<span class="vck-count">3</span>', "Cards left in this Center Stack"),
        ("<b>+2▾</b>", "Face-down Domains under the top one"),
        ("<b>2+</b>", "A Citizen's cost: its base Gold, +1 for each card of that name you own"),
        ("<b>on:</b> / <b>off:</b>", "A Citizen's power on your own turn (Active player) / on another's turn"),
        ("<b>Exhausted</b>", "An emptied stack; enough of them end the game"),
    ]
    return legend(rows)


_LEGEND = _legend()


def board_view(obs: Observation, actions, seat: int | None) -> dict[str, str]:
    """The board as ``seat`` sees it (None: a spectator): keyed parts ``{part id: html}``, escaped, no script.

    ``obs`` is ``state.observation(seat)``; ``actions`` the seat's legal actions as
    ``[{"id", "label"}]`` (empty when it is not to move). The same arguments always give the
    same parts; ``dicetable.engine.markup.assemble`` joins them into the whole board. Layout:
    the rulebook's Table layout (4 rows of 5 Center Stacks) with the players' tableaus beside it.
    Part ids and element keys: see the module docstring.

    Every piece no action can land on is the one every viewer without actions
    draws (shared, memoised); only the pieces the actions may concern
    (:func:`_claims`) are drawn with them. The parts are those of
    :func:`whole_board_view`, which draws every piece with the actions.
    """
    return _draw(obs, actions, seat, whole=False)


def whole_board_view(obs: Observation, actions, seat: int | None) -> dict[str, str]:
    """:func:`board_view` drawn the plain way, every piece with the actions: the reference its parts
    (values and order) must equal."""
    return _draw(obs, actions, seat, whole=True)


def _draw(obs: Observation, actions, seat: int | None, whole: bool) -> dict[str, str]:
    acts = _Actions(actions if seat is not None else ())
    center: frozenset | None = frozenset()
    panels: frozenset | None = frozenset()
    if acts.by_id:
        center, panels = (None, None) if whole else _claims(obs, acts.by_id, seat)
    if center is None:
        parts: dict[str, str] = {ROOT: ""}
        _center(obs, acts, parts)
    else:  # no actions on the centre's status: it is the same for every viewer (it reads no player but the
        # Dukes chosen); the stacks and dice the actions concern are drawn again with them
        chosen = [p["duke_chosen"] for p in obs["player"]]
        parts = dict(_center_without_actions({k: v for k, v in obs.items() if k not in ("seat", "player")}, chosen))
        if center:
            _center(obs, acts, parts, center)
    order = list(range(obs["players"]))
    if seat is not None and 0 <= seat < len(order):
        order = order[seat:] + order[:seat]  # the viewer's own tableau first
    last: Mapping[str, Any] = obs.get("last_move") or {}
    for s in order:
        if panels is None or s in panels:
            parts[f"p-{s}"] = _player(obs, acts, s, seat, parts)
        else:  # every viewer without actions on it sees a player's panel alike (its own only with "you");
            # the last move matters to the panel of the player who made it only (``_fresh``)
            panel, pieces = _player_without_actions(obs["player"][s], s, s == seat, player_tags(obs, s),
                                                    shown_vp(obs, s), obs["is_over"],
                                                    last if last.get("seat") == s else _NO_MOVE)
            parts.update(pieces)
            parts[f"p-{s}"] = panel
    parts[LEGEND] = _LEGEND
    parts[ROOT] = _root(obs["players"], tuple(order))
    return parts


@lru_cache(maxsize=64)
def _root(players: int, order: tuple[int, ...]) -> str:
    """The root part: the status, the Center Stacks' slots and the players' slots in the viewer's ``order``."""
    stacks = "".join(_slot(k, "div", "vck-sslot") for k in STACK_KEYS)
    panels = "".join(_slot(f"p-{s}") for s in order)
    return (f'<div class="board board-{GAME_ID} vck-n{players}">'
            f'<div class="vck-top"><div class="vck-status">{_slot("turn")}{_slot("dice", cls="vck-dslot")}'
            f'{_slot("info", cls="vck-islot")}{_slot("harvest", cls="vck-harvslot")}</div>'
            f'{_slot("dark-lord")}{_slot("over")}</div>'
            f'<div class="vck-main"><div class="vck-center" role="group" '
            f'aria-label="Center Stacks: Monsters, Citizens, Domains">{stacks}</div>'
            f'<div class="vck-players">{panels}</div></div>{_slot(LEGEND)}</div>')


#: The last move as the panels of the players who did not make it see it: none.
_NO_MOVE: Mapping[str, Any] = {}

#: The Center Stacks each kind of action may be placed on (by the prefix of its id, before the first ":").
_STACKS_OF = {"slay": STACK_KEYS[:5], "attack": STACK_KEYS[:5], "recruit": STACK_KEYS[5:15],
              "take": STACK_KEYS[5:15], "capture": STACK_KEYS[5:15], "build": STACK_KEYS[15:],
              "die": ("dice",), "dice": ("dice",)}
#: The prefixes of the actions placed on the viewer's own panel (tokens to gain, tableau cards, Dukes).
_OWN_PANEL = frozenset({"gain", "free", "exchange", "return", "duke"})
#: The prefixes of the actions placed on the panel of the player their id names (``steal:p2:...``, ``target:p2``).
_NAMED_PANEL = frozenset({"steal", "target"})
#: The prefixes of the actions no piece carries (the page's action bar offers them).
_NO_PIECE = frozenset({"choose", "decline"})


def _claims(obs: Observation, ids, seat: int | None) -> tuple[frozenset | None, frozenset | None]:
    """``(centre pieces, player panels)`` that actions ``ids`` may be placed on: the dice and stack keys
    (:data:`STACK_KEYS`) and the seats whose panels they may land on. Every piece that takes an action in
    :func:`whole_board_view` is among them (more may be, drawn alike with or without the actions); an id
    of a kind not known here gives ``(None, None)``: draw every piece with the actions."""
    center: set[str] = set()
    panels: set[int] = set()
    for aid in ids:
        kind, _, rest = aid.partition(":")
        if kind in _STACKS_OF:
            center.update(_STACKS_OF[kind])
        elif kind == "pay":  # paid for beside the card being paid for (``_pay_buttons``)
            pend = obs.get("pending") or {}
            row, index = pend.get("row"), pend.get("index")
            if row in ("monsters", "citizens", "domains") and isinstance(index, int):
                center.add(f"{row[0]}-{index}")
            else:
                center.update(STACK_KEYS)
        elif kind in _OWN_PANEL:
            if seat is not None:
                panels.add(seat)
        elif kind in _NAMED_PANEL:
            who = rest.split(":", 1)[0]
            if who[:1] == "p" and who[1:].isdigit():
                panels.add(int(who[1:]) - 1)
            else:
                return None, None
        elif kind not in _NO_PIECE:
            return None, None
    return frozenset(center), frozenset(panels)


@memo(256)
def _center_without_actions(obs: Observation, chosen: list) -> dict[str, str]:
    """The centre's parts for a viewer without actions: ``obs`` without ``seat`` and ``player`` (of the
    players the centre reads only ``chosen``, whether each has kept a Duke)."""
    parts: dict[str, str] = {ROOT: ""}
    _center({**obs, "player": [{"duke_chosen": c} for c in chosen]}, _Actions(()), parts)
    return parts


@memo(1024)
def _player_without_actions(p: Mapping[str, Any], s: int, you: bool, marks: dict, vp: int, is_over: bool,
                            last: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """Player ``s``'s panel and its pieces' parts for a viewer without actions (``you``: its own), from
    what :func:`_player` reads: the player ``p``, its tags, shown VP, whether the game is over and the
    last move."""
    # what the panel's pieces read of the observation besides marks and vp: this player, over, last move
    obs: Any = {"player": [{}] * s + [p], "is_over": is_over, "last_move": last}
    pieces: dict[str, str] = {}
    panel = _player(obs, _Actions(()), s, s if you else None, pieces, marks=marks, vp=vp)
    return panel, pieces


def _center(obs: Observation, acts: _Actions, parts: dict[str, str], only: frozenset | None = None) -> None:
    """The parts of the status and the Center Stacks (every part but the players' and the root); with
    ``only``, just the dice and stacks named there (their parts are in ``parts`` already), in the same order."""
    if only is None:
        parts["turn"] = _turn(obs)
    if only is None or "dice" in only:
        parts["dice"] = _dice(obs, acts)
    if only is None:
        parts["info"] = _info(obs)
        parts["harvest"] = _harvest(obs)
        parts["dark-lord"] = _dark_lord(obs)
        parts["over"] = _verdict(obs)
    for p in range(5):
        if only is None or STACK_KEYS[p] in only:
            parts[f"m-{p}"] = _monster_stack(obs, acts, p, parts)
    hits = frozenset(activated(obs["dice"]))
    for i in range(10):
        if only is None or STACK_KEYS[5 + i] in only:
            parts[f"c-{i}"] = _citizen_stack(obs, acts, i, parts, hits)
    for i in range(5):
        if only is None or STACK_KEYS[15 + i] in only:
            parts[f"d-{i}"] = _domain_stack(obs, acts, i, parts)
