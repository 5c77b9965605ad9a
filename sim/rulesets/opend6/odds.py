"""Exact odds of OpenD6 rolls, for the AI's decisions (how many attacks pay).

A roll of N dice is N - 1 normal dice plus the wild die (RULES.md ``opend6``): a wild 6
explodes, a wild 1 on its first throw is a fumble that removes the wild die and the highest
normal die (unless the ``complication`` option counts them). The distributions are computed
once per pool size and cached; the AI then asks only cached questions in the encounter loop.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate

_SIXTH = 1.0 / 6.0
# The exploding tail beyond this many extra sixes weighs 6**-12, far below any decision.
_EXPLOSION_DEPTH = 12


def _sum_counts(dice: int, top: int) -> list[int]:
    """Number of ways ``dice`` dice with faces 1..top reach each sum (index = sum)."""
    counts = [1]
    for _ in range(dice):
        nxt = [0] * (len(counts) + top)
        for s, ways in enumerate(counts):
            if ways:
                for face in range(1, top + 1):
                    nxt[s + face] += ways
        counts = nxt
    return counts


@lru_cache(maxsize=64)
def _normal(dice: int) -> tuple[float, ...]:
    """Distribution of the sum of ``dice`` normal d6 (index = sum)."""
    scale = _SIXTH**dice
    return tuple(w * scale for w in _sum_counts(dice, 6))


@lru_cache(maxsize=64)
def _fumbled(dice: int) -> tuple[float, ...]:
    """Distribution of the sum of ``dice`` normal d6 minus the highest of them."""
    if dice == 0:
        return (1.0,)
    scale = _SIXTH**dice
    out = [0.0] * (6 * dice + 1)
    below = _sum_counts(dice, 0)
    for top in range(1, 7):
        upto = _sum_counts(dice, top)
        for s, ways in enumerate(upto):
            exact = ways - (below[s] if s < len(below) else 0)  # the highest die is ``top``
            if exact:
                out[s - top] += exact * scale
        below = upto
    return tuple(out)


@lru_cache(maxsize=8)
def _exploding() -> tuple[float, ...]:
    """Distribution of what a wild die adds after its first 6 (rerolled while it shows 6)."""
    out = [0.0] * (6 * (_EXPLOSION_DEPTH + 1) + 1)
    for k in range(_EXPLOSION_DEPTH + 1):
        weight = _SIXTH ** (k + 1)
        for face in range(1, 6):
            out[6 * k + face] += weight
    return tuple(out)


@lru_cache(maxsize=256)
def distribution(dice: int, complication: bool = False) -> tuple[float, ...]:
    """Exact distribution of an N-dice roll's total before pips (index = total)."""
    if dice <= 0:
        return (1.0,)
    rest = _normal(dice - 1)
    tail = _exploding()
    out = [0.0] * (len(rest) + 6 + len(tail))
    for s, p in enumerate(rest):
        if not p:
            continue
        for face in range(2, 6):
            out[s + face] += p * _SIXTH
        for x, q in enumerate(tail):
            if q:
                out[s + 6 + x] += p * q * _SIXTH
        if complication:
            out[s + 1] += p * _SIXTH
    if not complication:
        for s, p in enumerate(_fumbled(dice - 1)):
            out[s] += p * _SIXTH
    return tuple(out)


@lru_cache(maxsize=4096)
def p_at_least(dice: int, pips: int, target: int, complication: bool = False) -> float:
    """Probability that ``dice``D+``pips`` totals ``target`` or more (a total is never < 0)."""
    dist = distribution(dice, complication)
    need = target - pips
    if need <= 0:
        return 1.0
    return sum(dist[need:])


@lru_cache(maxsize=256)
def mean(dice: int, pips: int, complication: bool = False) -> float:
    """Expected total of ``dice``D+``pips``."""
    return sum(s * p for s, p in enumerate(distribution(dice, complication))) + pips


# --- Opposed rolls, extra dice and harm ---------------------------------------------------------


@lru_cache(maxsize=64)
def normal_dice(dice: int) -> tuple[float, ...]:
    """Distribution of the sum of ``dice`` normal d6, no wild die (a fate point's extra dice)."""
    return _normal(max(0, dice))


@lru_cache(maxsize=1024)
def defense_totals(dice: int, pips: int, minus: int = 0,
                   complication: bool = False) -> tuple[float, ...]:
    """Distribution of a defense roll's total after ``minus`` (encumbrance), never below 0."""
    out = [0.0] * (len(distribution(dice, complication)) + pips)
    for raw, p in enumerate(distribution(dice, complication)):
        if p:
            out[max(0, raw + pips - minus)] += p
    return tuple(out)


@lru_cache(maxsize=4096)
def p_meets_roll(dice: int, pips: int, defense: tuple[int, int, int], offset: int,
                 complication: bool = False) -> float:
    """Probability that ``dice``D+``pips`` meets a defense roll plus ``offset`` (ties hit).

    Args:
        dice: The attack roll's dice.
        pips: The attack roll's pips.
        defense: The defense roll as ``(dice, pips, minus)``: its code and what is taken off
            its total (encumbrance), the total never below 0.
        offset: Added to the defense total to make the target number (cover, visibility...).
        complication: The ``complication`` option (both rolls).

    Returns:
        P(attack total >= defense total + offset).
    """
    return sum(p * p_at_least(dice, pips, total + offset, complication)
               for total, p in enumerate(defense_totals(*defense, complication)) if p)


@lru_cache(maxsize=4096)
def p_total_meets_roll(total: int, defense: tuple[int, int, int], offset: int,
                       complication: bool = False) -> float:
    """Probability that a rolled ``total`` meets a defense roll (``p_meets_roll``) + offset."""
    return sum(p for t, p in enumerate(defense_totals(*defense, complication))
               if t + offset <= total)


def _totals(dice: int, pips: int, complication: bool) -> tuple[float, ...]:
    """Distribution of a roll's total, pips added (index = total)."""
    return (0.0,) * pips + distribution(dice, complication)


# Damage and resistance rolls are not actions: a wild 1 counts as 1 (``dice.counts_one``).
HARM_COUNTS_ONE = True


@lru_cache(maxsize=1024)
def expected_wounds(damage: tuple[int, int], resistance: tuple[int, int], cap: int) -> float:
    """Expected wounds of one hit: damage >= k x resistance gives k, at most ``cap``.

    Summed as P(wounds >= k) for k = 1 .. cap: a damage total ``d`` deals k or more exactly
    when max(resistance, 1) <= d // k (``_harm_cdf``): a few lookups per damage total
    rather than a pass over every resistance total.

    Args:
        damage: The damage roll as ``(dice, pips)``.
        resistance: The resistance roll as ``(dice, pips)``; its total counts as at least 1
            (``rules.wounds_from_damage``).
        cap: The wounds that can still be dealt (to death).
    """
    out = 0.0
    for d, pd in enumerate(_totals(*damage, HARM_COUNTS_ONE)):
        if pd:
            out += pd * sum(p_harm_at_most(*resistance, d // k) for k in range(1, cap + 1)
                            if d // k >= 1)
    return out


@lru_cache(maxsize=1024)
def expected_hp_loss(damage: tuple[int, int], resistance: tuple[int, int], cap: int) -> float:
    """Expected hit points one hit takes: damage - resistance when positive, at most ``cap``.

    Summed as P(loss >= j) = P(resistance <= d - j) for j = 1 .. min(cap, d): a difference
    of two running sums of the resistance roll's cumulative odds (``_harm_cdf_sums``).
    """
    sums = _harm_cdf_sums(*resistance)
    last = len(sums) - 1

    def upto(t: int) -> float:  # sum of P(resistance <= x) for x = 0 .. t
        if t < 0:
            return 0.0
        return sums[t] if t <= last else sums[last] + (t - last)  # P = 1 past the end

    out = 0.0
    for d, pd in enumerate(_totals(*damage, HARM_COUNTS_ONE)):
        if pd:
            out += pd * (upto(d - 1) - upto(d - min(cap, d) - 1))
    return out


def harm_distribution(dice: int, pips: int) -> tuple[float, ...]:
    """Exact distribution of a damage or resistance roll's total (index = total).

    Not an action: a wild 1 counts as 1, whatever the ``complication`` option.
    """
    return _totals(dice, pips, HARM_COUNTS_ONE)


@lru_cache(maxsize=256)
def _harm_cdf(dice: int, pips: int) -> tuple[float, ...]:
    """P(total <= t) of a damage or resistance roll, for each t (index = t)."""
    return tuple(accumulate(harm_distribution(dice, pips)))


@lru_cache(maxsize=256)
def _harm_cdf_sums(dice: int, pips: int) -> tuple[float, ...]:
    """Running sums of ``_harm_cdf``: index t holds P(total <= 0) + ... + P(total <= t)."""
    return tuple(accumulate(_harm_cdf(dice, pips)))


def p_harm_at_most(dice: int, pips: int, top: int) -> float:
    """Exact chance that a damage or resistance roll totals ``top`` or less (0 below 0)."""
    if top < 0:
        return 0.0
    cdf = _harm_cdf(dice, pips)
    return cdf[top] if top < len(cdf) else 1.0
