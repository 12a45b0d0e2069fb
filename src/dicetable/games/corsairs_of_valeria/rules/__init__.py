"""Corsairs of Valeria rules (rulebook: Game Setup, Game Flow, phases A-D, Reaching
Skull Island, Ending the Game, Captain Cards).

Modules (by phase): :mod:`.fields` (the declared fields, in the base class of the
phase classes), :mod:`.state` (the state class: set-up, observation), :mod:`.roll` (turn start, A Roll Dice, B Re-roll Dice), :mod:`.actions` (C Execute
Dice Actions: Skulls, symbol groups, Cannons), :mod:`.sailing` (Maps, hazards,
knock-back), :mod:`.coins` (Silver, Treasure, Grog), :mod:`.end` (D End Your Turn,
Skull Island's race reset, the end of the game), :mod:`.options`, :mod:`.common`
(constants, fixed actions, cached menus).

Turn structure
--------------
A turn is the rulebook's phases A-D, written on the engine's turn flow
(:mod:`dicetable.engine.flow`): pending tasks are plain tuples ``(kind,
seat, ...)`` on ``state.tasks``, each kind with its handler. A task that
resolves on its own (``@auto``) decides whether its seat must choose; if so
it schedules the *decision* task of the same name with a ``?`` (``"reroll"``
-> ``"reroll?"``), whose prompt, legal actions and resolution are the
``@prompt``/``@choices``/``@resolve`` handlers. Observations name both
without the ``?`` (``waiting_for``, ``pending``). The game never opens lanes,
so a handler schedules one task with ``self.tasks.append(task)`` (what
``then`` does on the main stack, without the call: a playout schedules about
two tasks per action) and several with ``then``.

* **A Roll Dice** (``roll``): Willem/Luthor may first pay 1 Grog to set one
  die to the Cannon/Map face; then the dice are rolled (kept sorted by
  symbol, Skulls first).
* **B Re-roll Dice** (``reroll``): mark dice one at a time (``mark:1`` ..
  ``mark:5`` toggle), then ``reroll`` them for 1 Grog (``reroll-silver``: 1
  Silver, Prince of Bella Ire) or ``lock``. Skipped when nothing can pay.
  Then (``captain-b``) Mistress of the Skull / Reo the Cartographer decide.
* **C Execute Dice Actions**: all Skull and Skull-and-Grog faces first
  (``skulls``; a 5-Skull roll first asks ``give``/``keep``; Mister Bones may
  ignore one Skull); then the player picks the next symbol group (``order``:
  ``grog``, ``silver``, ``maps``, ``cannons``; Lucky Jax'n's ``jaxn``) until
  all are done. Maps move step by step (``move``), asking ``forward:<lane>``
  on entering a split Track and, with 5 Maps, ``forward``/``backward`` at
  every step. Cannons ask ``cannons``: ``attack:pN``, ``steal:pN`` (5 Cannons),
  ``merchant``, ``hook:pN`` (Captain Hook) or ``hold``.
* **D End Your Turn**: Hasan's exchange, then the race reset after a first
  Skull Island visit or the game's end after a second, then the next player.

Silver always moves one coin at a time, and the 5-Silver-for-1-Treasure
exchange happens the moment a ship holds 5 (it interrupts anything); the
sixth Treasure ends the game at once (``_win_now`` drops every pending task,
and each rule that pays Silver stops there). The Silver supply is never
stored: it is 35 minus the Silver on the ships and on Skull Island.

Decisions where the rulebook is silent (each tested, see docs/games/corsairs-of-valeria.md)
------------------------------------------------------------------------------------------
* The starting player ("who most recently lost a game") is random, or set by
  the ``first_player`` option.
* A ship pushed back into a split Track: its owner picks the lane (the rule
  says the ship's player decides the side); the decision is asked of that
  seat in the middle of the attacker's turn.
* Knock-back stops at the Start space; a knock-back of 0 spaces (exactly 3
  Cannons) is no movement, so no hazard triggers.
* Empty supply: every gain from the supply pays out coin by coin as far as
  the supply allows (as the Skull rule does "as your Silver allows"); an
  exchange returns 5 coins first, so a gain may continue after it. Skull
  Island's refill and Hasan's conversion are limited the same way (Grog that
  cannot be turned into Silver stays on the dial).
* 5-Cannon bonus: ``steal`` is offered only against a player with at least 1
  Treasure; the ordinary attack stays available against everyone.
* Recipients of given Skull dice resolve them as their own Dice Actions:
  Skulls first, then Grog; no 5-of-a-kind bonus for them (they cannot pass
  the dice on, and a turn that is not theirs cannot begin again); Mister
  Bones may ignore one Skull; powers of phases A, B and D and Lucky Jax'n
  ("your last roll") do not apply. The giver's turn then ends without phase D.
* Willem's / Luthor's set die is an ordinary die in phase B (it may be re-rolled).
* A 5-Grog restart begins again at phase A without phase D in between (the
  turn has not ended); Captain powers of phase A apply again.
* Captain Hook's jump happens before the other Cannons are used (the rest
  then count as the Cannon total), at most once per Cannon action, only to a
  space of another ship; it is movement, so the hazard of the space it ends
  on triggers, but no island is passed.
* Jäger Knot's and Lucky Jax'n's single space forward are Map moves: islands
  pay, lanes are chosen, the hazard of the end space triggers, and reaching
  Skull Island counts. Lucky Jax'n moves, then gains the Grog.
* Hasan has no "may": with 2 or more Grog at the start of phase D he must pay
  1 and turn the rest into Silver; with 0 or 1 Grog nothing happens.
* Mister Bones is asked only when ignoring a Skull would save a coin (his
  Silver covers every Skull); otherwise the Skulls take what he has.
* Once a ship reaches Skull Island it stays there for the rest of that turn:
  remaining Maps, Jäger's and Jax'n's moves and Hook's jump are void.
"""


from .common import (
    F_ARRIVED,
    F_CANNON5,
    F_GROG5,
    F_HOOK_USED,
    F_JAXN,
    F_MAP5,
    GROUP_IDS,
    OVER,
    count_faces,
    faces_text,
    shown_kind,
)
from .fields import race_number
from .options import check_captains, check_tracks, parse_captains
from .state import TASK_KINDS, CorsairsState

__all__ = [
    "F_ARRIVED", "F_CANNON5", "F_GROG5", "F_HOOK_USED", "F_JAXN", "F_MAP5", "GROUP_IDS", "OVER", "TASK_KINDS",
    "CorsairsState", "check_captains", "check_tracks", "count_faces", "faces_text",
    "parse_captains", "race_number", "shown_kind",
]
