"""Exact odds and expected worths under the One Roll Engine: what the AI weighs.

The chance of at least k sets in n d10 (``p_sets``), the distribution of the widest set's
width and hit location (``widest``) and of a set within a range of heights
(``p_set_at_least``, ``p_set_in``): exact, by a sum over how many dice show each face (no
sampling), and kept per pool size.

A hit's worth (``hit_value``) is the share of what is left of the location that takes
it out -- the head (4 boxes: unconscious when full, dead when full of Killing) or the torso
(10 boxes of Killing) -- after armor; a limb is worth a quarter of that (a useless arm still
stops an attacker). An attack's expected worth (``expected_value``) weighs each width and
height it can roll. ``sim.rulesets.ore.advisor`` asks them for the AI (B-Grade's too).
"""

from __future__ import annotations

from functools import lru_cache
from math import comb, factorial, perm
from typing import TYPE_CHECKING, Any

from sim.rulesets.ore.catalog import BOXES, HEAD, LIMBS, LOCATION_BY_HEIGHT, TORSO

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sim.rulesets.ore.body import Body
    from sim.rulesets.ore.catalog import Weapon
    from sim.rulesets.ore.fighter import OreFighter

# Ruling (tactical AI): a limb hit is worth this share of a head or torso hit of the same
# damage (it takes no one out, but a useless arm or leg hinders).
LIMB_WORTH = 0.25


# ---------------------------------------------------------------------------- exact odds
@lru_cache(maxsize=128)
def p_sets(n: int, k: int, least: int = 1, over: int = 0) -> float:
    """Exact chance of at least ``k`` sets (faces shown twice or more) in ``n`` d10.

    Only sets that succeed count: a height of ``least`` or more (ORE's difficulty), and a
    pair higher than ``over`` (B-Grade's difficulty; a wider set always beats it).
    """
    if k <= 0:
        return 1.0
    if n < 2 * k:
        return 0.0
    # ways[m][s]: sum over faces so far of 1/prod(c!) for m dice used and s sets (capped k)
    ways = [[0.0] * (k + 1) for _ in range(n + 1)]
    ways[0][0] = 1.0
    for face in range(1, 11):
        nxt = [[0.0] * (k + 1) for _ in range(n + 1)]
        for m in range(n + 1):
            for s in range(k + 1):
                w = ways[m][s]
                if not w:
                    continue
                for c in range(n - m + 1):
                    good = c >= 2 and face >= least and (c > 2 or face > over)
                    nxt[m + c][min(k, s + good)] += w / factorial(c)
        ways = nxt
    throws: int = 10**n  # (an int: the type of a power with a variable exponent is open)
    return ways[n][k] * factorial(n) / throws


@lru_cache(maxsize=256)
def widest(n: int, faces: int = 10) -> tuple[tuple[int, int, float], ...]:
    """Distribution of the widest set (ties: the higher) in ``n`` dice showing 1..``faces``.

    Returns ``(width, height, probability)`` triples; probabilities are out of ``10**n``
    throws of d10, so with ``faces`` < 10 they are those of no die showing above ``faces``
    (the called-shot case: no die rolled a 10). No set: width 0.
    """
    states = {(0, 0, 0): 1.0}  # (dice used, width, height) -> sum of 1/prod(c!)
    for face in range(faces, 0, -1):  # high faces first: a later set must be wider
        nxt: dict[tuple[int, int, int], float] = {}
        for (m, w, h), p in states.items():
            for c in range(n - m + 1):
                key = (m + c, c, face) if c >= 2 and c > w else (m + c, w, h)
                nxt[key] = nxt.get(key, 0.0) + p / factorial(c)
        states = nxt
    scale = factorial(n) / 10**n
    return tuple((w, h, p * scale) for (m, w, h), p in sorted(states.items()) if m == n)


def p_set_at_least(dice: int, fixed_tens: int, least: int = 0) -> float:
    """Exact chance of a set of height >= ``least`` in ``dice`` d10, ``fixed_tens`` set at 10."""
    if dice < 2:
        return 0.0
    return p_set_in(dice - fixed_tens, fixed_tens, max(1, least), 10)


def p_set_in(rolled: int, fixed: int, low: int, high: int) -> float:
    """Exact chance of a set of height ``low``..``high``: ``rolled`` d10 and ``fixed`` dice.

    The ``fixed`` dice show one face inside the range (a called shot's die, an expert die
    set with it): two of them are a set already. Counting the rolls with no such set: every
    face of the range shows at most once among the rolled dice, and none matches a fixed
    die.
    """
    if low > high or rolled + fixed < 2:
        return 0.0
    if fixed >= 2:
        return 1.0
    span = high - low + 1
    free = span - fixed  # faces of the range a rolled die may show once without a set
    other = 10 - span
    none: int = sum(comb(rolled, k) * perm(free, k) * other ** (rolled - k)
               for k in range(0, min(rolled, free) + 1))
    throws: int = 10**rolled
    return 1 - none / throws


# ---------------------------------------------------------------------------- worth of a hit
def hit_value(f: OreFighter[Any], target: OreFighter[Body], width: int, height: int) -> float:
    """What a set of ``width`` x ``height`` from ``f`` is worth on ``target`` (0..1)."""
    w = target.wounds
    return _hit_value(f.weapon, target.armor, w.killing, w.shock, width, height)


def _hit_value(weapon: Weapon, armor: Sequence[int], marked_killing: Sequence[int],
               marked_shock: Sequence[int], width: int, height: int) -> float:
    """``hit_value`` from what it reads: the weapon, the target's armor and boxes marked."""
    loc = LOCATION_BY_HEIGHT[height]
    killing, shock = weapon.damage.roll(width)
    ar = max(0, armor[loc] - weapon.ap)
    killing, shock = max(0, killing - ar), max(0, shock - ar)
    if loc in LIMBS:
        if marked_killing[loc] >= BOXES[loc]:  # a useless limb passes the hit to the torso
            loc = TORSO
        else:
            return LIMB_WORTH * min(1.0, (killing + shock) / BOXES[loc])
    if loc == HEAD:
        left = BOXES[HEAD] - marked_killing[HEAD] - marked_shock[HEAD]
        return min(1.0, (killing + shock) / max(1, left))
    left = BOXES[TORSO] - marked_killing[TORSO]  # Shock only counts once it overflows
    return min(1.0, (killing + shock / 2) / max(1, left))


# Expected worths found, by (the table's id, dice, called tens): the table held in the entry
# (so no other takes its id while it lives), the worth. ``value_table``'s tables are kept
# (``_value_table``), so the same fight asks of the same table object round after round.
_EXPECTED: dict[tuple[int, int, int], tuple[object, float]] = {}
EXPECTED_KEPT = 8192


def expected_value(value: Sequence[Sequence[float]], dice: int, called_tens: int) -> float:
    """Expected worth of one attack rolled with ``dice`` dice, ``called_tens`` set at 10.

    ``value[w][h]``: a hit's worth by width and height (``value_table``). A die set at 10
    (a called head shot, an expert die) makes a head set with every rolled 10; without one
    the attack takes the widest set (RULES.md; ``assign_sets``). Kept for a table that is
    a tuple (which cannot change): the AI asks of every foe at every declaration.
    """
    if dice <= 0:
        return 0.0
    if type(value) is not tuple:
        return _expected_value(value, dice, called_tens)
    key = (id(value), dice, called_tens)
    kept = _EXPECTED.get(key)
    if kept is not None and kept[0] is value:
        return kept[1]
    worth = _expected_value(value, dice, called_tens)
    if len(_EXPECTED) >= EXPECTED_KEPT:
        _EXPECTED.clear()
    _EXPECTED[key] = (value, worth)
    return worth


def _expected_value(value: Sequence[Sequence[float]], dice: int, called_tens: int) -> float:
    """``expected_value`` worked out (``dice`` at least 1)."""
    fixed = min(called_tens, dice)
    rolled = dice - fixed
    if not fixed:
        return sum(p * value[w][h] for w, h, p in widest(rolled) if w)
    total = 0.0
    for tens in range(rolled + 1):
        width = fixed + tens
        if width >= 2:
            total += comb(rolled, tens) * 0.1**tens * 0.9 ** (rolled - tens) \
                * value[min(width, 10)][10]
    # no 10 rolled and a lone fixed 10: the widest set of the other dice
    if fixed == 1:
        total += sum(p * value[w][h] for w, h, p in widest(rolled, 9) if w)
    return total


def value_table(f: OreFighter[Any], target: OreFighter[Body],
                dice: int) -> tuple[tuple[float, ...], ...]:
    """``hit_value`` by width (rows up to ``dice``, 0 beyond) and height 1..10 (index 0).

    Kept by what it depends on (the weapon, the target's armor and wound boxes, the
    dice): the AI asks it for every foe each round (tactical and aggressive attacks, the
    stand-off's foe it harms most), and a table is up to 90 hit values.
    """
    w = target.wounds
    return _value_table(f.weapon, tuple(target.armor), tuple(w.killing), tuple(w.shock),
                        min(dice, 10))


@lru_cache(maxsize=4096)
def _value_table(weapon: Weapon, armor: tuple[int, ...], killing: tuple[int, ...],
                 shock: tuple[int, ...], dice: int) -> tuple[tuple[float, ...], ...]:
    return tuple((0.0, *(_hit_value(weapon, armor, killing, shock, w, h) for h in range(1, 11)))
                 if 2 <= w <= dice else (0.0,) * 11 for w in range(11))
