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


_MISSING = object()


def exact(value: Any) -> bytes | None:
    """``value`` as the JSON text the wire sends (orjson, as ``jsonio.dumps`` writes it): equal bytes for
    two values mean the same text in every message (types, key order); None for a value JSON cannot hold."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return None


#: The types :func:`same_items` may find made of the same objects.
_CONTAINERS = (list, dict)
#: Bytes of JSON above which :func:`share_patch` looks for the same objects before writing a value's text
#: (writing a small value is quicker than looking).
_LARGE = 1024


def same_items(a: Any, b: Any) -> bool:
    """True when ``a`` and ``b`` are lists of the same objects, or dicts with the same keys in the same
    order holding the same objects: then their JSON texts are the same (:func:`exact` need not write
    them). A game's observations of one version often share their entries' objects (Dice Kingdoms'
    sheet views) in a list or dict made for each viewer."""
    if type(a) is list and type(b) is list:
        return len(a) == len(b) and all(map(is_, a, b))
    if type(a) is dict and type(b) is dict:
        return len(a) == len(b) and all(map(is_, a, b)) and all(map(is_, a.values(), b.values()))
    return False


def share_patch(seen: dict | None, a: Any, b: Any) -> tuple[list[Op], Any]:
    """``diff(a, b)`` for two observations of one viewer, sharing work with the other viewers of the same
    revision; returns ``(patch, b2)``, ``b2`` the same JSON as ``b`` (to keep in ``b``'s place).

    ``seen`` maps an entry of the top-level object to ``[a's value, b's value, its operations, b's value's
    exact form, whether to try same_items]`` of the first viewer diffed in this revision (filled here;
    None: share nothing, plain :func:`diff`). An entry whose new value is exactly the first viewer's
    (:func:`exact`: same values, types and key order; or a list or dict of the same objects,
    :func:`same_items`, tried for a large entry until it fails once in a revision) is taken as that viewer's object in
    ``b2``; when its old value was that viewer's object too (shared the revision before), its operations
    are reused instead of compared again. The patch is the one :func:`diff` gives.
    """
    if seen is None or type(a) is not dict or type(b) is not dict or a == b:
        return diff(a, b), b
    ops: list[Op] = []
    out = {}
    for key, value in b.items():
        was = a.get(key, _MISSING)
        first = seen.get(key)
        if first is not None and first[1] is not value and first[1] == value:  # equal: exactly so?
            known = first[3]
            if known is None:
                known = first[3] = exact(first[1]) or b""
                first[4] = type(value) in _CONTAINERS and len(known) > _LARGE
            if first[4] and same_items(first[1], value):  # a large text not written again
                value = first[1]
            else:
                first[4] = False  # not made of the first viewer's objects: do not look again this revision
                if known and known == exact(value):
                    value = first[1]
        out[key] = value
        if first is not None and first[1] is value and first[0] is was:
            ops.extend(first[2])
            continue
        own: list[Op] = []
        if was is _MISSING:
            own.append(["s", [key], value])
        else:
            _diff(was, value, [key], own)
        if first is None:
            seen[key] = [was, value, own, None, False]
        ops.extend(own)
    for key in a:
        if key not in b:
            ops.append(["d", [key]])
    return ops, out


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
