"""What OpenD6 and its hit-point variant give the shared tests (contract.py: ``support``)."""

from __future__ import annotations

RULESETS = ("opend6", "opend6-hp")  # the hit-point variant converts alike
# a member's native block, valid, beside every other ruleset's (a scenario may hold them all)
NATIVE_BLOCK = {"attributes": {"agility": "3D+1"}}


def check_conversion(f, unarmed: bool) -> None:
    # each rating N -> ND; the weapon's skill takes melee (brawl unarmed) or ranged
    codes = {k: str(v) for k, v in f.attrs.items()}
    assert {k: codes.get(k) for k in ("strength", "endurance", "agility", "dexterity")} == {
        "strength": "4D", "endurance": "3D", "agility": "3D", "dexterity": "2D"}
    assert str(f.skills[f.weapon.skill]) == ("1D" if unarmed else "3D")
    assert str(f.skills["dodge"]) == "2D"


def hurt(f, share: float) -> None:
    if f.hp_max:  # opend6-hp counts hit points; opend6, wounds
        f.hp = round(f.hp_max * (1 - share))
    else:
        f.wounds = round(share * 5)
