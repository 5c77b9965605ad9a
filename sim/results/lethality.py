"""Lethality metrics: how deadly a ruleset is, folded encounter by encounter, with intervals.

``LethalityTally`` reads ``encounters.csv`` rows (as ``sim.batch.runner.result_row`` makes them, or
as read back by ``csv.DictReader``) and keeps only sums, sums of squares, cross-products and
histograms, so its memory stays flat however many encounters are folded in.

Every metric comes with a 95% interval, by one of four methods (named in ``lethality.json``):

- ``wilson``: a proportion whose trials are whole encounters (win rate, P(at least one
  death), draws): the Wilson score interval of ``sim.results.tally.wilson``.
- ``wilson-deff``: a per-combatant or per-attack rate (death rate, out-of-fight rate, the share
  of those out who died, hits per attack, survival). Combatants of one fight are not
  independent (a wiped-out side loses everyone at once), so the rate is treated as a ratio
  estimator over encounters: its variance is ``sum((x_i - p*y_i)^2) / (sum y_i)^2`` (the delta
  method), the effective number of trials is ``p(1-p) / variance`` (never more than the real
  count; the number of encounters when the rate is 0 or 1 and there is no spread to measure)
  and the Wilson interval is taken with it. With one member per side this is exactly the
  plain Wilson interval over encounters.
- ``normal``: a mean over encounters (deaths per encounter, rounds to the end, rounds to the
  first casualty): mean +/- 1.96 sd / sqrt(n), sd from the sum and the sum of squares.
- ``delta``: damage per hit, a ratio of two per-encounter totals in the ruleset's own units:
  ratio +/- 1.96 sqrt(var), var by the delta method as above with an n/(n-1) correction.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sim.results.tally import Z95, median, quantile, wilson

METHODS = {
    "wilson": "Wilson score interval; trials are encounters",
    "wilson-deff": "Wilson score interval with an effective number of trials from the "
                   "delta-method variance of the ratio over encounters (fights are clusters; "
                   "a rate of 0 or 1 counts one trial per encounter)",
    "normal": "mean +/- 1.96 sd/sqrt(n) over encounters (sd from sums of squares)",
    "delta": "ratio +/- 1.96 sd, variance by the delta method over encounters",
}


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def metric(value: float, lo: float | None, hi: float | None, method: str) -> dict[str, Any]:
    """A metric as stored in ``lethality.json``: value, 95% interval and method."""
    return {"value": _r(value), "ci95": [_r(lo), _r(hi)], "method": method}


def normal_ci(n: int, total: float, total_sq: float,
              z: float = Z95) -> tuple[float, float | None, float | None]:
    """``(mean, lo, hi)`` of a sample given its size, sum and sum of squares.

    The interval is mean +/- z * sd / sqrt(n) with the sample sd (n - 1); None below two
    values, where there is no spread to measure.
    """
    if n <= 0:
        return 0.0, None, None
    mean = total / n
    if n < 2:
        return mean, None, None
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


@dataclass
class RatioSums:
    """Per-encounter pairs ``(x_i, y_i)`` folded into sums, for the ratio ``sum x / sum y``."""

    n: int = 0
    sx: float = 0
    sy: float = 0
    sxx: float = 0
    syy: float = 0
    sxy: float = 0

    def add(self, x: float, y: float) -> None:
        """Fold in one encounter's pair."""
        self.n += 1
        self.sx += x
        self.sy += y
        self.sxx += x * x
        self.syy += y * y
        self.sxy += x * y

    @property
    def ratio(self) -> float:
        """``sum x / sum y`` (0 when nothing was counted)."""
        return self.sx / self.sy if self.sy else 0.0

    def variance(self) -> float:
        """Delta-method variance of the ratio: ``sum((x_i - R y_i)^2) / (sum y)^2``."""
        if not self.sy:
            return 0.0
        r = self.ratio
        resid = self.sxx - 2 * r * self.sxy + r * r * self.syy
        return max(0.0, resid) / (self.sy * self.sy)

    def rate(self) -> dict[str, Any]:
        """The ratio as a proportion, with the design-effect Wilson interval."""
        p, trials = self.ratio, self.sy
        if trials <= 0:
            return metric(0.0, None, None, "wilson-deff")
        lo, hi = wilson_deff(p, trials, self.variance(), self.n)
        return metric(p, lo, hi, "wilson-deff")

    def ratio_ci(self) -> dict[str, Any]:
        """The ratio with a delta-method normal interval (any units)."""
        if self.n < 2 or not self.sy:
            return metric(self.ratio, None, None, "delta")
        half = Z95 * math.sqrt(self.variance() * self.n / (self.n - 1))
        return metric(self.ratio, self.ratio - half, self.ratio + half, "delta")

    def x_mean(self) -> dict[str, Any]:
        """The mean of ``x`` per encounter, with a normal interval."""
        return metric(*normal_ci(self.n, self.sx, self.sxx), "normal")


def wilson_deff(p: float, trials: float, variance: float,
                clusters: int) -> tuple[float, float]:
    """Wilson interval for a rate ``p`` over ``trials`` in ``clusters`` encounters.

    ``variance`` is the rate's delta-method variance over encounters. The effective number
    of trials is ``p(1-p) / variance``, capped at ``trials`` (clustering can only cost
    information here). With no spread to go on (``p`` of 0 or 1) it is the number of
    encounters: the cautious reading, as if a fight's trials all went one way.
    """
    if variance > 0 and 0 < p < 1:
        n_eff = min(trials, p * (1 - p) / variance)
    else:
        n_eff = min(trials, clusters)
    return wilson(p * n_eff, n_eff)  # wilson's arithmetic takes fractional counts


@dataclass
class SideFold:
    """One side's (or all sides') counters over a batch."""

    members: int
    wins: int = 0
    any_death: int = 0
    fled: int = 0  # counted, not rated: out of the fight alive, by morale
    surrendered: int = 0
    deaths: RatioSums = field(default_factory=RatioSums)   # (deaths, members)
    out: RatioSums = field(default_factory=RatioSums)      # (out, members)
    died: RatioSums = field(default_factory=RatioSums)     # (deaths, out)
    hits: RatioSums = field(default_factory=RatioSums)     # (hits, attacks)
    damage: RatioSums = field(default_factory=RatioSums)   # (damage, hits)
    # members still fighting after round r, for r up to each fight's last round
    alive_sum: list[int] = field(default_factory=list)
    alive_sq: list[int] = field(default_factory=list)
    # (last round, members still fighting at the end) -> fights: the flat tail of each curve
    tail: Counter = field(default_factory=Counter)

    def add(self, rounds: int, deaths: int, out: int, attacks: int, hits: int, damage: int,
            out_rounds: list[int]) -> None:
        """Fold in one encounter's numbers for this side."""
        m = self.members
        if deaths:
            self.any_death += 1
        self.deaths.add(deaths, m)
        self.out.add(out, m)
        self.died.add(deaths, out)
        self.hits.add(hits, attacks)
        self.damage.add(damage, hits)
        grow = rounds - len(self.alive_sum)
        if grow > 0:
            self.alive_sum.extend([0] * grow)
            self.alive_sq.extend([0] * grow)
        gone, k, left = 0, 0, len(out_rounds)
        for r in range(1, rounds + 1):
            while k < left and out_rounds[k] <= r:
                gone += 1
                k += 1
            alive = m - gone
            self.alive_sum[r - 1] += alive
            self.alive_sq[r - 1] += alive * alive
        self.tail[(rounds, m - out)] += 1

    def survival(self, max_round: int) -> dict[str, Any]:
        """Share of members still fighting after round r, r = 1..max_round, with intervals."""
        n, m = self.deaths.n, self.members
        values, los, his = [], [], []
        for r in range(1, max_round + 1):
            s = self.alive_sum[r - 1] if r <= len(self.alive_sum) else 0
            sq = self.alive_sq[r - 1] if r <= len(self.alive_sq) else 0
            for (last, alive), fights in self.tail.items():
                if last < r:
                    s += alive * fights
                    sq += alive * alive * fights
            sums = RatioSums(n, s, n * m, sq, n * m * m, m * s)
            rate = sums.rate()
            values.append(rate["value"])
            los.append(rate["ci95"][0])
            his.append(rate["ci95"][1])
        return {"rounds": list(range(1, max_round + 1)), "value": values, "lo": los,
                "hi": his, "method": "wilson-deff"}

    def lethal(self, n: int, max_round: int) -> dict[str, Any]:
        """Deaths, out of the fight and survival (what an "all sides" summary shows too)."""
        lo, hi = wilson(self.any_death, n)
        return {
            "members": self.members,
            "deaths_per_encounter": self.deaths.x_mean(),
            "p_any_death": metric(self.any_death / n if n else 0.0, lo, hi, "wilson"),
            "death_rate": self.deaths.rate(),
            "out_rate": self.out.rate(),
            "died_share_of_out": self.died.rate(),
            "survival": self.survival(max_round),
        }

    def summary(self, n: int, max_round: int) -> dict[str, Any]:
        """Every metric of the side."""
        lo, hi = wilson(self.wins, n)
        return {
            "win_rate": metric(self.wins / n if n else 0.0, lo, hi, "wilson"),
            **self.lethal(n, max_round),
            "hits_per_attack": self.hits.rate(),
            "damage_per_hit": self.damage.ratio_ci(),
            "counts": {"wins": self.wins, "deaths": int(self.deaths.sx),
                       "out_of_fight": int(self.out.sx), "fled": self.fled,
                       "surrendered": self.surrendered, "attacks": int(self.hits.sy),
                       "hits": int(self.hits.sx), "damage": int(self.damage.sx)},
        }


@dataclass
class LethalityTally:
    """Lethality of one ruleset on one scenario, folded one ``encounters.csv`` row at a time."""

    ruleset: str
    sides: dict[str, SideFold]
    overall: SideFold
    encounters: int = 0
    draws: int = 0
    rounds: Counter = field(default_factory=Counter)
    first: Counter = field(default_factory=Counter)  # first casualty round; 0 = none

    @classmethod
    def for_sides(cls, ruleset: str, members: dict[str, int]) -> LethalityTally:
        """An empty tally for sides with the given member counts."""
        return cls(ruleset, {name: SideFold(m) for name, m in members.items()},
                   SideFold(sum(members.values())))

    def add(self, row: dict[str, Any]) -> None:
        """Fold in one ``encounters.csv`` row (ints or the strings ``csv`` reads)."""
        self.encounters += 1
        rounds = int(row["rounds"])
        self.rounds[rounds] += 1
        self.first[int(row["first_casualty_round"])] += 1
        winner = row["winner"]
        if winner == "draw":
            self.draws += 1
        else:
            self.sides[winner].wins += 1
        tot = [0, 0, 0, 0, 0]
        all_out: list[int] = []
        for name, side in self.sides.items():
            deaths, out = int(row[f"{name}_deaths"]), int(row[f"{name}_out"])
            attacks, hits = int(row[f"{name}_attacks"]), int(row[f"{name}_hits"])
            damage = int(row.get(f"{name}_damage") or 0)
            text = row.get(f"{name}_out_rounds") or ""
            out_rounds = [int(x) for x in str(text).split()]
            side.add(rounds, deaths, out, attacks, hits, damage, out_rounds)
            side.fled += int(row.get(f"{name}_fled") or 0)
            side.surrendered += int(row.get(f"{name}_surrendered") or 0)
            for i, v in enumerate((deaths, out, attacks, hits, damage)):
                tot[i] += v
            all_out += out_rounds
        all_out.sort()
        self.overall.add(rounds, *tot, all_out)

    def summary(self) -> dict[str, Any]:
        """The ruleset's entry in ``lethality.json``."""
        n = self.encounters
        top = max(self.rounds) if self.rounds else 0
        mean, lo, hi = normal_ci(n, sum(r * c for r, c in self.rounds.items()),
                                 sum(r * r * c for r, c in self.rounds.items()))
        hit = Counter({r: c for r, c in self.first.items() if r > 0})
        k = sum(hit.values())
        f_mean, f_lo, f_hi = normal_ci(k, sum(r * c for r, c in hit.items()),
                                       sum(r * r * c for r, c in hit.items()))
        share_lo, share_hi = wilson(k, n)
        draw_lo, draw_hi = wilson(self.draws, n)
        return {
            "ruleset": self.ruleset,
            "encounters": n,
            "draw_rate": metric(self.draws / n if n else 0.0, draw_lo, draw_hi, "wilson"),
            "rounds": {"mean": metric(mean, lo, hi, "normal"), "median": median(self.rounds),
                       "p90": quantile(self.rounds, 0.9), "max": top,
                       "histogram": {str(r): self.rounds[r] for r in sorted(self.rounds)}},
            "first_casualty": {
                "mean": metric(f_mean, f_lo, f_hi, "normal"),
                "median": median(hit), "p90": quantile(hit, 0.9),
                "share_with_casualty": metric(k / n if n else 0.0, share_lo, share_hi,
                                              "wilson"),
            },
            "sides": {name: s.summary(n, top) for name, s in self.sides.items()},
            "overall": self.overall.lethal(n, top),
        }


# ---------------------------------------------------------------------------- the verdict
def verdict(rulesets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A plain-language comparison computed from the per-ruleset summaries.

    The side is the one with the most deaths over all rulesets; the most and least lethal
    rulesets are those with the highest and lowest death rate per combatant for that side.
    Their 95% intervals overlapping reads "about as often"; otherwise the ratio of the rates.
    """
    names = list(rulesets)
    if not names:
        return {"text": "nothing was run"}
    sides = list(rulesets[names[0]]["sides"])
    totals = {s: sum(rulesets[r]["sides"][s]["counts"]["deaths"] for r in names) for s in sides}
    side = max(sides, key=lambda s: totals[s])  # first listed on a tie
    fights = sum(rulesets[r]["encounters"] for r in names)
    if totals[side] == 0:
        return {"side": None, "text": f"nobody died under any ruleset ({fights} fights)"}
    rate = {r: rulesets[r]["sides"][side]["death_rate"] for r in names}
    most = max(names, key=lambda r: rate[r]["value"])
    least = min(names, key=lambda r: rate[r]["value"])
    hi_rate, lo_rate = rate[most]["value"], rate[least]["value"]
    out = {"side": side, "most": most, "least": least, "most_rate": hi_rate,
           "least_rate": lo_rate, "most_ci95": rate[most]["ci95"],
           "least_ci95": rate[least]["ci95"], "overlap": None, "ratio": None}
    # one member: "the fencer dies"; several: "the heroes die"
    die, they = ("die", "they") if rulesets[most]["sides"][side]["members"] > 1 else \
        ("dies", "it")
    if len(names) == 1:
        out["text"] = (f"under {most} the {side} {die} at a rate of {hi_rate:.3f} per "
                       f"combatant per fight (one ruleset, nothing to compare)")
        return out
    most_lo, least_hi = rate[most]["ci95"][0], rate[least]["ci95"][1]
    overlap = most == least or most_lo is None or least_hi is None or most_lo <= least_hi
    out["overlap"] = overlap
    numbers = f"death rate per combatant {hi_rate:.3f} vs {lo_rate:.3f}"
    if overlap:
        out["text"] = (f"under {most} the {side} {die} about as often as under {least} "
                       f"({numbers}; the 95% intervals overlap)")
    elif lo_rate == 0:
        out["text"] = (f"under {most} the {side} {die} ({numbers}), under {least} {they} "
                       f"never died in {rulesets[least]['encounters']} fights")
    else:
        out["ratio"] = round(hi_rate / lo_rate, 6)
        out["text"] = (f"under {most} the {side} {die} {times(hi_rate / lo_rate)} as often "
                       f"as under {least} ({numbers})")
    return out


def times(ratio: float) -> str:
    """A ratio as ``2.4×``: two decimals below 1.1, none from 10 on (``40×``).

    Two decimals near 1 so that a small but real difference does not read ``1.0×``.
    """
    if ratio < 1.095:
        return f"{ratio:.2f}×"
    return f"{ratio:.1f}×" if ratio < 9.95 else f"{ratio:.0f}×"


def document(scenario: str, n: int, seed: int,
             tallies: dict[str, LethalityTally]) -> dict[str, Any]:
    """The whole ``lethality.json``: per-ruleset metrics, the verdict, the methods."""
    rulesets = {name: t.summary() for name, t in tallies.items()}
    return {"scenario": scenario, "encounters": n, "seed": seed,
            "rulesets": rulesets, "verdict": verdict(rulesets), "methods": METHODS}
