"""What was modelled, as the terminal says it and as the rules pages in ``docs/rules/`` show it.

``coverage_text``: a short block under the batch table, from ``summary.json``'s
``coverage`` (``sim.batch.coverage``). ``docs_table``: a ruleset's whole table
(``Ruleset.coverage``) in Markdown, the one its docs page holds between the markers
``<!-- coverage NAME -->`` and ``<!-- /coverage -->`` (``tests/report/test_coverage.py``
fails when they differ; ``python -m sim.report.coverage`` rewrites them).
"""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path
from typing import Any

from sim import registry
from sim.core.coverage import Rule, page_of
from sim.report.tables import WIDTH

START, END = "<!-- coverage {name} -->", "<!-- /coverage -->"


def coverage_text(block: dict[str, Any]) -> str:
    """A few lines: how many rules modelled, the options and their settings, the gaps."""
    rules = block["rules"]
    modelled = sum(r["status"] == "modelled" for r in rules)
    options = [r["setting"] for r in rules if r["status"] == "option"]
    gaps = [r["rule"].lower() for r in rules if r["status"] == "not modelled"]
    text = (f"what was modelled ({block['source']}): {modelled} rules modelled"
            + (f"; options {', '.join(options)}" if options else "")
            + (f"; not modelled: {', '.join(gaps)} (summary.json coverage says which way "
               f"each would move the numbers)" if gaps else ""))
    return "\n".join(textwrap.wrap(text, WIDTH, subsequent_indent="  "))


def compare_rows(doc: dict[str, Any]) -> list[list[str]]:
    """A comparison's ``coverage`` (one block per ruleset): a row each for ``report.md``.

    The ruleset, how many rules it models here, its options and their settings, and what
    it leaves out (each rule's note in the ruleset's ``summary.json`` says which way that
    would move the numbers).
    """
    rows = []
    for name, block in (doc.get("coverage") or {}).items():
        rules = block["rules"]
        rows.append([name, str(sum(r["status"] == "modelled" for r in rules)),
                     ", ".join(r["setting"] for r in rules if r["status"] == "option") or "-",
                     ", ".join(r["rule"].lower() for r in rules
                               if r["status"] == "not modelled") or "-"])
    return rows


COMPARE_HEADER = ["ruleset", "rules modelled", "options (settings)", "not modelled"]
COMPARE_NOTE = ("Each ruleset's summary.json (`coverage`) says which way each rule left out "
                "would move the numbers; the whole tables are on the rules pages "
                "(docs/rules/).")


def docs_table(rules: tuple[Rule, ...]) -> str:
    """A ruleset's coverage as a Markdown table (every rule, whatever the scenario)."""
    lines = ["| rule | status | option | what it does, or which way it would move the numbers |",
             "|---|---|---|---|"]
    for r in rules:
        option = f"`{r.option}`" if r.option else ""
        lines.append(f"| {r.rule} | {r.status} | {option} | {r.note} |")
    return "\n".join(lines)


def docs_page(name: str) -> Path:
    """The docs page that holds ruleset ``name``'s table (a variant shares its family's)."""
    return Path(__file__).resolve().parents[2] / page_of(registry.get(name).__module__)


def with_tables(text: str, names: list[str]) -> str:
    """``text`` (a docs page) with each named ruleset's table rewritten between its markers."""
    for name in names:
        start = START.format(name=name)
        pattern = re.compile(re.escape(start) + r"\n.*?" + re.escape(END), re.S)
        table = f"{start}\n{docs_table(registry.get(name).coverage)}\n{END}"
        text = pattern.sub(table.replace("\\", "\\\\"), text)
    return text


def main() -> None:
    """Rewrite every rules page's coverage tables from the rulesets' lists."""
    pages: dict[Path, list[str]] = {}
    for name in registry.names():
        pages.setdefault(docs_page(name), []).append(name)
    for page, names in pages.items():
        text = page.read_text()
        new = with_tables(text, names)
        if new != text:
            page.write_text(new)
            sys.stdout.write(f"rewrote {page}\n")


if __name__ == "__main__":
    main()
