"""Bad scenario files end in a clear error: exit code 2, file, field path, what is allowed.

Every case goes through the real entry point (``sim.cli.main.main`` with ``sys.argv`` set) and
checks the exact ``error: FILE: FIELD: message`` line, the allowed values or the
suggestion for a typo, and that no traceback or raw pydantic wording leaks out.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from helpers import Result, fray, typo

from sim.rulesets import registry

FIRST = registry.default()  # the scenario's ruleset: any would do
LAST = registry.names()[-1]  # a second name, written here in capitals


def assert_input_error(result: Result, path: Path | str, field: str, *needles: str) -> None:
    """Exit 2, ``error: FILE: FIELD: ...`` on stderr with every needle, and no traceback."""
    text = result.out + result.err
    assert result.code == 2, text
    assert "Traceback" not in text
    assert "Input should be" not in text  # pydantic's wording, not fray's
    assert result.out == ""
    assert result.err.startswith("error: "), result.err
    where = f"{path}: {field}: " if field else f"{path}: "
    lines = [line for line in result.err.splitlines() if where in line]
    assert lines, f"no line names {where!r}:\n{result.err}"
    for needle in needles:
        assert any(needle in line for line in lines), f"{needle!r} missing:\n{result.err}"


# ---------------------------------------------------------------------------- data cases
BASE = {
    "name": "Test",
    "ruleset": FIRST,
    "map": {
        "nodes": {"road": {}, "hill": {"cover": "light"}},
        "edges": [["road", "hill", 10]],
    },
    "sides": {
        "heroes": [{"name": "Ann", "at": "road", "weapon": "sword",
                    "traits": {"strength": 3}, "skills": {"melee": 2}}],
        "villains": [{"name": "Bob", "at": "hill", "count": 1}],
    },
}


def hero(**changes) -> Callable[[dict], None]:
    return lambda d: d["sides"]["heroes"][0].update(changes)


def villain(**changes) -> Callable[[dict], None]:
    return lambda d: d["sides"]["villains"][0].update(changes)


def top(**changes) -> Callable[[dict], None]:
    return lambda d: d.update(changes)


def drop(*keys) -> Callable[[dict], None]:
    def mutate(d):
        target = d
        for key in keys[:-1]:
            target = target[key]
        del target[keys[-1]]
    return mutate


def edge(*row) -> Callable[[dict], None]:
    return lambda d: d["map"].update(edges=[list(row)])


def rename_side(old: str, new: str) -> Callable[[dict], None]:
    return lambda d: d.update(sides={new if k == old else k: v for k, v in d["sides"].items()})


ALLOWED_TOP = "allowed: name, ruleset, max_rounds, map, sides, options"
ALLOWED_RULESETS = f"allowed: {', '.join(registry.names())}"
FIRST_OPTIONS = list(registry.option_blocks()[FIRST].model_fields)
FIRST_OPTIONS_ALLOWED = (f"allowed: {', '.join(FIRST_OPTIONS)}" if FIRST_OPTIONS
                         else "takes no keys")
DATA_CASES = [
    # missing required keys
    ("missing-name", drop("name"), "name", "required key is missing"),
    ("missing-sides", drop("sides"), "sides", "required key is missing"),
    ("missing-member-name", drop("sides", "villains", 0, "name"),
     "sides.villains[0].name", "required key is missing"),
    ("missing-map-nodes", drop("map", "nodes"), "map.nodes", "required key is missing"),
    # unknown keys, with the nearest valid key and the allowed keys
    ("unknown-top-key", top(rulset=FIRST), "rulset",
     "unknown key 'rulset' (did you mean 'ruleset'?)", ALLOWED_TOP),
    ("unknown-member-key", hero(wepon="sword"), "sides.heroes[0].wepon",
     "(did you mean 'weapon'?)", "allowed: name, at, ai, count, traits, skills"),
    ("unknown-trait", hero(traits={"strenght": 3}), "sides.heroes[0].traits.strenght",
     "(did you mean 'strength'?)", "allowed: strength, endurance, agility"),
    ("unknown-skill", hero(skills={"mele": 3}), "sides.heroes[0].skills.mele",
     "(did you mean 'melee'?)", "allowed: melee, brawl, ranged, dodge, parry"),
    ("unknown-node-key", lambda d: d["map"]["nodes"].update(hill={"covr": "light"}),
     "map.nodes.hill.covr", "(did you mean 'cover'?)", "allowed: cover, visibility"),
    ("unknown-ore-key", hero(ore={"stat": {"body": 3}}), "sides.heroes[0].ore.stat",
     "(did you mean 'stats'?)", "allowed: stats, skills, expert, master"),
    ("unknown-ore-stat", hero(ore={"stats": {"bdy": 3}}), "sides.heroes[0].ore.stats.bdy",
     "(did you mean 'body'?)", "allowed: body, coordination, sense"),
    ("unknown-options-ruleset", top(options={f"{FIRST}e": {}}), f"options.{FIRST}e",
     f"unknown ruleset '{FIRST}e' (did you mean '{FIRST}'?)", ALLOWED_RULESETS),
    ("unknown-option-key", top(options={FIRST: {"hit_locations": False}}),
     f"options.{FIRST}.hit_locations", "unknown key 'hit_locations'", FIRST_OPTIONS_ALLOWED),
    # unknown names
    ("unknown-ruleset", top(ruleset=typo(FIRST)), "ruleset",
     f"unknown ruleset '{typo(FIRST)}' (did you mean '{FIRST}'?)", ALLOWED_RULESETS),
    # another case is no typo far from the name: the hint finds it
    ("ruleset-in-capitals", top(ruleset=LAST.upper()), "ruleset",
     f"unknown ruleset '{LAST.upper()}' (did you mean '{LAST}'?)", ALLOWED_RULESETS),
    ("unknown-weapon", hero(weapon="swrod"), "sides.heroes[0].weapon",
     "unknown weapon 'swrod' (did you mean 'sword'?)", "allowed: unarmed, knife"),
    ("sidearm-ranged", hero(weapon="bow", sidearm="crossbow"), "sides.heroes[0].sidearm",
     "unknown sidearm 'crossbow'", "a hand weapon", "allowed: knife, club"),
    ("sidearm-typo", hero(weapon="bow", sidearm="dager"), "sides.heroes[0].sidearm",
     "unknown weapon 'dager' (did you mean 'dagger'?)"),
    ("sidearm-beside-a-sword", hero(weapon="sword", sidearm="knife"), "sides.heroes[0]",
     "a sidearm is drawn by a shooter", "'sword' is not a ranged weapon"),
    ("carry-too-many", hero(weapon="javelin", carry=50), "sides.heroes[0].carry",
     "must be from 1 to 20", "got 50"),
    ("carry-none", hero(weapon="javelins", carry=0), "sides.heroes[0].carry",
     "must be from 1 to 20", "got 0"),
    ("carry-not-a-number", hero(weapon="throwing knife", carry="three"),
     "sides.heroes[0].carry", "got 'three'"),
    ("carry-beside-a-bow", hero(weapon="bow", carry=3), "sides.heroes[0].carry",
     "counts thrown weapons", "'bow' is not one (javelin, throwing knife)"),
    ("unknown-armor", villain(armor="chian"), "sides.villains[0].armor",
     "unknown armor 'chian' (did you mean 'chain'?)", "allowed: none, leather, chain"),
    ("unknown-ai", hero(ai="agressive"), "sides.heroes[0].ai",
     "(did you mean 'aggressive'?)", "allowed: passive, basic, aggressive"),
    ("unknown-at-node", hero(at="rood"), "sides.heroes[0].at",
     "unknown node 'rood' (did you mean 'road'?)", "allowed: road, hill"),
    ("unknown-cover", lambda d: d["map"]["nodes"].update(hill={"cover": "lite"}),
     "map.nodes.hill.cover", "unknown cover 'lite' (did you mean 'light'?)",
     "allowed: none, light, medium, heavy"),
    ("unknown-visibility", lambda d: d["map"]["nodes"].update(road={"visibility": "fog"}),
     "map.nodes.road.visibility", "unknown visibility 'fog'", "allowed: clear, poor, very_poor"),
    # the map
    ("edge-to-missing-node", edge("road", "hil", 5), "map.edges[0][1]",
     "unknown node 'hil' (did you mean 'hill'?)", "allowed: road, hill"),
    ("edge-negative", edge("road", "hill", -5), "map.edges[0][2]", "positive number", "-5"),
    ("edge-zero", edge("road", "hill", 0), "map.edges[0][2]", "positive number", "got 0"),
    ("edge-infinite", edge("road", "hill", float("inf")), "map.edges[0][2]",
     "positive number", "inf"),
    ("edge-text-distance", edge("road", "hill", "far"), "map.edges[0][2]",
     "positive number", "'far'"),
    ("edge-two-items", edge("road", "hill"), "map.edges[0]", "[node, node, metres]"),
    ("edge-loop", lambda d: d["map"].update(edges=[["road", "road", 3], ["road", "hill", 3]]),
     "map.edges[0]", "two different nodes"),
    ("edges-mapping", lambda d: d["map"].update(edges={"road": "hill"}), "map.edges",
     "expected a list, got a dict"),
    ("disconnected-map", lambda d: d["map"]["nodes"].update(cave={}), "map.edges",
     "not connected", "'cave'"),
    ("no-nodes", lambda d: d["map"].update(nodes={}), "map.nodes", "must not be empty"),
    # numbers out of range, with the full allowed range
    ("negative-count", villain(count=-1), "sides.villains[0].count",
     "must be from 1 to 1000", "got -1"),
    ("zero-count", villain(count=0), "sides.villains[0].count", "must be from 1 to 1000"),
    ("trait-too-high", hero(traits={"strength": 9}), "sides.heroes[0].traits.strength",
     "must be from 1 to 5", "got 9"),
    ("trait-zero", hero(traits={"agility": 0}), "sides.heroes[0].traits.agility",
     "must be from 1 to 5"),
    ("skill-too-high", hero(skills={"melee": 6}), "sides.heroes[0].skills.melee",
     "must be from 0 to 5", "got 6"),
    ("skill-negative", hero(skills={"dodge": -1}), "sides.heroes[0].skills.dodge",
     "must be from 0 to 5"),
    ("max-rounds-zero", top(max_rounds=0), "max_rounds", "must be from 1 to 1000"),
    # wrong types
    ("trait-word", hero(traits={"strength": "strong"}), "sides.heroes[0].traits.strength",
     "expected an integer, got 'strong'"),
    ("trait-quoted-number", hero(traits={"strength": "3"}), "sides.heroes[0].traits.strength",
     "expected an integer, got '3'"),
    ("trait-fraction", hero(traits={"strength": 3.5}), "sides.heroes[0].traits.strength",
     "expected an integer, got 3.5"),
    ("trait-bool", hero(traits={"strength": True}), "sides.heroes[0].traits.strength",
     "expected an integer, got True"),
    ("count-bool", villain(count=True), "sides.villains[0].count", "expected an integer"),
    ("max-rounds-bool", top(max_rounds=False), "max_rounds", "expected an integer"),
    ("shield-word", hero(shield="yes please"), "sides.heroes[0].shield",
     "expected true or false"),
    ("traits-list", hero(traits=[3, 3]), "sides.heroes[0].traits",
     "expected a mapping, got a list"),
    ("skills-word", hero(skills="lots"), "sides.heroes[0].skills", "expected a mapping"),
    ("sides-list", top(sides=["heroes", "villains"]), "sides", "expected a mapping, got a list"),
    ("side-mapping", lambda d: d["sides"].update(heroes={"name": "Ann"}), "sides.heroes",
     "expected a list, got a dict"),
    ("member-word", lambda d: d["sides"].update(heroes=["Ann"]), "sides.heroes[0]",
     "expected a mapping"),
    ("name-number", hero(name=5), "sides.heroes[0].name", "expected a string, got 5"),
    ("name-empty", hero(name=""), "sides.heroes[0].name", "must not be empty"),
    ("name-long", hero(name="x" * 81), "sides.heroes[0].name",
     "too long: at most 80 characters, got 81"),
    ("weapon-list", hero(weapon=["sword"]), "sides.heroes[0].weapon",
     "expected the name of a weapon, got a list", "allowed: unarmed, knife"),
    # a number where a name goes (an armor rating, say): which names there are
    ("armor-number", villain(armor=5), "sides.villains[0].armor",
     "expected the name of an armor, got 5 (int)", "allowed: none, leather, chain"),
    ("weapon-empty", hero(weapon=None), "sides.heroes[0].weapon",
     "expected the name of a weapon, got nothing", "allowed: unarmed, knife"),
    ("side-name-number", lambda d: d["sides"].update({7: d["sides"].pop("villains")}),
     "sides", "must be strings", "quotes"),
    ("options-list", top(options=[FIRST]), "options", "expected a mapping, got a list"),
    # structure
    ("one-side", lambda d: d["sides"].pop("villains"), "sides",
     "at least two sides; found 1"),
    ("no-sides", top(sides={}), "sides", "at least two sides; found 0"),
    ("side-without-members", lambda d: d["sides"].update(villains=[]), "sides.villains",
     "at least one member"),
    ("side-null", lambda d: d["sides"].update(villains=None), "sides.villains",
     "expected a list"),
    ("duplicate-names", villain(name="Ann"), "sides.villains[0].name",
     "duplicate combatant name 'Ann'", "also at sides.heroes[0]"),
    ("duplicate-after-count", lambda d: (hero(name="Guard", count=2)(d),
                                         villain(name="Guard 2")(d)),
     "sides.villains[0].name", "duplicate combatant name 'Guard 2'"),
    # the native ore block
    ("ore-stat-7", hero(ore={"stats": {"body": 7}}), "sides.heroes[0].ore.stats.body",
     "must be from 1 to 6", "got 7"),
    ("ore-skill-7", hero(ore={"skills": {"fight": 7}}), "sides.heroes[0].ore.skills.fight",
     "must be from 0 to 6"),
    ("ore-stat-word", hero(ore={"stats": {"body": "big"}}), "sides.heroes[0].ore.stats.body",
     "expected an integer"),
    ("ore-expert-unknown", hero(ore={"expert": "fihgt"}), "sides.heroes[0].ore.expert",
     "unknown skill 'fihgt' (did you mean 'fight'?)", "allowed: fight, shoot, dodge"),
    ("ore-master-unknown", hero(ore={"master": ["dodge", "shot"]}), "sides.heroes[0].ore.master",
     "unknown skill 'shot' (did you mean 'shoot'?)"),
    ("ore-expert-and-master", hero(ore={"expert": "fight", "master": ["fight"]}),
     "sides.heroes[0].ore", "never both", "fight"),
    ("ore-expert-number", hero(ore={"expert": 3}), "sides.heroes[0].ore.expert",
     "expected a string or a list, got 3"),
    ("ore-expert-list-of-numbers", hero(ore={"expert": [3]}), "sides.heroes[0].ore.expert[0]",
     "expected a string, got 3"),
    ("ore-block-list", hero(ore=[1, 2]), "sides.heroes[0].ore", "expected a mapping"),
    # names that start with a capital or hold brackets stay in the path
    ("capital-side-name", lambda d: (rename_side("heroes", "Heroes")(d),
                                     d["sides"]["Heroes"][0].update(weapon="swrod")),
     "sides.Heroes[0].weapon", "(did you mean 'sword'?)"),
    ("capital-unknown-key", hero(skills={"Melee": 3}), "sides.heroes[0].skills.Melee",
     "unknown key 'Melee' (did you mean 'melee'?)"),
    ("capital-node-name", lambda d: d["map"]["nodes"].update(Hill={"covr": 1}),
     "map.nodes.Hill.covr", "(did you mean 'cover'?)"),
]


def write(tmp_path: Path, data: object, name: str = "scenario.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_base_scenario_is_valid(tmp_path, capsys):
    path = write(tmp_path, BASE)
    result = fray(capsys, "validate", str(path))
    assert (result.code, result.out) == (0, f"{path}: OK\n"), result.err


@pytest.mark.parametrize("mutate, field, needles", [(c[1], c[2], c[3:]) for c in DATA_CASES],
                         ids=[c[0] for c in DATA_CASES])
def test_bad_scenario_data(tmp_path, capsys, mutate, field, needles):
    data = copy.deepcopy(BASE)
    mutate(data)
    path = write(tmp_path, data)
    assert_input_error(fray(capsys, "run", str(path)), path, field, *needles)


# ---------------------------------------------------------------------------- file cases
GOOD_TEXT = "name: t\nsides:\n  heroes:\n    - name: A\n  villains:\n    - name: B\n"
NOT_MAPPING = "the top level must be a mapping with keys name, ruleset, max_rounds, map, sides"
TEXT_CASES = [
    ("yaml-unclosed-bracket", "name: t\nsides: {heroes: [\n", "YAML error at line 3"),
    ("yaml-bad-indent", "name: t\nsides:\n  heroes:\n    - name: A\n   - name: B\n",
     "YAML error at line 5"),
    ("yaml-tab", "name: t\n\tsides: {}\n", "YAML error at line 2",
     "tab character" if yaml.__with_libyaml__ else "'\\t'"),  # LibYAML's words, or PyYAML's
    ("yaml-duplicate-side", GOOD_TEXT + "  heroes:\n    - name: C\n",
     "YAML error at line 7", "duplicate key 'heroes' (first given on line 3)"),
    ("yaml-duplicate-top-key", GOOD_TEXT + "name: u\n", "duplicate key 'name'"),
    ("top-level-list", "- name: A\n- name: B\n", NOT_MAPPING, "got a list"),
    ("top-level-word", "hello\n", NOT_MAPPING, "got a single value 'hello'"),
    ("top-level-number", "42\n", NOT_MAPPING, "got a single value 42"),
    ("empty-file", "", NOT_MAPPING, "got an empty file"),
    ("comments-only", "# nothing here yet\n", NOT_MAPPING, "got an empty file"),
    ("deeply-nested", "x: " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
]
BYTE_CASES = [
    ("binary-garbage", bytes(range(256)) * 4, "not a text file"),
    ("latin-1-text", GOOD_TEXT.replace("name: B", "name: Jos\xe9").encode("latin-1"),
     "not UTF-8 text", "line 6", "save the file as UTF-8"),
    ("random-high-bytes", b"\xff\xfe\x80\x81garbage", "not UTF-8 text", "line 1"),
]


@pytest.mark.parametrize("text, needles", [(c[1], c[2:]) for c in TEXT_CASES],
                         ids=[c[0] for c in TEXT_CASES])
def test_bad_scenario_text(tmp_path, capsys, text, needles):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    assert_input_error(fray(capsys, "run", str(path)), path, "", *needles)


@pytest.mark.parametrize("raw, needles", [(c[1], c[2:]) for c in BYTE_CASES],
                         ids=[c[0] for c in BYTE_CASES])
def test_bad_scenario_bytes(tmp_path, capsys, raw, needles):
    path = tmp_path / "bad.yaml"
    path.write_bytes(raw)
    assert_input_error(fray(capsys, "run", str(path)), path, "", *needles)


def test_byte_order_mark_is_accepted(tmp_path, capsys):
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD_TEXT.encode())
    assert fray(capsys, "validate", str(path)).code == 0


def test_yaml_merge_keys_are_not_duplicates(tmp_path, capsys):
    path = tmp_path / "merge.yaml"
    path.write_text(GOOD_TEXT.replace("    - name: A\n",
                                      "    - &a {name: A, weapon: sword}\n    - <<: *a\n"
                                      "      name: A2\n"))
    result = fray(capsys, "validate", str(path))
    assert result.code == 0, result.err


@pytest.mark.parametrize("command", ["run", "batch", "validate"])
def test_missing_file(tmp_path, capsys, command):
    path = tmp_path / "nope.yaml"
    result = fray(capsys, command, str(path))
    assert result.code == 2 and "Traceback" not in result.err
    assert f"{path}: file not found" in result.err


@pytest.mark.parametrize("command", ["run", "batch", "validate"])
def test_directory(tmp_path, capsys, command):
    result = fray(capsys, command, str(tmp_path))
    assert result.code == 2 and "Traceback" not in result.err
    assert f"{tmp_path}: is a directory, not a scenario file" in result.err


def test_unreadable_file(tmp_path, capsys, monkeypatch):
    path = tmp_path / "locked.yaml"
    path.write_text(GOOD_TEXT)
    real = os.open

    def refuse(name, *args, **kwargs):
        if str(name) == str(path):
            raise PermissionError(13, "Permission denied", str(name))
        return real(name, *args, **kwargs)

    # chmod 000 does not stop root, so the failure is simulated where the loader opens.
    monkeypatch.setattr(os, "open", refuse)
    assert_input_error(fray(capsys, "run", str(path)), path, "",
                       "cannot read file: Permission denied")


def test_every_problem_is_reported_at_once(tmp_path, capsys):
    data = copy.deepcopy(BASE)
    hero(weapon="swrod", armor="chian")(data)
    villain(traits={"strength": 9})(data)
    path = write(tmp_path, data)
    result = fray(capsys, "validate", str(path))
    assert result.code == 2
    assert f"{path}: sides.heroes[0].weapon: " in result.err
    assert f"{path}: sides.heroes[0].armor: " in result.err
    assert f"{path}: sides.villains[0].traits.strength: " in result.err


# ---------------------------------------------------------------------------- names people type
def test_weapon_aliases_name_the_neutral_weapon():
    from sim.scenario import parse

    scen = parse({"name": "t", "sides": {
        "a": [{"name": "A", "weapon": "fists"}, {"name": "B", "weapon": "dagger"}],
        "b": [{"name": "C", "weapon": "longsword"}]}})
    assert [m.weapon for s in scen.sides for m in s.members] == ["unarmed", "knife", "sword"]


def test_a_map_edge_given_twice_with_two_lengths_is_refused():
    from sim.scenario import parse
    from sim.scenario.errors import ScenarioError

    sides = {"a": [{"name": "A"}], "b": [{"name": "B"}]}
    nodes = {"x": None, "y": None}
    with pytest.raises(ScenarioError, match=r"map.edges\[1\]: 'y' and 'x' are joined twice, "
                                            r"5 m at map.edges\[0\] and 7 m here"):
        parse({"name": "t", "map": {"nodes": nodes, "edges": [["x", "y", 5], ["y", "x", 7]]},
               "sides": sides})
    same = parse({"name": "t", "map": {"nodes": nodes, "edges": [["x", "y", 5], ["x", "y", 5]]},
                  "sides": sides})
    assert same.map.edges == (("x", "y", 5.0),)
