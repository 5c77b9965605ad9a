"""Moves the profiles share: falling back, taking cover, stepping back, and what comes first.

``cautious`` and ``tactical`` ask ``first_concerns`` before choosing a foe; a shooter takes
cover (``take_cover``) or steps out of melee (``step_back``); a fighter badly hurt, or losing
the exchange, falls back and leaves (``fall_back``). Each sets ``Combatant.why``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.ai import tactics
from sim.core import draws, moving, space
from sim.core.actions import DEFENDS, Defend, Intent, Reload, Retreat, Withdraw, Yield
from sim.core.doctrine import COVER_MOVES

if TYPE_CHECKING:
    from sim.core.battlefield import Position
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

# why a fighter declares nothing when every foe is out: under OpenD6's side initiative the
# last foe can fall within the side's own turn, before its later members declare (the last
# reason left standing named a foe already dead)
NO_FOE = "no foe left in the fight"


def flee(enc: Encounter, c: Combatant) -> list[Intent]:
    """A fighter in flight runs for the way out (RULES.md "Flight takes time").

    The nearest exit, else the place farthest from its foes (``space.way_out``). Cornered
    there, short of an exit, it yields to a foe at its throat, or else to one that could be
    on it in one move (``space.can_charge``; the one nearest, ties drawn): a foe that stands
    that near will not let it get away (``space.got_away``), and at a table the fight is
    over for it.
    """
    dest, is_exit = space.way_out(enc, c)
    field = enc.field
    if c.pos == dest and not is_exit:
        foes = enc.enemies(c)
        captor = space.takes_surrender(c, space.captors(enc, c, foes))
        if captor is None and not space.is_beast(c):
            distance, here = field.distance, c.pos
            near = [e for e in space.cornering(enc, c) if not space.is_beast(e)]
            captor = draws.best(enc, near, lambda e: -distance(here, e.pos))
        if captor is not None:
            c.why = f"yields to {captor.name}: cornered in flight at {field.describe(dest)}"
            return [Yield()]
    c.why = (f"flees for the way out at {field.describe(dest)}" if is_exit
             else f"flees toward {field.describe(dest)}, away from its foes")
    return [Retreat(dest, leave=True, run=True)]


def fall_back(enc: Encounter, c: Combatant, foes: list[Combatant],
              reason: str = "badly hurt") -> list[Intent]:
    """Badly hurt (or ``reason``): yield to a foe in reach, else flee for the way out.

    A beast never yields, and nobody yields to one (``space.takes_surrender``): it flees.

    The flight takes rounds (``flee`` from the next round on, ``Encounter.declare``).
    """
    captor = space.takes_surrender(c, space.captors(enc, c, foes))
    if captor is not None:
        c.why = f"yields to {captor.name}: {reason}"
        return [Yield()]
    field = enc.field
    dest, is_exit = space.way_out(enc, c)
    if c.pos == dest and not is_exit and not space.can_leave(enc, c, foes):
        kind = enc.advisor.defense_kind(enc, c, ranged=True)
        if kind:  # cornered at the edge: nothing left but to defend
            c.why = f"{DEFENDS[kind]}: {reason}, cornered at {field.describe(dest)}"
            return [Defend(kind)]
    c.why = f"{reason}: falls back to {field.describe(dest)} and leaves"
    return [Retreat(dest, leave=True, run=True)]


def hurt(enc: Encounter, c: Combatant) -> float | None:
    """``peril`` of ``c`` (how near to death) when it reached its ``retreat_at``, else None."""
    at = c.doctrine.retreat_at
    if at is None:
        return None
    peril = enc.advisor.peril(c)
    return peril if peril >= at else None


def take_cover(enc: Encounter, c: Combatant, foes: list[Combatant],
                target: Combatant) -> list[Intent] | None:
    """A shooter not in melee moves to better cover nearby (shooting too if it can).

    Not while a melee foe could be on it within a round at a run: cover does not stop a
    sword, and the rounds spent walking to it are shots not taken at the swordsman coming.
    Nor to cover nearer a melee foe that could be on it there within two rounds at a run
    (``within_two_runs``): it would meet the swordsman at the cover, its own melee fighters
    hold that cover in front of it instead (``screening.front``).
    """
    distance, run = enc.field.distance, enc.ruleset.run_metres
    if any(not e.ranged and distance(c.pos, e.pos) <= run(e) + e.reach for e in foes):
        return None
    spot = tactics.cover_spot(enc, c, foes, target, c.speed * COVER_MOVES)
    if spot is None or within_two_runs(enc, c, spot, foes):
        return None
    c.why = f"takes cover at {enc.field.describe(spot)}"
    gap = enc.field.distance(c.pos, spot)
    if gap <= c.speed and enc.advisor.can_move_and_attack(enc, c):
        return [Retreat(spot), target.plain_attack]
    if c.speed < gap <= enc.ruleset.run_metres(c):  # a run gets it there this round
        c.why += ", at a run"
        return [Retreat(spot, run=True)]
    return [Retreat(spot)]


def within_two_runs(enc: Encounter, c: Combatant, spot: Position,
                    foes: list[Combatant]) -> bool:
    """A melee foe could strike at ``spot`` within two rounds at a run, nearer than at ``c``.

    RULES.md "Running": twice a move a round (OpenCore's 12 m, ORE's 20 m). A spot farther
    from every such foe than ``c`` stands now is never this: stepping back is not toward them.
    """
    distance, run = enc.field.distance, enc.ruleset.run_metres
    return any(not e.ranged and distance(spot, e.pos) < distance(c.pos, e.pos)
               and distance(spot, e.pos) <= 2 * run(e) + e.reach for e in foes)


def step_back(enc: Encounter, c: Combatant, foes: list[Combatant],
               target: Combatant) -> list[Intent] | None:
    """A shooter in melee gets out of reach: a careful withdraw, else a step back and a shot.

    RULES.md "Leaving melee": stepping out of a foe's reach gives it a free attack unless
    the step is a withdraw (at most 2 m, ending out of every reach, the whole action). A
    shooter withdraws where a careful step ends out of reach with ``target`` still in
    range (the spot farthest from the melee foes, then the best cover); else it steps back
    and shoots when the ruleset lets it do both, taking the free attacks.
    """
    field = enc.field
    if Withdraw in enc.ruleset.supports:
        melee = [e for e in foes if not e.ranged] or foes
        spots = [s for s in moving.withdraw_spots(enc, c)
                 if field.distance(s, target.pos) <= c.reach]
        careful = draws.best(enc, spots, lambda s: (
            min(field.distance(s, e.pos) for e in melee), field.cover(s)))
        if careful is not None:
            c.why = f"withdraws to {field.describe(careful)}, out of reach"
            return [Withdraw(careful)]
    if not enc.advisor.can_step_back_and_attack(enc, c):
        return None
    spot = tactics.step_back_spot(enc, c, foes, target)
    if spot is None:
        return None
    c.why = f"steps back to {field.describe(spot)} and shoots"
    return [Retreat(spot), target.plain_attack]


def first_concerns(enc: Encounter, c: Combatant, foes: list[Combatant]) -> list[Intent] | None:
    """What comes before choosing a foe, for cautious and tactical; None: go on and fight.

    Nobody left to fight; badly hurt (fall back or yield); an unloaded weapon.
    """
    if not foes:
        c.why = NO_FOE
        return []
    if hurt(enc, c) is not None:
        return fall_back(enc, c, foes)
    if enc.advisor.needs_reload(c):
        c.why = "weapon unloaded"
        return [Reload()]
    return None
