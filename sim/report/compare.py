"""Tables for ``fray compare``: the terminal, ``report.md`` and the answer that opens it.

Everything here reads the ``lethality.json`` document (``sim.results.lethality.document``,
methods included) or sweep rows; nothing is computed that is not already in them, so the
report and the JSON agree.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from itertools import groupby
from typing import Any

from rich.console import Console
from rich.table import Table

from sim.report import deaths, glance, reproduce
from sim.report.coverage import COMPARE_HEADER, COMPARE_NOTE, compare_rows
from sim.report.markdown import escaped_names, lethality_names
from sim.report.numbers import mean_text, percent, rate_text
from sim.results.lethality import MIN_EVENTS, names_text

Getter = Callable[[dict[str, Any]], Any]
NA = "n/a"

# (label, key in a side's summary, decimals)
SIDE_ROWS: tuple[tuple[str, str, int], ...] = (
    ("difficulty", "difficulty", 0),
    ("win rate", "win_rate", 3),
    ("deaths per fight", "deaths_per_encounter", 2),
    ("P(at least one death)", "p_any_death", 3),
    ("death rate per combatant", "death_rate", 3),
    ("  of which after the fight", "death_rate_after", 3),
    ("    left untended", "death_rate_after_untended", 3),
    ("out-of-fight rate", "out_rate", 3),
    ("share of the out who died", "died_share_of_out", 3),
    ("hits per attack", "hits_per_attack", 3),
    ("damage per hit (own unit)", "damage_per_hit", 2),
)
OVERALL_ROWS: tuple[tuple[str, Getter, int], ...] = (
    ("draws", lambda r: r["draw_rate"], 3),
    ("rounds to the end (mean)", lambda r: r["rounds"]["mean"], 2),
    ("  median / p90 / max", lambda r: _slash(r["rounds"], "median", "p90", "max"), 0),
    ("fights with a casualty", lambda r: r["first_casualty"]["share_with_casualty"], 3),
    ("first casualty round", lambda r: r["first_casualty"]["mean"], 2),
    ("  median / p90", lambda r: _slash(r["first_casualty"], "median", "p90"), 0),
    ("deaths per fight (all)", lambda r: r["overall"]["deaths_per_encounter"], 2),
    ("  in the fight", lambda r: _split(r, "deaths_in_fight"), 2),
    ("  after, tended", lambda r: _split(r, "deaths_after_tended"), 2),
    ("  after, untended", lambda r: _split(r, "deaths_after_untended"), 2),
    ("P(at least one death)", lambda r: r["overall"]["p_any_death"], 3),
    ("death rate per combatant", lambda r: r["overall"]["death_rate"], 3),
)


def _split(entry: dict[str, Any], key: str) -> str:
    """All sides' deaths a fight by when (``sim.report.deaths``); n/a where not recorded."""
    block = entry.get("aftermath")
    return f"{block[f'{key}_per_encounter']:.2f}" if block else NA


def _slash(block: dict[str, Any], *keys: str) -> str:
    """``5 / 9 / 20``: whole numbers without a decimal point (a median may be 5.5)."""
    return " / ".join(f"{block[k]:g}" for k in keys)


def cell(m: Any, digits: int, two_lines: bool = False) -> str:
    """``0.312 [0.290, 0.334]`` (or value over interval on two lines); strings pass through.

    A metric without a value (``None``: a hit rate with no attack) reads ``n/a``.
    """
    if not isinstance(m, dict):
        if m is None:
            return NA
        # two words of a span ("risky-deadly") on two lines, as a value over its interval
        return str(m).replace("-", "-\n", 1) if two_lines else str(m)
    if m["value"] is None:
        return NA
    value = f"{m['value']:.{digits}f}"
    lo, hi = m["ci95"]
    if lo is None or hi is None:
        return value
    if two_lines:
        return f"{value}\n{lo:.{digits}f}-{hi:.{digits}f}"
    return f"{value} [{lo:.{digits}f}, {hi:.{digits}f}]"


# a rate over no trials (hits per attack of a side that never attacked, the share of its
# out who died when none went out) is undefined, not 0
UNDEFINED_WITHOUT = {"hits_per_attack": "attacks", "damage_per_hit": "hits",
                     "died_share_of_out": "out_of_fight"}


def side_value(side: dict[str, Any], key: str) -> Any:
    """A side's metric, or ``n/a`` where it is undefined (no attacks: no hit rate)."""
    count = UNDEFINED_WITHOUT.get(key)
    if count is not None and side.get("counts", {}).get(count) == 0:
        return NA
    return side.get(key, NA)  # a document made before a metric existed: n/a


def _sections(doc: dict[str, Any]) -> list[tuple[str, list[tuple[str, list[Any], int]]]]:
    """``(title, rows)`` with one value per ruleset in each row, sides first."""
    rulesets = doc["rulesets"]
    first = next(iter(rulesets.values()))
    out = []
    for side in first["sides"]:
        rows = [(label, [side_value(r["sides"][side], key) for r in rulesets.values()],
                 digits)
                for label, key, digits in SIDE_ROWS]
        out.append((f"{side} ({doc['members'].get(side, '?')} per fight)", rows))
    rows = [(label, [get(r) for r in rulesets.values()], digits)
            for label, get, digits in OVERALL_ROWS]
    out.append(("the fight", rows))
    return out


def _title(doc: dict[str, Any]) -> str:
    name = doc.get("scenario_name", doc["scenario"])
    seeds = f"seed {doc['seed']}, the same encounter seeds under every ruleset"
    if doc.get("precision"):
        # the seed first: after the run-until-sure clause it read as one of "other rates"
        return f"{name}: {seeds}; {fights_text(doc)}"
    return f"{name}: {fights_text(doc)}, {seeds}"


def fights_text(doc: dict[str, Any]) -> str:
    """``2000 encounters per ruleset``, or run until sure, how many each ruleset took."""
    width = doc.get("precision")
    if not width:
        return f"{doc['encounters']} encounters per ruleset"
    took = ", ".join(f"{name} {r['encounters']}" for name, r in doc["rulesets"].items())
    return (f"encounters run until each side's win rate and death rate per combatant was "
            f"within +-{width:g} ({took}; at most {doc['encounters']} each); other rates, "
            f"such as P(at least one death), may be known less closely")


def compare_table(doc: dict[str, Any], width: int = 100) -> str:
    """The rulesets side by side with their 95% intervals, as plain terminal text."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None)
    console.print(_title(doc))
    names = list(doc["rulesets"])
    for title, rows in _sections(doc):
        table = Table(title=title, title_justify="left", show_lines=True)
        table.add_column("95% intervals", justify="left", no_wrap=True)
        for name in names:
            table.add_column(name, justify="right")
        for label, values, digits in rows:
            table.add_row(label, *(cell(v, digits, two_lines=True) for v in values))
        console.print(table)
    console.print(f"verdict: {doc['verdict']['text']}")
    after = after_fight(doc)
    if after:
        console.print(after)
    return "\n".join(line.rstrip() for line in buffer.getvalue().rstrip("\n").split("\n"))


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


# ---------------------------------------------------------------------------- the answer
def _deadliest(doc: dict[str, Any]) -> str:
    """Where it is deadliest: the rulesets from most to fewest deaths per fight.

    Rulesets with the same deaths per fight stand together, in name order, so a tie names
    them all (never one over the other by the order the rulesets were given in).
    """
    rulesets = doc["rulesets"]
    value = {n: rulesets[n]["overall"]["deaths_per_encounter"]["value"] for n in rulesets}
    ranked = sorted(value, key=lambda n: (-value[n], n))  # most deaths first, a tie by name
    groups = [list(group) for _, group in groupby(ranked, key=value.get)]

    def deaths(n: str) -> str:
        return mean_text(rulesets[n]["overall"]["deaths_per_encounter"])

    def any_death(n: str) -> str:
        return f"at least one death in {rate_text(rulesets[n]['overall']['p_any_death'])}"

    def ci(n: str) -> list[float | None]:
        return rulesets[n]["overall"]["deaths_per_encounter"]["ci95"]

    def reaches(t: str, n: str) -> bool:
        """Whether ``n``'s interval reaches up to ``t``'s (an unknown end reaches anything)."""
        low, high = ci(t)[0], ci(n)[1]
        return low is None or high is None or low <= high

    def each(group: list[str]) -> str:  # a tie: every ruleset's own interval
        return "; ".join(f"{n} {deaths(n)}, {any_death(n)} of fights" for n in group)

    top = groups[0]
    if value[top[0]] == 0:
        return "Nobody died, under any ruleset."
    if len(rulesets) == 1:
        (only,) = top
        return (f"Under {only} {deaths(only)} combatants die per fight on average, "
                f"{any_death(only)} of fights. One ruleset ran: nothing to compare.")
    if len(groups) == 1:
        return (f"Equally deadly under {names_text(top)}, {value[top[0]]:.2f} deaths per "
                f"fight each (all sides together): {each(top)}.")
    last = groups[-1]
    if len(top) == 1:
        text = (f"Deadliest under {top[0]}: {deaths(top[0])} deaths per fight (all sides "
                f"together), {any_death(top[0])} of fights")
    else:
        text = (f"Deadliest under {names_text(top)}, {value[top[0]]:.2f} deaths per fight "
                f"each (all sides together): {each(top)}")
    middle = [f"{n} {deaths(n)}" for group in groups[1:-1] for n in group]
    text += (f"; then {', '.join(middle)}; " if middle else "; ")
    if len(last) == 1:
        text += (f"least deadly under {last[0]}: {deaths(last[0])}, "
                 f"{any_death(last[0])}.")
    else:
        text += f"least deadly under {names_text(last)}: {each(last)}."
    # the next group's rulesets whose interval reaches one of the top group's
    close = [n for n in groups[1] if any(reaches(t, n) for t in top)]
    if len(top) == 1 and len(close) == 1:
        text += (f" {top[0]} and {close[0]} are not clearly apart: their 95% intervals "
                 f"overlap.")
    elif close:
        text += (f" {names_text(top)} {'is' if len(top) == 1 else 'are'} not clearly apart "
                 f"from {names_text(close)}: the 95% intervals overlap.")
    return text


def after_fight(doc: dict[str, Any]) -> str:
    """Where the deaths after the fight came from, every ruleset (``sim.report.deaths``)."""
    return deaths.explain_rulesets({name: r.get("aftermath")
                                    for name, r in doc["rulesets"].items()})


def answer(doc: dict[str, Any]) -> list[tuple[str, str]]:
    """The plain-language answer that opens the report: ``(label, text)`` paragraphs.

    What was run, under which ruleset the scenario is deadliest, and where the deaths after
    the fight came from (the aftermath setting, what ``tend: all`` would change); every
    number from ``doc``, with its 95% interval in brackets where it has one. Who wins and
    who dies are small tables (``sim.report.glance``), shown after the first paragraph.
    """
    counts = sorted({r["encounters"] for r in doc["rulesets"].values()}) or [doc["encounters"]]
    fights = (f"{counts[0]} fights under each ruleset" if len(counts) == 1 else
              f"{counts[0]} to {counts[-1]} fights a ruleset (each run until sure)")
    lead = (f"From {fights}, the same encounter seeds for all "
            f"(in brackets: 95% intervals).")
    out = [("", lead), ("Where it is deadliest", _deadliest(doc))]
    after = after_fight(doc)
    if after:
        out.append(("Deaths after the fight", after))
    drawn = round_limit(doc)
    if drawn:
        out.append(("Fights left drawn", drawn))
    return out


def round_limit(doc: dict[str, Any]) -> str:
    """How many fights each ruleset left drawn, and who was still standing in them ("" if none).

    A draw is the round limit reached (or nobody left standing); each side's members still
    in the fight when it ended (the aftermath not yet run), on average over the draws.
    """
    parts = []
    for name, r in doc["rulesets"].items():
        block = r.get("draws")
        if not block or not block["fights"]:
            continue
        k, n = block["fights"], r["encounters"]
        left = ", ".join(f"{side} {count / k:.1f}" for side, count in block["standing"].items())
        # percent(): 1 draw in 2250 fights reads 0.04%, not "0.0%" beside the table's "<0.1%"
        parts.append(f"{name} {k} of {n} ({percent(k / n)}; still in the fight when it ended, on "
                     f"average: {left})")
    if not parts:
        return ""
    return ("Fights that reached the round limit with both sides standing, or ended with "
            "nobody: " + "; ".join(parts) + ".")


def paragraph_markdown(label: str, text: str) -> str:
    """One answer paragraph in markdown: the label in bold."""
    return f"**{label}.** {text}" if label else text


# ---------------------------------------------------------------------------- report.md
# the charts of a comparison in the report: file name and caption
CHARTS = (("survival.png", "survival by round"), ("death_rate.png", "death rate per combatant"),
          ("rounds.png", "rounds to the end"))


def intro(doc: dict[str, Any]) -> str:
    """What was run and how to run it again (markdown: the command in backticks)."""
    again = reproduce.command("compare", doc.get("scenario_file", doc["scenario"]),
                              ("--rulesets", ",".join(doc["rulesets"])),
                              ("-n", doc["encounters"]), ("--precision", doc.get("precision")),
                              ("--seed", doc["seed"]))
    return _title(doc) + f". Each cell: value [95% interval]. Reproduce with `{again}`."


def tables(doc: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The side-by-side tables: ``(title, header, rows of cells)``; each combatant last."""
    names = list(doc["rulesets"])
    out = [(title, ["metric", *names],
            [[label.strip(), *(cell(v, d) for v in values)] for label, values, d in rows])
           for title, rows in _sections(doc)]
    fighters = combatant_rows(doc)
    if fighters:
        out.append(("Each combatant: how often it dies (95% interval)",
                    ["combatant", *names], fighters))
    return out


def combatant_rows(doc: dict[str, Any]) -> list[list[str]]:
    """Per combatant, its death rate under each ruleset (documents without them: none)."""
    entries = list(doc["rulesets"].values())
    first = entries[0].get("combatants") or {}
    rows = []
    for name, f in first.items():
        cells = []
        for entry in entries:
            c = (entry.get("combatants") or {}).get(name)
            if c is None or c["death_rate"] is None:
                cells.append("n/a")
                continue
            lo, hi = c["death_rate_ci95"]
            cells.append(f"{c['death_rate']:.3f} ({lo:.3f}-{hi:.3f})")
        rows.append([f"{name} ({f['side']})", *cells])
    return rows


def survival_rounds(top: int) -> list[int]:
    """The rounds a survival table shows: 1 to 5, every fifth, and the last (``top``)."""
    return sorted({r for r in range(1, top + 1) if r <= 5 or r % 5 == 0} | {top} - {0})


def survival_tables(doc: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """Still fighting after round r, per side: ``(side, header, rows)``.

    Rounds 1 to 5, every fifth and the last of the longest fight under any ruleset
    (``survival_rounds``: at most a dozen rows for a 40-round limit; ``lethality.json``
    holds every round), one column per ruleset. A ruleset whose fights all ended sooner
    keeps its last share.
    """
    names = list(doc["rulesets"])
    out = []
    for side in doc["rulesets"][names[0]]["sides"]:
        curves = [doc["rulesets"][n]["sides"][side]["survival"]["value"] for n in names]
        top = max(len(curve) for curve in curves)
        rows = [[str(r), *(f"{curve[r - 1] if r <= len(curve) else (curve or [1.0])[-1]:.3f}"
                           for curve in curves)] for r in survival_rounds(top)]
        out.append((side, ["after round", *names], rows))
    return out


SURVIVAL_NOTE = ("Share of each side's combatants still in the fight after rounds 1 to 5, "
                 "every fifth round and the last round of the longest fight; survival.png "
                 "draws every round, and lethality.json holds every round with 95% intervals "
                 "(rulesets.<ruleset>.sides.<side>.survival).")


def methods_text(doc: dict[str, Any]) -> tuple[str, list[str], str]:
    """How the numbers are computed: a paragraph, one line per method, a closing note."""
    names = list(doc["rulesets"])
    head = ("Each ruleset's numbers come from its `encounters.csv` "
            f"({', '.join(f'`{n}/encounters.csv`' for n in names)}). Damage is in each "
            "ruleset's own unit (ORE boxes, OpenD6 wounds or hit points, OpenCore hit "
            "points, B-Grade wounds and Shock), so compare it within a ruleset only.")
    items = [f"`{key}`: {text}" for key, text in doc["methods"].items()]
    tail = ("The verdict takes the side with the most deaths over all rulesets and "
            "compares its death rate per combatant under the most and the least lethal "
            "ruleset (every one of them, when several share the rate); overlapping 95% "
            "intervals read \"about as often\", and no ratio is stated unless each side "
            f"has at least {MIN_EVENTS} deaths. Deaths count to the end of the scene, split "
            "into those in the fight and those after it among the tended and the untended "
            "(the scenario's aftermath setting; docs/deaths.md).")
    return head, items, tail


def report_markdown(doc: dict[str, Any], charts: bool = True) -> str:
    """``report.md``: answer, verdict, side-by-side tables, charts, survival, methods.

    The answer holds its small tables (``sim.report.glance``) after its first paragraph.
    The user's names are escaped (``sim.report.markdown``): a name is never markup.
    """
    doc = escaped_names(doc, lethality_names(doc), texts=("text",))
    lines = [f"# Lethality: {doc.get('scenario_name', doc['scenario'])}", ""]
    paragraphs = answer(doc)
    lines += [paragraph_markdown(*paragraphs[0]), ""]
    for label, header, rows, note in glance.tables(doc):
        lines += [f"**{label}.**", "", *_md_table(header, rows), ""]
        lines += [note, ""] if note else []
    for label, text in paragraphs[1:]:
        lines += [paragraph_markdown(label, text), ""]
    lines += [f"**Verdict:** {doc['verdict']['text']}.", "", intro(doc), ""]
    for title, header, rows in tables(doc):
        lines += [f"## {title}", "", *_md_table(header, rows), ""]
    if charts:
        lines += ["## Charts", ""]
        for name, caption in CHARTS:
            lines += [f"![{caption}]({name})", ""]
    lines += ["## Still fighting after round r", "", SURVIVAL_NOTE, ""]
    for side, header, rows in survival_tables(doc):
        lines += [f"**{side}**", "", *_md_table(header, rows), ""]
    if doc.get("coverage"):
        lines += ["## What was modelled", "", *_md_table(COMPARE_HEADER, compare_rows(doc)),
                  "", COMPARE_NOTE, ""]
    head, items, tail = methods_text(doc)
    lines += ["## How the numbers are computed", "", head, ""]
    lines += [f"- {item}" for item in items]
    lines += ["", tail, ""]
    return "\n".join(lines)
