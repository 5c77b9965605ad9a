"""The fights behind a batch's numbers, and how bad it can get, for the first side.

A game master asks "what does a bad night look like?", not only "what is the mean?". Each
fight of a batch is given a **result** for the side listed first (the party), ordered worst
to best by, in turn:

1. the outcome: lost, then drawn, then won;
2. how many of its fighters were still in the fight when it ended (more is better);
3. how many of them died (fewer is better);
4. the health it lost, read as the damage every other side dealt (less is better; with
   two sides exactly what the first side took, in the ruleset's own unit);
5. the rounds: a win sooner is better, a loss or a draw later is better (it held out).

``ResultFold`` keeps, per distinct result, how many fights had it and the lowest index
(with its seed) that did, so its memory grows with the number of distinct results, never
with the fights, and chunks merge exactly: any chunking picks the same fights.

- ``examples()``: the fights at the 5th, 25th, 50th, 75th and 95th percentile (nearest
  rank) of that order, named ``disaster``, ``struggle``, ``typical``, ``heroic``, ``legend``;
  of the fights sharing the result at that rank, the one with the lowest index.
- ``spread(rounds)``: the first side's chance of losing anyone, half or more, and everyone
  (to death, each with a Wilson interval), the rounds from the 10th to the 90th percentile,
  and the mean deaths of the worst tenth of fights by the order above.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sim.results.stats import quantile, wilson

# (name, percentile of the first side's result): worst to best
EXAMPLES: tuple[tuple[str, float], ...] = (
    ("disaster", 0.05), ("struggle", 0.25), ("typical", 0.50), ("heroic", 0.75),
    ("legend", 0.95))
WORST_SHARE = 0.1  # the worst tenth of fights, whose mean deaths ``spread`` gives

LOST, DRAWN, WON = 0, 1, 2
OUTCOME_WORDS = {LOST: "lost", DRAWN: "draw", WON: "won"}

# (outcome, standing, -deaths, -damage taken, rounds term): larger is better for the side
Result = tuple[int, int, int, int, int]


def result_of(row: dict[str, Any], side: str, others: tuple[str, ...], members: int) -> Result:
    """The first side's result in one ``encounters.csv`` row (ints or ``csv``'s strings).

    A row without ``<side>_standing`` (none is written without it) counts those not out.
    """
    winner = row["winner"]
    outcome = WON if winner == side else DRAWN if winner == "draw" else LOST
    rounds = int(row["rounds"])
    taken = 0
    for other in others:
        taken += int(row.get(f"{other}_damage") or 0)
    standing = row.get(f"{side}_standing")
    standing = members - int(row[f"{side}_out"]) if standing in (None, "") else int(standing)
    return (outcome, standing, -int(row[f"{side}_deaths"]), -taken,
            -rounds if outcome == WON else rounds)


@dataclass
class ResultFold:
    """The first side's results over a batch: counts per result, the first fight of each."""

    side: str
    others: tuple[str, ...]
    members: int
    counts: Counter = field(default_factory=Counter)
    first: dict[Result, tuple[int, int]] = field(default_factory=dict)  # -> (index, seed)

    def add(self, row: dict[str, Any]) -> None:
        """Fold in one row."""
        key = result_of(row, self.side, self.others, self.members)
        self.counts[key] += 1
        index = int(row["index"])
        kept = self.first.get(key)
        if kept is None or index < kept[0]:
            self.first[key] = (index, int(row["seed"]))

    def merge(self, other: ResultFold) -> None:
        """Add the fold of other fights of the same batch."""
        self.counts.update(other.counts)
        for key, (index, seed) in other.first.items():
            kept = self.first.get(key)
            if kept is None or index < kept[0]:
                self.first[key] = (index, seed)

    @property
    def fights(self) -> int:
        """Fights folded in."""
        return sum(self.counts.values())

    def _ordered(self) -> list[tuple[Result, int]]:
        return sorted(self.counts.items())

    def examples(self) -> list[dict[str, Any]]:
        """The five named fights, worst first (empty when no fight was folded in)."""
        n = self.fights
        if not n:
            return []
        ordered = self._ordered()
        out = []
        for name, q in EXAMPLES:
            rank = max(1, math.ceil(q * n))
            seen, at = 0, ordered[-1][0]
            for key, count in ordered:
                seen += count
                if seen >= rank:
                    at = key
                    break
            index, seed = self.first[at]
            outcome, standing, deaths, _, _ = at
            out.append({"name": name, "percentile": round(q * 100), "index": index,
                        "seed": seed, "outcome": OUTCOME_WORDS[outcome],
                        "standing": standing, "deaths": -deaths})
        return out

    def spread(self, rounds: Counter) -> dict[str, Any]:
        """How bad it can get for the first side (``rounds``: the batch's rounds histogram)."""
        n, m = self.fights, self.members
        lost: Counter = Counter()
        for (_, _, deaths, _, _), count in self.counts.items():
            lost[-deaths] += count
        half = math.ceil(m / 2) if m else 1

        def chance(at_least: int) -> dict[str, Any]:
            k = sum(c for d, c in lost.items() if d >= at_least)
            lo, hi = wilson(k, n)
            return {"value": round(k / n, 6) if n else 0.0,
                    "ci95": [round(lo, 6), round(hi, 6)]}

        worst = WORST_SHARE * n
        taken, total = 0.0, 0.0
        for (_, _, deaths, _, _), count in self._ordered():
            if taken >= worst:
                break
            part = min(count, worst - taken)
            taken += part
            total += part * -deaths
        return {"side": self.side, "members": m,
                "p_lose_any": chance(1), "p_lose_half": chance(max(1, half)),
                "p_lose_all": chance(max(1, m)),
                "rounds_p10": quantile(rounds, 0.1), "rounds_p90": quantile(rounds, 0.9),
                "worst_tenth_deaths": round(total / taken, 4) if taken else 0.0}
