"""Batch summaries: counts folded encounter by encounter, intervals, ``summary.json``.

``BatchTally`` keeps only counters and a histogram of rounds, so its memory stays flat
however many encounters are folded in.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default); (0, 1) with no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def quantile(histogram: Counter, q: float) -> float:
    """The ``q`` quantile (nearest rank) of values given as ``{value: count}``."""
    total = sum(histogram.values())
    if total == 0:
        return 0
    rank = max(1, math.ceil(q * total))
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= rank:
            return value
    return max(histogram)


def median(histogram: Counter) -> float:
    """The median of ``{value: count}``; the mean of the two middle values for an even count."""
    total = sum(histogram.values())
    if total == 0:
        return 0
    lo, hi = quantile(histogram, 0.5), _kth(histogram, total // 2 + 1)
    return hi if total % 2 else (lo + hi) / 2


def _kth(histogram: Counter, k: int) -> float:
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= k:
            return value
    return max(histogram)


@dataclass
class SideTally:
    """Counters for one side over a batch."""

    members: int = 0
    wins: int = 0
    attacks: int = 0
    hits: int = 0
    deaths: int = 0
    out_of_fight: int = 0
    fled: int = 0
    surrendered: int = 0
    damage: int = 0


@dataclass
class BatchTally:
    """Everything ``summary.json`` needs, folded one encounter at a time."""

    scenario: str
    ruleset: str
    seed: int
    sides: dict[str, SideTally]
    encounters: int = 0
    draws: int = 0
    any_death: int = 0
    rounds: Counter = field(default_factory=Counter)

    @classmethod
    def for_sides(cls, scenario: str, ruleset: str, seed: int,
                  members: dict[str, int]) -> BatchTally:
        """An empty tally for sides with the given member counts."""
        return cls(scenario, ruleset, seed,
                   {name: SideTally(members=n) for name, n in members.items()})

    def merge(self, other: BatchTally) -> None:
        """Add another tally of the same batch (e.g. a chunk's, folded in a worker)."""
        self.encounters += other.encounters
        self.draws += other.draws
        self.any_death += other.any_death
        self.rounds.update(other.rounds)
        for name, side in self.sides.items():
            theirs = other.sides[name]
            for key in ("wins", "attacks", "hits", "deaths", "out_of_fight", "fled",
                        "surrendered", "damage"):
                setattr(side, key, getattr(side, key) + getattr(theirs, key))

    def add(self, row: dict[str, Any]) -> None:
        """Fold in one ``encounters.csv`` row (as produced by ``sim.batch.runner.result_row``)."""
        self.encounters += 1
        winner = row["winner"]
        if winner == "draw":
            self.draws += 1
        else:
            self.sides[winner].wins += 1
        self.rounds[int(row["rounds"])] += 1
        deaths = 0
        for name, side in self.sides.items():
            side.attacks += int(row[f"{name}_attacks"])
            side.hits += int(row[f"{name}_hits"])
            d = int(row[f"{name}_deaths"])
            side.deaths += d
            deaths += d
            side.out_of_fight += int(row[f"{name}_out"])
            side.damage += int(row.get(f"{name}_damage") or 0)
            side.fled += int(row.get(f"{name}_fled") or 0)
            side.surrendered += int(row.get(f"{name}_surrendered") or 0)
        if deaths:
            self.any_death += 1

    def summary(self) -> dict[str, Any]:
        """The ``summary.json`` document (see DESIGN.md, contracts)."""
        n = self.encounters
        total_members = sum(s.members for s in self.sides.values())
        total_deaths = sum(s.deaths for s in self.sides.values())
        rounds_total = sum(r * c for r, c in self.rounds.items())
        return {
            "scenario": self.scenario,
            "ruleset": self.ruleset,
            "encounters": n,
            "seed": self.seed,
            "outcomes": {**{name: s.wins for name, s in self.sides.items()}, "draw": self.draws},
            "rounds": {
                "mean": round(rounds_total / n, 4) if n else 0,
                "median": median(self.rounds),
                "p90": quantile(self.rounds, 0.9),
                "max": max(self.rounds) if self.rounds else 0,
            },
            "sides": {
                name: {
                    "members": s.members,
                    "win_rate": round(s.wins / n, 6) if n else 0,
                    "win_rate_ci95": [round(x, 6) for x in wilson(s.wins, n)],
                    "attacks": s.attacks,
                    "hits": s.hits,
                    "hit_rate": round(s.hits / s.attacks, 6) if s.attacks else 0,
                    "deaths": s.deaths,
                    "out_of_fight": s.out_of_fight,
                    "fled": s.fled,
                    "surrendered": s.surrendered,
                    "damage": s.damage,
                    "damage_per_hit": round(s.damage / s.hits, 6) if s.hits else 0,
                }
                for name, s in self.sides.items()
            },
            "lethality": {
                "deaths_per_encounter": round(total_deaths / n, 6) if n else 0,
                "p_any_death": round(self.any_death / n, 6) if n else 0,
                "death_rate": round(total_deaths / (n * total_members), 6) if n else 0,
            },
        }
