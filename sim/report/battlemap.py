"""Battle maps: a scenario's battlefield drawn from its networkx graph (PNG or SVG).

``draw_map`` draws the places (cover as a grey fill, visibility as the outline), the paths
between them labelled with their metres, and who starts where (names by side, in the
Okabe-Ito colour-blind-safe palette, with a marker shape per side). ``draw_round`` draws
one round of a fight: where everyone stood when it began and when it ended, with arrows for
the moves; ``MappedEncounter`` records those positions as the fight runs (``fray run
--map``) and ``link_maps`` references the pictures from the markdown log.

The places are laid out by stress majorization on the metres between them (what networkx's
``kamada_kawai_layout`` minimises, without its scipy dependency), so that distances on the
page follow distances on the map. Figures are built as in ``sim.report.charts``: a
``matplotlib.figure.Figure`` on an Agg canvas, no ``pyplot``, matplotlib imported lazily.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.core.battlefield import Battlefield
from sim.core.engine import Encounter, battlefield_for
from sim.report.mapfigure import MapFigure
from sim.report.mapparts import Frame, Token

if TYPE_CHECKING:
    from sim.scenario.specs import Scenario

FORMATS = ("png", "svg")


# ---------------------------------------------------------------------------- positions
def start_frame(scenario: Scenario) -> Frame:
    """Everyone where the scenario starts them."""
    field = battlefield_for(scenario.map)
    return tuple(Token(m.name, m.side, field.node(m.at))
                 for side in scenario.sides for m in side.members)


class MappedEncounter(Encounter):
    """An ``Encounter`` with its log on that keeps everyone's position at each round's edge.

    ``frames[0]`` is the start, ``frames[r]`` the end of round ``r`` (the last one the end
    of the fight, which may come mid-round). Positions are read when the engine announces
    a round and the end of the fight, so the fight itself is exactly the unrecorded one.
    """

    def __init__(self, scenario: Scenario, ruleset: str | None = None, seed: int = 0):
        super().__init__(scenario, ruleset, seed, log=True)
        self.frames: list[Frame] = []
        self._recording = True

    def emit(self, kind: str, **fields: Any) -> None:
        """Log the event; a new round or the end of the fight first takes a snapshot."""
        if self._recording and kind in ("round", "end"):
            self.frames.append(self.snapshot())
            self._recording = kind != "end"
        super().emit(kind, **fields)

    def snapshot(self) -> Frame:
        """Everyone's position and status now."""
        return tuple(Token(c.name, c.side, c.pos, c.status.value) for c in self.combatants)


# ---------------------------------------------------------------------------- layout
def layout(field: Battlefield) -> list[tuple[float, float]]:
    """Page coordinates (in metres) of each node, by index, following the map's distances.

    Classical scaling of the shortest-path metres gives a first guess; stress majorization
    (SMACOF, weights 1/d^2) improves it. The result is centred, its long axis horizontal,
    and oriented the same way every time (the first node on the left).
    """
    import numpy as np  # comes with matplotlib; imported with it, lazily

    n = field.size
    if n == 1:
        return [(0.0, 0.0)]
    d = np.array(field.dist, dtype=float)
    centre = np.eye(n) - 1.0 / n
    vals, vecs = np.linalg.eigh(-0.5 * centre @ (d**2) @ centre)
    top = np.argsort(vals)[::-1][:2]
    x = vecs[:, top] * np.sqrt(np.maximum(vals[top], 0.0))
    weights = np.zeros_like(d)
    weights[d > 0] = d[d > 0] ** -2.0
    laplacian = np.diag(weights.sum(axis=1)) - weights
    pinv = np.linalg.pinv(laplacian)
    for _ in range(500):
        gaps = np.linalg.norm(x[:, None, :] - x[None, :, :], axis=2)
        ratio = np.zeros_like(d)
        apart = gaps > 1e-9
        ratio[apart] = weights[apart] * d[apart] / gaps[apart]
        step = pinv @ (np.diag(ratio.sum(axis=1)) - ratio) @ x
        moved = np.abs(step - x).max()
        x = step
        if moved < 1e-6 * max(1.0, d.max()):
            break
    x -= x.mean(axis=0)
    _, _, axes = np.linalg.svd(x, full_matrices=False)
    x = x @ axes.T  # the widest spread along the page's width
    if x[0, 0] > 1e-9:
        x[:, 0] *= -1
    off_line = [i for i in range(n) if abs(x[i, 1]) > 1e-6 * max(1.0, d.max())]
    if off_line and x[off_line[0], 1] < 0:
        x[:, 1] *= -1
    return [(float(a), float(b)) for a, b in x]


# ---------------------------------------------------------------------------- drawings
def draw_map(scenario: Scenario, path: Path, fmt: str = "png") -> Path:
    """The battlefield, its distances, terrain, and who starts where, as PNG or SVG."""
    field = battlefield_for(scenario.map)
    places = len(field.names)
    fighters = sum(len(side.members) for side in scenario.sides)
    subtitle = (f"{places} places, {fighters} fighters at the start; distances in metres along "
                f"the paths" if places > 1 else
                f"one place, {fighters} fighters at the start: everyone in melee reach")
    figure = MapFigure(field, layout(field), [side.name for side in scenario.sides])
    figure.draw(start_frame(scenario), None, scenario.name, subtitle)
    return figure.save(path, fmt)


def draw_round(scenario: Scenario, before: Frame, after: Frame, rnd: int, path: Path,
               coords: Sequence[tuple[float, float]] | None = None,
               ruleset: str = "") -> Path:
    """Round ``rnd`` of a fight (PNG): positions at its end, arrows from its start."""
    field = battlefield_for(scenario.map)
    figure = MapFigure(field, coords or layout(field), [side.name for side in scenario.sides])
    under = f" under {ruleset}" if ruleset else ""
    start = {t.name: t.pos for t in before}
    moved = any(start.get(t.name, t.pos) != t.pos for t in after)
    if rnd == 0:
        title, subtitle = f"{scenario.name}: the start", f"where everyone stands{under}"
    else:
        title = f"{scenario.name}: round {rnd}"
        subtitle = (f"where everyone stands at the end of the round{under}"
                    + ("; arrows: the moves of the round" if moved else "; nobody moved"))
    figure.draw(after, before if rnd else None, title, subtitle)
    return figure.save(path, "png")


def round_file(rnd: int) -> str:
    """The file name of round ``rnd``'s picture (0: the start)."""
    return f"round-{rnd:02d}.png"


def pictures_in(folder: Path) -> list[Path]:
    """The round pictures of an earlier fight in ``folder`` (what ``draw_rounds`` replaces)."""
    return sorted(folder.glob("round-*.png")) if folder.is_dir() else []


def draw_rounds(scenario: Scenario, frames: Sequence[Frame], folder: Path,
                ruleset: str = "") -> list[Path]:
    """One picture per round into ``folder`` (``round-00.png`` the start); their paths.

    Pictures of an earlier, longer fight in ``folder`` go, so every picture there is this
    fight's.
    """
    coords = layout(battlefield_for(scenario.map))
    out = []
    for rnd, after in enumerate(frames):
        before = frames[rnd - 1] if rnd else after
        out.append(draw_round(scenario, before, after, rnd, folder / round_file(rnd), coords,
                              ruleset))
    for stale in set(pictures_in(folder)) - set(out):
        stale.unlink()
    return out


_ROUND_HEADING = re.compile(r"^## Round (\d+)$")


def link_maps(markdown: str, pictures: Sequence[Path], base: Path | None = None) -> str:
    """The markdown log with round r's picture after its heading (the start before round 1).

    Links are relative to ``base`` (the folder of the markdown file), or the paths as given.
    """
    links = [Path(os.path.relpath(p, base)).as_posix() if base is not None else p.as_posix()
             for p in pictures]
    out: list[str] = []
    for line in markdown.split("\n"):
        heading = _ROUND_HEADING.match(line)
        if heading and links and int(heading.group(1)) == 1:
            out += [f"![The start]({links[0]})", ""]
        out.append(line)
        if heading and int(heading.group(1)) < len(links):
            rnd = int(heading.group(1))
            out += ["", f"![Round {rnd}]({links[rnd]})"]
    return "\n".join(out)
