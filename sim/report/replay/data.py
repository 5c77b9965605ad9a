"""What the replay page is drawn from: one fight's map, fighters, events and the moves' tracks.

Everything about the fight comes from its event log (``docs/log-format.md``): who fights
for which side (``combatant``), where each stands and how each fares (``positions`` and
``states``), what happened (every event as it is). The scenario adds only the map: its
places laid out as ``fray map`` lays them (``battlemap.layout``), their cover and visibility,
the paths and their metres. A move's track follows the paths through the places it passes,
so a token walks the route rather than cutting across the map.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sim import registry
from sim.core.battlefield import Battlefield, Position
from sim.core.engine import battlefield_for
from sim.report.battlemap import layout
from sim.report.mapparts import (
    BEND,
    COVER_FILL,
    EDGE_COLOUR,
    OUT_COLOUR,
    SIDE_MARKERS,
    VISIBILITY_LINE,
    point,
    side_colours,
)

if TYPE_CHECKING:
    from sim.scenario.specs import Scenario

Point = tuple[float, float]

DASH_SCALE = 2.0
"""SVG dash lengths (pixels) per matplotlib dash unit (points): the same pattern, drawn."""


def fight(scenario: Scenario, events: Sequence[dict[str, Any]], title: str = "") -> dict:
    """The data of one fight's replay: map, sides, fighters, events, tracks."""
    field = battlefield_for(scenario.map)
    coords = layout(field)
    start = next((e for e in events if e["type"] == "start"), {})
    ruleset = start.get("ruleset", scenario.ruleset)
    roster = [e for e in events if e["type"] == "combatant"]
    sides = list(dict.fromkeys([s.name for s in scenario.sides] + [e["side"] for e in roster]))
    colours = side_colours(sides)
    return {
        "title": title or start.get("text", scenario.name),
        "ruleset": ruleset,
        "seconds": registry.get(ruleset).seconds_per_round,
        "sides": [{"name": s, "colour": colours[s],
                   "shape": SIDE_MARKERS[k % len(SIDE_MARKERS)]} for k, s in enumerate(sides)],
        "places": [{"name": name, "x": round(x, 3), "y": round(y, 3),
                    "cover": field.graph.nodes[name]["cover"],
                    "visibility": field.graph.nodes[name]["visibility"],
                    "width": field.graph.nodes[name]["width"],
                    "exit": field.graph.nodes[name]["exit"]}
                   for name, (x, y) in zip(field.names, coords, strict=True)],
        "paths": [{"a": field.index[a], "b": field.index[b], "m": data["metres"]}
                  for a, b, data in field.graph.edges(data=True)],
        "fighters": [{"name": e["who"], "side": e["side"], "label": label}
                     for e, label in zip(roster, labels([e["who"] for e in roster]),
                                         strict=True)],
        "events": list(events),
        "tracks": tracks(field, coords, events),
    }


def style() -> dict:
    """The map's fills and lines, from the battle map's own (``mapparts``)."""
    return {
        "cover": COVER_FILL,
        "visibility": {name: _dash(line) for name, line in VISIBILITY_LINE.items()},
        "edge": EDGE_COLOUR,
        "out": OUT_COLOUR,
        "bend": BEND,
    }


def _dash(line: object) -> str:
    """An SVG ``stroke-dasharray`` for a matplotlib line style (``solid``: none)."""
    if not isinstance(line, tuple):  # "solid"
        return ""
    return " ".join(f"{DASH_SCALE * n:g}" for n in line[1])


def labels(names: Sequence[str]) -> list[str]:
    """A short token label per fighter, read without colour: initials and a number.

    ``Wolfman`` W, ``Brother Ansel`` BA, ``Bandit archer 2`` BA2; two kinds of fighter that
    would share initials take more letters of their first word (``Bandit 1`` Ba1 beside
    ``Brute 1`` Br1).
    """
    split = [re.fullmatch(r"(.*?)\s*(\d*)", name) for name in names]
    stems = [m.group(1) if m and m.group(1) else name for m, name in zip(split, names,
                                                                         strict=True)]
    numbers = [m.group(2) if m and m.group(1) else "" for m in split]

    def abbreviate(stem: str, extra: int) -> str:
        words = stem.split() or [stem]
        return words[0][:1 + extra].capitalize() + "".join(w[0].upper() for w in words[1:3])

    kinds = list(dict.fromkeys(stems))
    short = {stem: abbreviate(stem, 0) for stem in kinds}
    for extra in (1, 2, 3):
        shared = [k for k in kinds if list(short.values()).count(short[k]) > 1]
        for stem in shared:
            short[stem] = abbreviate(stem, extra)
    out = [short[stem] + number for stem, number in zip(stems, numbers, strict=True)]
    seen: dict[str, int] = {}
    for k, label in enumerate(out):  # still shared after all that: count them
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            out[k] = f"{label}{seen[label]}"
    return out


def position(field: Battlefield, place: dict[str, Any]) -> Position:
    """The ``Position`` of a place as the log gives it (``Battlefield.place``)."""
    if "node" in place:
        return field.node(place["node"])
    return Position(field.index[place["from"]], field.index[place["toward"]], float(place["m"]))


def tracks(field: Battlefield, coords: Sequence[Point],
           events: Sequence[dict[str, Any]]) -> dict[str, dict[str, list[Point]]]:
    """For each event that moves fighters (by its index): each one's route, in map metres.

    A route runs from where the fighter stood to where it stands, through the places on the
    shortest way between (the way the engine walks; of routes of one length it may draw
    another than the one walked).
    """
    at: dict[str, Position] = {}
    out: dict[str, dict[str, list[Point]]] = {}
    for i, e in enumerate(events):
        for name, place in (e.get("positions") or {}).items():
            new = position(field, place)
            old = at.get(name)
            at[name] = new
            if old is not None and old != new:
                out.setdefault(str(i), {})[name] = route(field, coords, old, new)
    return out


def route(field: Battlefield, coords: Sequence[Point], p: Position, q: Position) -> list[Point]:
    """The points of the shortest way from ``p`` to ``q``: both ends and the places between."""
    def ends(pos: Position) -> list[tuple[int, float]]:
        if pos.at_node:
            return [(pos.a, 0.0)]
        return [(pos.a, pos.x), (pos.b, field.edge_len[(pos.a, pos.b)] - pos.x)]

    points = [point(field, coords, p)]
    same_edge = not p.at_node and (p.a, p.b) == (q.a, q.b)
    best = abs(p.x - q.x) if same_edge else float("inf")
    via: tuple[int, int] | None = None
    for u, du in ends(p):
        for v, dv in ends(q):
            length = du + field.dist[u][v] + dv
            if length < best - 1e-9:
                best, via = length, (u, v)
    if via is not None:  # the places on the way, hop by hop (the first of tied hops)
        node, last = via
        points.append(coords[node])
        while node != last:
            node = field.next_hop[node][last][0]
            points.append(coords[node])
    points.append(point(field, coords, q))
    kept = [points[0]]
    for pt in points[1:]:
        if abs(pt[0] - kept[-1][0]) > 1e-9 or abs(pt[1] - kept[-1][1]) > 1e-9:
            kept.append(pt)
    return [(round(x, 3), round(y, 3)) for x, y in kept]
