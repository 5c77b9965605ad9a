"""ORE's called head shot against the exact odds (icepool): tactical calls it when it pays.

A called shot costs a die and sets another to 10 (RULES.md): a pool of ``n`` rolls ``n - 2``
dice beside the 10. A plain attack rolls ``n`` and takes the set whose hit is worth most
(ruling "a plain attack may use its head set"); a called one takes its head set when any
rolled die shows 10, else the widest set of the others. Both are enumerated here over every
roll, with the advisor's worth of a hit (``_hit_value``: the share of a take-out it deals).
"""

from __future__ import annotations

from collections import Counter

import icepool
import pytest
from builders import on_field

from sim.core.actions import Attack
from sim.rulesets.ore.catalog import ARMOR, WEAPONS
from sim.rulesets.ore.odds import _hit_value

UNHURT = [0] * 6


def _sets(faces: list[int]) -> list[tuple[int, int]]:
    """The sets of a roll, widest first (then highest): ``(width, height)``."""
    return sorted(((n, h) for h, n in Counter(faces).items() if n >= 2), reverse=True)


def _rolls(dice: int):
    """Every roll of ``dice`` d10 as a sorted tuple, with its chance."""
    if dice <= 0:
        yield (), 1.0
        return
    for faces, ways in icepool.d10.pool(dice).expand().items():
        yield list(faces), ways / 10**dice


def exact(dice: int, weapon: str, armor: str) -> tuple[float, float]:
    """Exact expected worth of a plain attack and of a called head shot from ``dice`` dice."""
    w, a = WEAPONS[weapon], ARMOR[armor]

    def worth(s: tuple[int, int]) -> float:
        return _hit_value(w, a, UNHURT, UNHURT, *s)

    plain = sum(p * max(map(worth, s)) for faces, p in _rolls(dice) if (s := _sets(faces)))
    called = 0.0
    for faces, p in _rolls(dice - 2):
        s = _sets([*faces, 10])
        if s:
            called += p * worth(next((x for x in s if x[1] == 10), s[0]))
    return plain, called


def _duel(dice: int, armor: str, weapon: str = "sword"):
    a = {"name": "A", "ai": "tactical", "weapon": weapon,  # (strength 2: Body 2)
         "traits": {"strength": 2, "endurance": 3}, "skills": {"melee": dice - 2}}
    enc = on_field("ore", [a], [{"name": "B", "armor": armor, "weapon": "sword"}])
    return enc, *enc.combatants


@pytest.mark.parametrize("armor", ["none", "leather", "chain", "plate"])
@pytest.mark.parametrize("dice", [3, 4, 5, 6])
def test_tactical_calls_the_head_exactly_when_the_exact_odds_say_it_pays(dice, armor):
    enc, a, b = _duel(dice, armor)
    assert enc.advisor.dice(enc, a, [b.plain_attack]) == dice
    plain, called = exact(dice, "sword", armor)
    intents, _ = enc.advisor.tactical_attack(enc, a, b)
    first = next(i for i in intents if type(i) is Attack)
    if abs(called - plain) > 0.005:  # (a hair apart: the advisor's widest-set estimate may part)
        assert (first.called == "head") == (called > plain), (plain, called, intents)


@pytest.mark.parametrize("dice", [3, 5, 7])
@pytest.mark.parametrize(("weapon", "armor"), [("sword", "leather"), ("bow", "none"),
                                                ("unarmed", "none")])
def test_the_advisor_prices_both_attacks_as_the_exact_odds_do(dice, weapon, armor):
    """The called shot exactly; the plain attack as its widest set, a little under the
    exact worth of its best set (which the rules let it take), never over."""
    from sim.rulesets.ore.odds import _value_table, expected_value

    plain, called = exact(dice, weapon, armor)
    table = _value_table(WEAPONS[weapon], ARMOR[armor], (0,) * 6, (0,) * 6, dice)
    assert expected_value(table, dice - 1, 1) == pytest.approx(called, abs=1e-12)
    estimate = expected_value(table, dice, 0)
    assert estimate <= plain + 1e-12 and plain - estimate < 0.02


def test_a_called_head_shot_hits_as_often_as_a_plain_attack_with_a_die_less():
    """The set die makes up for a rolled one: the cost of calling is exactly one die."""
    for dice in range(3, 8):
        hit = {d: sum(p for faces, p in _rolls(d) if _sets(faces)) for d in (dice, dice - 1)}
        called = sum(p for faces, p in _rolls(dice - 2) if _sets([*faces, 10]))
        assert called == pytest.approx(hit[dice - 1], abs=1e-12) and called < hit[dice]


def test_tactical_varies_where_the_two_attacks_are_worth_about_the_same():
    """Three dice against chain: the plain attack and the called one are worth within
    ``NEAR`` of each other, so tactical draws between them (by the encounter's generator)."""
    import random

    from sim.core.draws import NEAR

    plain, called = exact(3, "sword", "chain")
    assert abs(plain - called) <= NEAR * max(plain, called)
    enc, a, b = _duel(3, "chain")
    calls = Counter()
    for seed in range(60):
        enc.rng = random.Random(seed)
        intents, _ = enc.advisor.tactical_attack(enc, a, b)
        calls[intents[0].called] += 1
    assert set(calls) == {None, "head"}, calls
    enc, a, b = _duel(5, "leather")  # far apart: always the called shot
    assert all(enc.advisor.tactical_attack(enc, a, b)[0] == [Attack(b, "head")]
               for _ in range(20))
