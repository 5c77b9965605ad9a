"""Weapon names keep their meaning (issue 31): ``shortbow`` and ``longbow`` are neutral names
of their own, ``bow`` is the short one in every catalog, and no alias turns a weapon into one
of another class. That every ruleset's catalog reads them so is a contract duty
(tests/rulesets/contract.py: ``check_weapon_names``)."""

from __future__ import annotations

from sim.scenario import vocabulary


def test_a_longbow_hits_at_least_as_hard_as_a_short_bow_where_the_table_tells_them_apart():
    from sim.rulesets.opend6.catalog import WEAPONS_BY_NEUTRAL
    from sim.rulesets.ore.catalog import WEAPONS

    short, long = WEAPONS["shortbow"].damage, WEAPONS["longbow"].damage
    assert all(long.roll(w)[0] >= short.roll(w)[0] and long.roll(w)[1] > short.roll(w)[1]
               for w in range(2, 11))
    def pips(code):
        return 3 * code.dice + code.pips

    assert pips(WEAPONS_BY_NEUTRAL["longbow"].damage) > pips(WEAPONS_BY_NEUTRAL["shortbow"].damage)


def test_no_alias_changes_a_weapons_class():
    ranged = vocabulary.RANGED_WEAPONS
    natural = vocabulary.NATURAL_WEAPONS
    for alias, name in vocabulary.WEAPON_ALIASES.items():
        assert alias not in vocabulary.WEAPONS
        # an alias naming a bow, a gun or a thrown weapon leads to a ranged weapon, and
        # nothing else does
        shoots = any(word in alias for word in ("bow", "gun", "pistol", "rifle", "javelin",
                                                "throwing"))
        assert shoots == (name in ranged), (alias, name)
        assert name in vocabulary.WEAPONS
        assert not (name in natural and shoots)
