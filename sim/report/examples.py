"""A batch's example fights and its spread, as the terminal and the reports say them.

The numbers come from ``summary.json`` (``examples``, ``spread``: ``sim.results.examples``,
told by ``sim.batch.examples``); here they become lines a game master reads under the batch
table.
"""

from __future__ import annotations

import textwrap
from typing import Any

from sim.report.tables import WIDTH


def replay_command(summary: dict[str, Any], example: dict[str, Any],
                   scenario_file: str = "SCENARIO") -> str:
    """The command that fights ``example`` again, blow by blow."""
    return (f"fray run {scenario_file} --ruleset {summary['ruleset']} "
            f"--seed {example['seed']}")


def examples_lines(summary: dict[str, Any]) -> list[str]:
    """One line per example fight, worst first: name, percentile, index, seed, story."""
    shown = summary.get("examples") or []
    if not shown:
        return []
    side = (summary.get("spread") or {}).get("side", "the first side")
    lines = [f"the fights behind the numbers (by the result of {side}, worst first; "
             f"fray run --seed SEED replays one):"]
    for e in shown:
        head = f"  {e['name']:<8} p{e['percentile']:<2} #{e['index']} seed {e['seed']}: "
        text = e.get("story") or f"{side} {e['outcome']}"
        lines += textwrap.wrap(head + text, WIDTH, subsequent_indent=" " * 13)
    return lines


def spread_line(summary: dict[str, Any]) -> str | None:
    """How bad it can get, in one line (None when the summary has no ``spread``)."""
    s = summary.get("spread")
    if not s:
        return None
    return (f"how bad it can get for {s['side']}: lose anyone {_pct(s['p_lose_any'])}, "
            f"half or more {_pct(s['p_lose_half'])}, everyone {_pct(s['p_lose_all'])} "
            f"(to death); rounds {_num(s['rounds_p10'])}-{_num(s['rounds_p90'])} "
            f"(10th-90th percentile); the worst tenth of fights: "
            f"{s['worst_tenth_deaths']:.2f} of {s['members']} dead on average")


def _pct(block: dict[str, Any]) -> str:
    return f"{block['value']:.1%}"


def _num(x: float) -> str:
    return f"{x:g}"


def text_block(summary: dict[str, Any]) -> str:
    """The spread line and the examples, for under the batch table."""
    line = spread_line(summary)
    lines = ([] if line is None else textwrap.wrap(line, WIDTH, subsequent_indent="  "))
    return "\n".join(lines + examples_lines(summary))
