"""The aggressive attack: the declaration with the best expectation, and one attack more.

An aggressive fighter spends its dice and actions on the foe past what the expectation
advises (``sim.ai.profiles.aggressive``); a tactical one stops where it advises.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core.actions import Attack, Intent

if TYPE_CHECKING:
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

# An aggressive fighter adds an attack past the best expectation while its first attack still
# lands this often (ruling: the seeds say nothing of how fighters choose).
RECKLESS_ODDS = 0.25


def pressing(enc: Encounter, c: Combatant, target: Combatant) -> tuple[list[Intent], str]:
    """The aggressive attack: the most harmful declaration, and one attack more.

    The declaration with the best expectation (``Advisor.tactical_attack``) without the
    defense it may carry; unless that calls a shot, one attack more where the ruleset allows
    another action and the first attack still lands ``RECKLESS_ODDS`` of the time: an
    aggressive fighter spends its dice and actions on the foe past what the expectation
    advises (a tactical one stops where it advises).
    """
    advisor = enc.advisor
    best, why = advisor.tactical_attack(enc, c, target)
    attacks: list[Intent] = [i for i in best if type(i) is Attack] or [target.plain_attack]
    first = attacks[0]
    most = enc.ruleset.max_actions
    if (advisor.single_shot(c) or len(attacks) > 1
            or (isinstance(first, Attack) and first.called)
            or (most is not None and most < 2)):
        return attacks, why
    more: list[Intent] = [*attacks, target.plain_attack]
    odds = advisor.attack_odds(enc, c, more)
    if odds is not None and odds >= RECKLESS_ODDS:
        return more, f"{len(more)} attacks, reckless ({odds:.0%} for the first)"
    return attacks, why
