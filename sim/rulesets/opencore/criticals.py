"""OpenCore d100 critical tables (Slash, Impact, Puncture, Shrapnel, Burn), from seed 001.

Pure data; ``opencore_rules.critical_lookup`` reads it. Ranges are inclusive ``(low, high)``
on the *modified* critical roll (1d100 +/-20 for a weak or strong strike, minus remaining
Toughness). Penalties are stored as positive amounts to subtract; the seed prints "-40".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType


class CritTable(StrEnum):
    """The seed's five critical tables."""

    SLASH = "slash"
    IMPACT = "impact"
    PUNCTURE = "puncture"
    SHRAPNEL = "shrapnel"
    BURN = "burn"


class Injury(StrEnum):
    """How badly a critical hurts a location. The seed names no location, only the severity."""

    DAMAGED = "damaged"
    SEVERELY_DAMAGED = "severely_damaged"
    BROKEN = "broken"
    SEVERED = "severed"
    DESTROYED = "destroyed"


@dataclass(frozen=True, slots=True)
class Critical:
    """The effects of one critical table row; all zero means "no extra damage".

    No row of the seed's tables kills outright, so there is no death field.

    Attributes:
        extra_damage: added damage, straight to HP.
        stun_rounds: rounds unable to attack, -50 to defense rolls.
        bloodloss: stacks of -1 HP per round ("bloodloss x2" is 2).
        unconscious_rounds: rounds unable to attack, defend, move or use Powers.
        injury: severity of the location injury, if any.
        skill_penalty: subtracted from "applicable skills" (RULES.md: attack and defense).
    """

    extra_damage: int = 0
    stun_rounds: int = 0
    bloodloss: int = 0
    unconscious_rounds: int = 0
    injury: Injury | None = None
    skill_penalty: int = 0


@dataclass(frozen=True, slots=True)
class CriticalRow:
    """A critical table row: the modified-roll range and its effects."""

    low: int
    high: int
    effect: Critical


NO_CRITICAL = Critical()


def _row(
    low: int,
    high: int,
    dmg: int = 0,
    *,
    stun: int = 0,
    bleed: int = 0,
    out: int = 0,
    injury: Injury | None = None,
    penalty: int = 0,
) -> CriticalRow:
    """Short form for the tables below: ``out`` is unconscious rounds, ``bleed`` bloodloss."""
    return CriticalRow(low, high, Critical(dmg, stun, bleed, out, injury, penalty))


_DMG, _SEV, _BRK = Injury.DAMAGED, Injury.SEVERELY_DAMAGED, Injury.BROKEN
_CUT, _GONE = Injury.SEVERED, Injury.DESTROYED

# The seed prints "-9 to 0" and then "0 to 10". Ruling: 0 belongs to the "-9 to 0" row and
# the next row starts at 1. Every table gives "no extra damage" to both rows, so no result
# depends on it. Rows are the seed's lines in order; "+N damage" is the third argument.
CRITICAL_TABLES: Mapping[CritTable, tuple[CriticalRow, ...]] = MappingProxyType(
    {
        # Slash Critical (blades, claws)
        CritTable.SLASH: (
            _row(-19, -10),
            _row(-9, 0),
            _row(1, 10),
            _row(11, 20),
            _row(21, 30),
            _row(31, 40),
            _row(41, 50, 5),
            _row(51, 60, 5),
            _row(61, 70, 10),
            _row(71, 80, 10, bleed=1),
            _row(81, 90, 15, bleed=1),
            _row(91, 100, 15, stun=1, bleed=1),
            _row(101, 110, 20, stun=2, bleed=2),
            # Printed with one bloodloss, after "bloodlossx2" on the row before: kept as printed.
            _row(111, 120, 20, stun=2, bleed=1, injury=_CUT, penalty=40),
        ),
        # Impact Critical (falls, fists, clubs)
        CritTable.IMPACT: (
            _row(-19, -10),
            _row(-9, 0),
            _row(1, 10),
            _row(11, 20),
            _row(21, 30),
            _row(31, 40),
            _row(41, 50),
            _row(51, 60),
            _row(61, 70, 5),
            _row(71, 80, 5, stun=1),
            _row(81, 90, 10, stun=2),
            _row(91, 100, 10, stun=2, injury=_BRK, penalty=30),
            _row(101, 110, 15, stun=3, injury=_BRK, penalty=30),
            # Printed without stun or broken location (a knockout instead): kept as printed.
            _row(111, 120, 15, out=1),
        ),
        # Puncture Critical (bullets, spears, stakes)
        CritTable.PUNCTURE: (
            _row(-19, -10),
            _row(-9, 0),
            _row(1, 10),
            _row(11, 20),
            _row(21, 30),
            _row(31, 40),
            _row(41, 50),
            _row(51, 60, 5),
            _row(61, 70, 10),
            _row(71, 80, 15),
            _row(81, 90, 20, bleed=1),
            _row(91, 100, 20, bleed=1),
            _row(101, 110, 25, bleed=1, stun=1),
            _row(111, 120, 25, bleed=1, stun=1, injury=_DMG, penalty=20),
        ),
        # Shrapnel Critical (grenades, shotguns)
        CritTable.SHRAPNEL: (
            _row(-19, -10),
            _row(-9, 0),
            _row(1, 10),
            _row(11, 20, 5),
            _row(21, 30, 5),
            _row(31, 40, 10),
            _row(41, 50, 10, bleed=1),
            _row(51, 60, 15, bleed=1),
            _row(61, 70, 15, bleed=1, stun=1),
            _row(71, 80, 20, bleed=1, stun=1),
            _row(81, 90, 20, bleed=2, stun=1, injury=_DMG, penalty=20),
            _row(91, 100, 30, bleed=2, stun=2, injury=_DMG, penalty=20),
            _row(101, 110, 40, bleed=3, out=1, injury=_GONE, penalty=40),
            _row(111, 120, 50, bleed=5, out=2, injury=_GONE, penalty=40),
        ),
        # Burn Critical (fire, electricity, acid)
        CritTable.BURN: (
            _row(-19, -10),
            _row(-9, 0),
            _row(1, 10),
            _row(11, 20),
            _row(21, 30),
            _row(31, 40, 5),
            _row(41, 50, 5),
            _row(51, 60, 5),
            _row(61, 70, 5, injury=_DMG, penalty=20),
            _row(71, 80, 10, injury=_DMG, penalty=20),
            _row(81, 90, 10, injury=_SEV, penalty=30),
            _row(91, 100, 15, injury=_SEV, penalty=30),
            _row(101, 110, 15, injury=_GONE, penalty=40),
            _row(111, 120, 20, injury=_GONE, penalty=40),
        ),
    }
)
