"""The figure of a battle map: places, paths, fighters and moves, labels kept apart.

``sim.report.battlemap`` says what to draw (the layout, who stands where); this module draws
it. Labels are sized in points and the map in metres, so the figure fixes a scale first
(points per metre, from the page's width and the map's shape), then places every label in
points: a list of names goes below its place, or right, above or left of it, wherever it
covers the fewest paths and labels (fighters standing close together between places share
one list); a path's length sits at its middle, or slides along it, or beside a short one,
off whatever it would hide; a path that would run through another place bows around it.
Colours are Okabe-Ito (colour-blind safe; a side named after a colour gets it), each side
has its own marker shape too, cover is a grey fill and visibility the outline of a place.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from sim.core.battlefield import Battlefield, Position
from sim.report.mapparts import (
    BEND,
    COVER_FILL,
    DPI,
    EDGE_COLOUR,
    LINE,
    LIST_SIZE,
    MARGIN,
    MAX_PLOT_HEIGHT,
    MIN_PLOT_HEIGHT,
    NAME_SIZE,
    OUT_COLOUR,
    PAGE_WIDTH,
    SIDE_MARKERS,
    SMALL_SIZE,
    TITLE_AND_LEGEND,
    VISIBILITY_LINE,
    Box,
    Frame,
    Token,
    inside,
    near_segment,
    overlap,
    point,
    runs,
    side_colours,
)


class MapFigure:
    """One figure: the map drawn once, fighters and moves on top, then saved."""

    def __init__(self, field: Battlefield, coords: Sequence[tuple[float, float]],
                 sides: Sequence[str]):
        # imported here: matplotlib is slow to import and most commands draw nothing
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        self.field, self.coords, self.sides = field, list(coords), list(sides)
        self.colours = side_colours(self.sides)
        self.fig = Figure(figsize=(PAGE_WIDTH, 6.0), layout="constrained")
        self.renderer = FigureCanvasAgg(self.fig).get_renderer()
        self.ax = self.fig.add_subplot()
        self.ax.set_axis_off()
        self.ax.set_aspect("equal", adjustable="box")
        self.taken: list[Box] = []  # what a label should not cover
        self.segments: list[tuple[float, float, float, float]] = []
        self.bend: dict[tuple[int, int], float] = {}  # paths bowed around a place in the way
        self.narrow = {node.a: width for node, width in field.narrow}  # by node index
        self.scale = 1.0  # points per metre
        self.origin = (0.0, 0.0)  # the lower left corner of the plot, in metres
        self.size = (1.0, 1.0)  # the plot, in points

    def colour(self, side: str) -> str:
        """The side's colour."""
        return self.colours[side]

    def marker(self, side: str) -> str:
        """The side's marker shape."""
        return SIDE_MARKERS[self.sides.index(side) % len(SIDE_MARKERS)]

    # ------------------------------------------------------------------ the whole picture
    def draw(self, tokens: Frame, before: Frame | None, title: str, subtitle: str) -> None:
        """Everything: map, moves (when ``before`` is given), fighters, titles, legend."""
        groups: dict[Position, list[Token]] = {}
        for t in tokens:
            groups.setdefault(Position(t.pos.a, t.pos.b, round(t.pos.x, 1)), []).append(t)
        at_nodes = {pos: self._lines(group) for pos, group in groups.items() if pos.at_node}
        self._frame(max((len(v) for v in at_nodes.values()), default=0))
        if self._bends():
            self._frame(max((len(v) for v in at_nodes.values()), default=0))  # room for bows
        self._edges()
        self._nodes()
        if before is not None:
            self._moves(before, tokens)
        between = [pos for pos in groups if not pos.at_node]
        for pos in between:  # every marker first: the lists keep off all of them
            self._markers(self._at(pos), groups[pos])
        for pos, lines in at_nodes.items():
            name = self.field.names[pos.a]
            self._fighters(self._at(pos), lines,
                           self._measure(name, NAME_SIZE, bold=True)[0] / 2 + 6, 12.0,
                           14.0 if self._terrain(name) else 0.0)
        for cluster in self._clusters(between):
            points = [self._at(pos) for pos in cluster]
            where = (sum(x for x, _ in points) / len(points),
                     sum(y for _, y in points) / len(points))
            cx, cy = self._pt(where)
            half_w = 6.0 + max(abs(self._pt(p)[0] - cx) for p in points)
            half_h = 6.0 + max(abs(self._pt(p)[1] - cy) for p in points)
            members = {t.name for pos in cluster for t in groups[pos]}
            self._fighters(where, self._lines([t for t in tokens if t.name in members]),
                           half_w, half_h, 0.0)
        self._edge_labels()
        self.fig.suptitle(title, fontsize=14, fontweight="bold")
        self.ax.set_title(subtitle, fontsize=9, color="#444444")
        start = {t.name: t.pos for t in before or ()}
        moved = any(start.get(t.name, t.pos) != t.pos for t in tokens)
        self._legend(tokens, moved)

    def save(self, path: Path, fmt: str) -> Path:
        """Write the figure as ``fmt`` (png or svg; SVG text stays text)."""
        from matplotlib import rc_context

        with rc_context({"svg.fonttype": "none"}):
            self.fig.savefig(path, dpi=DPI, format=fmt)
        return path

    # ------------------------------------------------------------------ scale and frame
    def _frame(self, lines: int) -> None:
        """The figure's size and the data limits: room for labels around the places.

        The scale comes from the page's width, unless the map is too tall for the page;
        the limits fill the plot exactly, the map in the middle.
        """
        bowed = [self._along(i, j, 0.5) for (i, j), bend in self.bend.items() if bend]
        xs = [x for x, _ in [*self.coords, *bowed]]
        ys = [y for _, y in [*self.coords, *bowed]]
        span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
        left, right, top, bottom = MARGIN
        bottom += LINE * lines
        width = 72.0 * (PAGE_WIDTH - 0.3)
        scale = (width - left - right) / span_x if span_x > 0 else 1.0
        if span_y * scale + top + bottom > 72.0 * MAX_PLOT_HEIGHT:
            scale = (72.0 * MAX_PLOT_HEIGHT - top - bottom) / span_y
        height = max(72.0 * MIN_PLOT_HEIGHT, span_y * scale + top + bottom)
        self.fig.set_size_inches(PAGE_WIDTH, height / 72.0 + TITLE_AND_LEGEND)
        mid_x = (min(xs) - left / scale + max(xs) + right / scale) / 2
        mid_y = (min(ys) - bottom / scale + max(ys) + top / scale) / 2
        x0, y0 = mid_x - width / scale / 2, mid_y - height / scale / 2
        self.ax.set_xlim(x0, x0 + width / scale)
        self.ax.set_ylim(y0, y0 + height / scale)
        self.scale, self.origin, self.size = scale, (x0, y0), (width, height)

    def _pt(self, where: tuple[float, float]) -> tuple[float, float]:
        """A point in metres as points on the plot."""
        return ((where[0] - self.origin[0]) * self.scale,
                (where[1] - self.origin[1]) * self.scale)

    def _square(self, where: tuple[float, float], half: float) -> Box:
        """The box of ``half`` points around a point given in metres."""
        x, y = self._pt(where)
        return (x - half, y - half, x + half, y + half)

    def _measure(self, text: str, size: float, bold: bool = False) -> tuple[float, float]:
        """Width and height of ``text`` in points."""
        from matplotlib.font_manager import FontProperties

        w, h, _ = self.renderer.get_text_width_height_descent(
            text, FontProperties(size=size, weight="bold" if bold else "normal"), ismath=False)
        return w * 72.0 / self.renderer.dpi, h * 72.0 / self.renderer.dpi

    def _cost(self, box: Box) -> float:
        """How much a label there would hide: paths crossed, labels covered, off the page."""
        w, h = self.size
        off = (box[2] - box[0]) * (box[3] - box[1]) - overlap(box, (0.0, 0.0, w, h))
        return (sum(inside(s, box) for s in self.segments) * 4.0
                + sum(overlap(box, t) for t in self.taken) + off * 2.0)

    # ------------------------------------------------------------------ the map
    def _bends(self) -> bool:
        """Bow each path that would run through another place; whether any does."""
        ends = {k: self._pt(xy) for k, xy in enumerate(self.coords)}
        for (i, j) in self.field.edge_len:
            through = any(near_segment(ends[k], ends[i], ends[j]) for k in ends
                          if k not in (i, j))
            self.bend[(i, j)] = BEND if through else 0.0
        return any(self.bend.values())

    def _edges(self) -> None:
        """The paths, straight or bowed (``_bends``), and their share of the label costs."""
        for (i, j) in self.field.edge_len:
            curve = [self._pt(self._along(i, j, t / 8)) for t in range(9)]
            self.segments += [(*p, *q) for p, q in zip(curve, curve[1:], strict=False)]
            xs, ys = zip(*(self._along(i, j, t / 24) for t in range(25)), strict=True)
            self.ax.plot(xs, ys, color=EDGE_COLOUR, linewidth=2.2, zorder=1,
                         solid_capstyle="round")
            for end, near in ((i, range(0, 9)), (j, range(16, 25))):
                if end in self.narrow:  # a narrow place: its approaches drawn as a thin way
                    xs, ys = zip(*(self._along(i, j, t / 24) for t in near), strict=True)
                    self.ax.plot(xs, ys, color="white", linewidth=1.2, zorder=1.5,
                                 solid_capstyle="butt")

    def _along(self, i: int, j: int, share: float) -> tuple[float, float]:
        """The point ``share`` of the way along the path from node i to node j (i < j).

        A straight line, or a quadratic curve bowed by ``bend`` times the path's length.
        """
        (xa, ya), (xb, yb) = self.coords[i], self.coords[j]
        bend = self.bend.get((i, j), 0.0)
        cx = (xa + xb) / 2 + bend * (yb - ya)
        cy = (ya + yb) / 2 - bend * (xb - xa)
        u = 1.0 - share
        return (u * u * xa + 2 * u * share * cx + share * share * xb,
                u * u * ya + 2 * u * share * cy + share * share * yb)

    def _at(self, pos: Position) -> tuple[float, float]:
        """Where a position is drawn: its node, or its point along its (maybe bowed) path."""
        if pos.at_node or not self.bend.get((pos.a, pos.b)):
            return point(self.field, self.coords, pos)
        return self._along(pos.a, pos.b, pos.x / self.field.edge_len[(pos.a, pos.b)])

    def _edge_labels(self) -> None:
        """Each path's metres at its middle, or where it hides no place and no label.

        Slid along the path, or set beside a path too short to hold it.
        """
        for (i, j), metres in self.field.edge_len.items():
            text = f"{metres:g} m"
            w, h = self._measure(text, LIST_SIZE)
            (xa, ya), (xb, yb) = self._pt(self.coords[i]), self._pt(self.coords[j])
            length = max(1e-9, ((xb - xa) ** 2 + (yb - ya) ** 2) ** 0.5)
            normal = ((ya - yb) / length, (xb - xa) / length)
            best: tuple[float, tuple[float, float], Box] | None = None
            candidates = [(share, 0.0) for share in (0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78)]
            candidates += [(0.5, side * (h / 2 + 8)) for side in (1, -1)]
            for k, (share, off) in enumerate(candidates):
                cx, cy = self._pt(self._along(i, j, share))
                cx, cy = cx + off * normal[0], cy + off * normal[1]
                box = (cx - w / 2 - 4, cy - h / 2 - 3, cx + w / 2 + 4, cy + h / 2 + 3)
                cost = sum(overlap(box, t) for t in self.taken) + k * 0.5
                if best is None or cost < best[0]:
                    best = (cost, (cx, cy), box)
            assert best is not None  # (there are candidates)
            _, (cx, cy), box = best
            self.taken.append(box)
            x0, y0 = self.origin
            self.ax.text(x0 + cx / self.scale, y0 + cy / self.scale, text, ha="center",
                         va="center", fontsize=LIST_SIZE, color="#333333", zorder=6.5,
                         bbox={"boxstyle": "round,pad=0.25", "facecolor": "white",
                               "edgecolor": EDGE_COLOUR, "linewidth": 0.6})

    def _nodes(self) -> None:
        """Each place as a box with its name: fill for cover, outline for visibility."""
        graph = self.field.graph
        for name, where in zip(self.field.names, self.coords, strict=True):
            cover, seen = graph.nodes[name]["cover"], graph.nodes[name]["visibility"]
            self.ax.text(*where, name, ha="center", va="center", fontsize=NAME_SIZE,
                         fontweight="bold", color="white" if cover == "heavy" else "#111111",
                         zorder=6, bbox={"boxstyle": "round,pad=0.5",
                                         "facecolor": COVER_FILL[cover], "edgecolor": "#222222",
                                         "linewidth": 1.6, "linestyle": VISIBILITY_LINE[seen]})
            x, y = self._pt(where)
            w, _ = self._measure(name, NAME_SIZE, bold=True)
            self.taken.append((x - w / 2 - 6, y - 11, x + w / 2 + 6, y + 11))
            width = self.narrow.get(self.field.index[name])
            terrain = ", ".join(t for t in (
                f"{cover} cover" if cover != "none" else "",
                f"{seen.replace('_', ' ')} visibility" if seen != "clear" else "",
                f"narrow: {width} a side" if width is not None else "",
                "exit" if graph.nodes[name].get("exit") else "") if t)
            if terrain:
                self.ax.annotate(terrain, where, xytext=(0, 14), textcoords="offset points",
                                 ha="center", va="bottom", fontsize=SMALL_SIZE, style="italic",
                                 color="#333333", zorder=6,
                                 bbox={"boxstyle": "square,pad=0.1", "facecolor": "white",
                                       "edgecolor": "none", "alpha": 0.85})
                tw, th = self._measure(terrain, SMALL_SIZE)
                self.taken.append((x - tw / 2, y + 13, x + tw / 2, y + 15 + th))

    # ------------------------------------------------------------------ the fighters
    def _lines(self, group: list[Token]) -> list[tuple[str, str, bool]]:
        """``(text, side, fighting)`` per line: by side, those still fighting first."""
        lines: list[tuple[str, str, bool]] = []
        for side in self.sides:
            mine = [t for t in group if t.side == side]
            lines += [(n, side, True) for n in runs([t.name for t in mine if t.status == "ok"])]
            lines += [(f"{t.name} ({t.status})", side, False) for t in mine if t.status != "ok"]
        return lines

    def _markers(self, where: tuple[float, float], group: list[Token]) -> None:
        """The fighters standing between two places, as markers at their point."""
        for t in group:
            self.ax.plot(*where, marker=self.marker(t.side), markersize=9,
                         color=self.colour(t.side) if t.status == "ok" else OUT_COLOUR,
                         markeredgecolor="white", markeredgewidth=0.8, zorder=8)
        self.taken.append(self._square(where, 6.0))

    def _clusters(self, spots: list[Position]) -> list[list[Position]]:
        """Positions between places drawn so close together (24 points) they share a list."""
        clusters: list[list[Position]] = []
        for pos in spots:
            here = self._pt(self._at(pos))
            near = [c for c in clusters
                    if any(math.dist(here, self._pt(self._at(o))) < 24.0 for o in c)]
            merged = [pos] + [o for c in near for o in c]
            clusters = [c for c in clusters if c not in near] + [merged]
        return clusters

    def _fighters(self, where: tuple[float, float], lines: list[tuple[str, str, bool]],
                  half_w: float, half_h: float, above: float) -> None:
        """Names in a block beside what they stand at, wherever the block hides the least.

        What they stand at is a box ``half_w`` by ``half_h`` points around ``where`` (with
        ``above`` more points of terrain label on top); the block goes below it, right of
        it, above or left of it.
        """
        widths = [self._measure(text, LIST_SIZE, bold=fighting)[0]
                  for text, _, fighting in lines]
        block_w, block_h = 12.0 + max(widths, default=0.0), LINE * len(lines)
        x, y = self._pt(where)
        candidates = (  # left edge and top edge of the block, relative to the place
            (-block_w / 2, -half_h - 2),  # below
            (half_w + 2, block_h / 2),  # right
            (-block_w / 2, half_h + above + 2 + block_h),  # above
            (-half_w - 2 - block_w, block_h / 2),  # left
        )
        best: tuple[float, float, float, Box] | None = None
        for k, (left, top) in enumerate(candidates):
            box = (x + left, y + top - block_h, x + left + block_w, y + top)
            cost = self._cost(box) + k * 2.0
            if best is None or cost < best[0]:
                best = (cost, left, top, box)
        assert best is not None  # (there are candidates)
        _, left, top, box = best
        self.taken.append(box)
        self._list(where, lines, left, top - LINE / 2)

    def _terrain(self, name: str) -> bool:
        node = self.field.graph.nodes[name]
        return (node["cover"] != "none" or node["visibility"] != "clear"
                or node.get("width") is not None or bool(node.get("exit")))

    def _list(self, where: tuple[float, float], lines: Iterable[tuple[str, str, bool]],
              left: float, top: float) -> None:
        """The lines from ``top`` down (points from ``where``), each after its side's marker."""
        from matplotlib.transforms import offset_copy

        for k, (text, side, fighting) in enumerate(lines):
            y = top - k * LINE
            colour = self.colour(side) if fighting else OUT_COLOUR
            shift = offset_copy(self.ax.transData, fig=self.fig, x=left + 4, y=y,
                                units="points")
            self.ax.plot(*where, marker=self.marker(side) if fighting else "x", markersize=6,
                         color=colour, linestyle="", transform=shift, zorder=7)
            self.ax.annotate(text, where, xytext=(left + 10, y), textcoords="offset points",
                             ha="left", va="center", fontsize=LIST_SIZE, color=colour,
                             fontweight="bold" if fighting else "normal", zorder=7,
                             bbox={"boxstyle": "square,pad=0.1", "facecolor": "white",
                                   "edgecolor": "none", "alpha": 0.8})

    def _moves(self, before: Frame, after: Frame) -> None:
        """An arrow from where each fighter began the round to where it ended it.

        Arrows run under the places' boxes and the paths' labels; a fighter that began the
        round between two places has a hollow marker there.
        """
        from matplotlib.patches import FancyArrowPatch

        start = {t.name: t.pos for t in before}
        for t in after:
            if t.name not in start or start[t.name] == t.pos:
                continue
            a, b = self._at(start[t.name]), self._at(t.pos)
            colour = self.colour(t.side)
            if not start[t.name].at_node:
                self.ax.plot(*a, marker=self.marker(t.side), markersize=9,
                             markerfacecolor="white", markeredgecolor=colour,
                             markeredgewidth=1.5, zorder=2)
                self.taken.append(self._square(a, 6.0))
            self.ax.add_patch(FancyArrowPatch(a, b, arrowstyle="-|>", mutation_scale=15,
                                              color=colour, linewidth=1.8, alpha=0.9,
                                              shrinkA=5, shrinkB=5, zorder=2))

    # ------------------------------------------------------------------ legend
    def _legend(self, tokens: Frame, moves: bool) -> None:
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch

        handles: list[Any] = [
            Line2D([], [], marker=self.marker(side), color=self.colour(side), linestyle="",
                   markersize=7, label=f"side {side}") for side in self.sides]
        if any(t.status != "ok" for t in tokens):
            handles.append(Line2D([], [], marker="x", color=OUT_COLOUR, linestyle="",
                                  markersize=7, label="out of the fight"))
        if moves:
            handles.append(Line2D([], [], marker=">", markevery=[1], color="#444444",
                                  linewidth=1.8, label="moved this round"))
        graph = self.field.graph
        covers = {graph.nodes[n]["cover"] for n in graph}
        seen = {graph.nodes[n]["visibility"] for n in graph}
        handles += [Patch(facecolor=COVER_FILL[c], edgecolor="#222222",
                          label="no cover" if c == "none" else f"{c} cover")
                    for c in COVER_FILL if c in covers]
        handles += [Patch(facecolor="white", edgecolor="#222222", linewidth=1.4,
                          linestyle=VISIBILITY_LINE[v], label=f"{v.replace('_', ' ')} visibility")
                    for v in VISIBILITY_LINE if v in seen]
        self.fig.legend(handles=handles, loc="outside lower center", fontsize=LIST_SIZE,
                        frameon=False,
                        ncols=len(handles) if len(handles) <= 5 else -(-len(handles) // 2))
