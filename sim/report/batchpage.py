"""``report.html`` of a batch: the sides, how bad it can get, the fights behind the numbers.

One self-contained page (the style of ``sim.report.html``): the sides' table, the spread,
each example fight with its story and a link to its replay page (written beside it by
``fray batch --html DIR``), what was modelled (``coverage``), and each fighter's worth to
its side when ``--contribution`` asked for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from sim.report.examples import replay_command, spread_line
from sim.report.html import inline, page, table


def sides_rows(summary: dict[str, Any]) -> list[list[str]]:
    """One row per side: members, win rate (95% interval), deaths and out per fight."""
    n = summary["encounters"] or 1
    rows = []
    for name, side in summary["sides"].items():
        lo, hi = side["win_rate_ci95"]
        rows.append([name, str(side["members"]), f"{side['win_rate']:.3f} ({lo:.3f}-{hi:.3f})",
                     f"{side['deaths'] / n:.2f}", f"{side['out_of_fight'] / n:.2f}"])
    rows.append(["draw", "", f"{summary['outcomes']['draw'] / n:.3f}", "", ""])
    return rows


def examples_section(summary: dict[str, Any], pages: Mapping[str, str],
                     scenario_file: str) -> list[str]:
    """The example fights: a table, each linked to its replay page when it has one."""
    shown = summary.get("examples") or []
    if not shown:
        return []
    body = ["<h2>The fights behind the numbers</h2>",
            "<p>Real fights of this batch at the 5th, 25th, 50th, 75th and 95th percentile of "
            "the first side's result (outcome, then fighters standing, deaths, damage taken, "
            "rounds). Each replays exactly with the command beside it.</p>"]
    rows = []
    for e in shown:
        link = pages.get(e["name"])
        name = (f'<a href="{escape(link)}">{escape(e["name"])}</a>' if link
                else escape(e["name"]))
        rows.append(f"<tr><td>{name}</td><td>{e['percentile']}</td><td>{e['index']}</td>"
                    f"<td>{e['seed']}</td><td>{escape(e.get('story', e['outcome']))}</td>"
                    f"<td><code>{escape(replay_command(summary, e, scenario_file))}</code>"
                    f"</td></tr>")
    head = "".join(f"<th>{h}</th>" for h in ("fight", "percentile", "index", "seed", "story",
                                             "replay"))
    body.append(f'<div class="wide"><table class="examples"><thead><tr>{head}</tr></thead>'
                f"<tbody>{''.join(rows)}</tbody></table></div>")
    return body


def coverage_section(summary: dict[str, Any]) -> list[str]:
    """What was modelled, as ``summary.json``'s ``coverage`` lists it."""
    block = summary.get("coverage")
    if not block:
        return []
    rows = [[r["rule"], r["status"] + (f": {r['setting']}" if r.get("setting") else ""),
             r.get("note", "")] for r in block["rules"]]
    return ["<h2>What was modelled</h2>",
            f"<p>{inline(block.get('source', ''))}</p>",
            table(["rule", "status", "note"], rows)]


def contribution_section(summary: dict[str, Any]) -> list[str]:
    """Each fighter's worth to its side (``--contribution``)."""
    block = summary.get("contribution")
    if not block:
        return []
    rows = []
    for name, c in block["fighters"].items():
        lo, hi = c["win_rate_change_ci95"]
        d_lo, d_hi = c["deaths_change_ci95"]
        rows.append([name, c["side"], f"{c['win_rate']:.3f}", f"{c['win_rate_without']:.3f}",
                     f"{c['win_rate_change']:+.3f} ({lo:+.3f} to {hi:+.3f})",
                     f"{c['deaths']:.2f}", f"{c['deaths_without']:.2f}",
                     f"{c['deaths_change']:+.2f}" + ("" if d_lo is None or d_hi is None
                                                     else f" ({d_lo:+.2f} to {d_hi:+.2f})")])
    return ['<h2 id="contribution">Who matters</h2>',
            f"<p>{inline(block['note'])}.</p>",
            table(["fighter", "side", "side wins with", "without", "change (95% CI)",
                   "side deaths with", "without", "change (95% CI)"], rows)]


def variants_section(summary: dict[str, Any]) -> list[str]:
    """The scenario's variants beside the base (``variants``)."""
    block = summary.get("variants")
    if not block or not block["variants"]:
        return []
    first = block["variants"][0]
    rows = [["base", f"{first['win_rate_base']:.3f}", "", f"{first['deaths_base']:.2f}", "",
             "as the file has it", ""]]
    for v in block["variants"]:
        lo, hi = v["win_rate_change_ci95"]
        d_lo, d_hi = v["deaths_change_ci95"]
        rows.append([v["name"], f"{v['win_rate']:.3f}",
                     f"{v['win_rate_change']:+.3f} ({lo:+.3f} to {hi:+.3f})",
                     f"{v['deaths']:.2f}",
                     f"{v['deaths_change']:+.2f}" + ("" if d_lo is None or d_hi is None
                                                     else f" ({d_lo:+.2f} to {d_hi:+.2f})"),
                     v["note"], "; ".join(v["set"])])
    return ['<h2 id="variants">Variants</h2>',
            f"<p>Each variant fought on the same {block['encounters']} seeds as the batch; "
            f"the {escape(block['side'])}' wins and deaths a fight, the difference from the "
            f"base with its 95% paired interval.</p>",
            table(["variant", "wins", "vs base (95% CI)", "deaths", "vs base (95% CI)",
                   "note", "changes"], rows)]


def batch_html(summary: dict[str, Any], pages: Mapping[str, str],
               scenario_file: str = "SCENARIO") -> str:
    """The whole page; ``pages``: each example's replay page, by name, relative to it."""
    title = (f"{summary['scenario']} under {summary['ruleset']}: {summary['encounters']} "
             f"fights, seed {summary['seed']}")
    body = [f"<h1>{escape(title)}</h1>",
            table(["side", "members", "win rate (95% CI)", "deaths/fight", "out/fight"],
                  sides_rows(summary))]
    line = spread_line(summary)
    if line:
        body.append(f'<section class="answer" id="spread"><p>{escape(line)}.</p></section>')
    body += examples_section(summary, pages, scenario_file)
    body += variants_section(summary)
    body += contribution_section(summary)
    body += coverage_section(summary)
    return page(title, body)
