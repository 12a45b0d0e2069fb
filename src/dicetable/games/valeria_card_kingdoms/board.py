"""Browser board of Valeria: Card Kingdoms: an HTML fragment drawn from ``observation(seat)``.

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
the Harvest's trades) are left to the page's action bar. The fragment is a pure function of
its arguments and holds no script.
"""

from __future__ import annotations

import re
from html import escape

from dicetable.engine import seat_name

from .viewdata import (
    PHASE_WORDS, RESOURCE_OF, activated, card_slug, citizen_cost, citizen_powers, citizen_role,
    citizen_title, citizens_by_roll, counted, domain_cost, domain_power, domain_title,
    domain_vp, duke_words, harvest_summary, last_move_text, monster_attacks, monster_cost, monster_reward,
    monster_title, monster_vp, role_counts, roles_needed,
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
PIPS = {1: ((2, 2),), 2: ((1, 1), (3, 3)), 3: ((1, 1), (2, 2), (3, 3)), 4: ((1, 1), (3, 1), (1, 3), (3, 3)),
        5: ((1, 1), (3, 1), (2, 2), (1, 3), (3, 3)), 6: ((1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3))}


def _e(text) -> str:
    return escape(str(text), quote=True)


def _button(action: dict, inner: str, cls: str, title: str = "") -> str:
    """A focusable piece carrying the action (its label is the accessible name)."""
    t = f' title="{_e(title)}"' if title else ""
    return (f'<button type="button" class="{cls}" data-action="{_e(action["id"])}" '
            f'aria-label="{_e(action["label"])}"{t}>{inner}</button>')


class _Actions:
    """The seat's legal actions by id, handed out once each to the piece they concern."""

    def __init__(self, actions) -> None:
        self.by_id = {a["id"]: a for a in actions}
        self.placed: set[str] = set()

    def take(self, aid: str) -> dict | None:
        a = self.by_id.get(aid)
        if a is not None and aid not in self.placed:
            self.placed.add(aid)
            return a
        return None

    def prefixed(self, prefix: str) -> list[dict]:
        out = [a for aid, a in self.by_id.items() if aid.startswith(prefix) and aid not in self.placed]
        self.placed.update(a["id"] for a in out)
        return out


# ------------------------------------------------------------------ dice and status
def _die_svg(value: int, n: int) -> str:
    pips = "".join(f'<circle cx="{8 * x}" cy="{8 * y}" r="2.7"/>' for x, y in PIPS.get(value, ()))
    return (f'<svg class="vck-die" viewBox="0 0 32 32" role="img" aria-label="Die {n}: {value}">'
            f'<title>Die {n} shows {value}</title><rect x="1" y="1" width="30" height="30" rx="6"/>'
            f'{pips}</svg>')


def _die_change_text(label: str) -> str:
    """``"Palace of the Dawn: change die 1 from 4 to 3"`` -> ``"Palace of the Dawn → 3"``."""
    m = re.match(r"(.*): change die \d from \d+ to (\d+)(.*)", label)
    return f"{m.group(1)} → {m.group(2)}{m.group(3)}" if m else label


def _status(obs: dict, acts: _Actions, seat) -> str:
    out = ['<div class="vck-status">']
    phase = obs["phase"]
    n = obs["players"]
    if phase == "choose-duke":
        chosen = sum(p["duke_chosen"] for p in obs["player"])
        out.append(f'<div class="vck-turn"><b>Dukes</b>: each player keeps one of two, in secret '
                   f'({chosen} of {n} chosen)</div>')
    elif phase == "over":
        out.append(f'<div class="vck-turn"><b>The game is over</b> after turn {obs["turn"]}</div>')
    else:
        pend = obs.get("pending") or {}
        words = PHASE_WORDS.get(phase, phase)
        if "actions_left" in pend:
            left = pend["actions_left"]
            words += f" · {left} Action{'s' if left != 1 else ''} left"
        who = ""
        if pend.get("seat") is not None and pend["seat"] != obs["active"]:
            who = f' · <span class="vck-s{pend["seat"]}">{_e(seat_name(pend["seat"]))}</span> decides'
        detail = ""
        if pend.get("card"):
            detail = f'<div class="vck-pending">{_e(pend["card"])}: {_e(pend.get("effect", ""))}</div>'
        out.append(f'<div class="vck-turn">Turn {obs["turn"]} · <b class="vck-s{obs["active"]}">'
                   f'{_e(seat_name(obs["active"]))}</b> is the Active player · {_e(words)}{who}{detail}</div>')
    if obs["dice"]:
        dice = obs["dice"]
        out.append('<div class="vck-dice" title="The Active player\'s two dice: each die and their sum '
                   'activate Citizens (Harvest Phase)">')
        changes = acts.prefixed("die:")
        for i, v in enumerate(dice):
            buttons = "".join(_button(a, _e(_die_change_text(a["label"])), "vck-mini")
                              for a in changes if a["id"].endswith(f":{i + 1}"))
            out.append(f'<div class="vck-die-slot">{_die_svg(v, i + 1)}{buttons}</div>')
        nums = activated(dice)
        out.append(f'<div class="vck-activates">activate <b>{nums[0]}</b>, <b>{nums[1]}</b> and <b>{nums[2]}</b>')
        done = acts.take("dice:done")
        if done:
            out.append(_button(done, "Announce these dice", "vck-mini vck-go"))
        out.append("</div></div>")
        if n == 1 and phase != "over":
            out.append(f'<div class="vck-attack" title="Solo: each die activates the Monster stack of its '
                       f'number, which attacks its column (Solo variant)">Monsters attack: '
                       f'{_e(monster_attacks(obs))}</div>')
    goal = 5 if n == 1 else 2 * n
    out.append(f'<div class="vck-exh" title="The game ends when {goal} Center Stacks are Exhausted, or every '
               f'{"Monster is slain" if n == 1 else "Monster is slain or every Domain built"} (End of game)">'
               f'Exhausted <b>{obs["exhausted"]}</b> of {goal}</div>')
    last = last_move_text(obs)
    if last:
        out.append(f'<div class="vck-lastmove" title="The last card taken from the Center Stacks (its stack is '
                   f'marked with a dashed outline)">Last: {_e(last)}</div>')
    harvest = harvest_summary(obs)
    if harvest:
        text = _e("; ".join(harvest))
        out.append(f'<div class="vck-harvest" title="What each player got in the last Harvest: {text}">'
                   f'<b>Last Harvest</b>: {text}</div>')
    out.append("</div>")
    return "".join(out)


def _dark_lord(obs: dict) -> str:
    dl = obs.get("dark_lord")
    if not dl:
        return ""
    duke = _e(dl["duke"]) if dl.get("duke") else "Duke face down"
    cits = ", ".join(f"{_e(n)}" + (f" ×{c}" if c > 1 else "") for n, c in counted(dl["captured_citizens"]))
    doms = ", ".join(_e(d) for d in dl["captured_domains"])
    score = f' · scores <b>{dl["score"]}</b>' if dl.get("score") is not None else ""
    return (f'<div class="vck-darklord" title="Solo: the Dark Lord scores the surviving Monsters, the captured '
            f'Domains and its Duke on them; it wins a tie (Solo variant)"><b>The Dark Lord</b> ({duke}){score}'
            f'<br>Captured Citizens: {cits or "none"}<br>Captured Domains: {doms or "none"}</div>')


# ------------------------------------------------------------------ Center Stacks
def _pay_buttons(obs: dict, acts: _Actions, row: str, index: int) -> str:
    pend = obs.get("pending") or {}
    if pend.get("task") != "pay" or pend.get("row") != row or pend.get("index") != index:
        return ""
    pays = acts.prefixed("pay:")
    if not pays:
        return ""
    return ('<div class="vck-pay" role="group" aria-label="How to pay">'
            + "".join(_button(a, _e(a["label"].removeprefix("Pay ")), "vck-mini vck-go") for a in pays) + "</div>")


def _last(obs: dict, row: str, index: int) -> str:
    """" vck-last" on the stack the last card was taken from."""
    last = obs.get("last_move") or {}
    return " vck-last" if (last.get("row"), last.get("index")) == (row, index) else ""


def _paying(obs: dict, row: str, index: int) -> str:
    """" vck-paying" on the stack whose card is being paid for (a ring marks it)."""
    pend = obs.get("pending") or {}
    return " vck-paying" if pend.get("task") == "pay" and (pend.get("row"), pend.get("index")) == (row, index) else ""


def _card(action: dict | None, inner: str, cls: str, title: str) -> str:
    if action is not None:
        return _button(action, inner, f"vck-card {cls} vck-can", title + " " + action["label"] + ".")
    return f'<div class="vck-card {cls}" title="{_e(title)}">{inner}</div>'


def _exhausted(what: str) -> str:
    return (f'<div class="vck-card vck-exhausted" title="An Exhausted stack: every card of this {what} '
            f'stack is gone; Exhausted stacks count toward the end of the game (Exhausted stacks)">'
            f'<span>Exhausted</span></div>')


def _monster_stack(obs: dict, acts: _Actions, p: int) -> str:
    m = obs["monsters"][p]
    cards = m["cards"]
    if not cards:
        return f'<div class="vck-stack vck-mstack{_last(obs, "monsters", p)}">{_exhausted("Monster")}</div>'
    top = cards[-1]
    slug = card_slug(m["area"])
    action = acts.take(f"slay:{slug}") or acts.take(f"attack:{slug}")
    inner = (f'<div class="vck-col-head">{_e(m["area"])}<span class="vck-count" title="{len(cards)} Monsters in '
             f'this stack">{len(cards)}</span></div><div class="vck-name vck-wrap">{_e(top)}</div>'
             f'<div class="vck-stats"><span class="vck-str" title="Strength cost (Magic cost on top)">'
             f'{_e(monster_cost(top))}</span> <span class="vck-vp">{monster_vp(top)} VP</span></div>'
             f'<div class="vck-text">→ {_e(monster_reward(top))}</div>')
    pend = obs.get("pending") or {}
    attacking = " vck-attacking" if pend.get("task") == "attack" and pend.get("column") == p else ""
    return (f'<div class="vck-stack vck-mstack{attacking}{_paying(obs, "monsters", p)}{_last(obs, "monsters", p)}">{_card(action, inner, "vck-monster", monster_title(top))}'
            f'{_pay_buttons(obs, acts, "monsters", p)}</div>')


def _trade(text: str) -> str:
    """``"may pay 1 Gold to gain 2 Magic"`` -> ``"may pay 1 Gold → 2 Magic"`` (a card is narrow)."""
    return text.replace(" to gain ", " → ")


def _icon(role: str, title: str) -> str:
    """A Role icon (Worker, Soldier, Shadow, Holy) with its name on hover."""
    return f'<i class="vck-icon vck-{role}" title="{_e(title)}">{ROLE_ICON[role]}</i>'


def _slot_numbers(slot: str) -> list[int]:
    return [int(x) for x in slot.split("-")]


def _citizen_stack(obs: dict, acts: _Actions, i: int) -> str:
    c = obs["citizens"][i]
    up = c["face_up"]
    if not up:
        return f'<div class="vck-stack vck-cstack{_last(obs, "citizens", i)}">{_exhausted("Citizen")}</div>'
    top = up[-1]
    slug = card_slug(top)
    pend = obs.get("pending") or {}
    action = acts.take(f"recruit:{slug}") or acts.take(f"take:{slug}")
    if action is None and pend.get("task") == "attack" and pend.get("column") in (i, i - 5):
        action = acts.take(f"capture:{slug}")
    role = citizen_role(top)
    on, off = (_trade(x) for x in citizen_powers(top))
    down = (f' <span class="vck-down" title="{c["face_down"]} face-down Citizens below (Mixed Citizen variant)">'
            f'+{c["face_down"]}▾</span>' if c["face_down"] else "")
    inner = (f'<div class="vck-col-head"><span class="vck-slot" title="Activation number: the Citizen harvests when '
             f'a die or the sum shows it">{_e(c["slot"])}</span>{down}<span class="vck-count" title="{len(up)} '
             f'face-up Citizens in this stack">{len(up)}</span></div><div class="vck-name">{_e(top)}</div>'
             f'<div class="vck-stats"><span class="vck-gold" title="Base cost in Gold, +1 per card of that name '
             f'you own">{citizen_cost(top)}+</span> <span class="vck-role vck-{ROLE_CLASS[role]}">{_e(role)}</span></div>'
             f'<div class="vck-text"><span class="vck-on" title="On-turn power (the Active player)">{_e(on)}</span>'
             f'<span class="vck-off" title="Off-turn power (the other players)">{_e(off)}</span></div>')
    hit = " vck-hit" if set(activated(obs["dice"])) & set(_slot_numbers(c["slot"])) else ""
    return (f'<div class="vck-stack vck-cstack{hit}{_paying(obs, "citizens", i)}{_last(obs, "citizens", i)}">'
            f'{_card(action, inner, "vck-citizen vck-" + ROLE_CLASS[role], citizen_title(top))}'
            f'{_pay_buttons(obs, acts, "citizens", i)}</div>')


def _domain_stack(obs: dict, acts: _Actions, i: int) -> str:
    d = obs["domains"][i]
    top = d["top"]
    if top is None:
        return f'<div class="vck-stack vck-dstack{_last(obs, "domains", i)}">{_exhausted("Domain")}</div>'
    action = acts.take(f"build:{card_slug(top)}")
    need = roles_needed(top)
    icons = "".join(_icon(ROLE_CLASS[r], r) for r in need.split(", ") if r)
    inner = (f'<div class="vck-col-head"><span class="vck-colno" title="Domain stack {i + 1}">{i + 1}</span> '
             f'<span class="vck-needs" title="Citizens needed to build it: '
             f'{_e(need or "none")}">{icons}</span><span class="vck-count" title="{d["face_down"]} face-down Domains '
             f'below">+{d["face_down"]}▾</span></div><div class="vck-name vck-wrap">{_e(top)}</div>'
             f'<div class="vck-stats"><span class="vck-gold" title="Cost in Gold">{domain_cost(top)}</span> '
             f'<span class="vck-vp">{domain_vp(top)} VP</span></div>'
             f'<div class="vck-text">{_e(domain_power(top))}</div>')
    return (f'<div class="vck-stack vck-dstack{_paying(obs, "domains", i)}{_last(obs, "domains", i)}">'
            f'{_card(action, inner, "vck-domain", domain_title(top))}'
            f'{_pay_buttons(obs, acts, "domains", i)}</div>')


def _center(obs: dict, acts: _Actions) -> str:
    cells = [_monster_stack(obs, acts, p) for p in range(5)]
    cells += [_citizen_stack(obs, acts, i) for i in range(10)]
    cells += [_domain_stack(obs, acts, i) for i in range(5)]
    return ('<div class="vck-center" role="group" aria-label="Center Stacks: Monsters, Citizens, Domains">'
            + "".join(cells) + "</div>")


# ------------------------------------------------------------------ players
def _resources(obs: dict, acts: _Actions, s: int, seat) -> str:
    p = obs["player"][s]
    out = ['<div class="vck-res">']
    for key, value in (("gold", p["gold"]), ("strength", p["strength"]), ("magic", p["magic"]),
                       ("vp", p["vp_tokens"])):
        word = RESOURCE_OF.get(key, "VP tokens")
        token = f'<span class="vck-token vck-t-{key}">{value}</span>'
        action = None
        if s == seat and key != "vp":
            action = acts.take(f"gain:{key}") or acts.take(f"free:{key}")
        steals = acts.prefixed(f"steal:p{s + 1}:{key}:") if key != "vp" else []
        title = RES_TITLE[key]
        if action is not None:
            out.append(_button(action, token + f'<span class="vck-plus">+1</span>', "vck-resbtn vck-can",
                               f"{word} {value}. {title}"))
        else:
            out.append(f'<span class="vck-resbox" title="{_e(word)} {value}. {_e(title)}">{token}')
            for a in steals:
                out.append(_button(a, f"take {_e(a['id'].rsplit(':', 1)[-1])}", "vck-mini vck-go"))
            out.append("</span>")
    out.append("</div>")
    return "".join(out)


def _tableau(obs: dict, acts: _Actions, s: int, seat) -> str:
    p = obs["player"][s]
    last = obs.get("last_move") or {}

    def fresh(move: str, name: str) -> str:
        """" vck-lastcard" on the card this player took with the last move."""
        return " vck-lastcard" if last.get("seat") == s and last.get("move") == move and last.get("card") == name else ""

    out = ['<div class="vck-cits">']
    for slot, name, c in citizens_by_roll(p["citizens"]):
        role = citizen_role(name)
        label = f'<b>{_e(slot)}</b> {_e(name.replace("Starter ", "St. "))}' + (f" ×{c}" if c > 1 else "")
        action = None
        if s == seat:
            action = acts.take(f"exchange:{card_slug(name)}") or acts.take(f"return:{card_slug(name)}")
        cls = f"vck-chip vck-{ROLE_CLASS[role]}{fresh('citizen', name)}"
        if action is not None:
            out.append(_button(action, label, cls + " vck-can", citizen_title(name) + " " + action["label"] + "."))
        else:
            out.append(f'<span class="{cls}" title="{_e(citizen_title(name))}">{label}</span>')
    out.append("</div>")
    if p["domains"]:
        out.append('<div class="vck-doms">')
        for d in p["domains"]:
            out.append(f'<span class="vck-chip vck-dchip{fresh("build", d)}" title="{_e(domain_title(d))}">{_e(d)} '
                       f'<small>{domain_vp(d)} VP</small></span>')
        out.append("</div>")
    target = acts.take(f"target:p{s + 1}")
    mons = []
    for name, c in counted(p["victory"]):
        action = acts.take(f"return:{card_slug(name)}") if s == seat else None
        label = _e(name) + (f" ×{c}" if c > 1 else "")
        if action is not None:
            mons.append(_button(action, label, "vck-chip vck-mchip vck-can" + fresh("slay", name),
                                monster_title(name) + " " + action["label"]))
        else:
            mons.append(f'<span class="vck-chip vck-mchip{fresh("slay", name)}" title="{_e(monster_title(name))}">{label}</span>')
    vp = sum(monster_vp(m) for m in p["victory"])
    head = f'<span class="vck-vhead">Victory stack {vp} VP</span>' if p["victory"] or target else ""
    if target is not None:
        # another player's Victory stack, to take a random Monster from (Purloiner's Perch)
        out.append(_button(target, head + "".join(mons), "vck-victory vck-can",
                           "Victory stack: the Monsters this player slew. " + target["label"]))
    elif p["victory"]:
        out.append(f'<div class="vck-victory" title="Victory stack: the Monsters this player slew">{head}'
                   + "".join(mons) + "</div>")
    return "".join(out)


def _duke(obs: dict, acts: _Actions, s: int, seat) -> str:
    p = obs["player"][s]
    if p.get("duke_offer"):
        cards = []
        for d in p["duke_offer"]:
            a = acts.take(f"duke:{card_slug(d)}")
            inner = f'<b>{_e(d)}</b><br><small>{_e(duke_words(d))}</small>'
            title = f"Duke {d}: at the end, {duke_words(d)}."
            cards.append(_button(a, inner, "vck-duke vck-can", title) if a else
                         f'<div class="vck-duke" title="{_e(title)}">{inner}</div>')
        return '<div class="vck-dukes" aria-label="Your two Dukes: keep one">' + "".join(cards) + "</div>"
    if not p.get("duke"):
        return ""
    now = "" if obs["is_over"] else " now"
    return (f'<div class="vck-duke" title="{_e("Duke " + p["duke"] + ": scores at the end, " + duke_words(p["duke"]))}">'
            f'<b>Duke: {_e(p["duke"])}</b> = {p.get("duke_vp", 0)} VP{now}<br><small>{_e(duke_words(p["duke"]))}</small></div>')


def _player(obs: dict, acts: _Actions, s: int, seat) -> str:
    p = obs["player"][s]
    live = obs["phase"] not in ("choose-duke", "over")
    cls = ["vck-player", f"vck-p{s}"]
    tags = []
    if live and s == obs["active"]:
        cls.append("vck-active")
        tags.append("Active")
    if s == seat:
        cls.append("vck-me")
    if obs["players"] > 1 and s == obs["first_player"]:
        tags.append("First player")
    if live and s == obs["resting"]:
        tags.append("Resting")
    if s in obs["winners"]:
        tags.append("Winner")
    vp = obs["scores"][s] if obs["is_over"] and obs["scores"] else p["public_vp"]
    roles = role_counts(p["citizens"])
    role_text = " ".join(_icon(k, f"{w} Citizens: {n}") + str(n)
                         for k, w, n in zip(("worker", "soldier", "shadow", "holy"),
                                            ("Worker", "Soldier", "Shadow", "Holy"), roles))
    name = seat_name(s) + (" (you)" if s == seat else "")
    vp_title = ("Final score, Duke included" if obs["is_over"] else
                "VP everyone can see: slain Monsters, built Domains and VP tokens (the Dukes stay secret)")
    return (f'<section class="{" ".join(cls)}" aria-label="{_e(name)}">'
            f'<header><b>{_e(name)}</b> <small>{_e(" · ".join(tags))}</small>'
            f'<span class="vck-roles">{role_text}</span>'
            f'<span class="vck-score" title="{vp_title}">{vp} VP</span></header>'
            f'{_resources(obs, acts, s, seat)}{_tableau(obs, acts, s, seat)}{_duke(obs, acts, s, seat)}</section>')


def board_view(obs: dict, actions, seat: int | None) -> str:
    """The board as ``seat`` sees it (None: a spectator): an HTML fragment, escaped, no script.

    ``obs`` is ``state.observation(seat)``; ``actions`` the seat's legal actions as
    ``[{"id", "label"}]`` (empty when it is not to move). The same arguments always give the
    same string. Layout: the rulebook's Table layout (4 rows of 5 Center Stacks) with the
    players' tableaus beside it.
    """
    acts = _Actions(actions if seat is not None else ())
    status = _status(obs, acts, seat)
    center = _center(obs, acts)
    order = list(range(obs["players"]))
    if seat is not None and 0 <= seat < len(order):
        order = order[seat:] + order[:seat]  # the viewer's own tableau first
    players = "".join(_player(obs, acts, s, seat) for s in order)
    over = ""
    if obs["is_over"]:
        if obs["players"] == 1:
            over = ('<div class="vck-verdict">' + ("You win!" if obs["winners"] else "The Dark Lord wins.") + "</div>")
        else:
            over = ('<div class="vck-verdict">Winner: ' + ", ".join(_e(seat_name(s)) for s in obs["winners"])
                    + ' <small>(a tie goes to the fewest cards in the tableau)</small></div>')
    return (f'<div class="board board-{GAME_ID} vck-n{obs["players"]}" data-phase="{_e(obs["phase"])}">'
            f'<div class="vck-top">{status}{_dark_lord(obs)}{over}</div>'
            f'<div class="vck-main">{center}<div class="vck-players">{players}</div></div></div>')
