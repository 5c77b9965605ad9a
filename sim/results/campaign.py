"""Campaign runs folded one ``campaign.csv`` row at a time into ``summary.json``.

A row is one run of the campaign (``sim.batch.campaign.campaign_row``): the stage reached,
the outcome, the party's survivors and deaths, and per stage ``stageK_outcome`` (won, lost,
draw, unable, or empty when not reached), ``stageK_deaths``, ``stageK_fighters``,
``stageK_rounds``, ``stageK_fled`` and ``stageK_surrendered``. Every sum is a whole number,
so tallies of chunks merge exactly.

What each number counts (``docs/campaigns.md``):
- ``reached``: runs in which the party came to the stage (won every stage before it);
  ``won``/``lost``/``draw``/``unable``: how those ended (``unable``: no member fit to fight).
- ``deaths``: party members who died in the stage, in the fight or after it (the aftermath);
  ``fled``, ``surrendered``: those whose morale broke (they leave the campaign, unless it
  lets the fled rejoin).
- ``p_reach`` = reached / runs; ``p_win_given_reached`` = won / reached (Wilson 95%
  intervals, trials are runs); ``p_clear`` = runs that won every stage / runs.
  Since a run goes on only after a win, reached(k+1) = won(k) and
  P(reach k+1) = P(reach k) x P(win k | reached k) exactly.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sim.results.stats import histogram_sums, metric, normal_ci, wilson

STAGE_OUTCOMES = ("won", "lost", "draw", "unable")
RUN_OUTCOMES = ("cleared", "lost", "draw", "unable")


@dataclass
class StageFold:
    """One stage's counts over runs."""

    label: str
    rest: str
    reached: int = 0
    outcomes: Counter = field(default_factory=Counter)
    deaths: int = 0
    fighters: int = 0  # party members who fought it, summed over runs
    fled: int = 0
    surrendered: int = 0

    def merge(self, other: StageFold) -> None:
        """Add another fold of the same stage."""
        self.reached += other.reached
        self.outcomes.update(other.outcomes)
        self.deaths += other.deaths
        self.fighters += other.fighters
        self.fled += other.fled
        self.surrendered += other.surrendered

    def summary(self, number: int, runs: int) -> dict[str, Any]:
        """The stage's entry in ``summary.json``'s ``stages``."""
        won = self.outcomes["won"]
        reach_lo, reach_hi = wilson(self.reached, runs)
        win_lo, win_hi = wilson(won, self.reached)
        return {
            "stage": number, "scenario": self.label, "rest": self.rest,
            "reached": self.reached, "won": won,
            **{k: self.outcomes[k] for k in STAGE_OUTCOMES[1:]},
            "deaths": self.deaths, "fled": self.fled, "surrendered": self.surrendered,
            "fighters_mean": round(self.fighters / self.reached, 4) if self.reached else None,
            "deaths_per_reached": (round(self.deaths / self.reached, 4) if self.reached
                                   else None),
            "p_reach": metric(self.reached / runs if runs else 0.0, reach_lo, reach_hi,
                              "wilson"),
            "p_win_given_reached": metric(won / self.reached if self.reached else 0.0,
                                          win_lo, win_hi, "wilson") if self.reached else None,
        }


@dataclass
class CampaignTally:
    """Runs of one campaign under one ruleset."""

    campaign: str
    name: str
    digest: str  # what the campaign says (its stages included): a resume checks it
    ruleset: str
    seed: int
    party: str
    members: int
    stages: list[StageFold]
    runs: int = 0
    outcomes: Counter = field(default_factory=Counter)
    survivors: Counter = field(default_factory=Counter)  # members alive with the party
    deaths: Counter = field(default_factory=Counter)  # party deaths per run

    @property
    def count(self) -> int:
        """Rows folded in (runs)."""
        return self.runs

    def add(self, row: dict[str, Any]) -> None:
        """Fold in one ``campaign.csv`` row (ints or the strings ``csv`` reads)."""
        self.runs += 1
        self.outcomes[row["outcome"]] += 1
        self.survivors[int(row["survivors"])] += 1
        self.deaths[int(row["deaths"])] += 1
        for k, stage in enumerate(self.stages, start=1):
            outcome = row[f"stage{k}_outcome"]
            if not outcome:
                continue
            stage.reached += 1
            stage.outcomes[outcome] += 1
            stage.deaths += int(row[f"stage{k}_deaths"])
            stage.fighters += int(row[f"stage{k}_fighters"])
            stage.fled += int(row.get(f"stage{k}_fled") or 0)
            stage.surrendered += int(row.get(f"stage{k}_surrendered") or 0)

    def merge(self, other: CampaignTally) -> None:
        """Add another tally of the same campaign (a chunk's, folded in a worker)."""
        self.runs += other.runs
        self.outcomes.update(other.outcomes)
        self.survivors.update(other.survivors)
        self.deaths.update(other.deaths)
        for mine, theirs in zip(self.stages, other.stages, strict=True):
            mine.merge(theirs)

    def summary(self) -> dict[str, Any]:
        """The campaign's ``summary.json``."""
        n = self.runs
        cleared = self.outcomes["cleared"]
        lo, hi = wilson(cleared, n)
        s_mean, s_lo, s_hi = normal_ci(*histogram_sums(self.survivors))
        d_mean, d_lo, d_hi = normal_ci(*histogram_sums(self.deaths))
        return {
            "campaign": self.campaign, "name": self.name, "digest": self.digest,
            "ruleset": self.ruleset,
            "runs": n, "seed": self.seed, "party": self.party, "members": self.members,
            "outcomes": {k: self.outcomes[k] for k in RUN_OUTCOMES},
            "p_clear": metric(cleared / n if n else 0.0, lo, hi, "wilson"),
            "stages": [s.summary(k, n) for k, s in enumerate(self.stages, start=1)],
            "survivors": {"mean": metric(s_mean, s_lo, s_hi, "normal"),
                          "histogram": {str(k): self.survivors[k]
                                        for k in sorted(self.survivors)}},
            "deaths_per_run": metric(d_mean, d_lo, d_hi, "normal"),
        }
