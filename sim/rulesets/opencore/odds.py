"""OpenCore's exact odds, for the AI and the menus: to hit, and the damage a hit takes.

Closed counts over every pair of d100 faces (``hit_odds``, as ``rules.opposed_attack`` reads
them) and every face of the damage dice (``damage_distribution``, as ``rules.roll_damage``
rolls them); nothing here rolls a die.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from sim.rulesets.opencore.rules import (
    D100,
    FUMBLE_MAX,
    HELPLESS_DEFENSE,
    MIN_DAMAGE,
    fortitude_dice,
)
from sim.rulesets.opencore.tables import FUMBLE_CHART, DamageDice


@dataclass(frozen=True, slots=True)
class HitOdds:
    """The chances of one opposed attack over all 10,000 pairs of d100 faces.

    Attributes:
        plain: a hit without a fumble: both rolls 06-100 and the attacker's total higher.
        defender_fumble: a hit because the defender rolled 01-05 and the attacker did not
            (the defender then rolls on the fumble chart; it does not depend on the skills).
    """

    plain: float
    defender_fumble: float

    @property
    def hit(self) -> float:
        """The chance that the attack lands."""
        return self.plain + self.defender_fumble


@lru_cache(maxsize=4096)
def hit_odds(att_skill: int, def_skill: int) -> HitOdds:
    """Exact odds of ``opposed_attack`` for these skills (a closed count, cached per pair).

    For each attacker's roll ``a`` in 06-100, the defender's rolls ``d`` in 06-100 that lose
    are those with ``d + def_skill < a + att_skill``; the defender's 01-05 always lose.
    """
    gap = att_skill - def_skill
    plain = sum(min(D100, max(FUMBLE_MAX, a + gap - 1)) - FUMBLE_MAX
                for a in range(FUMBLE_MAX + 1, D100 + 1))
    fumble = (D100 - FUMBLE_MAX) * FUMBLE_MAX
    return HitOdds(plain / D100**2, fumble / D100**2)


@lru_cache(maxsize=1024)
def helpless_odds(att_skill: int) -> HitOdds:
    """Exact odds of ``helpless_verdict``: the attacker's rolls 06-100 whose total beats 0."""
    plain = sum(1 for a in range(FUMBLE_MAX + 1, D100 + 1) if a + att_skill > HELPLESS_DEFENSE)
    return HitOdds(plain / D100, 0.0)


@lru_cache(maxsize=1024)
def damage_distribution(dice: DamageDice, str_mod: int,
                        fortitude: int = 0) -> tuple[tuple[int, float], ...]:
    """Every damage ``roll_damage`` can give with these dice, and its chance, lowest first.

    ``fortitude``: the target's score under the option (``rules.fortitude_dice``).
    """
    n = fortitude_dice(dice.dice, fortitude)
    sums = Counter({0: 1})
    for _ in range(n):
        step: Counter[int] = Counter()
        for total, ways in sums.items():
            for face in range(1, dice.sides + 1):
                step[total + face] += ways
        sums = step
    bonus = dice.bonus + (str_mod if dice.plus_str else 0)
    outcomes = dice.sides ** n
    least = MIN_DAMAGE if n else 0
    dist: Counter[int] = Counter()
    for total, ways in sums.items():
        dist[max(least, total + bonus)] += ways
    return tuple((value, ways / outcomes) for value, ways in sorted(dist.items()))


def expected_through(dist: tuple[tuple[int, float], ...], absorb: int, mult: int = 1) -> float:
    """Expected damage past ``absorb`` (armor and Toughness left) of a hit rolled from ``dist``.

    ``mult`` multiplies the roll before anything absorbs it (a defender's fumble).
    """
    return sum(p * (value * mult - absorb) for value, p in dist if value * mult > absorb)


# The defender's fumble chart as (chance, damage multiplier), for expectations.
DEFENDER_FUMBLE_MULTIPLIERS: tuple[tuple[float, int], ...] = tuple(
    ((row.high - row.low + 1) / D100, row.defender.damage_multiplier) for row in FUMBLE_CHART)


def expected_hp_damage(odds: HitOdds, dist: tuple[tuple[int, float], ...], absorb: int) -> float:
    """Expected HP one attack takes: its hit odds times the damage past armor and Toughness.

    A plain hit rolls its damage once; a hit on a defender's fumble is multiplied as the chart
    says (x2 on 91-95, x3 on 96-100). Criticals' extra damage is left out.
    """
    plain, fumbled = _damage_through(dist, absorb)
    return odds.plain * plain + odds.defender_fumble * fumbled


@lru_cache(maxsize=4096)
def _damage_through(dist: tuple[tuple[int, float], ...], absorb: int) -> tuple[float, float]:
    """Expected damage past ``absorb`` of a plain hit, and of a hit on a defender's fumble.

    Kept: the AI weighs every foe with every attack, and a weapon meets the same armor
    left round after round.
    """
    fumbled = sum(p * expected_through(dist, absorb, mult)
                  for p, mult in DEFENDER_FUMBLE_MULTIPLIERS)
    return expected_through(dist, absorb), fumbled


def p_through(odds: HitOdds, dist: tuple[tuple[int, float], ...], absorb: int,
              at_least: int) -> float:
    """Exact chance one attack takes ``at_least`` HP or more past ``absorb``.

    As ``expected_hp_damage`` weighs it: a plain hit rolls its damage once, a hit on a
    defender's fumble is multiplied as the chart says; criticals' extra damage is left out
    (it only adds).
    """
    def reaches(mult: int) -> float:
        return sum(p for value, p in dist if value * mult - absorb >= at_least)

    fumbled = sum(p * reaches(mult) for p, mult in DEFENDER_FUMBLE_MULTIPLIERS)
    return odds.plain * reaches(1) + odds.defender_fumble * fumbled
