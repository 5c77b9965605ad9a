"""Scenario authoring: ``fray map``, ``fray run --map``, ``fray schema``, ``fray new``,
``fray scenarios``, and the scenarios shipped inside the package.

Refusals exit 2 with a message and no traceback, and leave files as they were.
"""

from __future__ import annotations

import copy
import json
import re
import runpy
import shlex
import tomllib

import jsonschema
import pytest
import setuptools
import yaml
from helpers import ROOT, SCENARIOS, accepted_by_both, fray

from sim.rulesets import registry
from sim.scenario import bundled
from sim.scenario import vocabulary as catalog
from sim.scenario.schema import scenario_schema

DUEL = str(SCENARIOS / "duel.yaml")
AMBUSH = str(SCENARIOS / "ambush.yaml")
SCENARIO_FILES = [*sorted(SCENARIOS.glob("*.yaml")),
                  SCENARIOS / "campaigns" / "night_camp.yaml",
                  SCENARIOS / "campaigns" / "keep_gate.yaml"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def refused(result, *needles: str) -> None:
    text = result.out + result.err
    assert result.code == 2, text
    assert "Traceback" not in text
    for needle in needles:
        assert needle in result.err, f"{needle!r} missing:\n{result.err}"


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(scenario_schema())


# ---------------------------------------------------------------------------- fray map
def test_map_writes_a_png_and_replaces_it_only_with_force(capsys, tmp_path):
    out = tmp_path / "ambush.png"
    result = fray(capsys, "map", AMBUSH, "--output", str(out))
    assert result.code == 0 and f"wrote {out}" in result.err
    first = out.read_bytes()
    assert first[:8] == PNG_SIGNATURE and len(first) > 15_000
    out.write_bytes(b"keep me")
    refused(fray(capsys, "map", AMBUSH, "--output", str(out)),
            f"error: {out}: file exists; use --force to overwrite it")
    assert out.read_bytes() == b"keep me"
    assert fray(capsys, "map", AMBUSH, "--output", str(out), "--force").code == 0
    assert out.read_bytes()[:8] == PNG_SIGNATURE
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ambush.png"]  # no temporary left


def test_map_svg_names_the_scenario_and_its_lengths(capsys, tmp_path):
    out = tmp_path / "duel.SVG"
    assert fray(capsys, "map", str(SCENARIOS / "last_stand.yaml"), "-o", str(out)).code == 0
    svg = out.read_text()
    assert ">Last stand at the bridge<" in svg and ">6 m<" in svg and ">8 m<" in svg


def test_map_defaults_to_the_scenario_files_name_here(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert fray(capsys, "map", DUEL).code == 0
    assert (tmp_path / "duel.png").read_bytes()[:8] == PNG_SIGNATURE


@pytest.mark.parametrize("args, needles", [
    (["map", DUEL, "-o", "duel.jpg"], ["'duel.jpg' must end in .png or .svg"]),
    (["map", DUEL, "-o", "duel"], ["'duel' must end in .png or .svg"]),
    (["map", "no-such.yaml", "-o", "x.png"], ["no-such.yaml: file not found"]),
], ids=["jpg", "no-extension", "missing-scenario"])
def test_map_refuses_bad_input(capsys, tmp_path, monkeypatch, args, needles):
    monkeypatch.chdir(tmp_path)
    refused(fray(capsys, *args), *needles)
    assert not list(tmp_path.iterdir())


def test_map_into_a_missing_folder(capsys, tmp_path):
    out = tmp_path / "no" / "such" / "map.png"
    refused(fray(capsys, "map", DUEL, "-o", str(out)),
            f"error: {out}: cannot write: No such file or directory")


# ---------------------------------------------------------------------------- fray run --map
def test_run_map_draws_each_round_and_markdown_links_them(capsys, tmp_path):
    log, maps = tmp_path / "fight.md", tmp_path / "maps"
    result = fray(capsys, "run", str(SCENARIOS / "last_stand.yaml"), "--seed", "2",
                  "--format", "markdown", "--output", str(log), "--map", str(maps))
    assert result.code == 0, result.err
    text = log.read_text()
    rounds = [int(n) for n in re.findall(r"^## Round (\d+)$", text, re.M)]
    pictures = sorted(p.name for p in maps.iterdir())
    assert pictures == [f"round-{r:02d}.png" for r in range(len(rounds) + 1)]
    assert f"drew {len(pictures)} pictures into {maps}" in result.err
    for r in rounds:
        assert f"## Round {r}\n\n![Round {r}](maps/round-{r:02d}.png)\n" in text
    assert text.count("![The start](maps/round-00.png)") == 1
    plain = fray(capsys, "run", str(SCENARIOS / "last_stand.yaml"), "--seed", "2",
                 "--format", "markdown")
    assert re.sub(r"!\[[^]]*\]\([^)]*\)\n\n", "", text) == plain.out  # the same fight

    refused(fray(capsys, "run", DUEL, "--map", str(maps)),
            f"error: {maps}: holds the pictures of another fight (round-00.png, ...); use "
            f"--force")
    assert sorted(p.name for p in maps.iterdir()) == pictures
    again = fray(capsys, "run", DUEL, "--seed", "5", "--map", str(maps), "--force")
    assert again.code == 0 and "![" not in again.out  # text logs name no pictures
    rounds = len(re.findall(r"^== Round \d+ ==$", again.out, re.M))
    assert sorted(p.name for p in maps.iterdir()) == [f"round-{r:02d}.png"
                                                      for r in range(rounds + 1)]


# ---------------------------------------------------------------------------- fray schema
def test_schema_is_valid_json_schema(capsys):
    result = fray(capsys, "schema")
    assert result.code == 0
    schema = json.loads(result.out)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    member = schema["$defs"]["Member"]["properties"]
    assert set(registry.native_blocks()) <= set(member)
    assert set(registry.option_blocks()) == set(schema["$defs"]["Options"]["properties"])


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_schema_accepts_every_bundled_scenario(validator, path):
    errors = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(
        yaml.safe_load(path.read_text()))]
    assert not errors


def _paths(errors):
    """Where each error (and each alternative of an anyOf that failed) points."""
    for e in errors:
        yield list(e.absolute_path)
        yield from _paths(e.context)


def _ambush() -> dict:
    return yaml.safe_load((SCENARIOS / "ambush.yaml").read_text())


def _break(change):
    data = copy.deepcopy(_ambush())
    change(data)
    return data


@pytest.mark.parametrize("change, where", [
    (lambda d: d["sides"]["heroes"][0].update(weapon="swrod"), ["sides", "heroes", 0, "weapon"]),
    (lambda d: d.pop("name"), []),
    (lambda d: d["sides"].pop("bandits"), ["sides"]),
    (lambda d: d["map"]["edges"].append(["road", "ford"]), ["map", "edges", 4]),
    (lambda d: d["map"]["edges"].append(["road", "ford", -3]), ["map", "edges", 4, 2]),
    (lambda d: d["map"]["nodes"]["road"].update(cover="thick"), ["map", "nodes", "road",
                                                                   "cover"]),
    (lambda d: d["sides"]["heroes"][0].update(strenght=4), ["sides", "heroes", 0]),
    (lambda d: d.update(ruleset="no-such-ruleset"), ["ruleset"]),
], ids=["weapon", "no-name", "one-side", "short-edge", "negative-edge", "cover", "typo-key",
        "ruleset"])
def test_schema_rejects_a_broken_scenario(validator, capsys, tmp_path, change, where):
    data = _break(change)
    errors = list(validator.iter_errors(data))
    assert errors and where in list(_paths(errors))  # the error points at the field
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(data))
    refused(fray(capsys, "validate", str(path)))  # the loader refuses it too


@pytest.mark.parametrize("change", [
    *(lambda d, w=w: d["sides"]["heroes"][0].update(weapon=w) for w in catalog.WEAPON_ALIASES),
    lambda d: d.update(ruleset=None),
], ids=[*catalog.WEAPON_ALIASES, "null-ruleset"])
def test_schema_accepts_what_the_loader_accepts(capsys, tmp_path, change):
    accepted_by_both(capsys, tmp_path, _break(change))


def test_schema_output_file(capsys, tmp_path):
    out = tmp_path / "fray.schema.json"
    assert fray(capsys, "schema", "--output", str(out)).code == 0
    assert json.loads(out.read_text())["title"] == "fray scenario"
    refused(fray(capsys, "schema", "--output", str(out)), "file exists; use --force")


# ---------------------------------------------------------------------------- fray new
@pytest.mark.parametrize("ruleset", registry.names())
def test_new_writes_a_template_that_validates(capsys, tmp_path, validator, ruleset):
    base = tmp_path / "night_raid"
    result = fray(capsys, "new", str(base), "--ruleset", ruleset)
    path = tmp_path / "night_raid.yaml"
    assert result.code == 0 and f"wrote {path}" in result.out
    check = fray(capsys, "validate", str(path))
    assert check.code == 0 and check.out == f"{path}: OK\n"
    text = path.read_text()
    data = yaml.safe_load(text)
    assert not list(validator.iter_errors(data))
    assert data["name"] == "Night raid" and data["ruleset"] == ruleset
    assert len(data["sides"]) == 2 and any(n and n.get("cover") for n in
                                           data["map"]["nodes"].values())
    lines = text.splitlines()
    for key in ("ruleset", "max_rounds", "map", "nodes", "edges", "sides", "at", "ai",
                "count", "traits", "skills", "weapon", "armor", "shield", "options",
                "aftermath"):  # every key is explained beside it, or on the line below
        k = next(i for i, ln in enumerate(lines) if re.match(rf"\s*(- )?{key}:", ln))
        assert "#" in lines[k] or lines[k + 1].lstrip().startswith("#"), lines[k]
    assert registry.get(ruleset).native_key in text


def test_new_prints_a_check_command_that_runs_as_pasted(capsys, tmp_path):
    result = fray(capsys, "new", str(tmp_path / "a b"))
    command = result.out.split("check it with: ")[1].strip()
    assert shlex.split(command) == ["fray", "validate", str(tmp_path / "a b.yaml")]


def test_new_refuses_to_overwrite(capsys, tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("keep me\n")
    refused(fray(capsys, "new", str(path)), f"error: {path}: file exists; use --force")
    assert path.read_text() == "keep me\n"
    assert fray(capsys, "new", str(path), "--force").code == 0
    assert fray(capsys, "validate", str(path)).code == 0
    refused(fray(capsys, "new", str(tmp_path / "x"), "--ruleset", "dnd"), "unknown ruleset")


# ---------------------------------------------------------------------------- fray scenarios
def test_scenarios_lists_each_bundled_file(capsys):
    result = fray(capsys, "scenarios")
    assert result.code == 0
    assert f"Bundled scenarios (files in {bundled.folder()}):" in result.out
    for path in SCENARIO_FILES:  # each by the name that runs it, from any folder
        line = next(ln for ln in result.out.splitlines() if ln.split()[:1] == [path.stem])
        name = yaml.safe_load(path.read_text())["name"]
        assert name in line and " v " in line
        assert bundled.named(path.stem) == path
    line = next(ln for ln in result.out.splitlines() if ln.split()[:1] == ["road_to_the_keep"])
    assert "3 stages" in line and "fray campaign road_to_the_keep" in result.out


def test_scenarios_copy(capsys, tmp_path):
    out = tmp_path / "mine"
    result = fray(capsys, "scenarios", "--copy", str(out))
    copied = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.yaml"))
    assert result.code == 0 and f"copied {len(copied)} files to {out}" in result.out
    assert copied == sorted(p.relative_to(SCENARIOS).as_posix()
                            for p in SCENARIOS.rglob("*.yaml"))
    campaign = out / "campaigns" / "road_to_the_keep.yaml"
    assert fray(capsys, "validate", str(campaign)).code == 0  # stage paths still resolve
    refused(fray(capsys, "scenarios", "--copy", str(out)), "use --force to overwrite")
    assert fray(capsys, "scenarios", "--copy", str(out), "--force").code == 0


def test_the_package_ships_every_package_and_the_scenarios(monkeypatch):
    """setup.py finds every package under sim/ (a new ruleset's folder with it) and the
    scenarios/ folder as sim.scenarios; pyproject.toml maps that folder and ships the data."""
    found: dict = {}
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(setuptools, "setup", lambda **kw: found.update(kw))
    runpy.run_path(str(ROOT / "setup.py"))
    packages = set(found["packages"])
    code = {p.parent for p in (ROOT / "sim").rglob("*.py")}
    for folder in code:
        assert (folder / "__init__.py").exists(), f"{folder} has modules but no __init__.py"
    assert {".".join(f.relative_to(ROOT).parts) for f in code} <= packages
    data = {".".join(["sim", *p.parent.relative_to(ROOT).parts]) for p in SCENARIOS.rglob("*.yaml")}
    assert data <= packages
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"]["sim.scenarios"] == "scenarios"
    assert {"*.yaml", "*.json"} <= set(config["package-data"]["*"])


def test_a_native_block_with_a_required_key_is_templated(capsys, tmp_path, monkeypatch):
    """A ruleset's block may require a key (the throwaway coinflip's ``hp``): ``fray new``
    says so in its comments rather than failing on a default that is not there."""
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "rulesets"))
    from coinflip import CoinFlip

    registry.register(CoinFlip)
    try:
        result = fray(capsys, "new", str(tmp_path / "coin"), "--ruleset", "coinflip")
        assert result.code == 0, result.err
        assert "#   hp: (required)" in (tmp_path / "coin.yaml").read_text()
    finally:
        registry.unregister(CoinFlip.name)
