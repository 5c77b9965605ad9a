"""Who is on whom: attacks declared this round, and the foe a doctrine's focus picks.

Queries over an encounter's declarations that the AI profiles and the rulesets' advisors
both ask (a focus is a doctrine setting, ``sim.core.doctrine``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core.actions import Attack, Retreat
from sim.core.draws import best, best_by

if TYPE_CHECKING:
    from sim.core.battlefield import Position
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter


def declared_on(enc: Encounter, c: Combatant) -> int:
    """Attacks already declared on ``c`` this round.

    Where the ruleset lets the sharper declare later (ORE and B-Grade: lowest Sense first),
    this is what a late declarer knows of the others' intents.
    """
    return sum(1 for intents in enc.declared.values() for i in intents
               if type(i) is Attack and i.target is c)


def attacks_expected(enc: Encounter, c: Combatant,
                     foes: list[Combatant]) -> dict[Combatant, float]:
    """How many attacks each foe is expected to make on ``c`` this round.

    A foe that has declared: the attacks it declared on ``c``. One that has not: one attack
    shared evenly among the members of ``c``'s side it could attack from where it stands
    (a crowd does not all strike the same fighter). Foes that could not attack ``c`` count 0.
    """
    advisor = enc.advisor
    out = {}
    for e in foes:
        intents = enc.declared.get(e)
        if intents is not None:
            out[e] = float(sum(1 for i in intents if type(i) is Attack and i.target is c))
        elif advisor.can_attack(enc, e, c):
            out[e] = 1 / sum(1 for m in enc.sides[c.side] if m.in_fight
                             and advisor.can_attack(enc, e, m))
    return {e: w for e, w in out.items() if w}


def bound_for(enc: Encounter, c: Combatant) -> Position | None:
    """Where ``c`` declared this round to move to a place (a retreat), or None."""
    for i in enc.declared.get(c, ()):
        if type(i) is Retreat and not i.leave:
            return i.dest
    return None


def allies_on(enc: Encounter, side: str, foe: Combatant) -> int:
    """Attacks ``side`` has already declared on ``foe`` this round (focus fire joins them)."""
    return sum(1 for c, intents in enc.declared.items() if c.side == side
               for i in intents if type(i) is Attack and i.target is foe)


def pick_target(enc: Encounter, c: Combatant, foes: list[Combatant],
                focus: str | None) -> Combatant:
    """The foe ``c`` goes for, by its doctrine's ``focus``.

    Foes it can attack from where it stands come first (a fighter does not walk away from a
    foe in reach to find a better one); among them:

    - ``nearest``: the closest;
    - ``weakest``: the one closest to going down (``Advisor.threat``), then, for a shooter,
      the one its shot harms most (``Advisor.attack_worth``: a bowman in leather before a
      man in chain with a shield), then the one its side already declared most attacks on
      this round, then, for a shooter, the one in the least cover, then the closest: focus
      fire;
    - ``most_dangerous``: the highest expected damage a round (``Advisor.danger``), then
      the closest.

    Ties are broken by a random draw (``best``), never by scenario order. ``foes`` is not
    empty (a fighter with no foe picks none).
    """
    chosen = _pick(enc, c, foes, focus)
    assert chosen is not None, "pick_target needs a foe"
    return chosen


def _pick(enc: Encounter, c: Combatant, foes: list[Combatant],
          focus: str | None) -> Combatant | None:
    rs = enc.advisor
    distance = enc.field.distance
    pool = [e for e in foes if rs.can_attack(enc, c, e)] or foes
    here = c.pos
    if focus == "weakest":
        threat, cover, worth = rs.threat, enc.field.cover, rs.attack_worth
        shooter = c.ranged
        side = c.side
        if shooter:
            return best_by(enc, pool, (threat, lambda e: round(worth(enc, c, e), 6),
                                       lambda e: allies_on(enc, side, e),
                                       lambda e: -cover(e.pos),
                                       lambda e: -distance(here, e.pos)))
        return best_by(enc, pool, (threat, lambda e: allies_on(enc, side, e),
                                   lambda e: -distance(here, e.pos)))
    if focus == "most_dangerous":
        danger = rs.danger
        return best_by(enc, pool, (lambda e: danger(enc, e), lambda e: -distance(here, e.pos)))
    return best(enc, pool, lambda e: -distance(here, e.pos))
