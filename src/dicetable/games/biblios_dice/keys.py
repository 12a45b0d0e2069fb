"""Board element keys (``data-key``) of Biblios Dice, shared by the board and the rules' effects.

Effects (:mod:`dicetable.engine.effects`) name board elements by these keys,
so the browser can animate them (docs/web.md, "Live updates"). Every key is
fixed by public facts only (a track, a space, a seat), never by a hidden one.

- ``<track>-<space>``: a space of a track (``ink-5``, ``bishop-3``);
- ``mk-<track>-<marker>``: a marker (``mk-ink-2``; Cadfael's ``mk-ink-cf``);
- ``value-<resource>``: the number of a Value Die (a counter);
- ``vps-<resource>-<k>``: VP stack ``k`` (0 the lower) of a Resource Track;
- ``tokens-<space>``: the number of Bishop Tokens left on that Bishop Track space (a counter);
- ``mule`` and ``mule-<n>`` (1-based): the Mule and the spaces of its path;
- ``dice``: the dice pool (each die in it has ``data-die``, see :func:`die_face`);
  ``small-group``, ``group-large``, ``group-small``: the market's groups;
- ``p-<s>``: a player's panel; ``p-<s>-shield`` what stands for its shield on every board;
  ``p-<s>-gold``, ``p-<s>-vp`` its Gold and VP tokens (counters, on the boards that show them);
  ``p-<s>-places`` the public places score (a counter); ``p-<s>-bid`` its bid;
  ``cadfael``: Cadfael's panel; ``monastery``: the Monastery Card; ``round``: the round (a counter).
"""

from __future__ import annotations

from typing import Any, Mapping

from .components import SYMBOLS

#: A marker as observations show it: a seat, or ``"cadfael"`` (the same as :data:`.rules.common.Marker`).
MarkerId = int | str


def marker_key(track: str, m: MarkerId) -> str:
    """The key of marker ``m`` (a seat or ``"cadfael"``) on ``track`` (a symbol id)."""
    return f"mk-{track}-{'cf' if m == 'cadfael' else m}"


def panel_key(m: MarkerId) -> str:
    """The key of the panel of marker ``m``'s owner: ``p-<seat>`` or ``cadfael``."""
    return "cadfael" if m == "cadfael" else f"p-{m}"


def places_key(m: MarkerId) -> str:
    """The key of the public places counter of marker ``m``'s owner."""
    return "cf-places" if m == "cadfael" else f"p-{m}-places"


def die_face(kind: str, face: int | str | None) -> str | int:
    """What a die of ``kind`` shows, as ``data-die`` and a ``roll`` effect's faces give it: a Resource
    or Bishop die its symbol id, the Gold, Adjustment and Mule Dice their face."""
    return kind if face is None else face


def dice_faces(dice: Mapping[str, Any], mule: int | None = None) -> list[str | int]:
    """The faces of a dice set in observation shape (``{"ink": 2, "gold": 3, "adjustment": "+1"}``),
    in the board's order: Resource and Bishop dice by symbol, the Gold Die, the Adjustment Die, then the
    Mule Die's ``mule`` when given."""
    faces: list[str | int] = [s for s in SYMBOLS for _ in range(dice.get(s, 0))]
    faces += [dice[k] for k in ("gold", "adjustment") if dice.get(k) is not None]
    return faces + ([mule] if mule is not None else [])


__all__ = ["MarkerId", "marker_key", "panel_key", "places_key", "die_face", "dice_faces"]
