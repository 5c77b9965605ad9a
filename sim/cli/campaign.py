"""``fray campaign``: a party through a chain of fights, many times, told once, or played."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from sim.batch import files
from sim.batch.campaign import CAMPAIGN_FILES, digest, draw_survival, run_campaigns, spec_for
from sim.batch.executors import say
from sim.batch.precision import DEFAULT as DEFAULT_PRECISION
from sim.batch.precision import stop_text
from sim.batch.runner import finished_here
from sim.cli import params, records
from sim.cli.play import Player
from sim.core.campaign import run_campaign
from sim.core.words import count
from sim.report import replay
from sim.report.campaign import (
    campaign_table,
    ending_text,
    stage_end,
    stage_head,
    stage_text,
)
from sim.report.log import render
from sim.scenario.campaign import Campaign, load_campaign
from sim.scenario.errors import FrayInputError

if TYPE_CHECKING:
    from sim.core.campaign import StageOutcome
    from sim.core.engine import Encounter

ROAD = "scenarios/campaigns/road_to_the_keep.yaml"
EPILOG_CAMPAIGN = (f"Example: fray campaign {ROAD} -n 2000 --workers 2. "
                   f"Told once: fray campaign {ROAD} --solo --seed 7. "
                   f"Played: fray campaign {ROAD} --as Kestrel --output journal.md; "
                   f"again: fray campaign {ROAD} --replay journal.md.record.json")


@click.command(epilog=EPILOG_CAMPAIGN)
@click.argument("campaign_file", metavar="CAMPAIGN", type=click.Path(),
                callback=params.bundled_file)
@params.count_option(None, "Runs of the whole campaign (with --precision: the cap).")
@params.precision_option(DEFAULT_PRECISION)
@params.ruleset_option(allow_all=False, help="Ruleset (default: the campaign's).")
@params.seed_option("Batch seed (run i has a seed derived from it); with --solo or --as, "
                    "the run's own seed (campaign.csv lists each run's).")
@params.workers_option()
@params.out_option("results/<campaign>-<ruleset>-<time>")
@params.force_option("Replace results in --out (or the --output / --record file).")
@click.option("--resume", is_flag=True, help="Continue an interrupted campaign batch in --out.")
@params.executor_options("Runs")
@click.option("--solo", is_flag=True, help="Tell one whole campaign, stage by stage.")
@click.option("--as", "--play", "names", metavar="NAME[,NAME]",
              help="Play these party members through every stage; the AI runs the rest "
                   "(as fray play --as; --play is its older name).")
@click.option("--format", "fmt", type=click.Choice(("text", "markdown")), default="text",
              show_default=True, help="How --solo or --as tells the campaign.")
@click.option("--output", "-o", type=params.FilePath(),
              help="With --solo: write the story to FILE. With --as: also write it there "
                   "as markdown (a journal).")
@records.options("--output")
@click.option("--html", "html_file", metavar="FILE",
              type=params.FilePath(),
              help="With --solo or --as: also write every stage's fight into one HTML page "
                   "to watch on its map (docs/replay.md).")
@params.rollouts_option("With --as: how many times '?' at a menu plays the fight on for "
                        "each line ('? N' at the menu: N).")
@params.all_rollouts_option()
@params.charts_option()
@params.quiet_option()
def campaign(campaign_file, count, precision, ruleset, seed, workers, out_dir, force, resume,
             executor, scheduler, chunk_size, solo, names, fmt, output, record_file, replay_file,
             html_file, rollouts, all_rollouts, charts, quiet):
    """Run a party through a campaign's stages, carrying wounds and resting between.

    A run stops at the first stage the party does not win. Writes campaign.csv (one row per
    run), summary.json (per stage: reached, won, deaths, P(reach), P(win | reached) with 95%
    intervals; P(clear every stage)) and survival.png; prints a table. With --as, every
    answer is recorded (--record, or beside --output); --replay FILE plays it again.
    """
    camp = load_campaign(campaign_file)
    if solo and (names or replay_file):
        raise FrayInputError("--as" if names else "--replay", [
            ("", "--solo tells a campaign, --as plays it (--replay plays a recorded play "
                 "again): give one of them")])
    playing = names is not None or replay_file is not None
    _only_with(solo or playing)
    for flag in ("rollouts", "all_rollouts"):
        if not playing and click.get_current_context().get_parameter_source(
                flag) is click.core.ParameterSource.COMMANDLINE:
            raise FrayInputError(f"--{flag.replace('_', '-')}", [
                ("", "sets what '?' weighs at a menu: only with --as (or --replay)")])
    if record_file is not None and not playing:
        raise FrayInputError("--record", [("", "keeps the answers of a play: only with --as "
                                               "(or --replay)")])
    if solo or playing:
        _one(camp, ruleset, seed, fmt, output, html_file, force,
             (names, record_file, replay_file) if playing else None, rollouts,
             not all_rollouts)
    else:
        _batch(camp, count, precision, ruleset, seed, workers, out_dir, force, resume,
               executor, scheduler, chunk_size, charts, quiet)


def _one(camp: Campaign, ruleset: str | None, seed: int, fmt: str, output: Path | None,
         html_file: Path | None, force: bool,
         play: tuple[str | None, Path | None, Path | None] | None,
         rollouts: int = 200, race: bool = True) -> None:
    """One run of the campaign: told (``play`` None) or played (names, record, replay).

    ``rollouts``: how many times ``?`` at a played menu plays the fight on for each line;
    ``race``: a line that could not be the best stops sooner (``sim.ai.whatif.weigh``).
    """
    if html_file is not None:
        files.claim_out_file(html_file, force)
    fights: list[dict[str, Any]] = []  # each stage's fight, for --html
    if play is None:
        if output is not None:
            files.claim_out_file(output, force)
        _solo(camp, ruleset, seed, fmt, output, fights)
    else:
        names, record_file, replay_file = play
        _play(camp, ruleset, seed, names, fmt, output, record_file, replay_file, force, fights,
              rollouts, race)
    if html_file is not None:
        title = _title(camp, ruleset, seed, "text").strip()
        files.write_out_file(html_file, replay.page(fights, title))
        click.echo(f"wrote {html_file}", err=True)


def _batch(camp: Campaign, count: int, precision: float | None, ruleset: str | None,
           seed: int, workers: int | None, out_dir: Path | None, force: bool, resume: bool,
           executor: str, scheduler: str, chunk_size: int | None, charts: bool,
           quiet: bool) -> None:
    """Many runs of the campaign: campaign.csv, summary.json, a table and a chart."""
    params.check_executor(executor, scheduler)
    params.check_resume(resume, out_dir, "campaign", force)
    name = ruleset or camp.ruleset
    target = out_dir or files.default_out_dir(camp.slug, name)
    if not resume:
        files.claim_batch_dir(target, force, writes=CAMPAIGN_FILES)
    count, precision = params.run_size(count, precision, DEFAULT_PRECISION)
    spec = spec_for(camp, name, count, seed, params.workers_or_cores(workers),
                    chunk_size or 0, executor, scheduler, precision)
    if resume and finished_here(spec, target):
        click.echo(f"{target}: already complete", err=True)
        return
    try:
        with params.progress(count, f"{camp.slug} [{name}]", quiet) as advance:
            summary = run_campaigns(spec, target, advance, resume=resume, chart=False)
    except KeyboardInterrupt:
        state = files.read_state(target)
        kept = f"{state['rows']} of {count} runs kept" if state else "nothing kept"
        say(f"interrupted: {kept} in {target}"
            + (f"; continue with the same command plus --resume --out {target}" if state else ""))
        sys.exit(130)
    click.echo(campaign_table(summary))  # the answer first, then the chart
    if "precision" in summary:
        click.echo(stop_text(summary["precision"], "runs"))
    drawn = f", {draw_survival(target, [summary])}" if charts else ""
    click.echo(f"wrote {target / 'summary.json'}, {target / 'campaign.csv'}{drawn}")


BATCH_ONLY = ("count", "precision", "out_dir", "resume", "workers", "executor", "scheduler",
              "chunk_size", "charts", "quiet")
ONE_ONLY = ("fmt", "output", "html_file")


def _only_with(one: bool) -> None:
    """Refuse options the chosen mode would silently ignore (batch vs --solo / --as)."""
    ctx = click.get_current_context()
    wrong = BATCH_ONLY if one else ONE_ONLY
    given = [p.opts[0] for p in ctx.command.params if p.name in wrong
             and ctx.get_parameter_source(p.name) is click.core.ParameterSource.COMMANDLINE]
    if given:
        why = ("--solo, --as and --replay tell one run: drop " if one else
               "only --solo, --as and --replay tell a run: add one of them, or drop ")
        raise FrayInputError(given[0], [("", why + ", ".join(given))])


def _solo(camp: Campaign, ruleset: str | None, seed: int, fmt: str, output: Path | None,
          fights: list[dict]) -> None:
    """Tell one whole campaign: every stage's fight, its aftermath, the rests between."""
    parts: list[str] = []

    def told(outcome: StageOutcome, enc: Encounter | None) -> None:
        parts.append(stage_text(camp, outcome, fmt))
        _keep_fight(camp, outcome, enc, fights)

    result = run_campaign(camp, ruleset, seed, log=True, after_stage=told)
    text = _title(camp, ruleset, seed, fmt) + "\n".join(parts) + ending_text(camp, result, fmt)
    if output is None:
        click.echo(text, nl=False)
        return
    files.write_out_file(output, text)
    click.echo(f"wrote {output}", err=True)


def _keep_fight(camp: Campaign, outcome: StageOutcome, enc: Encounter | None,
                fights: list[dict]) -> None:
    """Add a stage's fight to ``fights`` (the --html page), if there was one."""
    if enc is not None and enc.log:
        title = (f"Stage {outcome.stage} of {len(camp.stages)}: {enc.scenario.name} "
                 f"({outcome.outcome})")
        fights.append(replay.fight(enc.scenario, enc.log, title))


def _title(camp: Campaign, ruleset: str | None, seed: int, fmt: str) -> str:
    head = (f"{camp.name}: {count(len(camp.stages), 'stage')} under {ruleset or camp.ruleset}, "
            f"party '{camp.party}', seed {seed}")
    return (f"# {head}\n\n" if fmt == "markdown" else f"{head}\n\n")


def _play(camp: Campaign, ruleset: str | None, seed: int, names: str | None, fmt: str,
          journal: Path | None, record_file: Path | None, replay_file: Path | None,
          force: bool, fights: list[dict], rollouts: int = 200, race: bool = True) -> None:
    """Chain ``fray play`` through the stages for the named party members, recorded."""
    roster = camp.roster()
    begun = records.start(replay_file, names, ruleset, seed, kind="campaign", name=camp.slug,
                          digest=digest(camp), members=roster, member="party member",
                          fixed="the party members played, the ruleset and the seed")
    ruleset, seed = begun.ruleset, begun.seed
    wanted = records.played(begun.names or "", roster, "--as", "party member")
    record_file = records.claim(record_file, journal, "--output", force)
    record = records.Record("campaign", camp.slug, digest(camp), ruleset or camp.ruleset,
                            seed, tuple(wanted), menu=begun.menu)
    player = Player(begun.answers, click.echo, fmt, begun.grouped, replay_file, rollouts,
                    race, begun.asks_single)
    player.answers = records.Recorder(record_file, record)  # each answer kept as given
    click.echo(_title(camp, ruleset, seed, fmt).rstrip("\n"))
    story: list[str] = [_title(camp, ruleset, seed, "markdown")]

    current: list = []  # the stage being fought: its header and its encounter

    def start(outcome, enc) -> None:
        current[:] = [outcome, enc]
        click.echo(stage_head(camp, outcome, fmt).rstrip("\n"))

    def between(outcome, enc) -> None:
        if enc is not None:
            player.show_log(enc)  # the fight was told as it went: only its end is left
        click.echo(stage_end(camp, outcome, fmt).rstrip("\n"))
        story.append(stage_text(camp, outcome, "markdown"))
        _keep_fight(camp, outcome, enc, fights)
        current.clear()

    def keep(note: str) -> None:
        """The record and the journal as far as the play went, the stage cut short too."""
        if current:  # the fight in progress, as far as it went
            outcome, enc = current
            story.append(stage_head(camp, outcome, "markdown")
                         + render(enc.log, "markdown") + f"\n*{note}*\n")
        records.write(record_file, record, player.answers)
        _journal(journal, story)

    try:
        result = run_campaign(camp, ruleset, seed, log=True,
                              minds=dict.fromkeys(wanted, player), before_stage=start,
                              after_stage=between)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        keep("Interrupted here.")
        sys.exit(130)
    except FrayInputError:  # a bad answer in a script: keep the answers that were good
        keep("Stopped here: a refused answer.")
        raise
    click.echo(ending_text(camp, result, fmt).rstrip("\n"))
    story.append(ending_text(camp, result, "markdown"))
    records.note_unused(replay_file, begun.answers)
    records.write(record_file, record, player.answers)
    _journal(journal, story)


def _journal(path: Path | None, story: list[str]) -> None:
    if path is not None:
        files.write_out_file(path, "\n".join(story))
        click.echo(f"wrote {path}", err=True)
