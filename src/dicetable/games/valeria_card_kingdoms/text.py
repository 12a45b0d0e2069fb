"""Terminal view of a Valeria: Card Kingdoms table, drawn from ``observation(seat)`` only.

``text_view(obs, seat, width=120, focus=None)`` returns a rich renderable that fits the
window (docs/views.md): at ``width >= 120`` at most 26 lines, the Center Stacks one stack a
line (Monsters beside the players' summary, the two Citizen rows side by side, then the
Domains), the dice, the last Harvest, and the ``focus`` seat's tableau in full (Citizens by
roll number, Domains, the Victory stack) with the viewer's own Duke. Below 120 columns a
compact table of at most 12 lines: the stacks five to a line, one line per player and as
much of the focus tableau as room allows. Other Dukes appear only once the game is over
(Dukes, R3.15). ``render(state, seat)`` is the older entry point and draws the same view.
"""

from __future__ import annotations

from typing import Any, Mapping

from rich.console import Group
from rich.text import Text

from dicetable.engine import counted, seat_name

from .viewdata import (
    Observation, exhausted_words, player_tags, shown_vp, PHASE_WORDS, abbreviate, citizen_cost, citizen_powers,
    citizen_role, citizens_by_roll, tallied, domain_cost, domain_power, domain_vp, duke_words, fit,
    harvest_summary, last_move_text, monster_attacks, monster_cost, monster_reward, monster_vp, player_name,
    role_counts, roles_needed,
)

SEAT_STYLE = ("bold red", "bold blue", "bold yellow", "bold green", "bold magenta")
ROLE_STYLE = {"Worker": "yellow", "Soldier": "red", "Shadow": "magenta", "Holy": "cyan", "": "dim"}
WIDE = 120
WIDE_LINES, COMPACT_LINES = 26, 12


def seat_label(seat: int) -> Text:
    """``Player 2`` in the seat's colour."""
    return Text(seat_name(seat), style=SEAT_STYLE[seat % len(SEAT_STYLE)])


def _cell(parts, width: int) -> Text:
    """Segments ``[(text, style), ...]`` joined, cut with an ellipsis and padded to ``width``."""
    text = Text()
    for chunk, style in parts:
        text.append(chunk, style=style)
    text.truncate(width, overflow="ellipsis", pad=True)
    return text


def _side_by_side(left: list[Text], right: list[Text], lw: int, rw: int) -> list[Text]:
    """Two columns of lines, ``lw`` and ``rw`` wide, two spaces apart."""
    out = []
    for i in range(max(len(left), len(right))):
        line = Text()
        line.append_text(left[i] if i < len(left) else _cell([], lw))
        line.append("  ")
        line.append_text(right[i] if i < len(right) else _cell([], rw))
        line.rstrip()
        out.append(line)
    return out


# ---------------------------------------------------------------- header lines
def _header(obs: Observation, width: int, compact: bool) -> Text:
    n = obs["players"]
    phase = obs["phase"]
    text = Text()
    if not compact:
        text.append("Valeria: Card Kingdoms", style="bold")
        text.append(f" · turn {obs['turn']}")
    else:
        text.append(f"Turn {obs['turn']}", style="bold")
    if phase == "choose-duke":
        chosen = sum(p["duke_chosen"] for p in obs["player"])
        text.append(f" · Dukes: each player keeps 1 of 2, in secret ({chosen} of {n} chosen)", style="magenta")
        return text
    if phase == "over":
        text.append(" · the game is over", style="bold green")
        return text
    text.append(" · ")
    text.append_text(seat_label(obs["active"]))
    text.append(" is the Active player" if not compact else " Active")
    pend = obs.get("pending") or {}
    words = PHASE_WORDS.get(phase, phase)
    if compact:
        words = words.replace(" Phase", "")
    if "actions_left" in pend:
        left = pend["actions_left"]
        words += f", {left} left" if compact else f", {counted(left, 'Action')} left"
    text.append(f" · {words}", style="cyan")
    if pend and pend.get("seat") is not None and pend["seat"] != obs["active"]:
        text.append(f" · {seat_name(pend['seat'])} decides")
    if compact and obs["dice"]:
        a, b = obs["dice"]
        text.append(f" · Dice {a} {b} ({a}, {b}, {a + b})", style="bold")
    text.append(f" · {exhausted_words(obs, compact)}", style="dim")
    text.truncate(width, overflow="ellipsis")
    return text


def _dice_line(obs: Observation, width: int) -> Text | None:
    if not obs["dice"]:
        return None
    a, b = obs["dice"]
    text = Text()
    text.append(f"Dice [{a}] [{b}]", style="bold")
    text.append(f" activate {a}, {b} and {a + b}")
    if obs["players"] == 1 and obs["phase"] not in ("over",):
        text.append(" · Monsters attack: " + monster_attacks(obs), style="magenta")
    last = last_move_text(obs)
    if last and len(text) + len(last) + 9 <= width:
        text.append(f" · Last: {last}", style="dim")
    text.truncate(width, overflow="ellipsis")
    return text


def _harvest_lines(obs: Observation, width: int, max_lines: int) -> list[Text]:
    """The last Harvest's payouts, one player after the other, over at most ``max_lines``."""
    parts = harvest_summary(obs)
    if not parts:
        return []
    if len("Last Harvest: " + "; ".join(parts)) > width * max_lines - 2 * (max_lines - 1):
        parts = [abbreviate(p) for p in parts]
    return _wrap_items(Text("Last Harvest: ", style="dim"), parts, width, max_lines, sep="; ")


# ---------------------------------------------------------------- Center Stacks
def _monster_line(m: Mapping[str, Any], w: int, compact: bool) -> Text:
    cards = m["cards"]
    if not cards:
        parts = [(m["area"], "bold")] if not compact else []
        parts.append((" Exhausted" if not compact else "Exhausted", "dim"))
        return _cell(parts, w)
    top = cards[-1]
    if compact:
        cost = monster_cost(top, short=True)
        return _cell([(fit(top, w - len(cost) - 2), "bold red"), (" " + cost, "")], w)
    head = f"{m['area']} ×{len(cards)}"
    cost = f" {monster_cost(top, short=True)} {monster_vp(top)}VP "
    used = 13 + len(top) + len(cost)
    return _cell([(f"{head:<13}", "bold"), (top, "bold red"), (cost, ""),
                  ("→ " + fit(monster_reward(top), max(0, w - used - 2)), "green")], w)


def _citizen_line(c: Mapping[str, Any], w: int, compact: bool) -> Text:
    up = c["face_up"]
    slot = c["slot"]
    if not up:
        return _cell([(f"{slot:<6}" if not compact else f"{slot} ", "bold cyan"), ("Exhausted", "dim")], w)
    top = up[-1]
    cost = citizen_cost(top)
    if compact:
        tail = f" {cost}G"
        return _cell([(f"{slot} ", "bold cyan"), (fit(top, w - len(slot) - 1 - len(tail)), "bold"), (tail, "")], w)
    count = f"×{len(up)}" + (f"+{c['face_down']}▾" if c["face_down"] else "")
    role = citizen_role(top)
    on, off = citizen_powers(top)
    head = [(f"{slot:<6}", "bold cyan"), (f"{top:<10} ", "bold"), (f"{count:<5} ", "dim"),
            (f"{cost}G ", ""), (f"{role:<7} ", ROLE_STYLE[role])]
    room = w - sum(len(p) for p, _ in head)
    powers = f"on {on} · off {off}"
    for tight in (False, True):
        if len(powers) > room:
            powers = f"on {abbreviate(on, tight)} · off {abbreviate(off, tight)}"
    return _cell(head + [(fit(powers, room), "")], w)


def _domain_line(i: int, d: Mapping[str, Any], w: int, compact: bool) -> Text:
    top = d["top"]
    if top is None:
        return _cell([(f"{i + 1} " if not compact else "", "bold"), ("Exhausted", "dim")], w)
    if compact:
        tail = f" {domain_cost(top)}G"
        return _cell([(fit(top, w - len(tail)), "bold green"), (tail, "")], w)
    below = f"+{d['face_down']}▾" if d["face_down"] else ""
    head = [(f"{i + 1} ", "bold"), (f"{top:<24} ", "bold green"), (f"{below:<4}", "dim"),
            (f"{domain_cost(top):>2}G {domain_vp(top)}VP ", ""),
            (f"{roles_needed(top, short=True):<9} ", "dim")]
    room = w - sum(len(p) for p, _ in head)
    return _cell(head + [(fit(domain_power(top), room), "green")], w)


def _row_of_five(cells: list[Text]) -> Text:
    line = Text()
    for i, c in enumerate(cells):
        if i:
            line.append(" ")
        line.append_text(c)
    line.rstrip()
    return line


# ---------------------------------------------------------------- players
def _tags(obs: Observation, s: int) -> str:
    # "1st" marks who started; at the end it would read like a final placing, so it goes there
    marks = player_tags(obs, s)
    first = marks["first"] and not obs["is_over"]
    return " ".join(word for word, on in (("1st", first), ("rests", marks["resting"])) if on)


def _player_line(obs: Observation, s: int, seat: int | None, w: int, compact: bool) -> Text:
    p = obs["player"][s]
    mark = "▶" if player_tags(obs, s)["active"] else " "
    text = Text(mark, style="bold")
    name = player_name(s, seat)
    tags = _tags(obs, s)
    text.append(name, style=SEAT_STYLE[s % len(SEAT_STYLE)])
    label = name + (" " + tags if tags else "")
    if tags:
        text.append(" " + tags, style="dim")
    text.append(" " * max(1, 19 - len(label)))
    if not obs["is_over"]:
        text.append(f"{p['gold']:>2}G {p['strength']:>2}S {p['magic']:>2}M ")
    text.append(f"{shown_vp(obs, s):>3} VP", style="bold")
    duke = p.get("duke")
    if obs["is_over"] and duke:
        # the Dukes are revealed at scoring (R8.7)
        tail = f" ({p.get('duke_vp', 0)} VP)"
        text.append("  Duke " + fit(duke, w - len(text) - 7 - len(tail)) + tail, style="magenta")
    else:
        roles = role_counts(p["citizens"])
        text.append(f"  W{roles[0]} So{roles[1]} Sh{roles[2]} H{roles[3]}", style="dim")
        text.append(f" {len(p['domains'])} Dom {len(p['victory'])} Mon")
    text.truncate(w, overflow="ellipsis")
    return text


def _dark_lord_lines(obs: Observation, w: int, max_lines: int) -> list[Text]:
    """Solo: the Dark Lord's Duke (face down until the end), captured cards and score."""
    dl = obs["dark_lord"]
    head = Text("☠ The Dark Lord", style="bold magenta")
    head.append(f" ({dl['duke']})" if dl.get("duke") else " (Duke face down)", style="magenta")
    if dl.get("score") is not None:
        head.append(f" scores {dl['score']}", style="bold")
    cits = ", ".join(f"{n}" + (f" ×{c}" if c > 1 else "") for n, c in tallied(dl["captured_citizens"]))
    doms = ", ".join(dl["captured_domains"])
    parts = [f"captured Citizens: {cits or 'none'}", f"captured Domains: {doms or 'none'}"]
    if max_lines >= 3:
        lines = [head] + [Text("  " + fit(p, w - 2)) for p in parts]
    else:
        lines = [head, Text("  " + fit("; ".join(parts), w - 2))]
        if max_lines == 1:
            head.append("  " + fit("; ".join(parts), max(0, w - len(head) - 2)))
            lines = [head]
    for line in lines:
        line.truncate(w, overflow="ellipsis")
    return lines


def _focus_lines(obs: Observation, f: int, seat: int | None, w: int, compact: bool) -> list[Text]:
    """The ``f`` seat's tableau in full: Citizens by roll number, Domains, Victory stack, Duke."""
    p = obs["player"][f]
    lines = []
    cit = Text(f"{seat_name(f)}: " if compact else f"{seat_name(f)}'s Citizens: ",
               style=SEAT_STYLE[f % len(SEAT_STYLE)])
    items = []
    for slot, name, c in citizens_by_roll(p["citizens"]):
        label = name.replace("Starter ", "St. ") if compact else name
        items.append(f"[{slot}] {label}" + (f" ×{c}" if c > 1 else ""))
    roles = role_counts(p["citizens"])
    role_text = ", ".join(f"{r} {n}" for r, n in zip(("Worker", "Soldier", "Shadow", "Holy"), roles) if n)
    if role_text and not compact:
        items.append(f"(Roles: {role_text})")
    lines += _wrap_items(cit, items, w, 1 if compact else 2)
    dom = Text("Domains: ", style="green")
    if p["domains"]:
        each = [f"{d} ({domain_vp(d)} VP: {domain_power(d)})" for d in p["domains"]]
        joined = "; ".join(each)
        if len(joined) > w - len(dom):
            joined = "; ".join(f"{d} ({abbreviate(domain_power(d))})" for d in p["domains"])
        if len(joined) > w - len(dom):
            joined = ", ".join(p["domains"])
        dom.append(fit(joined, w - len(dom)))
    else:
        dom.append("none", style="dim")
    vic = Text("Victory stack: ", style="red")
    if p["victory"]:
        vp = sum(monster_vp(m) for m in p["victory"])
        vic.append(", ".join(n + (f" ×{c}" if c > 1 else "") for n, c in tallied(p["victory"])) + f" = {vp} VP")
    else:
        vic.append("none", style="dim")
    if p["vp_tokens"]:
        vic.append(f"; VP tokens {p['vp_tokens']}")
    if len(dom) + len(vic) + 3 <= w:
        dom.append(" · ")
        dom.append_text(vic)
        lines.append(dom)
    else:
        dom.truncate(w, overflow="ellipsis")
        vic.truncate(w, overflow="ellipsis")
        lines += [dom, vic]
    lines += _duke_lines(obs, f, seat, w, compact)
    return lines


def _wrap_items(first: Text, items: list[str], w: int, max_lines: int, sep: str = " · ") -> list[Text]:
    """``first`` then ``items`` joined by ``sep``, over at most ``max_lines`` lines of ``w``."""
    lines = [first]
    joiner = sep
    for i, item in enumerate(items):
        line = lines[-1]
        sep = joiner if i and len(line) > 2 else ""
        if len(line) + len(sep) + len(item) <= w:
            line.append(sep + item)
        elif len(lines) < max_lines:
            lines.append(Text("  " + item))
        else:
            rest = joiner.join(items[i:])
            line.append(sep + fit(rest, w - len(line) - len(sep)) if w - len(line) - len(sep) > 1 else "")
            line.truncate(w, overflow="ellipsis")
            break
    return lines


def _duke_lines(obs: Observation, f: int, seat: int | None, w: int, compact: bool) -> list[Text]:
    """The focus seat's Duke if the viewer may see it (its own, or all once the game is over);
    while Dukes are chosen, the two dealt to the viewer (one a line when there is room)."""
    p = obs["player"][f]
    if p.get("duke_offer"):
        head = Text("Dukes dealt (keep one): ", style="bold magenta")
        offers = [f"{d} ({duke_words(d)})" for d in p["duke_offer"]]
        if compact:
            head.append(fit(" / ".join(offers), w - len(head)))
            return [head]
        return [head] + [Text("  " + fit(o, w - 2)) for o in offers]
    duke = p.get("duke")
    if not duke:
        return []
    who = "Your Duke" if f == seat and not obs["is_over"] else f"{seat_name(f)}'s Duke"
    text = Text(f"{who}: {duke}", style="bold magenta")
    tail = f" = {p.get('duke_vp', 0)} VP now" if not obs["is_over"] else f" = {p.get('duke_vp', 0)} VP"
    text.append(" (" + fit(duke_words(duke), w - len(text) - len(tail) - 3) + ")")
    text.append(tail, style="bold")
    return [text]


def _verdict(obs: Observation, w: int) -> list[Text]:
    """Who won, then every seat's score and cards in the tableau (the tie-break, R8.6), over at most
    two lines of ``w``: the winners come first and are never cut; the scores wrap to a second line
    rather than run past the width."""
    if obs["players"] == 1:
        won = bool(obs["winners"])
        text = Text("You win!" if won else "The Dark Lord wins.", style="bold green" if won else "bold red")
        dl: Mapping[str, Any] = obs.get("dark_lord") or {}
        if obs["scores"]:
            text.append(f"  Your score {obs['scores'][0]}")
            if dl.get("score") is not None:
                text.append(f", the Dark Lord's {dl['score']}")
        text.truncate(w, overflow="ellipsis")
        return [text]
    text = Text("Winner" + ("s" if len(obs["winners"]) > 1 else "") + ": "
                + ", ".join(seat_name(s) for s in obs["winners"]), style="bold green")
    if not obs["scores"]:
        return [text]
    text.append("  Scores: ")
    scores = [f"{seat_name(s)} {v} ({obs['player'][s]['tableau_cards']} cards)" for s, v in enumerate(obs["scores"])]
    lines = _wrap_items(text, scores, w, 2, sep=", ")
    tie = "a tie goes to the fewest cards"
    if len(lines[-1]) + 2 + len(tie) <= w:
        lines[-1].append("; " + tie, style="dim")
    return lines


# ---------------------------------------------------------------- the view
def _default_focus(obs: Observation, seat: int | None) -> int:
    if seat is not None:
        return seat
    pend = obs.get("pending") or {}
    return pend.get("seat", obs["active"]) if pend.get("seat") is not None else obs["active"]


def text_view(obs: Observation, seat: int | None, *, width: int = WIDE, focus: int | None = None) -> Group:
    """The table as ``seat`` sees it (None: a spectator), drawn from its observation ``obs``.

    ``width`` is the terminal's width in columns: from 120 the full table (at most 26 lines),
    below it the compact one (at most 12 lines, at most ``width`` columns). ``focus`` is the
    seat whose tableau is drawn in full (the CLI's ``show N``); default the viewer, or for a
    spectator the seat to decide. Raises ValueError for a ``focus`` that is no seat of the game.
    """
    n = obs["players"]
    f = _default_focus(obs, seat) if focus is None else focus
    if isinstance(f, bool) or not isinstance(f, int) or not 0 <= f < n:
        raise ValueError(f"there is no seat {focus!r} to show: seats are 0..{n - 1}")
    if width >= WIDE:
        return Group(*_wide(obs, seat, f, width))
    return Group(*_compact(obs, seat, f, width))


def _wide(obs: Observation, seat: int | None, f: int, width: int) -> list[Text]:
    lw = (width - 2) * 9 // 20  # the Monsters; the players' lines get the rest
    rw = width - 2 - lw
    cw = (width - 2) // 2  # the two Citizen rows
    lines = [_header(obs, width, compact=False)]
    dice = _dice_line(obs, width)
    if dice is not None:
        lines.append(dice)
    lines += _harvest_lines(obs, width, 2)
    monsters = [_monster_line(m, lw, False) for m in obs["monsters"]]
    players = [_player_line(obs, s, seat, rw, False) for s in range(obs["players"])]
    if obs["players"] == 1 and "dark_lord" in obs:
        players += _dark_lord_lines(obs, rw, 4)
    lines += _side_by_side(monsters, players, lw, rw)
    row1 = [_citizen_line(c, cw, False) for c in obs["citizens"][:5]]
    row2 = [_citizen_line(c, width - 2 - cw, False) for c in obs["citizens"][5:]]
    lines += _side_by_side(row1, row2, cw, width - 2 - cw)
    lines += [_domain_line(i, d, width, False) for i, d in enumerate(obs["domains"])]
    lines += _focus_lines(obs, f, seat, width, False)
    if obs["is_over"]:
        lines += _verdict(obs, width)
    for line in lines:
        line.rstrip()
    return lines


def _compact(obs: Observation, seat: int | None, f: int, width: int) -> list[Text]:
    cw = (width - 4) // 5
    lines = [_header(obs, width, compact=True)]
    lines[0].truncate(width, overflow="ellipsis")
    lines.append(_row_of_five([_monster_line(m, cw, True) for m in obs["monsters"]]))
    lines.append(_row_of_five([_citizen_line(c, cw, True) for c in obs["citizens"][:5]]))
    lines.append(_row_of_five([_citizen_line(c, cw, True) for c in obs["citizens"][5:]]))
    lines.append(_row_of_five([_domain_line(i, d, cw, True) for i, d in enumerate(obs["domains"])]))
    if obs["is_over"]:
        lines += _verdict(obs, width)
    else:
        lines += _harvest_lines(obs, width, 1)
    lines += [_player_line(obs, s, seat, width, True) for s in range(obs["players"])]
    if obs["players"] == 1 and "dark_lord" in obs:
        lines += _dark_lord_lines(obs, width, 2)
    room = COMPACT_LINES - len(lines)
    if room > 0:
        lines += _focus_lines(obs, f, seat, width, True)[:room]
    for line in lines:
        line.rstrip()
    return lines


class _FitToConsole:
    """``text_view`` drawn at the width of the console it is printed on (wide or compact)."""

    def __init__(self, obs: Observation, seat: int | None) -> None:
        self.obs, self.seat = obs, seat

    def __rich_console__(self, console, options):
        yield text_view(self.obs, self.seat, width=options.max_width)


def render(state, seat: int | None = None):
    """The older entry point: ``text_view`` of ``state.observation(seat)``, fitted to the
    width of the console that prints it (the full table from 120 columns, else the compact one)."""
    return _FitToConsole(state.observation(seat), seat)
