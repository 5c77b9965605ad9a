"""What B-Grade gives the shared tests (tests/rulesets/contract.py: ``support``)."""

from __future__ import annotations

RULESETS = ("bgrade",)
# a member's native block, valid, beside every other ruleset's (a scenario may hold them all)
NATIVE_BLOCK = {"expert": ["fight"]}


def check_conversion(f, unarmed: bool) -> None:
    assert (f.body, f.coordination, f.sense) == (3, 2, 3)  # as ORE converts them
    assert (f.fight, f.shoot, f.dodge, f.parry, f.run) == (1 if unarmed else 3, 2, 2, 1, 1)
    assert (f.intelligence, f.command, f.charm) == (2, 2, 2)  # no neutral trait: 2


def hurt(f, share: float) -> None:
    f.wounds.take(round(share * 5), 0)  # wounds out of 5
