"""Observation patches of the live wire (LIVE.md section 4): ``diff`` two JSON values, ``apply_patch`` one.

A patch is a list of operations, applied in order:

* ``["s", path, value]``: set the value at ``path`` (a new key of an
  object, an index of a list that exists, or the whole document when the
  path is empty);
* ``["d", path]``: delete the key at ``path`` (objects only);
* ``["a", path, [items]]``: append ``items`` to the list at ``path``.

``path`` is a list of object keys (strings) and list indexes (ints) from the
document's root. ``diff(a, b)`` gives a patch that turns ``a`` into ``b``.
:func:`apply_patch` is the reference the page's JavaScript follows.

Values are compared as Python compares them, with one refinement: a value
whose type changed is set even when it compares equal (``1`` to ``1.0`` or
``true``) if it is compared on its own, that is if its object or list
changed in some other way too. A document in which the only change turns a
number into an equal number or boolean is taken as unchanged: telling those
apart everywhere would cost two JSON encodings of every unchanged subtree
(most of an observation, per viewer and version). The games' observations
keep each field's type, and a client's next full view (connect, resync) is
exact in any case.
"""

from __future__ import annotations

from operator import is_
from typing import Any

import orjson

#: One patch operation: ``["s", path, value]``, ``["d", path]`` or ``["a", path, items]``.
Op = list


def same(a: Any, b: Any) -> bool:
    """True when ``a`` and ``b`` are equal (``==``) and of one type (``1`` is not ``true`` nor ``1.0``);
    the items of equal objects and lists are not compared by type (see the module)."""
    return a is b or (type(a) is type(b) and a == b)


def diff(a: Any, b: Any) -> list[Op]:
    """The patch that turns JSON value ``a`` into ``b`` (``apply_patch(a, diff(a, b)) == b``; see the module
    for the one case of types it does not tell apart).

    Objects are compared key by key; a list that did not shrink is compared
    item by item, with one append for its new items; a list that shrank is
    set whole (there is no operation to cut a list). Neither argument is
    changed; values in the patch may be shared with ``b``.
    """
    ops: list[Op] = []
    _diff(a, b, [], ops)
    return ops


def _diff(a: Any, b: Any, path: list, ops: list[Op]) -> None:
    if same(a, b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key, value in b.items():
            if key not in a:
                ops.append(["s", path + [key], value])
            else:
                _diff(a[key], value, path + [key], ops)
        for key in a:
            if key not in b:
                ops.append(["d", path + [key]])
        return
    if isinstance(a, list) and isinstance(b, list) and len(b) >= len(a):
        for i, (x, y) in enumerate(zip(a, b)):
            _diff(x, y, path + [i], ops)
        if len(b) > len(a):
            ops.append(["a", path, b[len(a):]])
        return
    ops.append(["s", path, b])


#: Characters of JSON above which :func:`entry_texts` looks for the first viewer's objects in a new list or dict
#: before writing its text (writing a small value is quicker than looking).
_LARGE = 1024


def same_items(a: Any, b: Any) -> bool:
    """True when ``a`` and ``b`` are lists of the same objects, or dicts with the same keys in the same
    order holding the same objects: then their JSON texts are the same. A game's observations of one
    version often share their entries' objects (Dice Kingdoms' sheet views) in a list or dict made for
    each viewer."""
    if type(a) is list and type(b) is list:
        return len(a) == len(b) and all(map(is_, a, b))
    if type(a) is dict and type(b) is dict:
        return len(a) == len(b) and all(map(is_, a, b)) and all(map(is_, a.values(), b.values()))
    return False


#: orjson's bytes keep the 4 KiB block orjson wrote them in, whatever their length; their ``decode()``
#: is a str of its own size (and quicker to make than the block is to keep: docs/load.md, "The
#: viewers' snapshots, lighter").
_dumps = orjson.dumps
_loads = orjson.loads
_NON_STR_KEYS = orjson.OPT_NON_STR_KEYS


def entry_texts(seen: dict | None, a: dict[str, str] | None, b: dict) -> tuple[list[Op], dict[str, str]]:
    """An observation ``b`` as its entries' JSON texts, and the patch from ``a`` (the same viewer's
    previous observation, held the same way; None: no patch is wanted, a first view). Returns
    ``(patch, texts)``: ``texts`` maps each key of ``b`` to the exact text the wire sends for its
    value (``jsonio.dumps``), and ``patch`` is :func:`diff` of the two observations as a client holds
    them (decoded from JSON).

    A snapshot keeps its observation so (strings are not tracked by the cyclic collector; a dict of them
    is not either), instead of the nested lists and dicts a game builds (docs/load.md, "The viewers'
    snapshots, lighter"). An entry whose text did not change keeps ``a``'s object. Only an entry whose
    text changed is compared: its old text decoded, with its new value. A game's observation holds JSON
    values only (str keys, lists, dicts, str, int, float, bool, None: ``tests/server/test_snapshot_texts.py``
    checks every title), which decode to what they were, so the patch is ``diff(old, new)`` to the
    byte, the module's one case of types included (a document whose only changes turn values into
    equal ones of another type is taken as unchanged). (A tuple would be set whole where the list it
    decodes to was; a key that is not a string would not be found in its decoded object: the engine's
    observations have neither.)

    ``seen`` (None: nothing shared) is what the other viewers of this revision found, filled here: per
    key ``[the first viewer's value, its text, that viewer's old text, its operations, whether its old
    and new values are equal]``. A value that is the first viewer's very object is not written again,
    nor is a large one (over ``_LARGE`` characters of text) that is a new list or dict of the first
    viewer's objects (:func:`same_items`); an equal text is replaced by the first viewer's object (one
    copy in memory), and when the old text was the first viewer's object too its operations are
    reused. Raises ``orjson.JSONEncodeError`` for a value JSON cannot hold.
    """
    ops: list[Op] = []
    out: dict[str, str] = {}
    equal = True  # every changed text an equal value (1 to 1.0 or true): the document is taken as unchanged
    get_seen = seen.get if seen is not None else None
    was_of = a.get if a is not None else None
    for key, value in b.items():
        first = get_seen(key) if get_seen is not None else None
        if first is not None and (first[0] is value or (len(first[1]) > _LARGE and same_items(first[0], value))):
            text = first[1]
        else:
            text = _dumps(value, option=_NON_STR_KEYS).decode()  # a str of its own size (see _dumps)
            if first is not None and first[1] == text:
                text = first[1]
        was = was_of(key) if was_of is not None else None
        if was is not None and was is not text and was == text:
            text = was  # unchanged: keep the previous snapshot's object
        if first is None and seen is not None:
            first = seen[key] = [value, text, None, None, True]
        out[key] = text
        if was_of is None or was is text:
            continue
        if was is None:
            ops.append(["s", [key], value])
            equal = False
            continue
        if first is not None and first[1] is text and first[2] is was:
            ops.extend(first[3])
            equal = equal and first[4]
            continue
        own: list[Op] = []
        old = _loads(was)
        _diff(old, value, [key], own)
        alike = not own or (type(old) is not type(value) and old == value)  # same type, ops: not equal
        if first is not None and first[1] is text and first[2] is None:
            first[2], first[3], first[4] = was, own, alike
        ops.extend(own)
        equal = equal and alike
    if a is not None and (len(a) > len(out) or a.keys() != out.keys()):
        ops.extend(["d", [key]] for key in a if key not in out)
        equal = False
    return ([] if ops and equal else ops), out


def decoded(texts: dict[str, str]) -> dict:
    """The observation held as its entries' texts (:func:`entry_texts`) as the values a client decodes."""
    return {key: _loads(text) for key, text in texts.items()}


def fragments(texts: dict[str, str]) -> dict:
    """The observation held as its entries' texts, for orjson to write as they are (``orjson.Fragment``)."""
    return {key: orjson.Fragment(text) for key, text in texts.items()}


class PatchError(ValueError):
    """A patch that does not fit the document: names the operation and what was wrong."""


def apply_patch(doc: Any, ops: list[Op]) -> Any:
    """Apply ``ops`` to ``doc`` in place where possible; return the new document (a new one when the
    root is set). Raises :class:`PatchError` for an unknown operation or a path that does not exist."""
    for n, op in enumerate(ops):
        if not isinstance(op, list) or not op or op[0] not in ("s", "d", "a") or not isinstance(op[1], list):
            raise PatchError(f"operation {n} ({op!r}) is not ['s', path, value], ['d', path] or ['a', path, items]")
        kind, path = op[0], op[1]
        if kind == "s" and not path:
            doc = op[2]
            continue
        if kind == "d" and not path:
            raise PatchError(f"operation {n} deletes the whole document; 'd' needs the path of a key")
        try:
            if kind == "a":
                node = doc
                for key in path:
                    node = node[key]
                if not isinstance(node, list):
                    raise PatchError(f"operation {n} appends to {path!r}, which is not a list")
                node.extend(op[2])
                continue
            node = doc
            for key in path[:-1]:
                node = node[key]
            last = path[-1]
            if kind == "s":
                if isinstance(node, list) and not (isinstance(last, int) and 0 <= last < len(node)):
                    raise PatchError(f"operation {n} sets item {last!r} of a list of {len(node)} at {path[:-1]!r}")
                node[last] = op[2]
            else:
                if not isinstance(node, dict):
                    raise PatchError(f"operation {n} deletes {last!r} from something that is not an object")
                del node[last]
        except (KeyError, IndexError, TypeError) as exc:
            raise PatchError(f"operation {n}: the path {path!r} is not in the document ({type(exc).__name__})") from None
    return doc
