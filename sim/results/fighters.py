"""Per-fighter results over a batch: "how often does *my* wizard die?".

Each named combatant has its own columns in ``encounters.csv`` (``<name>.status``,
``<name>.died_after``, ``<name>.attacks``, ``<name>.hits``, ``<name>.damage``: the fighter's
status at the end of the scene, 1 when it died after the fight, its resolved attacks, hits and
damage dealt in the ruleset's unit) and one entry in ``summary.json``'s ``combatants``.
Every fighter is in every encounter, so its rates are plain Wilson intervals over encounters.
Rows written before these columns existed are skipped (``encounters`` counts the rows read).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from sim.results.stats import wilson

FIGHTER_COLUMNS = ("status", "died_after", "attacks", "hits", "damage")
OUT_STATUSES = ("dead", "unconscious", "incapacitated", "fled", "surrendered")


def fighter_columns(name: str) -> list[str]:
    """The ``encounters.csv`` columns of one fighter."""
    return [f"{name}.{key}" for key in FIGHTER_COLUMNS]


@dataclass
class FighterFold:
    """One combatant's counts over a batch (``name``: its columns' prefix)."""

    name: str = field(compare=False)
    side: str = field(compare=False)
    encounters: int = 0
    deaths: int = 0
    deaths_after: int = 0
    out_of_fight: int = 0
    fled: int = 0
    surrendered: int = 0
    attacks: int = 0
    hits: int = 0
    damage: int = 0
    standing_in_draws: int = 0  # drawn fights it was on its feet at the end of the scene

    def __post_init__(self) -> None:
        # the column names, made once: every row of a batch is folded through ``add``
        self._columns = fighter_columns(self.name)

    def add(self, row: dict[str, Any]) -> None:
        """Fold in this fighter's columns of one row (skipped if the row has none)."""
        status_key, after_key, attacks_key, hits_key, damage_key = self._columns
        status = row.get(status_key)
        if not status:
            return
        self.encounters += 1
        self.deaths += status == "dead"
        self.deaths_after += int(row[after_key])
        self.out_of_fight += status in OUT_STATUSES
        self.fled += status == "fled"
        self.surrendered += status == "surrendered"
        self.attacks += int(row[attacks_key])
        self.hits += int(row[hits_key])
        self.damage += int(row[damage_key])
        self.standing_in_draws += status == "ok" and row["winner"] == "draw"

    def merge(self, other: FighterFold) -> None:
        """Add another fold of the same fighter (every count)."""
        for f in fields(self):
            if f.compare:
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def summary(self) -> dict[str, Any]:
        """The fighter's entry in ``summary.json``'s ``combatants``."""
        n = self.encounters
        death_lo, death_hi = wilson(self.deaths, n)
        return {
            "side": self.side, "encounters": n,
            "deaths": self.deaths, "deaths_after": self.deaths_after,
            "death_rate": round(self.deaths / n, 6) if n else None,
            "death_rate_ci95": [round(death_lo, 6), round(death_hi, 6)] if n else None,
            "out_of_fight": self.out_of_fight, "fled": self.fled,
            "surrendered": self.surrendered,
            "attacks": self.attacks, "hits": self.hits,
            "hit_rate": round(self.hits / self.attacks, 6) if self.attacks else None,
            "damage": self.damage, "standing_in_draws": self.standing_in_draws,
        }
