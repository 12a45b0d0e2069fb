"""Markup shared by the five games' board views: escaping, dice, keyed parts.

The board views live in the game packages, next to the rules they draw
(docs/web.md), and a game package imports only the engine; so the few
drawing helpers every board needs live here rather than in ``dicetable.web``.

Keyed parts (docs/web.md, "Live updates"): a board view returns
``{part id: inner HTML}``. The part ``"board"`` is the root; any part may
hold the slot of another, an empty element made by :func:`slot`, which the
page (and :func:`assemble`) fills with that part's HTML. The server sends a
connection only the parts whose HTML changed since what it has, so a board
should cut itself into parts that change independently (one player panel,
one track, the dice), each small.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import re
from html import escape
from typing import Any, Callable, Mapping, Sequence, TypeVar

import orjson
from mypy_extensions import mypyc_attr

_T = TypeVar("_T")

#: The root part of every board.
ROOT = "board"

#: The part holding a board's key to its symbols (:func:`legend`); it never changes, so it is sent once.
LEGEND = "legend"

#: Pip centres of a six-sided die's faces 1..6 on a 3x3 grid, as offsets (-1, 0 or 1) from the centre.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}

#: A drawing coordinate or length: an int stays an int in the markup (``x="8"``), a float a float. If the
#: boards are compiled (mypyc), a parameter typed ``float`` turns an int into a float: ``x="8.0"``.
Coord = int | float

_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,79}")


def attr(value: object) -> str:
    """``value`` as text escaped for a double-quoted HTML attribute (``&``, ``<``, ``>``, both quotes)."""
    return escape(str(value), quote=True)


def text(value: object) -> str:
    """``value`` as text escaped for element content (``&``, ``<``, ``>``)."""
    return escape(str(value), quote=False)


def check_key(key: str) -> str:
    """Return ``key`` if it may name a part or a board element (``data-key``): 1-80 characters of
    letters, digits and ``_.:-``, starting with a letter or digit. Raises ValueError otherwise."""
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise ValueError(f"{key!r} is not a part or element key: use 1-80 letters, digits, '_', '.', ':' or '-'")
    return key


def slot(key: str, tag: str = "div", cls: str = "", extra: str = "") -> str:
    """The empty element where part ``key`` goes: ``<tag data-part="key" class="cls" extra></tag>``.

    ``tag`` is ``div``, ``span``, ``section`` or, inside an SVG, ``g``; ``extra``
    is further attribute markup (already escaped). The element itself stays
    when the part changes (only its content is replaced), so put what
    changes (classes, titles) inside the part. Raises ValueError for a bad key.
    """
    check_key(key)
    classes = f' class="{attr(cls)}"' if cls else ""
    more = f" {extra}" if extra else ""
    return f'<{tag} data-part="{key}"{classes}{more}></{tag}>'


_SLOT = re.compile(r'<(\w+) data-part="([^"]+)"([^>]*)></\1>')


def assemble(parts: Mapping[str, str], root: str = ROOT) -> str:
    """The whole board HTML: part ``root`` with every slot filled, recursively, from ``parts``.

    A slot whose part is missing stays empty. Raises ValueError when
    ``root`` is not in ``parts`` or when a part holds its own slot (directly
    or through others), which would never end.
    """
    if root not in parts:
        raise ValueError(f"the board has no root part {root!r}; parts: {', '.join(sorted(parts)) or 'none'}")
    return _filled(parts, root, ())


def _filled(parts: Mapping[str, str], key: str, seen: tuple[str, ...]) -> str:
    """Part ``key`` with its slots filled from ``parts``; ``seen``: the parts it lies in (ValueError when
    it is one of them). A function of the module, not a closure over itself: a self-referring closure
    is a reference cycle, left for the garbage collector at every board assembled."""
    if key in seen:
        raise ValueError(f"part {key!r} holds its own slot (through {' > '.join(seen)})")
    inside = seen + (key,)

    def one(m: re.Match[str]) -> str:
        tag, child, rest = m.group(1), m.group(2), m.group(3)
        inner = _filled(parts, child, inside) if child in parts else ""
        return f'<{tag} data-part="{child}"{rest}>{inner}</{tag}>'

    return _SLOT.sub(one, parts[key])


#: A memo key's JSON text: ``orjson.dumps`` of plain data, TypeError for anything else. No option: a
#: dict key that is not a string, an int beyond 64 bits, a set or bytes raise, and the memo then keys by
#: ``marshal`` (whose first byte, a type code, is never the ``[`` a JSON key starts with).
_json_key: Callable[[Any], bytes] = orjson.dumps

# if compiled (mypyc; docs/load.md, "The board views compiled"), a plain Python class: functools.update_wrapper
# sets attributes (__module__, __doc__, __wrapped__, ...) that a native class's instances have no room for
@mypyc_attr(native_class=False)
class Memo:
    """A drawing function memoised on the values of its arguments, for the parts every viewer of a table
    draws alike (``memo(draw)(*args)`` is ``draw(*args)``).

    The arguments are plain data, slices of an observation (dicts, lists,
    tuples, str, int, float, bool, None); their key is their JSON text
    (``orjson``: equal values of equal types in the same order give equal
    bytes, ``1``, ``1.0`` and ``True`` are told apart; a tuple and a list of
    the same items are one key, which the drawing functions read alike), or
    their ``marshal`` form (version 2) where JSON cannot hold them (a dict with
    keys that are not strings, a set); a 128-bit BLAKE2 digest of the key when
    it is longer than 64 bytes, so no hashable copy has to be built and a large
    observation is not kept. A key from JSON text costs 0.47-0.61 of one from
    ``marshal``'s form, digest included (docs/load.md, "The boards' memo
    keys"), and a server makes keys for every viewer after every move.
    Arguments neither can write are drawn every time.
    The memo holds at most ``size`` results and starts again empty when full;
    it is shared by every table in the process (a result must depend on the
    arguments only: no seat, no actions unless passed).
    """

    def __init__(self, draw: Callable[..., _T], size: int = 1024) -> None:
        self.draw = draw
        self.size = size
        self.got: dict[bytes, Any] = {}
        functools.update_wrapper(self, draw)

    def __call__(self, *args: Any) -> Any:
        """``draw(*args)``, from the memo when these values were drawn before."""
        try:
            key = _json_key(args)
        except TypeError:  # not JSON (orjson.JSONEncodeError is a TypeError): its marshal form
            try:
                key = marshal.dumps(args, 2)
            except ValueError:  # not plain data: draw it
                return self.draw(*args)
        if len(key) > 64:  # a whole observation: keep a digest of it, not the bytes
            key = hashlib.blake2b(key, digest_size=16).digest()
        got = self.got.get(key)
        if got is None:
            if len(self.got) >= self.size:
                self.got.clear()
            got = self.got[key] = self.draw(*args)
        return got


def memo(size: int = 1024) -> Callable[[Callable[..., _T]], Callable[..., _T]]:
    """Decorator: the function as a :class:`Memo` of at most ``size`` results."""
    def wrap(draw: Callable[..., _T]) -> Callable[..., _T]:
        return Memo(draw, size)
    return wrap


def as_parts(board: str | Mapping[str, str]) -> dict[str, str]:
    """A board view's answer as parts: a plain string is the single part ``"board"``."""
    if isinstance(board, str):
        return {ROOT: board}
    return dict(board)


def die_svg(face: int | None = None, symbol: str = "", size: int = 40, label: str = "") -> str:
    """A six-sided die as inline SVG, ``size`` user units square (the page scales it with CSS).

    ``face`` 1-6 draws that many pips; otherwise ``symbol`` (SVG markup
    drawn in a 40x40 box, already escaped) is drawn on the face. ``label``
    gives the picture an accessible name (role img); without one it is
    hidden from assistive technology, for a die whose button or span is
    named already. Raises ValueError for a face outside 1-6.
    """
    if face is not None and face not in PIPS:
        raise ValueError(f"a six-sided die shows 1 to 6, not {face!r}")
    body = '<rect x="1.5" y="1.5" width="37" height="37" rx="7"/>'
    if face is not None:
        body += "".join(f'<circle cx="{20 + dx * 10}" cy="{20 + dy * 10}" r="3.6"/>' for dx, dy in PIPS[face])
    else:
        body += symbol
    named = (f' role="img" aria-label="{attr(label)}"><title>{text(label)}</title>' if label
             else ' aria-hidden="true" focusable="false">')
    return f'<svg viewBox="0 0 40 40" width="{size}" height="{size}"{named}{body}</svg>'


def legend(entries: Sequence[tuple[str, str]], title: str = "Key to the symbols") -> str:
    """A board's key to its symbols, folded until opened: ``<details class="board-legend">``.

    ``entries`` are ``(symbol, meaning)`` pairs in reading order: ``symbol``
    is markup already escaped (a glyph, or a small inline SVG drawn with the
    board's own classes so it looks exactly like the piece), ``meaning`` is
    plain text in the rulebook's words (escaped here). A board puts the
    result in its part :data:`LEGEND` and :func:`slot` ``LEGEND`` in its
    root: the key never changes, so the server sends it once per connection.
    Raises ValueError when there is no entry.
    """
    if not entries:
        raise ValueError("a legend needs at least one (symbol, meaning) entry")
    rows = "".join(f'<div class="lg-row"><dt class="lg-sym">{symbol}</dt>'
                   f'<dd>{text(meaning)}</dd></div>' for symbol, meaning in entries)
    return (f'<details class="board-legend"><summary>{text(title)}</summary>'
            f'<dl class="lg-list">{rows}</dl></details>')
