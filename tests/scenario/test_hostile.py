"""Hostile input: files that are not files, alias bombs, planted links, and a fuzz of
mutated scenarios through load and run. Each refused with exit 2 and a reason, quickly;
nothing raises past the input edge."""

from __future__ import annotations

import copy
import dataclasses
import os
import time

import pytest
import yaml
from helpers import SCENARIOS, fray
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sim.batch import files
from sim.core.engine import Encounter
from sim.rulesets import registry
from sim.scenario import parse
from sim.scenario.errors import FrayInputError, ScenarioError
from sim.scenario.reading import read_yaml


def test_an_alias_bomb_is_refused_quickly(tmp_path):
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for k in range(1, 10):
        name, prev = chr(97 + k), chr(96 + k)
        levels.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(levels) + "\n")
    start = time.process_time()
    with pytest.raises(ScenarioError, match="alias bomb"):
        read_yaml(str(bomb))
    assert time.process_time() - start < 2


def test_only_regular_files_of_a_sane_size_are_read(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioError, match="not a regular file"):
        read_yaml(str(fifo))  # would block forever if opened
    with pytest.raises(ScenarioError, match="not a regular file"):
        read_yaml("/dev/zero")  # would read until memory runs out
    big = tmp_path / "big.yaml"
    big.write_bytes(b"# " + b"x" * 2_100_000 + b"\n")
    with pytest.raises(ScenarioError, match="larger than 2,000,000 bytes"):
        read_yaml(str(big))


def test_output_files_are_never_links_folders_or_devices(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    link = tmp_path / "log.md"
    link.symlink_to(victim)
    for path, why in ((link, "symbolic link"), (tmp_path, "not a regular file"),
                      (__import__("pathlib").Path("/dev/null"), "not a regular file")):
        with pytest.raises(FrayInputError, match=why):
            files.claim_out_file(path, force=True)
    assert victim.read_text() == "mine"


def test_temporary_files_are_unique_and_follow_no_planted_link(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    (tmp_path / ".summary.json.tmp").symlink_to(victim)  # the old, guessable name
    files.write_json(tmp_path / "summary.json", {"ok": 1})
    assert victim.read_text() == "mine"
    assert files.temporary(tmp_path / "x") != files.temporary(tmp_path / "x")


def test_too_many_combatants_are_refused(capsys, tmp_path):
    crowd = tmp_path / "crowd.yaml"
    crowd.write_text(yaml.safe_dump({"name": "Crowd", "sides": {
        "a": [{"name": "A", "count": 150}], "b": [{"name": "B", "count": 100}]}}))
    result = fray(capsys, "validate", str(crowd))
    assert result.code == 2 and "250 combatants; at most 200" in result.err


# ---------------------------------------------------------------------------- fuzz
BASES = [yaml.safe_load(p.read_text()) for p in sorted(SCENARIOS.glob("*.yaml"))]
WILD = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                 st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
                 st.lists(st.integers(-5, 50), max_size=4),
                 st.dictionaries(st.text(max_size=6), st.integers(-3, 9), max_size=3))
# values a scenario could hold, so that many mutants load and fight
PLAUSIBLE = st.one_of(st.integers(0, 6), st.sampled_from(
    ["sword", "bow", "crossbow", "claws", "unarmed", "none", "leather", "plate", "light",
     "heavy", "poor", "very_poor", "aggressive", "cautious", "tactical", "passive", "field"]))
VALUES = st.one_of(PLAUSIBLE, PLAUSIBLE, WILD)


def _paths(node, here=()):
    yield here
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*here, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*here, i))


def _set(doc, path, value):
    if not path:
        return value
    node = doc
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return doc


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_scenarios_load_or_are_refused_and_run(data):
    doc = copy.deepcopy(data.draw(st.sampled_from(BASES)))
    paths = list(_paths(doc))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        doc = _set(doc, path, data.draw(VALUES))
        paths = list(_paths(doc))
    try:
        scen = parse(doc, "fuzz.yaml")
    except FrayInputError:
        event("refused with a reason")
        return
    event("loaded and run")
    scen = dataclasses.replace(scen, max_rounds=min(scen.max_rounds, 4))
    ruleset = data.draw(st.sampled_from(registry.names()))
    Encounter(scen, ruleset, data.draw(st.integers(0, 99)), log=True).run()
