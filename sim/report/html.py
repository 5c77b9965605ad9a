"""``report.html``: one self-contained page for ``fray compare`` and ``fray sweep``.

The page holds the same plain-language answer and tables as ``report.md`` (the pieces come
from ``sim.report.compare``), the charts embedded as base64 PNG ``data:`` images and a short
inline style sheet: no external file, script, font or link, so it reads offline and can be
mailed as it is. Text is escaped with the standard library's ``html.escape``.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from sim.report import glance
from sim.report.compare import (
    CHARTS,
    SURVIVAL_NOTE,
    answer,
    intro,
    methods_text,
    survival_tables,
    tables,
)
from sim.report.coverage import COMPARE_HEADER, COMPARE_NOTE, compare_rows
from sim.report.sweep import grid_answer, sweep_answer, sweep_cells, sweep_header

STYLE = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1a1a1a;
       background: #fff; margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin-bottom: 0.5rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
section.answer { background: #f4f7fb; border-left: 4px solid #0072B2; padding: 0.5rem 1rem;
                 margin: 1rem 0; }
section.answer p { margin: 0.5rem 0; }
p.verdict { font-size: 1.05rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; white-space: nowrap; }
th { background: #eef1f5; text-align: left; }
td { text-align: right; }
td:first-child { text-align: left; }
.wide { overflow-x: auto; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { color: #555; font-size: 0.9rem; }
code { background: #f2f2f2; padding: 0 0.2rem; border-radius: 3px; }
""".strip()

_CODE = re.compile(r"`([^`]+)`")


def inline(text: str) -> str:
    """Escape ``text``; markdown code spans (backticks) become ``<code>``."""
    return _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", escape(text, quote=False))


def table(header: list[str], rows: list[list[str]]) -> str:
    """An HTML table (in a scrolling box for narrow screens)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>\n"
                   for row in rows)
    return (f'<div class="wide"><table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}'
            f"</tbody></table></div>")


def image(data: bytes, caption: str) -> str:
    """A PNG embedded as a ``data:`` URI, with its caption."""
    encoded = base64.b64encode(data).decode("ascii")
    return (f'<figure><img src="data:image/png;base64,{encoded}" alt="{escape(caption)}">'
            f"<figcaption>{escape(caption)}</figcaption></figure>")


def answer_section(paragraphs: list[tuple[str, str]],
                   small: Sequence[glance.Glance] = ()) -> str:
    """The plain-language answer: one ``<p>`` per paragraph, its label in bold.

    ``small``: tables shown after the first paragraph (``sim.report.glance``), each with
    its label above and its note below.
    """
    out = []
    for k, (label, text) in enumerate(paragraphs):
        bold = f"<strong>{escape(label)}.</strong> " if label else ""
        out.append(f"<p>{bold}{inline(text)}</p>")
        if k == 0:
            for title, header, rows, note in small:
                out += [f"<p><strong>{escape(title)}.</strong></p>", table(header, rows)]
                out += [f"<p>{inline(note)}</p>"] if note else []
    return '<section class="answer" id="answer">\n' + "\n".join(out) + "\n</section>"


def page(title: str, body: list[str]) -> str:
    """The whole document: inline style, no external resource."""
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>\n{STYLE}\n</style>",
        "</head>",
        "<body><main>",
        *body,
        "</main></body>",
        "</html>",
        "",
    ])


def compare_html(doc: dict[str, Any], images: Mapping[str, bytes]) -> str:
    """``report.html`` of a comparison: what ``report.md`` says, the charts embedded.

    ``images`` maps a chart's file name (``survival.png``, ...) to its PNG bytes; a chart
    not given is left out.
    """
    title = f"Lethality: {doc.get('scenario_name', doc['scenario'])}"
    body = [f"<h1>{escape(title)}</h1>", answer_section(answer(doc), glance.tables(doc)),
            f'<p class="verdict"><strong>Verdict:</strong> {inline(doc["verdict"]["text"])}.'
            f"</p>", f"<p>{inline(intro(doc))}</p>"]
    for heading, header, rows in tables(doc):
        body += [f"<h2>{escape(heading)}</h2>", table(header, rows)]
    shown = [(name, caption) for name, caption in CHARTS if name in images]
    if shown:
        body.append("<h2>Charts</h2>")
        body += [image(images[name], caption) for name, caption in shown]
    body += ["<h2>Still fighting after round r</h2>", f"<p>{escape(SURVIVAL_NOTE)}</p>"]
    for side, header, rows in survival_tables(doc):
        body += [f"<h3>{escape(side)}</h3>", table(header, rows)]
    if doc.get("coverage"):
        body += ["<h2>What was modelled</h2>", table(COMPARE_HEADER, compare_rows(doc)),
                 f"<p>{inline(COMPARE_NOTE)}</p>"]
    head, items, tail = methods_text(doc)
    body += ["<h2>How the numbers are computed</h2>", f"<p>{inline(head)}</p>",
             "<ul>" + "".join(f"<li>{inline(item)}</li>" for item in items) + "</ul>",
             f"<p>{inline(tail)}</p>"]
    return page(title, body)


def sweep_html(rows: list[dict[str, Any]], sides: list[str], path: str,
               images: Mapping[str, bytes], *, scenario: str = "",
               command: str = "", grid: tuple[list[str], list[str]] | None = None) -> str:
    """``report.html`` of a sweep: the answer, the table, ``sweep.png`` embedded.

    ``grid``: a two-way sweep's paths and their words: a heat map table, each cell's 95%
    interval on hover.
    """
    title = f"Sweep over {path}" + (f": {scenario}" if scenario else "")
    answer = sweep_answer(rows, sides, path)
    if grid is not None and len(grid[0]) == 2 and sides:
        answer += [("In two dimensions", text) for text in grid_answer(rows, sides[0], grid)]
    body = [f"<h1>{escape(title)}</h1>", answer_section(answer)]
    if command:
        body.append(f"<p>Reproduce with <code>{escape(command)}</code>.</p>")
    body += ["<h2>Rates per value (95% intervals)</h2>",
             table(sweep_header(sides, grid),
                   [sweep_cells(row, sides, grid=grid) for row in rows]),
             "<p>Win rates and draws are shares of fights; death rates are deaths per "
             "combatant per fight.</p>"]
    if grid is not None and sides:
        from sim.report.heatmap import heatmap_html
        body += ["<h2>Heat map</h2>", heatmap_html(rows, *grid, sides[0])]
    if "sweep.png" in images:
        body += ["<h2>Chart</h2>", image(images["sweep.png"], f"sweep over {path}")]
    return page(title, body)
