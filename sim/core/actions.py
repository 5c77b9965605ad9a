"""What combatants declare (intents) and what the engine schedules (timed actions).

Intents are small frozen dataclasses produced by the AI (``Move`` goes toward a foe,
``Retreat`` toward a place); a ruleset turns a round's intents into ``TimedAction``s with an
offset in seconds from the start of the round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from sim.core.battlefield import Position
    from sim.core.combatant import Combatant


@dataclass(frozen=True, slots=True)
class Attack:
    """Strike or shoot at ``target``; ``called`` names a hit location (ORE: "head")."""

    target: Combatant
    called: str | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """Move toward ``target`` until within ``stop_at`` metres of it.

    ``run``: the whole round spent running, twice as far, no attack that round (RULES.md
    "Running"; how far under each ruleset: ``Ruleset.run_metres``).
    """

    target: Combatant
    stop_at: float = 0.0
    run: bool = False


@dataclass(frozen=True, slots=True)
class Retreat:
    """Move toward a place rather than a foe: fall back, take cover, hold a post.

    ``dest`` is where it goes (a node, as ``Battlefield.node`` gives it). With ``leave``,
    it flees (RULES.md "Flight takes time"): it runs for the way out
    (``space.way_out``) round after round, and is off the field (``Status.FLED``) at an
    exit, or at a round's end beyond the escape distance of every foe
    (``space.got_away``). Every ruleset resolves it as its own move (``Ruleset.move_to``).
    """

    dest: Position
    leave: bool = False
    run: bool = False


@dataclass(frozen=True, slots=True)
class Withdraw:
    """Step carefully out of melee to ``dest``: the whole action, no free attacks.

    RULES.md "Leaving melee": a move of at most 2 m that ends out of every foe's reach
    (``moving.withdraw_spot`` finds it); a fleeing fighter never withdraws.
    """

    dest: Position


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the other weapon (a shooter's sidearm, or its bow again) as part of a move.

    RULES.md "Shooting in melee": not an action. Declared first; the engine changes the
    weapon in hand as it is declared (``Ruleset.switch_arms``), so what follows is made
    with it.
    """


@dataclass(frozen=True, slots=True)
class Defend:
    """Spend an action on defense: ``"dodge"``, ``"parry"`` or ``"block"``."""

    kind: str = "dodge"


@dataclass(frozen=True, slots=True)
class Aim:
    """Spend an action aiming at ``target`` (OpenD6: +1D on the next attack)."""

    target: Combatant


@dataclass(frozen=True, slots=True)
class Reload:
    """Reload a weapon that needs it (crossbow)."""


@dataclass(frozen=True, slots=True)
class Bide:
    """Wait for a better moment (OpenCore: +20 initiative next round)."""


@dataclass(frozen=True, slots=True)
class Yield:
    """Surrender instead of acting: out of the fight, alive.

    Declared alone; the engine takes the fighter out as it declares
    (``Encounter.declare``), so that an AI asked only for advice (``fray play``'s
    suggestion) changes nothing.
    """


Intent = Attack | Move | Retreat | Withdraw | Defend | Aim | Reload | Bide | Yield | Draw


def attack_on(target: Combatant, called: str | None = None) -> Attack:
    """``Attack(target, called)``, one value per target and called location.

    The AI asks a ruleset about an attack several times a round (can it hit? a called
    shot? two attacks?) before declaring it, and making a frozen intent costs thousands of
    machine instructions; intents are values, so one serves every asker. Kept on the
    target (``Combatant.plain_attack``, ``Combatant.called_attacks``).
    """
    if called is None:
        return target.plain_attack
    kept = target.called_attacks
    attack = kept.get(called)
    if attack is None:
        attack = kept[called] = Attack(target, called)
    return attack
DEFENDS = {"dodge": "dodges", "parry": "parries", "block": "blocks"}  # for the solo log


P = TypeVar("P")


@dataclass(slots=True)
class TimedAction(Generic[P]):
    """One intent scheduled inside a round.

    Attributes:
        offset: seconds after the start of the round; equal offsets are simultaneous.
        actor: who acts.
        intent: what it declared (None: a turn with nothing declared, which still ends
            effects that last "until its next turn"; or, under OpenD6, a turn whose
            fighter declares when it comes).
        payload: the ruleset's own payload, its type the parameter ``P`` (ORE and B-Grade:
            the ``RolledSet``; OpenD6: None, the turn declares as it comes; OpenCore: the
            initiative rolled, ``int``).
        done: set once resolved, so a later event can tell it already happened.
    """

    offset: float
    actor: Combatant
    intent: Intent | None
    payload: P
    done: bool = False
