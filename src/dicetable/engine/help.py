"""Rules help and component reference of a game, loaded from ``data/help.toml``.

Every front end (terminal ``rules``, the browser's rules panel and tooltips)
reads the same data, so a rule is explained in one place, in our own words,
naming the rulebook section it comes from.

File shape (TOML)::

    [[section]]
    id = "rolling"                      # stable id
    title = "Rolling the Dice"          # the rulebook section's own heading
    source = "rulebook: Rolling the Dice"
    decisions = ["set-aside"]           # Decision.kind values this section explains
    text = "..."                        # our words; plain text, paragraphs split by blank lines

    [[component]]
    id = "whirlpool"
    name = "Whirlpool"                  # the rulebook's name of the piece
    source = "rulebook: Hazards"
    text = "..."                        # what it is and what it does
"""

from __future__ import annotations

from importlib import resources

from pydantic import BaseModel, ConfigDict, field_validator

from .data import Sourced, load_data


class HelpSection(Sourced):
    """One rulebook section in our words; ``decisions`` are the Decision kinds it explains."""

    id: str
    title: str
    decisions: tuple[str, ...] = ()
    text: str

    @field_validator("text", "title", "id")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value


class ComponentInfo(Sourced):
    """One kind of piece (a hazard, a card, a track space): its rulebook name and what it does."""

    id: str
    name: str
    text: str


class GameHelp(BaseModel):
    """A game's rules help: sections (in rulebook order) and its component reference."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    section: tuple[HelpSection, ...] = ()
    component: tuple[ComponentInfo, ...] = ()

    def for_decision(self, kind: str) -> list[HelpSection]:
        """The sections that explain a decision of ``kind`` ([] when none does)."""
        return [s for s in self.section if kind in s.decisions]

    def component_info(self, key: str) -> ComponentInfo | None:
        """The component whose id or name is ``key`` (case-insensitive), or None."""
        key = key.strip().lower()
        for c in self.component:
            if c.id.lower() == key or c.name.lower() == key:
                return c
        return None


EMPTY_HELP = GameHelp()


def load_help(package: str) -> GameHelp:
    """``package/data/help.toml`` validated (ComponentDataError naming the bad field); empty when absent."""
    if not resources.files(package).joinpath("data", "help.toml").is_file():
        return EMPTY_HELP
    return load_data(package, "help.toml", GameHelp)
