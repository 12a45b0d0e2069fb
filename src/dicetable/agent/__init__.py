"""Agents at server tables: a program takes a human seat and plays it over the HTTP contract.

Install with the ``agent`` extra (``pip install 'dicetable[agent]'``: httpx, websockets, numpy);
without it, starting an agent raises :class:`dicetable.extras.MissingExtra` saying so.

- :class:`Agent` — one seat (its token or invite link), its policy, the live loop;
- :class:`Decision` — what a policy gets: the research observation vector, the action mask, the view;
- :func:`random_policy` — uniform among the legal actions;
- :mod:`dicetable.agent.tournament` — a round robin between bots and agents, with ratings.

See docs/agents.md.
"""

from __future__ import annotations

from .client import Agent, AgentError, AgentTimeout, Decision, Encoder, IllegalMove, Policy, parse_link, random_policy

__all__ = ["Agent", "AgentError", "AgentTimeout", "Decision", "Encoder", "IllegalMove", "Policy", "parse_link",
           "random_policy"]
