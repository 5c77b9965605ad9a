"""The pieces of a battle-map drawing: tokens, colours, sizes and plane geometry.

``sim.report.mapfigure`` draws with them; they know nothing of matplotlib.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from sim.core.battlefield import Battlefield, Position
from sim.report.palette import OKABE_ITO, colours

DPI = 110
SIDE_COLOURS = colours("blue", "vermillion", "green", "reddish purple", "orange", "sky blue",
                       "black")
"""Okabe-Ito, in the order that keeps the first two sides furthest apart."""
SIDE_MARKERS = ("o", "s", "^", "D", "v", "P", "X")
NAMED_COLOURS = {side: OKABE_ITO[name] for side, name in (
    ("blue", "blue"), ("red", "vermillion"), ("vermillion", "vermillion"), ("green", "green"),
    ("purple", "reddish purple"), ("pink", "reddish purple"), ("orange", "orange"),
    ("sky", "sky blue"), ("black", "black"))}
"""A side named after a colour gets its Okabe-Ito version (a "red" side is never blue)."""
OUT_COLOUR = "#8c8c8c"
EDGE_COLOUR = "#9a9a9a"
COVER_FILL = {"none": "#ffffff", "light": "#e3e3e3", "medium": "#b4b4b4", "heavy": "#7a7a7a"}
# a line style as matplotlib takes it: solid, or (offset, (on, off)) dashes in points
LineStyle = Literal["solid"] | tuple[float, tuple[float, float]]
VISIBILITY_LINE: dict[str, LineStyle] = {
    "clear": "solid", "poor": (0, (3.5, 2.0)), "very_poor": (0, (1.0, 1.6))}
LINE = 11.0  # points between two lines of names
NAME_SIZE, LIST_SIZE, SMALL_SIZE = 10.0, 8.5, 8.0  # font sizes (points)
PAGE_WIDTH = 10.0  # inches
MIN_PLOT_HEIGHT, MAX_PLOT_HEIGHT = 2.0, 6.5  # inches: the map without title and legend
TITLE_AND_LEGEND = 1.3  # inches
MARGIN = (70.0, 70.0, 45.0, 40.0)  # points around the outermost places: left right top bottom
BEND = 0.25  # how far a path bows around a place in its way (a share of its length)


@dataclass(frozen=True, slots=True)
class Token:
    """One fighter on a drawing: who, which side, where, and its status (``ok``: fighting)."""

    name: str
    side: str
    pos: Position
    status: str = "ok"


Frame = tuple[Token, ...]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in points on the page


def side_colours(sides: Sequence[str]) -> dict[str, str]:
    """Each side's colour: its own if it is named after one, else the next one free."""
    named: dict[str, str] = {}
    for side in sides:
        colour = NAMED_COLOURS.get(side.strip().lower())
        if colour and colour not in named.values():
            named[side] = colour
    free = [c for c in SIDE_COLOURS if c not in named.values()]
    return {side: named.get(side) or (free.pop(0) if free else SIDE_COLOURS[k % len(SIDE_COLOURS)])
            for k, side in enumerate(sides)}


def point(field: Battlefield, coords: Sequence[tuple[float, float]],
          pos: Position) -> tuple[float, float]:
    """Where a position is on the page: a node, or the point that far along its edge."""
    if pos.at_node:
        return coords[pos.a]
    share = pos.x / field.edge_len[(pos.a, pos.b)]
    (xa, ya), (xb, yb) = coords[pos.a], coords[pos.b]
    return xa + (xb - xa) * share, ya + (yb - ya) * share


def runs(names: list[str]) -> list[str]:
    """``Goblin 1, Goblin 2, Goblin 3`` -> ``Goblin 1-3`` (copies of one member, in order)."""
    out: list[str] = []
    run: tuple[str, int, int] | None = None  # stem, first and last number
    for name in [*names, None]:
        m = re.fullmatch(r"(.*) (\d+)", name) if name is not None else None
        if run and m and m.group(1) == run[0] and int(m.group(2)) == run[2] + 1:
            run = (run[0], run[1], run[2] + 1)
            continue
        if run:
            stem, first, last = run
            out.append(f"{stem} {first}" if first == last else f"{stem} {first}\u2013{last}")
            run = None
        if m:
            run = (m.group(1), int(m.group(2)), int(m.group(2)))
        elif name is not None:
            out.append(name)
    return out


# ---------------------------------------------------------------------------- geometry
def near_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float],
                  within: float = 12.0) -> bool:
    """Whether point ``p`` lies on segment a-b (within ``within`` points), between its ends."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return False
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
    if not 0.02 < t < 0.98:
        return False
    return ((a[0] + t * dx - p[0]) ** 2 + (a[1] + t * dy - p[1]) ** 2) ** 0.5 < within


def overlap(a: Box, b: Box) -> float:
    """Area (points squared) two boxes share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def inside(seg: tuple[float, float, float, float], box: Box) -> float:
    """Length of a segment inside a box (Liang-Barsky clipping)."""
    x0, y0, x1, y1 = seg
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q < 0:
                return 0.0
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
    return max(0.0, hi - lo) * (dx * dx + dy * dy) ** 0.5
