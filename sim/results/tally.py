"""One tally of encounter rows, from which ``summary.json`` and the lethality metrics come.

``Tally`` folds ``encounters.csv`` rows (as ``sim.batch.chunks.result_row`` makes them, or as
read back by ``csv.DictReader``) one at a time, each row once, and keeps only counters, sums,
sums of squares, cross-products and histograms, so its memory stays flat however many
encounters are folded in. Every sum is a whole number, so tallies of chunks merge exactly:
a batch folded in workers and merged in chunk order, or folded row by row from its CSV,
gives the same ``summary()`` and ``lethality()`` to the byte.

- ``Tally.summary()``: the ``summary.json`` document (DESIGN.md, contracts);
- ``Tally.lethality()``: the ruleset's entry in ``lethality.json``, every metric with a 95%
  interval by a method of ``sim.results.stats.METHODS``.

Deaths are split three ways (docs/deaths.md): in the fight; after it among the tended;
after it among those nobody tended (the scenario's ``aftermath: {tend: own|all|none}``,
nobody after a draw). ``Tally.aftermath()`` gives the split and what ``tend: all`` would
change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sim.results.examples import ResultFold
from sim.results.fighters import FighterFold
from sim.results.stats import (
    RatioSums,
    histogram_sums,
    median,
    metric,
    normal_ci,
    quantile,
    wilson,
)

LEFT_SHOWN = 3  # combatants a summary names as left standing most often in draws
COUNT_KEYS = ("wins", "deaths", "deaths_after", "out_of_fight", "fled", "surrendered",
              "attacks", "hits", "damaging_hits", "damage")


@dataclass
class SideFold:
    """One side's (or all sides') numbers over a batch."""

    members: int
    wins: int = 0
    any_death: int = 0
    fled: int = 0  # counted, not rated: out of the fight alive, by morale
    surrendered: int = 0
    damaging_hits: int = 0  # counted: hits that dealt damage (not stopped by armor whole)
    deaths: RatioSums = field(default_factory=RatioSums)   # (deaths, members)
    after: RatioSums = field(default_factory=RatioSums)    # (deaths after the fight, members)
    # (deaths after the fight of members nobody tended, members); of them, those after a draw
    untended: RatioSums = field(default_factory=RatioSums)
    untended_in_draws: int = 0
    out: RatioSums = field(default_factory=RatioSums)      # (out, members)
    died: RatioSums = field(default_factory=RatioSums)     # (deaths, out)
    hits: RatioSums = field(default_factory=RatioSums)     # (hits, attacks)
    damage: RatioSums = field(default_factory=RatioSums)   # (damage, hits)
    # members still fighting after round r, for r up to each fight's last round
    alive_sum: list[int] = field(default_factory=list)
    alive_sq: list[int] = field(default_factory=list)
    # (last round, members still fighting when it ended) -> fights: the flat tail of each
    # curve (the fight's end, not the scene's: the aftermath wakes and kills after it)
    tail: Counter = field(default_factory=Counter)

    def add(self, rounds: int, deaths: int, after: int, out: int, attacks: int, hits: int,
            damage: int, out_rounds: list[int]) -> None:
        """Fold in one encounter's numbers for this side (``out_rounds`` sorted).

        ``deaths`` counts to the end of the scene, ``after`` those of them after the fight.
        """
        m = self.members
        if deaths:
            self.any_death += 1
        self.deaths.add(deaths, m)
        self.after.add(after, m)
        self.out.add(out, m)
        self.died.add(deaths, out)
        self.hits.add(hits, attacks)
        self.damage.add(damage, hits)
        self._grow(rounds)
        gone, k, left = 0, 0, len(out_rounds)
        for r in range(1, rounds + 1):
            while k < left and out_rounds[k] <= r:
                gone += 1
                k += 1
            alive = m - gone
            self.alive_sum[r - 1] += alive
            self.alive_sq[r - 1] += alive * alive
        self.tail[(rounds, m - left)] += 1  # still fighting when the fight ended

    def merge(self, other: SideFold) -> None:
        """Add the same side's fold of other encounters."""
        for key in ("wins", "any_death", "fled", "surrendered", "damaging_hits",
                    "untended_in_draws"):
            setattr(self, key, getattr(self, key) + getattr(other, key))
        for key in ("deaths", "after", "untended", "out", "died", "hits", "damage"):
            getattr(self, key).merge(getattr(other, key))
        self._grow(len(other.alive_sum))
        for r, (s, sq) in enumerate(zip(other.alive_sum, other.alive_sq, strict=True)):
            self.alive_sum[r] += s
            self.alive_sq[r] += sq
        self.tail.update(other.tail)

    def _grow(self, rounds: int) -> None:
        for counts in (self.alive_sum, self.alive_sq):  # each to its own length
            if len(counts) < rounds:
                counts.extend([0] * (rounds - len(counts)))

    def counts(self) -> dict[str, int]:
        """Totals over the batch: wins, deaths, out of the fight, fled, ..., damage."""
        values = (self.wins, self.deaths.sx, self.after.sx, self.out.sx, self.fled,
                  self.surrendered, self.hits.sy, self.hits.sx, self.damaging_hits,
                  self.damage.sx)
        return {key: int(v) for key, v in zip(COUNT_KEYS, values, strict=True)}

    def death_split(self) -> dict[str, int]:
        """Deaths by when and whether tended: in the fight, after it tended and untended.

        ``deaths_after_untended_in_draws``: of the untended, those after a drawn fight (nobody
        holds the field, so ``tend: all`` would not have tended them either).
        """
        deaths, after, untended = int(self.deaths.sx), int(self.after.sx), int(self.untended.sx)
        return {"deaths_in_fight": deaths - after, "deaths_after_tended": after - untended,
                "deaths_after_untended": untended,
                "deaths_after_untended_in_draws": self.untended_in_draws}

    # ------------------------------------------------------------------ lethality metrics
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
            rate = RatioSums(n, s, n * m, sq, n * m * m, m * s).rate()
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
            "death_rate_after": self.after.rate(),
            "out_rate": self.out.rate(),
            "died_share_of_out": self.died.rate(),
            "survival": self.survival(max_round),
        }

    def metrics(self, n: int, max_round: int, split: bool = True) -> dict[str, Any]:
        """Every lethality metric of the side (``split``: the rows say who was tended)."""
        lo, hi = wilson(self.wins, n)
        return {
            "win_rate": metric(self.wins / n if n else 0.0, lo, hi, "wilson"),
            **self.lethal(n, max_round),
            "hits_per_attack": self.hits.rate(),
            "damage_per_hit": self.damage.ratio_ci(),
            "counts": self.counts(),
            **({"death_rate_after_untended": self.untended.rate(),
                "death_split": self.death_split()} if split else {}),
        }

    # ------------------------------------------------------------------ summary.json
    def totals(self, n: int, split: bool = True) -> dict[str, Any]:
        """The side's block of ``summary.json`` (``split``: the rows say who was tended)."""
        c = self.counts()
        return {
            "members": self.members,
            "win_rate": round(c["wins"] / n, 6) if n else 0,
            "win_rate_ci95": [round(x, 6) for x in wilson(c["wins"], n)],
            "attacks": c["attacks"],
            "hits": c["hits"],
            "damaging_hits": c["damaging_hits"],
            "hit_rate": round(c["hits"] / c["attacks"], 6) if c["attacks"] else None,
            "deaths": c["deaths"],
            "deaths_in_fight": c["deaths"] - c["deaths_after"],
            "deaths_after": c["deaths_after"],
            **{key: value for key, value in self.death_split().items()
               if split and key != "deaths_in_fight"},
            "out_of_fight": c["out_of_fight"],
            "fled": c["fled"],
            "surrendered": c["surrendered"],
            "damage": c["damage"],
            "damage_per_hit": round(c["damage"] / c["hits"], 6) if c["hits"] else None,
        }


@lru_cache(maxsize=256)
def _side_keys(name: str) -> tuple[tuple[str, ...], tuple[str, ...], str, str]:
    """A side's columns that ``Tally.add`` reads (made once per side, not per row)."""
    return (tuple(f"{name}_{key}" for key in ("deaths", "out", "attacks", "hits")),
            tuple(f"{name}_{key}" for key in ("deaths_after", "damage", "fled", "surrendered")),
            f"{name}_out_rounds", f"{name}_deaths_after_untended")


def _side_numbers(row: dict[str, Any], name: str) -> tuple[list[int], list[int]]:
    """``[deaths, after, out, attacks, hits, damage, fled, surrendered]``, the out rounds.

    Rows written before the aftermath was counted have no ``deaths_after``: 0.
    """
    (deaths, out, attacks, hits), (after, damage, fled, surrendered), rounds, _ = \
        _side_keys(name)
    get = row.get
    numbers = [int(row[deaths]), int(get(after) or 0), int(row[out]), int(row[attacks]),
               int(row[hits]), int(get(damage) or 0), int(get(fled) or 0),
               int(get(surrendered) or 0)]
    text = get(rounds) or ""
    return numbers, [int(x) for x in str(text).split()]


@dataclass
class Tally:
    """A batch of one scenario under one ruleset, folded one ``encounters.csv`` row at a time."""

    scenario: str
    ruleset: str
    seed: int
    sides: dict[str, SideFold]
    overall: SideFold
    encounters: int = 0
    draws: int = 0
    rounds: Counter = field(default_factory=Counter)
    first: Counter = field(default_factory=Counter)  # first casualty round; 0 = none
    fighters: dict[str, FighterFold] = field(default_factory=dict)  # by name, file order
    digest: str | None = None  # what the scenario says (a resume checks it)
    tend: str | None = None  # the scenario's ``aftermath: {tend: ...}``: own, all or none
    unsplit: int = 0  # rows that do not say who was tended (written before they did)
    # each side's members still in the fight when a drawn fight ended, over the draws
    draw_standing: Counter = field(default_factory=Counter)
    # the first side's result in each fight: the examples and the spread (None: no side)
    results: ResultFold | None = None

    @classmethod
    def for_sides(cls, scenario: str, ruleset: str, seed: int, members: dict[str, int],
                  fighters: Sequence[tuple[str, str]] = (), digest: str | None = None,
                  tend: str | None = None) -> Tally:
        """An empty tally for sides with the given member counts (in file order).

        ``fighters``: every combatant's ``(name, side)``, for the per-fighter results;
        ``digest``: the scenario's fingerprint, recorded in ``summary.json``; ``tend``: who
        the scenario has tended after the fight (``own``, ``all``, ``none``).
        """
        names = list(members)
        return cls(scenario, ruleset, seed,
                   {name: SideFold(m) for name, m in members.items()},
                   SideFold(sum(members.values())),
                   fighters={name: FighterFold(name, side) for name, side in fighters},
                   digest=digest, tend=tend,
                   results=(ResultFold(names[0], tuple(names[1:]), members[names[0]])
                            if names else None))

    def add(self, row: dict[str, Any]) -> None:
        """Fold in one ``encounters.csv`` row (ints or the strings ``csv`` reads)."""
        self.encounters += 1
        rounds = int(row["rounds"])
        self.rounds[rounds] += 1
        self.first[int(row["first_casualty_round"])] += 1
        winner = row["winner"]
        draw = winner == "draw"
        if draw:
            self.draws += 1
        else:
            self.sides[winner].wins += 1
        total = [0] * 6
        all_out: list[int] = []
        untended_total = 0
        for name, side in self.sides.items():
            numbers, out_rounds = _side_numbers(row, name)
            deaths, after, out, attacks, hits, damage = numbers[:6]
            side.add(rounds, deaths, after, out, attacks, hits, damage, out_rounds)
            side.fled += numbers[6]
            side.surrendered += numbers[7]
            side.damaging_hits += int(row.get(f"{name}_damaging_hits") or 0)
            total = [t + v for t, v in zip(total, numbers[:6], strict=True)]
            all_out += out_rounds
            untended = self._untended(row, name, side, draw)
            untended_total += untended
            if draw:  # in the fight at its end: not among those out when it ended
                self.draw_standing[name] += side.members - len(out_rounds)
        all_out.sort()
        deaths, after, out, attacks, hits, damage = total
        self.overall.add(rounds, deaths, after, out, attacks, hits, damage, all_out)
        self.overall.untended.add(untended_total, self.overall.members)
        if draw:
            self.overall.untended_in_draws += untended_total
        for fighter in self.fighters.values():
            fighter.add(row)
        if self.results is not None:
            self.results.add(row)

    def _untended(self, row: dict[str, Any], name: str, side: SideFold, draw: bool) -> int:
        """Fold in a side's deaths after the fight among the untended; return them.

        A row without the column (written before it existed) counts in ``unsplit``.
        """
        value = row.get(_side_keys(name)[3])
        if value is None or value == "":
            self.unsplit += 1
            value = 0
        untended = int(value)
        side.untended.add(untended, side.members)
        if draw:
            side.untended_in_draws += untended
        return untended

    def aftermath(self) -> dict[str, Any] | None:
        """Deaths split by when and whether tended, all sides together; None if unknown.

        ``tend``: the scenario's setting; ``tend_all_would_tend``: the deaths after the
        fight among the untended that ``tend: all`` would have tended (all but those after
        a draw: nobody holds the field then). Unknown (None) when some rows predate the
        split (``unsplit``).
        """
        if self.unsplit:
            return None
        split = self.overall.death_split()
        n = self.encounters
        return {"tend": self.tend, **split,
                "tend_all_would_tend": (0 if self.tend == "all" else
                                        split["deaths_after_untended"]
                                        - split["deaths_after_untended_in_draws"]),
                **{f"{key}_per_encounter": round(value / n, 6) if n else 0
                   for key, value in split.items() if key != "deaths_after_untended_in_draws"}}

    def draws_block(self) -> dict[str, Any]:
        """Who was left when fights ended drawn (the round limit, or nobody standing).

        ``fights``: the drawn fights; ``standing``: each side's members still in the fight
        when it ended, over all of them; ``left_most_often``: the combatants on their feet
        at the end of the scene (the aftermath done) in the most draws (up to
        ``LEFT_SHOWN``, most first, ties by name).
        """
        standing = {name: self.draw_standing[name] for name in self.sides}
        left = sorted((f for f in self.fighters.values() if f.standing_in_draws),
                      key=lambda f: (-f.standing_in_draws, f.name))[:LEFT_SHOWN]
        return {"fights": self.draws, "standing": standing,
                "left_most_often": [[f.name, f.standing_in_draws] for f in left]}

    @property
    def count(self) -> int:
        """Rows folded in (encounters)."""
        return self.encounters

    def merge(self, other: Tally) -> None:
        """Add another tally of the same batch (e.g. a chunk's, folded in a worker)."""
        self.encounters += other.encounters
        self.draws += other.draws
        self.unsplit += other.unsplit
        self.rounds.update(other.rounds)
        self.first.update(other.first)
        self.draw_standing.update(other.draw_standing)
        for name, side in self.sides.items():
            side.merge(other.sides[name])
        self.overall.merge(other.overall)
        for name, fighter in self.fighters.items():
            fighter.merge(other.fighters[name])
        if self.results is not None and other.results is not None:
            self.results.merge(other.results)

    def summary(self) -> dict[str, Any]:
        """The ``summary.json`` document (see DESIGN.md, contracts)."""
        n = self.encounters
        deaths, members = int(self.overall.deaths.sx), self.overall.members
        after = int(self.overall.after.sx)
        split = self.aftermath()
        _, rounds_total, _ = histogram_sums(self.rounds)
        return {
            "scenario": self.scenario,
            **({"digest": self.digest} if self.digest else {}),
            "ruleset": self.ruleset,
            "encounters": n,
            "seed": self.seed,
            "outcomes": {**{name: s.wins for name, s in self.sides.items()}, "draw": self.draws},
            **({"draws": self.draws_block()} if self.fighters else {}),
            "rounds": {
                "mean": round(rounds_total / n, 4) if n else 0,
                "median": median(self.rounds),
                "p90": quantile(self.rounds, 0.9),
                "max": max(self.rounds) if self.rounds else 0,
            },
            "sides": {name: s.totals(n, not self.unsplit) for name, s in self.sides.items()},
            "combatants": {name: f.summary() for name, f in self.fighters.items()},
            **({"aftermath": split} if split is not None else {}),
            "lethality": {
                "deaths_per_encounter": round(deaths / n, 6) if n else 0,
                "p_any_death": round(self.overall.any_death / n, 6) if n else 0,
                "death_rate": round(deaths / (n * members), 6) if n else 0,
                "deaths_in_fight_per_encounter": round((deaths - after) / n, 6) if n else 0,
                "deaths_after_per_encounter": round(after / n, 6) if n else 0,
            },
            **({"examples": self.results.examples(),
                "spread": self.results.spread(self.rounds)} if self.results else {}),
        }

    def lethality(self) -> dict[str, Any]:
        """The ruleset's entry in ``lethality.json``."""
        n = self.encounters
        top = max(self.rounds) if self.rounds else 0
        mean, lo, hi = normal_ci(*histogram_sums(self.rounds))
        hit = Counter({r: c for r, c in self.first.items() if r > 0})
        k, first_total, first_sq = histogram_sums(hit)
        f_mean, f_lo, f_hi = normal_ci(k, first_total, first_sq)
        share_lo, share_hi = wilson(k, n)
        draw_lo, draw_hi = wilson(self.draws, n)
        return {
            "ruleset": self.ruleset,
            "encounters": n,
            "draw_rate": metric(self.draws / n if n else 0.0, draw_lo, draw_hi, "wilson"),
            **({"draws": self.draws_block()} if self.fighters else {}),
            "rounds": {"mean": metric(mean, lo, hi, "normal"), "median": median(self.rounds),
                       "p90": quantile(self.rounds, 0.9), "max": top,
                       "histogram": {str(r): self.rounds[r] for r in sorted(self.rounds)}},
            "first_casualty": {
                "mean": metric(f_mean, f_lo, f_hi, "normal"),
                "median": median(hit), "p90": quantile(hit, 0.9),
                "share_with_casualty": metric(k / n if n else 0.0, share_lo, share_hi,
                                              "wilson"),
            },
            "sides": {name: s.metrics(n, top, not self.unsplit)
                      for name, s in self.sides.items()},
            "overall": self.overall.lethal(n, top),
            "combatants": {name: f.summary() for name, f in self.fighters.items()},
            **({"aftermath": split} if (split := self.aftermath()) is not None else {}),
        }
