"""Rules help and component reference of a game, loaded from ``data/help.toml``.

Every front end (terminal ``rules``, the browser's rules panel and tooltips)
reads the same data, so a rule is explained in one place, in our own words,
naming the rulebook section it comes from.

File shape (TOML)::

    score = "..."                       # optional: what the score beside each player counts

    [[section]]
    id = "rolling"                      # stable id
    title = "Rolling the Dice"          # the rulebook section's own heading
    source = "rulebook: Rolling the Dice"
    decisions = ["set-aside"]           # Decision.kind values this section explains
    players = [1]                       # optional "applies when": only at these player counts
    options = { sheets = ["winter"] }   # optional "applies when": only with one of these option values
    text = "..."                        # our words; plain text, paragraphs split by blank lines

    [[component]]
    id = "whirlpool"
    name = "Whirlpool"                  # the rulebook's name of the piece
    source = "rulebook: Hazards"
    text = "..."                        # what it is and what it does
    players = [1]                       # optional, as for sections

A table shows only what applies to it (:meth:`GameHelp.for_table`): a
two-player Kingdom of Dice has no Solo Mode section. The help speaks of the
game only, never of a front end's controls ("type", "click"): each front
end adds its own words for those.
"""

from __future__ import annotations

from importlib import resources
from typing import Any, Mapping

from pydantic import BaseModel, ConfigDict, field_validator

from .data import Sourced, load_data


class AppliesWhen(Sourced):
    """The "applies when" of a help item: ``players`` (the player counts it applies at; empty: all) and
    ``options`` (``{option name: [values]}``: it applies only when each named option has one of its values)."""

    players: tuple[int, ...] = ()
    options: dict[str, tuple[Any, ...]] = {}

    def applies(self, players: int, options: Mapping[str, Any]) -> bool:
        """True when this item applies to a table of ``players`` with ``options`` (resolved options; an
        option the table does not have never matches)."""
        if self.players and players not in self.players:
            return False
        return all(name in options and options[name] in values for name, values in self.options.items())


class HelpSection(AppliesWhen):
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


class ComponentInfo(AppliesWhen):
    """One kind of piece (a hazard, a card, a track space): its rulebook name and what it does."""

    id: str
    name: str
    text: str


class GameHelp(BaseModel):
    """A game's rules help: sections (in rulebook order), its component reference and ``score``, what the
    score shown beside each player during the game counts (when a newcomer could misread it)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    score: str = ""
    section: tuple[HelpSection, ...] = ()
    component: tuple[ComponentInfo, ...] = ()

    def for_decision(self, kind: str) -> list[HelpSection]:
        """The sections that explain a decision of ``kind`` ([] when none does)."""
        return [s for s in self.section if kind in s.decisions]

    def for_table(self, players: int, options: Mapping[str, Any]) -> "GameHelp":
        """The sections and components that apply to a table of ``players`` with ``options`` (see
        :class:`AppliesWhen`), in the same order."""
        return GameHelp(score=self.score, section=tuple(s for s in self.section if s.applies(players, options)),
                        component=tuple(c for c in self.component if c.applies(players, options)))

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
