"""Campaign outputs people read: the batch table, the compare report, the solo story."""

from __future__ import annotations

import io
import textwrap
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from sim.core.words import count
from sim.report.log import render
from sim.report.markdown import escaped_names
from sim.results.lethality import names_text, tied
from sim.results.stats import FEW

if TYPE_CHECKING:
    from sim.core.campaign import CampaignResult, StageOutcome
    from sim.scenario.campaign import Campaign


def _ci(m: dict[str, Any] | None) -> str:
    if m is None:
        return "n/a"
    lo, hi = m["ci95"]
    return f"{m['value']:.3f} ({lo:.3f}-{hi:.3f})"


WIDTH = 100  # the terminal columns a campaign's tables fit
FEW_NOTE = (f"* reached by fewer than {FEW} runs: the rates of that stage rest on few runs "
            f"(wide intervals)")


def _reached(s: dict[str, Any]) -> str:
    """``97 (0.970)``: the runs that came to a stage and their share; ``*`` when few."""
    few = "*" if s["reached"] < FEW else ""
    return f"{s['reached']}{few} ({s['p_reach']['value']:.3f})"


def _ended(s: dict[str, Any]) -> str:
    """``83/14/0``: how the runs that reached a stage ended there: won, lost, drawn."""
    return f"{s['won']}/{s['lost']}/{s['draw']}"


def stopped(summary: dict[str, Any]) -> str:
    """Where the runs that did not clear the campaign stopped, stage by stage.

    ``runs stopped: lost at stage 1 ambush (3), stage 3 keep_gate (11); drawn at stage 3
    keep_gate (3)``;
    '' when every run cleared it. A run stops at the first stage it does not win.
    """
    parts = []
    for outcome, word in (("lost", "lost"), ("draw", "drawn"), ("unable", "nobody fit")):
        at = [f"stage {s['stage']} {s['scenario']} ({s[outcome]})" for s in summary["stages"]
              if s.get(outcome)]
        if at:
            parts.append(f"{word} at {', '.join(at)}")
    return f"runs stopped: {'; '.join(parts)}" if parts else ""


def _print(table: Table, lines: list[str]) -> str:
    """``table`` and the lines under it, in ``WIDTH`` columns, no trailing blanks."""
    buffer = io.StringIO()
    Console(file=buffer, width=WIDTH, color_system=None).print(table)
    for line in lines:
        buffer.write(textwrap.fill(line, WIDTH, subsequent_indent="  ") + "\n")
    return "\n".join(line.rstrip() for line in buffer.getvalue().rstrip("\n").split("\n"))


def campaign_table(summary: dict[str, Any]) -> str:
    """A plain-text table of one campaign batch: each stage, then the whole campaign.

    Per stage: the runs that reached it (and their share), P(win | reached), how they ended
    there (won/lost/drawn), the party's deaths, fled and surrendered, and its fighters; a
    stage reached by fewer than ``FEW`` runs is starred. Then where the runs stopped.
    """
    title = (f"{summary['campaign']} under {summary['ruleset']}: {summary['runs']} runs, "
             f"seed {summary['seed']}, party '{summary['party']}' "
             f"({count(summary['members'], 'member')})")
    table = Table(title=title, title_justify="left")
    for column in ("stage", "rest\nafter", "reached\n(P(reach))",
                   "P(win | reached)\n95% CI", "won/lost/\ndrawn", "party\ndeaths",
                   "fled/\nsurr.", "fighting\n(mean)"):
        table.add_column(column, justify="left" if column == "stage" else "right",
                         no_wrap=column != "stage")
    for s in summary["stages"]:
        fighting = f"{s['fighters_mean']:.2f}" if s["fighters_mean"] is not None else "n/a"
        table.add_row(f"{s['stage']} {s['scenario']}", s["rest"], _reached(s),
                      _ci(s["p_win_given_reached"]), _ended(s), str(s["deaths"]),
                      f"{s.get('fled', 0)}/{s.get('surrendered', 0)}", fighting)
    o = summary["outcomes"]
    lines = [f"P(clear every stage) {_ci(summary['p_clear'])}; runs: {o['cleared']} cleared, "
             f"{o['lost']} lost, {o['draw']} drawn, {o['unable']} with nobody fit to fight",
             f"party at the end: {summary['survivors']['mean']['value']:.2f} of "
             f"{summary['members']} alive and with it on average; "
             f"{summary['deaths_per_run']['value']:.2f} deaths per run"]
    lines += [text for text in (stopped(summary),) if text]
    if any(s["reached"] < FEW for s in summary["stages"]):
        lines.append(FEW_NOTE)
    return _print(table, lines)


def compare_table(summaries: list[dict[str, Any]]) -> str:
    """How far the same party gets under each ruleset: P(reach) per stage, P(clear).

    A stage reached by fewer than ``FEW`` runs is starred; under the table, where each
    ruleset's runs stopped (lost, drawn).
    """
    first = summaries[0]
    table = Table(title=f"{first['campaign']}: {runs_text(summaries)}, seed "
                        f"{first['seed']}", title_justify="left")
    table.add_column("ruleset", no_wrap=True)
    for s in first["stages"]:
        # P(reach): "reach 1" read like a count of runs, as the campaign table's "reached" is
        table.add_column(f"P(reach)\n{s['stage']} {s['scenario']}", justify="right")
    for column in ("P(clear)\n(95% CI)", "deaths\n/run", "alive\nat end"):
        table.add_column(column, justify="right", no_wrap=True)
    for doc in summaries:
        table.add_row(doc["ruleset"],
                      *(f"{s['p_reach']['value']:.3f}{'*' if s['reached'] < FEW else ''}"
                        for s in doc["stages"]),
                      _ci(doc["p_clear"]), f"{doc['deaths_per_run']['value']:.2f}",
                      f"{doc['survivors']['mean']['value']:.2f}")
    lines = [f"{doc['ruleset']}: {stopped(doc)}" for doc in summaries if stopped(doc)]
    if any(s["reached"] < FEW for doc in summaries for s in doc["stages"]):
        lines.append(FEW_NOTE)
    return _print(table, lines)


def runs_text(summaries: list[dict[str, Any]]) -> str:
    """``400 runs per ruleset``, or, each run until sure, how many each took."""
    counts = {d["runs"] for d in summaries}
    if len(counts) == 1 and "precision" not in summaries[0]:
        return f"{summaries[0]['runs']} runs per ruleset"
    took = ", ".join(f"{d['ruleset']} {d['runs']}" for d in summaries)
    width = summaries[0].get("precision", {}).get("width")
    until = f" until every interval was within +-{width:g}" if width else ""
    return f"runs{until} ({took})"


def _clears(best: list[str], worst: list[str], clear: dict[str, float]) -> str:
    """Under which rulesets the party clears the campaign most and least often, ties named."""
    def bold(names: list[str]) -> str:
        return names_text([f"**{n}**" for n in names])

    if len(clear) == 1:
        return f"The party clears every stage in {clear[best[0]]:.1%} of runs under {bold(best)}."
    if best == worst:
        return (f"The party clears every stage equally often under {bold(best)} "
                f"({clear[best[0]]:.1%}).")
    return (f"The party clears every stage most often under {bold(best)} "
            f"({clear[best[0]]:.1%}) and least under {bold(worst)} ({clear[worst[0]]:.1%}).")


def compare_markdown(summaries: list[dict[str, Any]], chart: bool = True) -> str:
    """``report.md`` of a campaign compare: the answer first, then the numbers.

    The user's names (the campaign's, the party's, the stages') are escaped.
    """
    names = {d.get(k) for d in summaries for k in ("name", "party")}
    names |= {s.get("scenario") for d in summaries for s in d["stages"]}
    summaries = escaped_names(summaries, {n for n in names if isinstance(n, str)})
    first = summaries[0]
    clear = {d["ruleset"]: d["p_clear"]["value"] for d in summaries}
    best, worst = tied(clear, max), tied(clear, min)  # a tie names every ruleset in it
    lines = [f"# {first['name']}: how far the party gets under each ruleset", "",
             f"{runs_text(summaries).capitalize()}, seed {first['seed']}, party "
             f"'{first['party']}' ({count(first['members'], 'member')}). "
             f"{_clears(best, worst, clear)}", "",
             "P(reach) is the share of runs that came to a stage; P(win | reached) the share "
             "of those that won it; P(clear), of all runs, with its 95% Wilson interval "
             "(each ruleset's summary.json has the intervals of every stage). Deaths count "
             "the party's dead, in the fights and after them.", "",
             "| ruleset | " + " | ".join(f"stage {s['stage']} {s['scenario']}: reach / win"
                                         for s in first["stages"])
             + " | P(clear) | deaths/run | runs stopped |",
             "|---" * (len(first["stages"]) + 4) + "|"]
    for doc in summaries:
        cells = [f"{s['p_reach']['value']:.3f} / "
                 + (f"{s['p_win_given_reached']['value']:.3f}" if s["p_win_given_reached"]
                    else "n/a") + ("*" if s["reached"] < FEW else "") for s in doc["stages"]]
        lines.append(f"| {doc['ruleset']} | " + " | ".join(cells)
                     + f" | {_ci(doc['p_clear'])} | {doc['deaths_per_run']['value']:.2f} | "
                     + (stopped(doc).removeprefix("runs stopped: ") or "none: all cleared")
                     + " |")
    if any(s["reached"] < FEW for doc in summaries for s in doc["stages"]):
        lines += ["", "\\" + FEW_NOTE + "; in the chart, a hollow marker."]  # not a list item
    if chart:
        lines += ["", "![survival across stages](survival.png)"]
    lines += ["", "Each ruleset's own folder holds its summary.json and campaign.csv."]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- the solo story
def stage_head(campaign: Campaign, outcome: StageOutcome, fmt: str = "text") -> str:
    """A stage's header: its number and scenario, the party going in, who sits out."""
    stage = campaign.stages[outcome.stage - 1]
    head = (f"Stage {outcome.stage} of {len(campaign.stages)}: {stage.scenario.name} "
            f"({outcome.label})")
    out = [f"## {head}" if fmt == "markdown" else f"{'=' * 8} {head} {'=' * 8}", ""]
    if outcome.entering:
        out.append("The party goes in: "
                   + "; ".join(f"{name} {state}" for name, state in outcome.entering) + ".")
    if outcome.sat_out:
        out.append(f"Not fit to fight, sitting this one out: {', '.join(outcome.sat_out)}.")
    if outcome.entering or outcome.sat_out:
        out.append("")
    return "\n".join(out) + "\n"


def stage_text(campaign: Campaign, outcome: StageOutcome, fmt: str = "text") -> str:
    """One stage of a solo campaign: a header, the fight's log, what the rest did after."""
    out = [stage_head(campaign, outcome, fmt).rstrip("\n")]
    if outcome.outcome != "unable":
        events = [e for e in outcome.events or []  # the legend once, at the first stage
                  if e["type"] != "legend" or outcome.stage == 1]
        body = render(events, fmt)
        if fmt == "markdown":  # under the campaign's title and the stage's: two levels down
            body = "\n".join("##" + line if line.startswith("#") else line
                             for line in body.splitlines()) + "\n"
        out.append(body.rstrip("\n"))
    return "\n".join(out) + "\n" + stage_end(campaign, outcome, fmt)


def stage_end(campaign: Campaign, outcome: StageOutcome, fmt: str = "text") -> str:
    """How a stage ended for the party, who comes to after it, each member's rest before the next.

    Coming to is told here, not in the fight's log: the roll call gives the status the fight
    left (what its results count), and a member out cold then whose wounds, as the aftermath
    left them, no longer keep it down (``StageOutcome.came_to``) is awake for the next stage.
    """
    if outcome.outcome == "unable":
        return f"Nobody in {campaign.party} is fit to fight: the campaign ends here.\n"
    words = {"won": f"victory to {campaign.party}",
             "lost": f"defeat for {campaign.party}: the campaign ends here",
             "draw": "a draw: the campaign ends here"}
    out = ["", _bold(f"Stage {outcome.stage}: {words[outcome.outcome]}.", fmt)]
    if outcome.came_to:
        out += ["", _bold("Coming to after the fight (unconscious when it ended, as the roll "
                          "call says, but no longer kept down by their wounds):", fmt)]
        for name, state in outcome.came_to:
            text = f"{name} comes to ({state})"
            out.append(f"- {text}" if fmt == "markdown" else f"  {text}")
    if outcome.recovery:
        rest = campaign.stages[outcome.stage - 1].rest
        out += ["", _bold(f"Between stages: {_rest_words(rest)}", fmt)]
        for name, said in outcome.recovery:  # a ruleset that says nothing: why, from the rest
            text = "; ".join(said) if said else ("no rest: nothing changes" if rest == "none"
                                                 else "this rest heals nothing")
            out.append(f"- {name}: {text}" if fmt == "markdown" else f"  {name}: {text}")
    return "\n".join(out) + "\n"


def _bold(text: str, fmt: str) -> str:
    return f"**{text}**" if fmt == "markdown" else text


def _rest_words(rest: str) -> str:
    return {"none": "no rest, straight on", "short": "a short rest (an hour)",
            "long": "a long rest (a night and a day)"}[rest]


def ending_text(campaign: Campaign, result: CampaignResult, fmt: str = "text") -> str:
    """The end of a solo campaign: how far the party got and each member's fate."""
    if result.cleared:
        n = result.total_stages
        head = (f"The campaign is cleared: {campaign.party} won "
                f"{'its one stage' if n == 1 else f'all {n} stages'}.")
    else:
        head = (f"The campaign ends at stage {result.reached} of {result.total_stages} "
                f"({result.stages[-1].outcome}).")
    out = ["", _bold(head, fmt), "", _bold("The party at the end:", fmt)]
    for name, fate in result.fates:
        out.append(f"- {name}: {fate}" if fmt == "markdown" else f"  {name}: {fate}")
    return "\n".join(out) + "\n"
