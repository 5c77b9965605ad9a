"""OpenD6's points: when a fighter spends a character or fate point, and how a player is asked.

RULES.md (amended): a character point or a fate point may go on any roll: attack, dodge,
parry, block, resistance. The AI's rulings (``character_point``, ``resist_point``,
``fate_point``, ``defense_point``, ``defense_fate_point``) weigh the exact odds of the
advisor (``OpenD6Advisor.against``, ``total_hits``, ``defense_worth``) and of ``odds``; the
questions put to a player say the same chances. The rules (``combat``) ask here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from sim.core import targets
from sim.rulesets.opend6 import odds as opend6_odds

if TYPE_CHECKING:
    from sim.core.engine import Encounter
    from sim.rulesets.opend6.advisor import OpenD6Advisor
    from sim.rulesets.opend6.fighter import D6Fighter

# Ruling (spending AI): a fate point (one a fight) is spent on a rolled attack only when its
# extra dice raise the chance to hit by this much.
FATE_POINT_GAIN = 0.25
# Ruling (spending AI): a character point goes on a resistance roll when its die lowers the
# chance that the hit already rolled kills by this much.
RESIST_POINT_GAIN = 0.1
# Ruling (spending AI), the worth of a point over the rest of the fight: a point spent on a
# defense roll must spare at least this share of the health the fighter has left, divided
# by the points it holds. Five points: a roll that spares 2% of what is left earns one; the
# last point waits for a roll that spares 10%. The fewer points left, the dearer each; the
# more hurt, the more a wound spared is worth.
DEFENSE_POINT_SHARE = 0.1
# a player is not asked for a fate point on a defense that would spare less than this many
# of the hits expected (the question's figures, to two places, would not move)
FATE_QUESTION_LEAST = 0.01


def character_point(advisor: OpenD6Advisor, f: D6Fighter, target: D6Fighter) -> bool:
    """Whether a spending fighter puts a character point (+1D) on an attack, before it.

    Ruling: when a hit at average damage against average resistance would take the foe
    out (``would_finish``) and a point is left.
    """
    return f.cp > 0 and advisor.rules.would_finish(f, target)


def resist_point(advisor: OpenD6Advisor, f: D6Fighter, target: D6Fighter,
                 damage: int) -> bool:
    """Whether ``target`` puts a character point (+1D) on its resistance to ``damage``.

    Ruling (issue 31, seed 004's "a roll"): when the hit, already rolled, may kill
    (``OpenD6Ruleset.kill_threshold`` over the exact resistance roll) and the extra die lowers
    that chance by ``RESIST_POINT_GAIN`` or more. Never against a beating that cannot
    kill (RULES.md "Harm that is not meant to kill").
    """
    rules = advisor.rules
    if f.weapon.unarmed and not rules.options.lethal_unarmed:
        return False
    code = target.resist_code
    now = kill_chance(advisor, target, damage, code.dice, code.pips)
    if now <= 0.0:
        return False
    return now - kill_chance(advisor, target, damage, code.dice + 1,
                             code.pips) >= RESIST_POINT_GAIN


def expected_on(enc: Encounter, f: D6Fighter) -> dict[D6Fighter, float]:
    """The attacks each foe is expected to make on ``f`` before its next turn."""
    # an OpenD6 fight's fighters are all D6
    return cast("dict[D6Fighter, float]", targets.attacks_expected(enc, f, enc.enemies(f)))


def defense_point(advisor: OpenD6Advisor, enc: Encounter, f: D6Fighter, kind: str,
                  penalty: int) -> bool:
    """Whether ``f`` puts a character point (+1D) on its dodge, parry or block, before it.

    Ruling (the worth of a point): the harm the extra die spares, exact over every foe
    expected to attack ``f`` before its next turn (``OpenD6Advisor.defense_worth`` with the
    die and without it: each foe's chance to hit, times the harm of its hit), as a share of
    the health ``f`` has left, against ``DEFENSE_POINT_SHARE`` over the points it holds.
    """
    if f.cp < 1:
        return False
    left = advisor.rules.health_left(f)
    if left <= 0:
        return False
    threats = expected_on(enc, f)
    if not threats:
        return False
    spared = (advisor.defense_worth_at(enc, f, threats, kind, penalty + 1)
              - advisor.defense_worth_at(enc, f, threats, kind, penalty))
    return spared / left >= DEFENSE_POINT_SHARE / f.cp


def defense_fate_point(advisor: OpenD6Advisor, enc: Encounter, f: D6Fighter, kind: str,
                       total: int, extra: int) -> bool:
    """Whether ``f`` spends a fate point on a defense ``total`` it has just rolled.

    Ruling, as on an attack (``fate_point``): one from death, and the ``extra`` dice lower
    the hits expected on ``f`` before its next turn (``defense_fate_odds``) by
    ``FATE_POINT_GAIN`` or more.
    """
    if f.fate < 1 or not advisor.rules.one_from_death(f):
        return False
    now, boosted = defense_fate_odds(advisor, enc, f, kind, total, extra)
    return now - boosted >= FATE_POINT_GAIN


def defense_fate_odds(advisor: OpenD6Advisor, enc: Encounter, f: D6Fighter, kind: str,
                      total: int, extra: int) -> tuple[float, float]:
    """Hits expected on ``f`` against a defense ``total``: as rolled, and with ``extra`` dice.

    Exact over the attacks of every foe expected to strike before ``f``'s next turn.
    """
    threats = expected_on(enc, f)
    extra_sums = [(s, p) for s, p in enumerate(opend6_odds.normal_dice(extra)) if p]
    now = boosted = 0.0
    for e, n in threats.items():
        chance = advisor.hit_chance_against(enc, e, f, kind)
        if chance is None:
            continue
        now += n * chance(total)
        boosted += n * sum(p * chance(total + s) for s, p in extra_sums)
    return now, boosted


def kill_chance(advisor: OpenD6Advisor, target: D6Fighter, damage: int, dice: int,
                pips: int) -> float:
    """Exact chance that ``damage`` kills ``target`` against a ``dice``D+``pips`` roll."""
    return opend6_odds.p_harm_at_most(dice, pips, advisor.rules.kill_threshold(target, damage))


def fate_point(advisor: OpenD6Advisor, enc: Encounter, f: D6Fighter, target: D6Fighter,
               total: int, extra: int) -> bool:
    """Whether a spending fighter spends a fate point on an attack it has just rolled.

    Ruling: a fate point is spent after the roll is seen and before its outcome is known
    (RULES.md). The fighter sees its own ``total`` and the target number it can see
    (the 10 with cover, visibility, pinned and its weapon's modifier), not a defender's
    dodge, parry or block total, which stays secret until the outcome: against one it
    knows only the pool rolled. It spends when the foe is one wound from death
    (``opend6-hp``: 1-3 HP) and a hit would take it out, and the ``extra`` dice raise its
    chance to hit by ``FATE_POINT_GAIN`` or more: never on a total that already meets a
    10 it can see, nor on one the extra dice cannot lift to it.
    """
    rules = advisor.rules
    if f.fate < 1 or not (rules.one_from_death(target) and rules.would_finish(f, target)):
        return False
    now, boosted = fate_odds(advisor, enc, f, target, total, extra)
    return boosted - now >= FATE_POINT_GAIN


def fate_odds(advisor: OpenD6Advisor, enc: Encounter, f: D6Fighter, target: D6Fighter,
              total: int, extra: int) -> tuple[float, float]:
    """Chance, as ``f`` sees it, that ``total`` hits: as rolled, and with ``extra`` dice.

    What a fate point is weighed by, for the AI and for a player asked.
    """
    against = advisor.against(enc, f, target)  # weighed once for every total
    now = advisor.total_hits(against, total)
    boosted = sum(p * advisor.total_hits(against, total + s)
                  for s, p in enumerate(opend6_odds.normal_dice(extra)) if p)
    return now, boosted


# A player's questions (``Encounter.yes_or_no``): plain functions, no closure made per roll.
def character_point_question(f: D6Fighter, target: D6Fighter) -> str:
    """A character point on an attack, asked before the roll."""
    return f"{f.name} attacks {target.name}: spend a character point (+1D; {f.cp} to spend)?"


def fate_point_question(advisor: OpenD6Advisor, enc: Encounter, f: D6Fighter,
                        target: D6Fighter, total: int, extra: int) -> str | None:
    """A fate point on a rolled attack, with its chances; None on a sure hit."""
    now, boosted = fate_odds(advisor, enc, f, target, total, extra)
    if now >= 1 - 1e-9:  # a sure hit already: nothing to weigh, no question
        return None
    return (f"{f.name} rolled {total} to hit {target.name} ({now:.0%} to hit as "
            f"rolled, {boosted:.0%} with the fate point): spend a fate point "
            f"(+{extra}D; {f.fate} to spend)?")


def defense_point_question(f: D6Fighter, kind: str, dice: int) -> str:
    """A character point on a dodge, parry or block, asked before the roll."""
    return (f"{f.name} will {kind} with {dice}D: spend a character point (+1D; {f.cp} to "
            f"spend)?")


def defense_fate_point_question(advisor: OpenD6Advisor, enc: Encounter, f: D6Fighter,
                                kind: str, total: int, extra: int) -> str | None:
    """A fate point on a rolled defense, with the hits it would spare.

    None (no question) when it could spare less than a hundredth of a hit: no foe near, or
    a roll no attack will meet.
    """
    now, boosted = defense_fate_odds(advisor, enc, f, kind, total, extra)
    if now - boosted < FATE_QUESTION_LEAST:
        return None
    return (f"{f.name} rolled {total} to {kind} ({now:.2f} hits expected on it before its "
            f"next turn, {boosted:.2f} with the fate point): spend a fate point (+{extra}D; "
            f"{f.fate} to spend)?")


def resist_point_question(f: D6Fighter, target: D6Fighter, damage: int) -> str:
    """A character point on the resistance to a blow already rolled."""
    return (f"{f.name}'s blow deals {damage} damage to {target.name}: spend a character "
            f"point on the resistance roll (+1D; {target.cp} to spend)?")
