"""Battle maps: every bundled map drawn, the layout true to the metres, the round pictures.

The pictures themselves were looked at; these tests pin what can be checked without eyes:
the files are real pictures of a sensible size, the SVG carries the names and lengths as
text, the layout keeps the map's distances, and recording positions changes no fight.
"""

from __future__ import annotations

import math
import struct
from pathlib import Path

import helpers
import pytest
from helpers import SCENARIOS, any_ruleset

from sim import scenario as scenario_mod
from sim.core.battlefield import Position
from sim.core.engine import Encounter, battlefield_for
from sim.report import battlemap
from sim.report.mapfigure import MapFigure
from sim.report.mapparts import BEND, point, runs, side_colours

BUNDLED = [*sorted(SCENARIOS.glob("*.yaml")),
           SCENARIOS / "campaigns" / "night_camp.yaml", SCENARIOS / "campaigns" / "keep_gate.yaml"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_every_bundled_scenario_is_drawn(tmp_path, path):
    out = battlemap.draw_map(scenario_mod.load(path), tmp_path / "map.png")
    width, height = png_size(out)
    assert width == 1100 and 250 <= height <= 900  # 10 inches at 110 dpi, as tall as needed
    assert out.stat().st_size > 15_000  # places, paths, names: not an empty canvas
    assert [p.name for p in tmp_path.iterdir()] == ["map.png"]


def test_svg_carries_the_name_places_lengths_and_fighters_as_text(tmp_path):
    scenario = scenario_mod.load(SCENARIOS / "ambush.yaml")
    svg = battlemap.draw_map(scenario, tmp_path / "map.svg", "svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    for text in ("Ambush at the ford", "15 m", "12 m", "10 m", "20 m", "road", "treeline",
                 "medium cover", "poor visibility", "Wolfman", "Bandit archer 1\u20132",
                 "side heroes", "side bandits"):
        assert f">{text}<" in svg, text


def test_layout_keeps_the_metres_of_a_map_that_fits_on_paper():
    """Ambush's map (a triangle and a spur) can be drawn to scale, and is."""
    field = battlefield_for(scenario_mod.load(SCENARIOS / "ambush.yaml").map)
    coords = battlemap.layout(field)
    for (i, j), metres in field.edge_len.items():
        assert math.dist(coords[i], coords[j]) == pytest.approx(metres, rel=0.02)
    assert coords[0][0] <= min(x for x, _ in coords[1:]) or coords[0][0] < 0  # stable side


def test_layout_of_one_place_and_of_a_line():
    duel = battlefield_for(scenario_mod.load(SCENARIOS / "duel.yaml").map)
    assert battlemap.layout(duel) == [(0.0, 0.0)]
    bridge = battlefield_for(scenario_mod.load(SCENARIOS / "last_stand.yaml").map)
    coords = battlemap.layout(bridge)
    assert all(abs(y) < 1e-6 for _, y in coords)  # a line stays a line, drawn level
    assert math.dist(coords[0], coords[1]) == pytest.approx(6.0, rel=1e-3)
    assert math.dist(coords[0], coords[2]) == pytest.approx(8.0, rel=1e-3)


def test_a_fighter_between_places_is_drawn_at_its_point():
    field = battlefield_for(scenario_mod.load(SCENARIOS / "last_stand.yaml").map)
    coords = [(0.0, 0.0), (6.0, 0.0), (-8.0, 0.0)]
    a, b = sorted((field.index["bridge"], field.index["far_bank"]))
    x = 2.0 if a == field.index["bridge"] else 6.0  # 2 m from the bridge either way
    assert point(field, coords, Position(a, b, x)) == pytest.approx((-2.0, 0.0))
    assert point(field, coords, field.node("near_bank")) == (6.0, 0.0)


def test_copies_of_a_member_share_a_line():
    assert runs(["Goblin 1", "Goblin 2", "Goblin 3", "Hrolf", "Goblin 5"]) == [
        "Goblin 1\u20133", "Hrolf", "Goblin 5"]
    assert runs(["Bandit 2"]) == ["Bandit 2"]
    assert runs([]) == []


@pytest.mark.parametrize("path, seed", [("ambush.yaml", 3), ("last_stand.yaml", 2)])
def test_recording_positions_changes_nothing(path, seed):
    scenario = scenario_mod.load(SCENARIOS / path)
    plain = Encounter(scenario, any_ruleset(), seed, log=True)
    mapped = battlemap.MappedEncounter(scenario, any_ruleset(), seed)
    assert mapped.run() == plain.run()
    assert mapped.log == plain.log
    rounds = next(e for e in plain.log if e["type"] == "end")["rounds"]
    assert len(mapped.frames) == rounds + 1
    assert mapped.frames[0] == battlemap.start_frame(scenario)
    assert mapped.frames[-1] == mapped.snapshot()  # the aftermath moves nobody
    moved = {t.name for before, after in zip(mapped.frames, mapped.frames[1:], strict=False)
             for t, u in zip(before, after, strict=True) if t.pos != u.pos}
    logged = {e["who"] for e in plain.log if e["type"] == "move" and "to" in e}
    assert moved == logged and moved
    on_edges = [t for frame in mapped.frames for t in frame if not t.pos.at_node]
    assert on_edges  # someone stood between two places: drawn at its point


def test_round_pictures_replace_an_earlier_fights(tmp_path):
    scenario = scenario_mod.load(SCENARIOS / "last_stand.yaml")
    (tmp_path / "round-40.png").write_bytes(b"old")
    enc = battlemap.MappedEncounter(scenario, any_ruleset(), 2)
    enc.run()
    pictures = battlemap.draw_rounds(scenario, enc.frames[:3], tmp_path, any_ruleset())
    assert [p.name for p in pictures] == ["round-00.png", "round-01.png", "round-02.png"]
    assert battlemap.pictures_in(tmp_path) == pictures
    assert all(png_size(p)[0] == 1100 for p in pictures)


def test_markdown_links_each_round_after_its_heading(tmp_path):
    text = "# A fight\n\n- someone\n\n## Round 1\n\n- a\n\n## Round 2\n\n- b\n\n**Done.**\n"
    pictures = [tmp_path / "maps" / battlemap.round_file(r) for r in range(3)]
    linked = battlemap.link_maps(text, pictures, base=tmp_path)
    assert linked.split("\n")[4:12] == [
        "![The start](maps/round-00.png)", "", "## Round 1", "", "![Round 1](maps/round-01.png)",
        "", "- a", ""]
    assert "## Round 2\n\n![Round 2](maps/round-02.png)\n" in linked
    assert battlemap.link_maps(text, [Path("m/round-00.png")]).count("![") == 1


def test_a_side_named_after_a_colour_is_drawn_in_it():
    assert side_colours(["red", "blue"]) == {"red": "#D55E00", "blue": "#0072B2"}
    assert side_colours(["heroes", "bandits"]) == {"heroes": "#0072B2", "bandits": "#D55E00"}
    colours = side_colours(["Red", "vermillion", "c", "d", "e", "f", "g", "h"])
    assert colours["Red"] == "#D55E00" and len(set(list(colours.values())[:7])) == 7


def test_a_path_through_another_place_bows_around_it(tmp_path):
    """10 + 8 = 18 m: the long path would run straight through the middle place."""
    scenario = helpers.scenario(
        {"a": [{"name": "A", "at": "camp"}], "b": [{"name": "B", "at": "barn"}]},
        map={"nodes": {"camp": {}, "hedge": {}, "barn": {}},
             "edges": [["camp", "hedge", 10], ["hedge", "barn", 8], ["camp", "barn", 18]]})
    field = battlefield_for(scenario.map)
    figure = MapFigure(field, battlemap.layout(field), ["a", "b"])
    figure.draw(battlemap.start_frame(scenario), None, "t", "s")
    ends = sorted((field.index["camp"], field.index["barn"]))
    assert figure.bend == {k: (BEND if k == tuple(ends) else 0.0) for k in field.edge_len}
    assert png_size(figure.save(tmp_path / "m.png", "png"))[0] == 1100
