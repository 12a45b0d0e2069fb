"""Declared state fields: one line per field, from which clone, save and restore are made.

A game declares each field twice, side by side: as an annotated attribute of its
state class (its type, for the type checker and for mypyc, which makes the class a
native one whose attributes are C struct slots) and, in the class's ``OWN_FIELDS``
table, how it is copied and saved::

    class MyGame(FlowState):
        round_no: int                  # the round, 1..
        board: list[int]               # owner of each space
        hands: list[list[int]]         # each seat's cards

        OWN_FIELDS: ClassVar[tuple[Field[Any], ...]] = declare(
            round_no=Field(int, save="round"),      # an int, saved as "round"
            board=Field(int_list, copy=LIST),       # a flat list, copied with .copy()
            hands=Field(int_rows, copy=ROWS),       # a list of flat lists, copied row by row
        )

:meth:`GameState.__init_subclass__ <dicetable.engine.state.GameState>` reads the table
when the class is created: it checks the declaration (every entry names an annotated
attribute, every public annotated attribute has an entry, no two save keys alike), adds
the bases' fields (``FIELDS``: every field, its bases' first) and builds from them the
plans that the base class's ``_copy_into`` (``clone``), ``_dump`` (``to_dict()["state"]``)
and ``_restore`` (``load_state``) follow. No code is generated; a title on a hot clone
path may write its own ``_copy_into`` (``tests/engine/test_flow.py`` checks every title's
clone copies every declared field).

How a field is copied (``copy``):

``VALUE``  the object is shared: ints, strings, tuples, None (never mutated in place);
``LIST``   ``value.copy()``: a flat list, dict or set of immutable items;
``ROWS``   ``[row.copy() for row in value]`` (None stays None): a list of flat lists.

``decode`` turns the saved value back (and checks its type: ``int`` raises on a
string); ``encode`` turns the value into JSON-able data (default: lists for
lists and tuples, the value itself otherwise). A field that is not saved at
all (a cache rebuilt on restore) is declared with ``save=False`` and must be
rebuilt by the game's ``_after_restore`` hook.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

T = TypeVar("T")

VALUE = "value"
LIST = "list"
ROWS = "rows"
_COPIES = (VALUE, LIST, ROWS)
COPY_CODE = {VALUE: 0, LIST: 1, ROWS: 2}
"""``copy`` as the small int the copy plan holds (``GameState._COPY_PLAN``)."""


class Field(Generic[T]):
    """One declared field of a game state (see the module docstring).

    ``decode`` (a callable: saved JSON value -> field value, raising
    ValueError/TypeError on a wrong one; default: the value as saved), ``copy`` (``VALUE``, ``LIST`` or
    ``ROWS``), ``save`` (the key in the save; default the attribute name;
    False: not saved), ``encode`` (field value -> JSON-able; default by
    ``copy``). Raises ValueError for an unknown ``copy``.
    """

    __slots__ = ("decode", "copy", "save", "encode", "name")
    decode: Callable[[Any], T]
    encode: Callable[[T], Any] | None

    def __init__(self, decode: Callable[[Any], T] | None = None, copy: str = VALUE,
                 save: str | bool | None = None, encode: Callable[[T], Any] | None = None) -> None:
        if copy not in _COPIES:
            raise ValueError(f"Field copy must be one of {_COPIES}, got {copy!r}")
        self.decode = decode if decode is not None else _same
        self.copy = copy
        self.save = save
        self.encode = encode
        self.name = ""

    @property
    def key(self) -> str | None:
        """The key of this field in a save, or None when it is not saved."""
        if self.save is False:
            return None
        return self.save if isinstance(self.save, str) else self.name

    def __repr__(self) -> str:
        return f"Field({self.name!r}, copy={self.copy!r}, save={self.key!r})"


def declare(**fields: Field[Any]) -> tuple[Field[Any], ...]:
    """The ``OWN_FIELDS`` table of a state class: each keyword names the attribute its Field describes.

    Returns the fields in the order given, each with its ``name`` set. Raises
    TypeError for a value that is not a :class:`Field` or a Field declared twice.
    """
    out: list[Field[Any]] = []
    for name, f in fields.items():
        if not isinstance(f, Field):
            raise TypeError(f"declare: {name} must be a Field, got {type(f).__name__}")
        if f.name and f.name != name:
            raise TypeError(f"declare: the Field given for {name} already describes {f.name}")
        f.name = name
        out.append(f)
    return tuple(out)


def default_encode(f: Field[Any]) -> Callable[[Any], Any]:
    """The function that turns ``f``'s value into JSON-able data: its ``encode``, or the default of its ``copy``."""
    if f.encode is not None:
        return f.encode
    return {VALUE: _json_default, LIST: _encode_list, ROWS: _encode_rows}[f.copy]


def collect_fields(cls: type) -> tuple[Field[Any], ...]:
    """Every field of ``cls``: the ``OWN_FIELDS`` of each class of its MRO, bases first.

    Raises TypeError when two fields are saved under the same key.
    """
    fields: tuple[Field[Any], ...] = ()
    for klass in reversed(cls.__mro__):  # every base's own fields, whatever the order of the bases
        fields += tuple(f for f in klass.__dict__.get("OWN_FIELDS", ()) if f not in fields)
    keys = [f.key for f in fields if f.key is not None]
    dup = {k for k in keys if keys.count(k) > 1}
    if dup:
        raise TypeError(f"{cls.__name__}: two fields are saved under the same key {sorted(dup)}")
    return fields


# ---------------------------------------------------------------- codecs for common shapes
def _same(value: Any) -> Any:
    """A saved value kept as it is (the default ``decode``)."""
    return value


def int_list(value: Any) -> list[int]:
    """A saved list of ints (each checked with ``int``)."""
    return [int(x) for x in value]


def int_tuple(value: Any) -> tuple[int, ...]:
    """A saved list of ints, as a tuple."""
    return tuple(int(x) for x in value)


def int_rows(value: Any) -> list[list[int]]:
    """A saved list of lists of ints."""
    return [[int(x) for x in row] for row in value]


def _encode_list(value: Any) -> Any:
    return list(value)


def _encode_rows(value: Any) -> Any:
    return None if value is None else [list(row) for row in value]


def _json_default(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value
