"""Component data: pydantic models for data files, every item with its source.

A ``source`` is either a rulebook reference (``"rulebook: Setup"``), a public
page, or starts with ``"reconstructed:"`` where no public fact exists; the
latter are marked so an official value can replace them by editing data.
"""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from .errors import DicetableError

RECONSTRUCTED = "reconstructed:"


class Sourced(BaseModel):
    """Base of every data item: forbids unknown keys and requires a non-empty ``source``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str

    @field_validator("source")
    @classmethod
    def _source_given(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("every item needs a source (rulebook section, page, or 'reconstructed: why')")
        return value

    @property
    def reconstructed(self) -> bool:
        """True when no public source exists and the value was designed by us."""
        return self.source.startswith(RECONSTRUCTED)


class ComponentDataError(DicetableError):
    """A data file failed validation; the message names the file and the field."""


M = TypeVar("M", bound=BaseModel)


def load_data(package: str, filename: str, model: type[M]) -> M:
    """Load ``package/data/filename`` (TOML or JSON) and validate it with ``model``.

    Raises :class:`ComponentDataError` naming the file and each bad field.
    """
    text = resources.files(package).joinpath("data", filename).read_text(encoding="utf-8")
    raw = tomllib.loads(text) if filename.endswith(".toml") else json.loads(text)
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise ComponentDataError(f"{package}/data/{filename} is invalid:\n{exc}") from None
