"""``fray campaign``: many runs of a campaign on the batch machinery, and campaign compares.

Run *i* of a batch seeded *S* has the seed ``encounter_seed(S, i)``, and its first stage
fights with that very seed: a one-stage campaign fights ``fray batch``'s encounters. Runs
go in chunks on any executor, stream to ``campaign.csv`` and resume exactly as encounters do
(``sim.batch.runner`` with the ``CAMPAIGN`` work). ``summary.json`` is the campaign tally's
(``sim.results.campaign``); the chart is the party's survival across stages.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path
from typing import Any

from sim.batch import files
from sim.batch.chunks import Work, fold_csv
from sim.batch.compare import ProgressFactory, prepare_out_dir, silent
from sim.batch.coverage import coverage_block
from sim.batch.runner import BatchSpec, finished_here, run_tally, summary_of
from sim.core.campaign import CampaignResult, run_campaign
from sim.core.seeds import encounter_seed
from sim.report import charts
from sim.report.campaign import compare_markdown
from sim.results.campaign import CampaignTally, StageFold
from sim.scenario import safefile
from sim.scenario.campaign import Campaign

CAMPAIGN_FILES = ("summary.json", "campaign.csv", "survival.png")


STAGE_COLUMNS = ("outcome", "deaths", "fighters", "rounds", "fled", "surrendered")


def columns(campaign: Campaign) -> list[str]:
    """The header of ``campaign.csv``."""
    cols = ["index", "seed", "reached", "outcome", "survivors", "deaths"]
    for k in range(1, len(campaign.stages) + 1):
        cols += [f"stage{k}_{c}" for c in STAGE_COLUMNS]
    return cols


def campaign_row(index: int, result: CampaignResult) -> dict[str, Any]:
    """One ``campaign.csv`` row for a run (stages not reached are left empty)."""
    last = result.stages[-1].outcome
    row: dict[str, Any] = {
        "index": index, "seed": result.seed, "reached": result.reached,
        "outcome": "cleared" if result.cleared else last,
        "survivors": result.survivors,
        "deaths": sum(s.deaths for s in result.stages),
    }
    for k in range(1, result.total_stages + 1):
        s = result.stages[k - 1] if k <= result.reached else None
        row[f"stage{k}_outcome"] = s.outcome if s else ""
        row[f"stage{k}_deaths"] = s.deaths if s else ""
        row[f"stage{k}_fighters"] = len(s.fighters) if s else ""
        row[f"stage{k}_rounds"] = s.rounds if s else ""
        row[f"stage{k}_fled"] = s.fled if s else ""
        row[f"stage{k}_surrendered"] = s.surrendered if s else ""
    return row


def run_rows(campaign: Campaign, ruleset: str, batch_seed: int, start: int,
             stop: int) -> list[dict[str, Any]]:
    """Runs ``start..stop-1`` of a campaign batch (the unit of work of every executor)."""
    return [campaign_row(i, run_campaign(campaign, ruleset, encounter_seed(batch_seed, i)))
            for i in range(start, stop)]


def new_tally(campaign: Campaign, ruleset: str, seed: int) -> CampaignTally:
    """An empty tally for runs of ``campaign``."""
    return CampaignTally(campaign.slug, campaign.name, digest(campaign), ruleset, seed,
                         campaign.party,
                         len(campaign.roster()),
                         [StageFold(s.label, s.rest) for s in campaign.stages])


def digest(campaign: Campaign) -> str:
    """A fingerprint of what a campaign says (its stages' scenarios included)."""
    stages = tuple(replace(s, scenario=replace(s.scenario, source=""))
                   for s in campaign.stages)
    text = repr(replace(campaign, source="", stages=stages))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def coverage(campaign: Campaign, ruleset: str) -> dict[str, Any]:
    """What was modelled in each stage (``sim.batch.coverage``), by the stage's label."""
    return {"ruleset": ruleset,
            "stages": {stage.label: coverage_block(stage.scenario, ruleset)
                       for stage in campaign.stages}}


CAMPAIGN = Work("campaign.csv", "campaign", "runs", run_rows, columns, new_tally, digest,
                coverage)


def spec_for(campaign: Campaign, ruleset: str, n: int, seed: int = 1, workers: int = 1,
             chunk_size: int = 0, executor: str = "local", scheduler: str = "local",
             precision: float = 0.0) -> BatchSpec[Campaign]:
    """The batch spec of ``n`` runs of ``campaign`` (``precision``: run until sure)."""
    return BatchSpec(campaign, ruleset, n, seed, workers, chunk_size, executor, scheduler,
                     work=CAMPAIGN, precision=precision)


def run_campaigns(spec: BatchSpec, out_dir: Path | None, progress=None, *,
                  resume: bool = False, chart: bool = True) -> dict[str, Any]:
    """Run (or resume) a campaign batch; write the chart; return ``summary.json``.

    ``resume``: a finished batch of the same runs is read back; an interrupted one goes on;
    anything else is refused (``run_tally``: no interrupted batch, or another one).
    """
    if resume and out_dir is not None and finished_here(spec, out_dir):
        tally = fold_csv(out_dir / CAMPAIGN.rows_file, spec.scenario, spec.ruleset, spec.seed,
                         CAMPAIGN)
    else:
        tally = run_tally(spec, out_dir, progress, resume=resume)
    summary = summary_of(spec, tally)
    if chart and out_dir is not None:
        draw_survival(out_dir, [summary])
    return summary


def draw_survival(out_dir: Path, summaries: list[dict[str, Any]]) -> Path:
    """``survival.png`` in ``out_dir``: how far the party gets, one line per summary."""
    with files.atomic_path(out_dir / "survival.png") as tmp:
        charts.campaign_chart(summaries, tmp)
    return out_dir / "survival.png"


def run_compare_campaign(campaign: Campaign, rulesets: list[str], n: int, out_dir: Path, *,
                         seed: int = 1, workers: int = 1, chart: bool = True,
                         progress: ProgressFactory | None = None, resume: bool = False,
                         precision: float = 0.0) -> list[dict[str, Any]]:
    """The campaign under each ruleset, same run seeds: how far the same party gets.

    One subfolder per ruleset as ``fray campaign`` writes it; at the top ``report.md`` and
    ``survival.png`` (every ruleset's survival across stages in one chart).
    """
    prepare = progress or silent
    summaries = []
    for name in rulesets:
        spec = spec_for(campaign, name, n, seed, workers, precision=precision)
        sub = out_dir / name
        safefile.make_dir(sub)  # named by fray: never through a planted link
        # resuming a comparison: a ruleset finished or interrupted goes on, the rest start
        again = resume and (files.read_state(sub) is not None or finished_here(spec, sub))
        with prepare(f"{campaign.slug} [{name}]") as advance:
            summaries.append(run_campaigns(spec, sub, advance, resume=again, chart=chart))
    if chart:
        draw_survival(out_dir, summaries)
    files.write_text(out_dir / "report.md", compare_markdown(summaries, chart=chart))
    return summaries


__all__ = ["CAMPAIGN", "CAMPAIGN_FILES", "draw_survival", "prepare_out_dir", "run_campaigns",
           "run_compare_campaign", "spec_for"]
