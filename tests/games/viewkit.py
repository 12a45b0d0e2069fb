"""Shared checks for the game views (docs/views.md): terminal fit, board HTML, help data.

Used by the per-game ``test_views.py`` files; every function asserts and
names the state it looked at when it fails.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path

from rich.console import Console

from dicetable import get_game, new_game
from dicetable.engine import Rng
from dicetable.engine.markup import as_parts, assemble
from dicetable.engine.testing import random_step

def page_and_board_css(package: str) -> str:
    """The page's stylesheet followed by game ``package``'s board stylesheet (``static/board.css``), as the
    table page links them: for a board drawn alone in a browser test."""
    import dicetable.web

    page = (Path(dicetable.web.__file__).parent / "static" / "dicetable.css").read_text(encoding="utf-8")
    return page + resources.files(package).joinpath("static", "board.css").read_text(encoding="utf-8")


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def sampled_states(game: str, players: int, seed: int, options: dict | None = None, samples: int = 6):
    """States met along one seeded random game: ``samples`` spread over it, plus the final one."""
    state = new_game(game, players, seed=seed, options=options or {})
    rng = Rng(seed)
    probe = state.clone()
    length = 0
    while not probe.is_over:
        random_step(probe, rng)
        length += 1
    stops = {length * k // samples for k in range(samples)}
    rng = Rng(seed)
    out = []
    for step in range(length + 1):
        if step in stops or step == length:
            out.append(state.clone())
        if step < length:
            random_step(state, rng)
    return out


def text_lines(renderable, width: int) -> list[str]:
    """The plain lines a rich renderable prints at ``width`` columns."""
    console = Console(width=width, record=True, color_system=None, file=open("/dev/null", "w"))
    console.print(renderable)
    return console.export_text().splitlines()


def assert_text_fits(game: str, state, seat, focus=None) -> None:
    """text_view fits 120 columns in 26 lines and 80 columns in 12 lines."""
    spec = get_game(game)
    obs = state.observation(seat)
    for width, max_lines in ((120, 26), (80, 12)):
        lines = text_lines(spec.text_view(obs, seat, width=width, focus=focus), width)
        where = f"{game} {state.players}p seat={seat} focus={focus} width={width} history={len(state.history)}"
        assert len(lines) <= max_lines, f"{where}: {len(lines)} lines\n" + "\n".join(lines)
        assert max(len(line) for line in lines) <= width, f"{where}: too wide\n" + "\n".join(lines)
        assert not any("…" in line for line in lines), f"{where}: something was cut\n" + "\n".join(lines)


class BoardParser(HTMLParser):
    """Collects every element (tag, attributes, text) and checks that tags are balanced."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.elements: list[dict] = []
        self._open: list[dict] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": ""}
        self.elements.append(element)
        if tag in VOID:
            return
        self.stack.append(tag)
        # Text is collected only inside action elements (their accessible names); None elsewhere.
        self._open.append(element if "data-action" in element["attrs"] else None)

    def handle_startendtag(self, tag, attrs):
        self.elements.append({"tag": tag, "attrs": dict(attrs), "text": ""})

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
            return
        self.stack.pop()
        self._open.pop()

    def handle_data(self, data):
        self.text.append(data)
        for element in self._open:
            if element is not None:
                element["text"] += data


def parse_board(fragment: str) -> BoardParser:
    """Parse a board fragment; assert one root div of class board and balanced tags."""
    parser = BoardParser()
    parser.feed(fragment)
    parser.close()
    assert not parser.errors, parser.errors[:5]
    assert not parser.stack, f"unclosed tags: {parser.stack}"
    root = parser.elements[0]
    assert root["tag"] == "div" and "board" in root["attrs"].get("class", "").split(), root
    assert "<script" not in fragment.lower()
    return parser


def action_elements(parser: BoardParser) -> list[dict]:
    """The elements carrying ``data-action``, each asserted focusable and named."""
    out = []
    for el in parser.elements:
        if "data-action" not in el["attrs"]:
            continue
        attrs = el["attrs"]
        if el["tag"] == "button":
            assert "disabled" not in attrs, el
            name = (attrs.get("aria-label") or el["text"]).strip()
        else:
            assert attrs.get("role") == "button", el
            assert attrs.get("tabindex") == "0", el
            name = (attrs.get("aria-label") or "").strip()
        assert name, f"data-action element without an accessible name: {el}"
        out.append(el)
    return out


def placed_ids(fragment: str) -> set[str]:
    """The ``data-action`` values of a fragment, by a quick scan (the full checks are in check_board)."""
    return {html.unescape(v) for v in re.findall(r'data-action="([^"]*)"', fragment)}


def parts_for(game: str, state, seat):
    """(board parts ``{part id: html}``, legal action ids) for ``seat``: the actions it would be offered."""
    spec = get_game(game)
    acting = seat is not None and seat in state.to_move
    actions = [{"id": a.id, "label": a.label} for a in state.legal_actions(seat)] if acting else []
    return as_parts(spec.board_view(state.observation(seat), actions, seat)), [a["id"] for a in actions]


def board_for(game: str, state, seat):
    """(assembled board fragment, legal action ids) for ``seat``: the board as the page shows it."""
    parts, legal = parts_for(game, state, seat)
    return assemble(parts), legal


def check_board(game: str, state, seat) -> set[str]:
    """Assert the board contract for ``seat`` and return the action ids placed on pieces."""
    fragment, legal = board_for(game, state, seat)
    parser = parse_board(fragment)
    placed = {el["attrs"]["data-action"] for el in action_elements(parser)}
    assert placed <= set(legal), f"board offers actions that are not legal: {placed - set(legal)}"
    if seat is None:
        assert not placed, "a spectator's board must not offer actions"
    labels = {a.id: a.label for a in (state.legal_actions(seat) if legal else [])}
    for el in action_elements(parser):
        aid = el["attrs"]["data-action"]
        name = (el["attrs"].get("aria-label") or el["text"]).strip()
        assert name == labels[aid], f"{aid}: accessible name {name!r} is not the action's label {labels[aid]!r}"
    # Determinism and dependence on the observation only.
    assert board_for(game, state, seat)[0] == fragment
    # A spectator sees less than any seat, so resampling what seat 0 cannot see keeps its view too.
    other = state.determinize(seat if seat is not None else 0, 12345)
    assert other.observation(seat) == state.observation(seat)
    assert board_for(game, other, seat)[0] == fragment, "the board shows something the seat cannot see"
    spec = get_game(game)
    for width in (120, 80):
        a = text_lines(spec.text_view(state.observation(seat), seat, width=width), width)
        b = text_lines(spec.text_view(other.observation(seat), seat, width=width), width)
        assert a == b, "the terminal view shows something the seat cannot see"
    return placed


def kinds_met(game: str, players: int, seeds, options: dict | None = None) -> set[str]:
    """Every Decision kind met by the seats to move along seeded random games."""
    kinds = set()
    for seed in seeds:
        state = new_game(game, players, seed=seed, options=options or {})
        rng = Rng(seed)
        while not state.is_over:
            for seat in state.to_move:
                kinds.add(state.decision(seat).kind)
            random_step(state, rng)
    return kinds
