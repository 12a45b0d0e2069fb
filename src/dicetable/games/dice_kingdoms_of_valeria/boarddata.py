"""The Forest sheets' drawing positions for the browser board: ``data/board.json``, checked against the layout.

The pydantic models live apart from :mod:`.board`, which only reads
:data:`BOARD`, so that the board view can be compiled (docs/load.md, "The
board views compiled") while this module is not: a method compiled by mypyc
carries no signature that pydantic's ``field_validator`` can read.
"""

from __future__ import annotations

from pydantic import field_validator

from dicetable.engine.data import Sourced, load_data

from .layout import LAYOUTS


class SeasonPositions(Sourced):
    """Drawing positions (x, y in the 520 x 430 Forest sheet) of one season's Forest nodes."""

    river_y: float = 0
    nodes: dict[str, tuple[float, float]]


class BoardData(Sourced):
    """``data/board.json``: the Forest sheets' node positions per season, checked against the layout."""

    width: int
    height: int
    seasons: dict[str, SeasonPositions]

    @field_validator("seasons")
    @classmethod
    def _every_node_placed(cls, seasons: dict) -> dict:
        for season, lay in LAYOUTS.items():
            if season not in seasons:
                raise ValueError(f"no positions for the {season} sheets")
            names = set(lay.road_a_name) | set(lay.road_b_name)
            missing = sorted(names - set(seasons[season].nodes))
            if missing:
                raise ValueError(f"{season}: no position for {', '.join(missing)}")
        return seasons


BOARD = load_data(__package__, "board.json", BoardData)
