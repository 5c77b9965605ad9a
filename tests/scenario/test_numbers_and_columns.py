"""What a scenario's numbers and names may be, checked at load time with the field named:
colliding columns, numbers Python cannot read, edges whose path would be infinite; one parse
with LibYAML, each campaign stage file read once; and the CLI's smaller refusals."""

from __future__ import annotations

import time

import pytest
import yaml
from helpers import SCENARIOS, fray

from sim.scenario import loader, parse, reading
from sim.scenario.errors import ScenarioError

DUEL = str(SCENARIOS / "duel.yaml")
LONG = "9" * 5000


def test_sides_whose_columns_collide_are_refused_naming_both():
    with pytest.raises(ScenarioError) as caught:
        parse({"name": "x", "sides": {"a": [{"name": "A"}], "a_damaging": [{"name": "B"}]}})
    assert ("sides.a_damaging: its column 'a_damaging_hits' in encounters.csv is also a "
            "column of side 'a'") in caught.value.render()
    parse({"name": "x", "sides": {"a": [{"name": "A"}], "ab": [{"name": "B"}]}})  # fine


@pytest.mark.parametrize("text, field, line", [
    (f"name: x\nmax_rounds: {LONG}\nsides: {{a: [{{name: A}}], b: [{{name: B}}]}}\n",
     "max_rounds", 2),
    (f"name: x\nsides:\n  a: [{{name: A, count: {LONG}}}]\n  b: [{{name: B}}]\n",
     "sides.a[0].count", 3),
    (f"name: x\nsides:\n  a:\n    - name: A\n      traits: {{strength: {LONG}}}\n"
     "  b: [{name: B}]\n", "sides.a[0].traits.strength", 5),
    ("name: x\nmap:\n  nodes: {p: , q: }\n  edges: [[p, q, 1" + "0" * 400 + "]]\n"
     "sides: {a: [{name: A, at: p}], b: [{name: B, at: q}]}\n", "map.edges[0][2]", 4),
])
def test_a_number_too_long_to_read_is_refused_with_its_field_and_line(capsys, tmp_path, text,
                                                                      field, line):
    path = tmp_path / "long.yaml"
    path.write_text(text)
    result = fray(capsys, "validate", str(path), DUEL)
    assert result.code == 2 and f"long.yaml: {field}: line {line}: a number of " in result.err
    assert f"{DUEL}: OK" in result.out  # validate goes on past the bad file


@pytest.mark.parametrize("metres, shown", [(1.0e308, r"1e\+308"), (10**400, "more than 15"),
                                           (100_001, "100001")])
def test_an_edge_has_an_upper_bound(metres, shown):
    doc = {"name": "x", "map": {"nodes": {"p": None, "q": None, "r": None},
                                "edges": [["p", "q", metres], ["q", "r", metres]]},
           "sides": {"a": [{"name": "A", "at": "p"}], "b": [{"name": "B", "at": "r"}]}}
    with pytest.raises(ScenarioError, match=rf"map.edges\[0\]\[2\]: .*at most 100,000; got "
                                            rf".*{shown}"):
        parse(doc)


def test_sweep_set_refuses_a_number_too_long(capsys, tmp_path):
    result = fray(capsys, "sweep", DUEL, "--set", f"max_rounds={LONG}", "-n", "2",
                  "--out", str(tmp_path / "s"))
    assert result.code == 2 and "a number of more than 40 digits" in result.err


def test_yaml_is_parsed_once_with_libyaml_when_present(monkeypatch):
    assert issubclass(reading._UniqueKeyLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    calls = []
    real = reading._UniqueKeyLoader.get_single_node

    def counted(self):
        calls.append(1)
        return real(self)

    monkeypatch.setattr(reading._UniqueKeyLoader, "get_single_node", counted)
    loader.load(DUEL)
    assert calls == [1]


def test_a_campaign_reads_each_stage_file_once(tmp_path, monkeypatch):
    from sim.scenario import campaign

    (tmp_path / "duel.yaml").write_text((SCENARIOS / "duel.yaml").read_text())
    party = parse(yaml.safe_load((SCENARIOS / "duel.yaml").read_text())).sides[0].name
    doc = {"name": "Long road", "party": party,
           "stages": [{"scenario": "duel.yaml"}] * 2000}
    path = tmp_path / "road.yaml"
    path.write_text(yaml.safe_dump(doc))
    reads = []
    real = campaign.load
    monkeypatch.setattr(campaign, "load", lambda p: reads.append(p) or real(p))
    start = time.process_time()
    assert len(campaign.load_campaign(path).stages) == 2000
    assert len(reads) == 1 and time.process_time() - start < 20


# ---------------------------------------------------------------------------- the CLI
def test_out_empty_is_refused(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for command in (["batch", DUEL, "-n", "2"], ["compare", DUEL, "-n", "2"]):
        result = fray(capsys, *command, "--out", "")
        assert result.code == 2 and "an empty folder name" in result.err
    assert list(tmp_path.iterdir()) == []


def test_an_os_error_where_nothing_ran_does_not_speak_of_resume(capsys, tmp_path,
                                                                monkeypatch):
    from sim.batch import files

    def full(path, data):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(files, "write_json", full)  # the first checkpoint cannot be written
    result = fray(capsys, "batch", DUEL, "-n", "4", "-q", "--out", str(tmp_path / "o"))
    assert result.code == 1 and "No space left on device" in result.err
    assert "--resume" not in result.err


@pytest.mark.parametrize("nest", ["[" * 100_000 + "]" * 100_000,
                                  "{a: " * 50_000 + "1" + "}" * 50_000], ids=["lists", "maps"])
def test_a_document_too_deep_for_libyaml_is_refused_not_crashed(tmp_path, nest):
    """LibYAML's composer recurses in C (a segfault at 50,000 levels): such a text goes to
    PyYAML's own parser, whose RecursionError is said as an error. In a child process, so
    a crash fails this test and not the run."""
    import subprocess

    from helpers import FRAY_COMMAND

    path = tmp_path / "deep.yaml"
    path.write_text(f"x: {nest}\n")
    done = subprocess.run([*FRAY_COMMAND, "validate", str(path)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and "YAML nested too deeply" in done.stderr, done


@pytest.mark.parametrize("command", [("run", DUEL), ("batch", DUEL, "-n", "2")])
def test_a_seed_too_long_is_refused_saying_what_is_allowed(capsys, tmp_path, command):
    # int() stops at 4,300 digits with advice about Python's limit: the option says its own
    result = fray(capsys, *command, "--seed", LONG, "--out" if "batch" in command else "-o",
                  str(tmp_path / "x"))
    assert result.code == 2
    assert ("'--seed': a number of 5,000 digits; allowed: 0 or more, written in at most 40 "
            "digits") in result.err
    assert "sys.set_int_max_str_digits" not in result.err and LONG not in result.err


@pytest.mark.parametrize("option", ["--output", "--html"])
def test_an_empty_file_name_is_refused_naming_the_option(capsys, option):
    result = fray(capsys, "run", DUEL, option, "")
    assert result.code == 2
    assert f"'{option}'" in result.err and "an empty file name; name the file to write" in (
        result.err)


@pytest.mark.parametrize("metres", [1.0e-200, 1.0e-155, 0.0009])
def test_an_edge_has_a_lower_bound(capsys, tmp_path, metres):
    """Shorter than a millimetre: refused at load, never a failure in map, --html or --map."""
    doc = {"name": "x", "map": {"nodes": {"p": None, "q": None},
                                "edges": [["p", "q", metres]]},
           "sides": {"a": [{"name": "A", "at": "p"}], "b": [{"name": "B", "at": "q"}]}}
    with pytest.raises(ScenarioError, match=r"map.edges\[0\]\[2\]: .*at least 0.001 and at "
                                            r"most 100,000; got"):
        parse(doc)
    path = tmp_path / "tiny.yaml"
    path.write_text(f"name: x\nmap:\n  nodes: {{p: {{}}, q: {{}}}}\n  edges:\n"
                    f"    - [p, q, {metres:.1e}]\nsides:\n  a: [{{name: A, at: p}}]\n"
                    f"  b: [{{name: B, at: q}}]\n")
    for command in (("map", str(path), "-o", str(tmp_path / "m.png")),
                    ("run", str(path), "--html", str(tmp_path / "r.html")),
                    ("run", str(path), "--map", str(tmp_path / "maps"))):
        result = fray(capsys, *command)
        assert result.code == 2 and "at least 0.001" in result.err, result.err
