"""PettingZoo AEC environments for every dicetable game.

Agents are ``player_0`` .. ``player_{n-1}`` (seat 0 is ``player_0``). Each observation is
``{"observation": float32 feature vector, "action_mask": int8 mask}`` from
:class:`~dicetable.rl.spaces.GameSpaces`; actions are indices into the game's action catalogue.
Turns follow the engine's ``to_move``; where several seats decide at once (a secret bid, a
simultaneous Harvest) they are asked one after another in seat order, and each sees only its
own observation, so nothing passes between them. Rewards come once, at the end, by final
placing (:func:`~dicetable.rl.spaces.placing_rewards`). ``render_mode="ansi"`` returns the
terminal view of the seat to move as text.

Each ``step`` that leaves the game going shows the next decision at once (the vector, legal
actions and mask of the seat it selects, and its observation dictionary, in one compiled call with
the move: :func:`dicetable.engine.batchstep.step_aec`; the vector a new zeroed array the fill writes,
the mask a copy of the array kept for that set of legal actions), and ``last()`` hands that
observation out: a loop of ``last()`` and ``step`` pays for one show a step. Every vector and mask
handed out is a new array that owns its memory (``base`` None): the caller's to keep or write over,
and keeping it keeps nothing else alive. ``agent_iter`` gives PettingZoo's agents from an iterator
compiled with the engine (:class:`dicetable.engine.batchstep.AgentIterable`).

Games are set up and moved the engine's quiet way, as :class:`~dicetable.rl.batch.BatchEnv` does:
the same game, but no event is built, so ``state_``'s log stays empty (no observation, mask,
reward or rendering reads the log). ``events=True`` sets up and makes every move with ``apply``
instead, which logs each event with its text.
"""

from __future__ import annotations

from typing import Any

from ._extra import require_rl

require_rl("numpy", "gymnasium", "pettingzoo")

import numpy as np
from gymnasium import spaces as gspaces
from pettingzoo import AECEnv

from dicetable.engine import GameState
from dicetable.engine.batchstep import AECShow, AgentIterable, Shown, show_aec, show_one, step_aec, step_offered
from dicetable.engine.encoding import shared_memo

from .spaces import GameSpaces, game_over, no_game, placing_rewards, started

_FLOAT32, _INT8 = np.dtype(np.float32), np.dtype(np.int8)


class DicetableAEC(AECEnv):
    """One dicetable game as a PettingZoo AEC environment (see the module docstring)."""

    # render_fps: Gymnasium's and PettingZoo's checkers warn when an environment with render modes
    # declares none; a text view has no frame rate of its own, 1 is what a reader of it can follow
    metadata = {"render_modes": ["ansi"], "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game_id: str, players: int, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, events: bool = False) -> None:
        super().__init__()
        self.events = events  # True: moves by apply, the log kept (see the module docstring)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not offered; allowed: None, 'ansi'")
        self.spaces = GameSpaces(game_id, players, options)
        self.metadata = dict(self.metadata, name=f"dicetable_{self.spaces.spec.id.replace('-', '_')}_v0")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._obs_space, self._act_space = self.spaces.gym_spaces()
        # the game's direct fill, called straight from observe (the agent's seat is always a seat)
        self._fill = self.spaces.encoding.direct
        # a zeroed vector copied for each observation (a copy costs less than np.zeros)
        self._zero_vector = np.zeros(self.spaces.observation_size, _FLOAT32)
        self._index = self.spaces.index
        # the masks of offered id sets, shared by every environment of this catalogue (batchstep.mark)
        self._masks = shared_memo("masks", self.spaces.catalogue)
        # for a title without a direct fill: each of those masks as an int8 array, copied for each
        # observation: id of mark's list of indices -> (that list, the array). The list is held, so
        # its id is not reused while the entry lives.
        self._mask_arrays: dict[int, tuple[list[int], np.ndarray]] = shared_memo("mask-arrays", self.spaces.catalogue)
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        # with a direct fill: what the compiled show (batchstep.show_aec) needs: the fill, index and
        # agents, a new vector (a copy of a zeroed one: cheaper than np.zeros) and the mask arrays of
        # offered id sets (offered ids -> (their catalogue indices, the array copied for each
        # observation), shared by every environment of this catalogue)
        self._show_parts: AECShow | None = None
        if self._fill is not None:
            self._show_parts = AECShow(self._fill, self._index, self.possible_agents, self._zero_vector.copy,
                                       self._mask_array, shared_memo("aec-masks", self.spaces.catalogue))
        self.state_: GameState | None = None  # None until the first reset()
        # (seat, legal Actions, their catalogue indices, the observation, the agent) of the last mask
        # (batchstep.Shown; without a direct fill the observation is None): step finds the chosen
        # Action there (the engine then needs no look-up by id)
        self._offered: Shown | None = None
        # the same, shown by the last step for the next acting seat, whose observation last() hands
        # out once; None once handed out, and after a reset
        self._shown: Shown | None = None

    # -- spaces
    def observation_space(self, agent: str) -> gspaces.Dict:
        """The Dict space of ``observation`` and ``action_mask`` (the same for every agent)."""
        return self._obs_space

    def action_space(self, agent: str) -> gspaces.Discrete:
        """Discrete over the game's action catalogue (the same for every agent)."""
        return self._act_space

    def agent_iter(self, max_iter: Any = 2**63) -> AgentIterable:
        """PettingZoo's ``agent_iter``: the selected agent while any agent is left, at most ``max_iter``
        times (the agents PettingZoo's iterator gives; this one is compiled with the engine)."""
        return AgentIterable(self, max_iter)

    # -- life cycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; a given ``seed`` reproduces it exactly (None: continue the seed stream)."""
        # quiet: no set-up event built either (the same game), unless events are wanted
        self.state_ = self.spaces.new_game(self.spaces.next_seed(seed), quiet=not self.events)
        self.agents: list[str] = list(self.possible_agents)
        self.rewards: dict[str, float] = {a: 0.0 for a in self.agents}
        self._cumulative_rewards: dict[str, float] = {a: 0.0 for a in self.agents}
        self.terminations: dict[str, bool] = {a: False for a in self.agents}
        self.truncations: dict[str, bool] = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._offered = None
        self._shown = None
        self._select()

    def _select(self) -> None:
        to_move = started(self.state_).to_move
        self.agent_selection = self.possible_agents[min(to_move)] if to_move else self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation and action mask (all zero unless it is to move).

        Before the first ``reset()`` raises ``gymnasium.error.ResetNeeded``.
        """
        state = self.state_
        if state is None:
            state = started(state)  # raises ResetNeeded
        try:
            seat = self._seat[agent]
        except (KeyError, TypeError):
            raise ValueError(f"{agent!r} is not an agent of this game: {', '.join(self.possible_agents)}") from None
        return self._show(state, seat)

    def _show(self, state: GameState, seat: int) -> dict[str, np.ndarray]:
        """``observe`` of a seat: the mask and the fill, the legal actions kept for ``step``."""
        parts = self._show_parts
        if parts is None:  # no direct fill
            offered = show_one(state, seat, None, None, None, self._index, self._masks)
            self._offered = (seat, offered[0], offered[1], None, self.possible_agents[seat])
            return {"observation": self.spaces.observe(state, seat), "action_mask": self._mask(offered[1])}
        # the legal actions and a new mask, then the fill through a memoryview of a new vector (as
        # GameSpaces.observe does), in one call compiled with the engine (dicetable.engine.batchstep)
        shown = self._offered = show_aec(state, seat, parts)
        return shown[3]

    def _mask_array(self, ks: list[int]) -> np.ndarray:
        """The int8 mask of catalogue indices ``ks``, made once per offered set (``show_aec`` keeps it
        and copies it for each observation)."""
        ones = bytearray(self.spaces.num_actions)  # item by item: cheaper than numpy's fancy indexing
        for k in ks:
            ones[k] = 1
        return np.frombuffer(ones, _INT8)  # only ever copied

    def _mask(self, ks: list[int]) -> np.ndarray:
        """A new int8 mask, 1 at the catalogue indices ``ks`` (the list ``batchstep.mark`` returned)."""
        known = self._mask_arrays.get(id(ks))
        if known is None or known[0] is not ks:
            ones = bytearray(self.spaces.num_actions)  # item by item: cheaper than numpy's fancy indexing
            for k in ks:
                ones[k] = 1
            whole = np.frombuffer(ones, _INT8)  # only ever copied
            if len(self._mask_arrays) > 4096:  # bound the memory of long runs
                self._mask_arrays.clear()
            known = self._mask_arrays[id(ks)] = (ks, whole)
        return known[1].copy()

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """(observation, cumulative reward, terminated, truncated, info) of the selected agent, as
        PettingZoo's ``last`` (written out here: it runs once per step of every training loop).

        The observation is the one ``step`` showed for the agent it selected, handed out once (a
        second call shows it afresh), or shown now. Before the first ``reset()`` raises
        ``gymnasium.error.ResetNeeded``, as ``step`` and ``observe`` do."""
        try:
            agent = self.agent_selection
        except AttributeError:  # no agent is selected before the first reset()
            raise no_game() from None
        try:
            terminated = self.terminations[agent]
        except KeyError:  # every agent is done and was removed
            raise game_over() from None
        observation = None
        if observe:
            shown = self._shown
            # what the last step showed, handed out once: it names the agent it selected (the same
            # string object; any other agent is shown afresh)
            if shown is not None and shown[4] is agent:
                self._shown = None
                observation = shown[3]
            else:
                # the selected agent is always an agent and the state is set (terminations exist):
                # observe's checks are not needed
                observation = self._show(self.state_, self._seat[agent])  # type: ignore[arg-type]
        return (observation, self._cumulative_rewards[agent], terminated, self.truncations[agent],
                self.infos[agent])

    def step(self, action: int | None) -> None:
        """Apply catalogue action ``action`` for the selected agent (None once it is done).

        An action that is not legal for that agent now raises
        :class:`~dicetable.engine.IllegalActionError` (a ValueError) whose message starts with the
        agent (``player_0: 'hold' is not a legal action for Player 1 now ...; legal actions: ...``),
        and an index outside the catalogue a ValueError naming the agent and the range; either way
        the game is unchanged and the same agent is still to move. Raises
        ``gymnasium.error.ResetNeeded`` before the first ``reset()`` and once every agent is done.
        """
        state = self.state_
        if state is None:
            state = started(state)  # raises ResetNeeded
        agent = self.agent_selection
        try:
            done = self.terminations[agent] or self.truncations[agent]
        except KeyError:  # every agent is done and was removed
            raise game_over() from None
        if done:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move and gave no action (None is only for an agent that is done)")
        offered = self._offered
        self._offered = self._shown = None
        parts = self._show_parts
        if parts is not None:
            # the Action the mask showed this agent, played in one compiled call
            # (dicetable.engine.batchstep): the trusted quiet step (apply with events=True), then the
            # next seat's legal actions, a new mask and vector, and the observation dictionary, for
            # last() to hand out; -2: no offer of this agent's kept, or not offered (refused below)
            shown = step_aec(state, offered, action, agent, self.events, parts)
            following = shown[0]
            if following >= 0:  # the rewards stay zero until the step that ends the game
                self.agent_selection = shown[4]
                self._offered = self._shown = shown
                return
            if following == -1:
                self._end(state)
                return
        seat = self._seat[agent]
        if parts is None and offered is not None and offered[0] == seat:
            # as above, without a direct fill: last() encodes the observation dictionary
            following = step_offered(state, offered[1], offered[2], action, seat, self.events)
            if following >= 0:  # the rewards stay zero until the step that ends the game
                self.agent_selection = self.possible_agents[following]
                return
            if following == -1:
                self._end(state)
                return
        # apply looks the id up and refuses an illegal one, naming what is legal
        self._apply_named(state, action, seat, agent)
        to_move = state.to_move
        if to_move:
            self.agent_selection = self.possible_agents[min(to_move)]
            return
        self._end(state)

    def _apply_named(self, state: GameState, action: Any, seat: int, agent: str) -> None:
        """``state.apply`` of catalogue index ``action`` for ``seat``; a refusal (the engine's
        IllegalActionError, or the ValueError of an index outside the catalogue) is raised again as
        the same class with ``agent`` in front of its words (the engine counts seats from Player 1)."""
        try:
            state.apply(self.spaces.action_id(action), seat)
        except ValueError as exc:
            raise type(exc)(f"{agent}: {exc}") from None

    def _end(self, state: GameState) -> None:
        """After the step that left no seat to move: the final rewards if the game is over."""
        if state.is_over:
            for a, r in zip(self.possible_agents, placing_rewards(state)):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
        self._select()

    def render(self) -> str | None:
        """The terminal view of the seat to move (or a spectator's once over) as plain text
        (``render_mode="ansi"``); without a render mode None and a warning, as Gymnasium's and
        PettingZoo's environments do."""
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() was called without a render mode: make the environment with render_mode='ansi'")
            return None
        if self.state_ is None:
            return None
        to_move = self.state_.to_move
        return self.spaces.text(self.state_, min(to_move) if to_move else None)

    def close(self) -> None:
        """Nothing to release."""


def env(game_id: str, players: int = 2, options: dict[str, Any] | None = None,
        render_mode: str | None = None, events: bool = False) -> DicetableAEC:
    """A PettingZoo AEC environment of ``game_id`` (see :class:`DicetableAEC`; ``events=True``: moves by
    ``apply``, every event logged)."""
    return DicetableAEC(game_id, players, options, render_mode, events)
