"""Kingdom of Dice components, loaded from ``data/components.toml`` and validated.

The model checks the counts the rulebook fixes (21 Influence cards: 18 drawn
six per round over three rounds plus the Chancellor, Queen and King; six
dice; five markers per player) and that every Cat level sits on the board.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from dicetable.engine import Die, Sourced, load_data


class DiceData(Sourced):
    """The Kingdom Dice: how many and their faces."""

    count: int = Field(gt=0)
    faces: list[int | str]


class MarkerData(Sourced):
    """Crown markers per player and the colour names shown for seats."""

    per_player: int = Field(gt=0)
    colours: list[str]


class BoardData(Sourced):
    """The board's result spaces, lowest first; ``castle_end`` is the highest."""

    spaces: list[int]
    castle_end: int


class RoundData(Sourced):
    """Round structure: rounds, regular cards drawn per round, markers that end a round."""

    rounds: int
    cards_drawn: int
    markers_to_end: int


class CardData(Sourced):
    """One Influence card; ``special_round`` is set for the Chancellor, Queen and King."""

    id: str
    name: str
    value: int = Field(gt=0)
    special_round: int | None = None


class CatLevel(Sourced):
    """A Mischievous Cat difficulty level: the spaces its markers occupy."""

    level: int
    spaces: list[int]


class Components(Sourced):
    """All Kingdom of Dice component data (validated on load)."""

    source: str = "file: data/components.toml"
    dice: DiceData
    markers: MarkerData
    board: BoardData
    round: RoundData
    cards: list[CardData]
    cat_levels: list[CatLevel]

    @model_validator(mode="after")
    def _check_counts(self) -> "Components":
        spaces = self.board.spaces
        if spaces != sorted(set(spaces)):
            raise ValueError("board spaces must be distinct and listed lowest first")
        if self.board.castle_end != spaces[-1]:
            raise ValueError("castle_end must be the highest board space")
        if len(self.cards) != 21:
            raise ValueError(f"the rulebook lists 21 Influence cards, data has {len(self.cards)}")
        if len({c.id for c in self.cards}) != len(self.cards):
            raise ValueError("Influence card ids must be unique")
        special = sorted(c.special_round for c in self.cards if c.special_round is not None)
        if special != list(range(1, self.round.rounds + 1)):
            raise ValueError("one special card (Chancellor, Queen, King) per round is required")
        regular = [c for c in self.cards if c.special_round is None]
        if len(regular) != self.round.cards_drawn * self.round.rounds:
            raise ValueError("regular cards must be used up exactly: cards_drawn x rounds")
        if sorted(set(self.dice.faces), key=str) != sorted(self.dice.faces, key=str):
            raise ValueError("die faces must be distinct")
        if self.markers.per_player * len(self.markers.colours) != 20:
            raise ValueError("the rulebook has 20 Crown markers (5 in each of 4 colours)")
        for lvl in self.cat_levels:
            if any(s not in spaces for s in lvl.spaces) or len(set(lvl.spaces)) != len(lvl.spaces):
                raise ValueError(f"Cat level {lvl.level} must use distinct board spaces")
        levels = [lvl.level for lvl in self.cat_levels]
        if levels != list(range(1, len(levels) + 1)):
            raise ValueError("Cat levels must be numbered 1, 2, 3... in order")
        return self


COMPONENTS = load_data(__package__, "components.toml", Components)

CROWN = "crown"
#: The die, faces in the order used for counts: index 0 is the crown, 1..5 the numbers.
KINGDOM_DIE = Die("Kingdom die", tuple(COMPONENTS.dice.faces))
FACE_ORDER = (CROWN, 1, 2, 3, 4, 5)
FACE_INDEX = {face: i for i, face in enumerate(FACE_ORDER)}
if set(FACE_ORDER) != set(KINGDOM_DIE.faces):
    raise ValueError("the rules expect the faces 1-5 and a crown")

CARDS = COMPONENTS.cards
CARD_VALUE = tuple(c.value for c in CARDS)
CARD_NAME = tuple(c.name for c in CARDS)
CARD_INDEX = {c.id: i for i, c in enumerate(CARDS)}
REGULAR_CARDS = tuple(i for i, c in enumerate(CARDS) if c.special_round is None)
SPECIAL_BY_ROUND = {c.special_round: i for i, c in enumerate(CARDS) if c.special_round is not None}
CAT_LEVELS = {lvl.level: tuple(lvl.spaces) for lvl in COMPONENTS.cat_levels}
SPACES = tuple(COMPONENTS.board.spaces)
TOP_SPACE = SPACES[-1]
