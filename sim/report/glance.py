"""The answer's small tables: who wins and who dies, one row per ruleset.

``report.md`` and ``report.html`` open with them where they once said the same in one
near-identical sentence per ruleset. Every number comes from the ``lethality.json``
document, with its 95% interval in brackets (``sim.report.numbers``).
"""

from __future__ import annotations

from typing import Any

from sim.report import deaths
from sim.report.numbers import mean_text, rate_text

# (label, header, rows, note): one small table of the answer
Glance = tuple[str, list[str], list[list[str]], str]


def who_wins(doc: dict[str, Any]) -> Glance:
    """Each side's share of fights won and the draws, under each ruleset."""
    rulesets = doc["rulesets"]
    sides = list(next(iter(rulesets.values()))["sides"])
    rows = [[name, *(rate_text(r["sides"][s]["win_rate"]) for s in sides),
             rate_text(r["draw_rate"])] for name, r in rulesets.items()]
    limit = doc.get("max_rounds")
    note = (f"A draw is a fight still on at the round limit ({limit} rounds) or one that "
            f"leaves no side standing." if limit else "")
    first = next(iter(rulesets.values()))["sides"]
    header = ["ruleset", *(f"{s} win{'s' if first[s]['members'] == 1 else ''}" for s in sides),
              "draws"]
    return "Who wins", header, rows, note


def who_dies(doc: dict[str, Any]) -> Glance:
    """Each side's deaths under each ruleset, and all sides' deaths a fight by when.

    A side of one: the share of fights it dies in; of several: its deaths a fight. Then the
    deaths a fight of all sides in the fight, after it among the tended and among the
    untended (``sim.report.deaths``), where the document records them.
    """
    rulesets = doc["rulesets"]
    first = next(iter(rulesets.values()))
    sides = first["sides"]
    header = ["ruleset"] + [f"{s} dies in" if v["members"] == 1
                            else f"{s} deaths a fight (of {v['members']})"
                            for s, v in sides.items()]
    split = all(r.get("aftermath") for r in rulesets.values())
    if split:
        header += [f"all: {label}" for _, label in deaths.PARTS]
    rows = []
    for name, r in rulesets.items():
        row = [name] + [rate_text(r["sides"][s]["p_any_death"]) if v["members"] == 1
                        else mean_text(r["sides"][s]["deaths_per_encounter"])
                        for s, v in sides.items()]
        if split:
            row += [f"{x:.2f}" for x in deaths.per_fight(r["aftermath"])]
        rows.append(row)
    note = ("Deaths count to the end of the scene; \"all:\" columns are all sides' deaths a "
            "fight, in the fight and after it, among the fallen someone tended and those "
            "left untended." if split else "Deaths count to the end of the scene.")
    return "Who dies", header, rows, note


def tables(doc: dict[str, Any]) -> list[Glance]:
    """The answer's tables, in the order shown: who wins, who dies."""
    return [who_wins(doc), who_dies(doc)]
