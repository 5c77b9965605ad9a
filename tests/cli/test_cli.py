"""The ``fray`` command: bad options exit 2 with a clear message; good ones work.

Everything runs through ``sim.cli.main.main`` with ``sys.argv`` set, as the installed script does.
"""

from __future__ import annotations

import ast
import contextlib
import json
import re
from pathlib import Path

import click
import pytest
from helpers import (
    ROOT,
    SCENARIOS,
    Result,
    any_ruleset,
    fray,
    ruleset_modules,
    two_rulesets,
    typo,
    validated_with_imports,
)

from sim import scenario as scenario_mod
from sim.cli import params, values
from sim.cli.main import COMMANDS, LazyGroup, cli
from sim.rulesets import registry

BUNDLED = sorted(SCENARIOS.glob("*.yaml"))
DUEL = str(SCENARIOS / "duel.yaml")


def assert_usage_error(result: Result, *needles: str) -> None:
    text = result.out + result.err
    assert result.code == 2, text
    assert "Traceback" not in text
    for needle in needles:
        assert needle in result.err, f"{needle!r} missing:\n{result.err}"


# ---------------------------------------------------------------------------- bad options
@pytest.mark.parametrize("args, needles", [
    (["run", DUEL, "--ruleset", typo(any_ruleset())],
     ["--ruleset", f"unknown ruleset '{typo(any_ruleset())}' (did you mean '{any_ruleset()}'?)",
      f"allowed: {', '.join(registry.names())}"]),
    (["run", DUEL, "--ruleset", any_ruleset().upper()],
     [f"unknown ruleset '{any_ruleset().upper()}' (did you mean '{any_ruleset()}'?)"]),
    (["play", DUEL, "--as", "Ser Aldric", "--rollouts", "0"],
     ["--rollouts", "0 is out of range; allowed: 1 to 100000"]),
    (["batch", DUEL, "--precision", "abc"],
     ["--precision", "'abc' is not a number; allowed: 0 (none), or 0.0001 or more and "
                     "below 0.5"]),
    (["balance", DUEL, "--vary", "max_rounds", "--range", "1..3", "--target", "2"],
     ["--target", "2 is out of range; allowed: 0 to 1"]),
    (["batch", DUEL, "--ruleset", "alll"],
     ["unknown ruleset 'alll' (did you mean 'all'?)",
      f"allowed: {', '.join(registry.names())}, all"]),
    (["batch", DUEL, "-n", "0"], ["'-n'", "0 is out of range; allowed: 1 to 100000000"]),
    (["batch", DUEL, "-n", "-3"], ["'-n'", "-3 is out of range; allowed: 1 to 100000000"]),
    (["batch", DUEL, "-n", "many"], ["'-n'", "'many' is not a whole number; allowed: 1 to"]),
    (["run", DUEL, "--seed", "abc"],
     ["'--seed'", "'abc' is not a whole number; allowed: 0 or more"]),
    (["run", DUEL, "--format", "bogus"],
     ["'--format'", "'bogus' is not one of 'text', 'markdown', 'jsonl'"]),
    (["run", DUEL, "--seed", "-1"], ["'--seed'", "-1 is out of range; allowed: 0 or more"]),
    (["run"], ["Missing argument 'SCENARIO'", "Usage: fray run"]),
    (["validate"], ["Missing argument 'FILE...'"]),
    (["bogus"], ["No such command 'bogus'"]),
], ids=["run-ruleset", "run-ruleset-capitals", "rollouts-zero", "precision-word",
        "target-above-1", "batch-ruleset", "n-zero",
        "n-negative", "n-word", "seed-word", "format", "seed-negative", "run-no-file",
        "validate-no-file", "unknown-command"])
def test_bad_options(capsys, args, needles):
    assert_usage_error(fray(capsys, *args), *needles)


def test_run_output_is_not_overwritten_without_force(tmp_path, capsys):
    out = tmp_path / "log.txt"
    out.write_text("keep me\n")
    result = fray(capsys, "run", DUEL, "--output", str(out))
    assert_usage_error(result, f"error: {out}: file exists; use --force to overwrite it")
    assert out.read_text() == "keep me\n"
    assert fray(capsys, "run", DUEL, "--output", str(out), "--force").code == 0
    assert out.read_text().startswith(f"Sword duel under {scenario_mod.load(DUEL).ruleset}")
    assert [p.name for p in tmp_path.iterdir()] == ["log.txt"]  # no .part file left


def test_run_output_into_missing_folder(tmp_path, capsys):
    out = tmp_path / "no" / "such" / "log.txt"
    result = fray(capsys, "run", DUEL, "--output", str(out))
    assert_usage_error(result, f"error: {out}: cannot write: No such file or directory")


def test_batch_does_not_touch_existing_results(tmp_path, capsys):
    out = tmp_path / "results"
    first = fray(capsys, "batch", DUEL, "-n", "5", "-q", "--workers", "1", "--out", str(out))
    assert first.code == 0, first.err
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.iterdir()}
    assert set(before) == {"summary.json", "encounters.csv"}
    again = fray(capsys, "batch", DUEL, "-n", "7", "-q", "--workers", "1", "--seed", "9",
                 "--out", str(out))
    assert_usage_error(again, f"error: {out}: folder already holds results", "--force")
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.iterdir()}
    assert after == before
    forced = fray(capsys, "batch", DUEL, "-n", "7", "-q", "--workers", "1", "--out", str(out),
                  "--force")
    assert forced.code == 0, forced.err
    assert json.loads((out / "summary.json").read_text()) != json.loads(before["summary.json"][0])


def test_batch_out_under_a_file(tmp_path, capsys):
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    result = fray(capsys, "batch", DUEL, "-n", "3", "-q", "--workers", "1",
                  "--out", str(blocker / "sub"))
    assert_usage_error(result, f"error: {blocker / 'sub'}: cannot create the output folder")


# ---------------------------------------------------------------------------- validate
def test_validate_good_files(capsys):
    assert len(BUNDLED) >= 4
    result = fray(capsys, "validate", *map(str, BUNDLED))
    assert result.code == 0, result.err
    assert result.out.splitlines() == [f"{path}: OK" for path in BUNDLED]
    assert result.err == ""


def test_validate_good_and_bad_files(tmp_path, capsys):
    typo = tmp_path / "typo.yaml"
    typo.write_text(Path(DUEL).read_text().replace("weapon: sword", "weapon: swrod", 1))
    missing = tmp_path / "missing.yaml"
    result = fray(capsys, "validate", DUEL, str(typo), str(missing))
    assert_usage_error(
        result, f"{typo}: sides.red[0].weapon: unknown weapon 'swrod' (did you mean 'sword'?)",
        f"{missing}: file not found")
    assert result.out == f"{DUEL}: OK\n"  # the good file is still reported


# ---------------------------------------------------------------------------- good runs
def test_rulesets_lists_every_registered_ruleset(capsys):
    result = fray(capsys, "rulesets")
    assert result.code == 0
    listed = [line.split()[0] for line in result.out.splitlines() if line.strip()]
    assert listed == registry.names()


def test_run_is_reproducible(capsys):
    first = fray(capsys, "run", DUEL, "--seed", "5")
    second = fray(capsys, "run", DUEL, "--seed", "5")
    other = fray(capsys, "run", DUEL, "--seed", "6")
    assert first.code == second.code == other.code == 0
    assert first.out == second.out
    assert "Round 1" in first.out
    assert other.out != first.out  # the seed matters, so equality above means something


def test_run_jsonl_lines_parse(capsys):
    result = fray(capsys, "run", DUEL, "--seed", "5", "--format", "jsonl")
    assert result.code == 0
    events = [json.loads(line) for line in result.out.splitlines() if line.strip()]
    assert len(events) > 3
    assert all(isinstance(e, dict) and "type" in e and "round" in e for e in events)
    assert events[0]["seed"] == 5


def test_run_markdown_has_round_headings(capsys):
    result = fray(capsys, "run", DUEL, "--seed", "5", "--format", "markdown")
    assert result.code == 0
    assert result.out.startswith("# ")
    rounds = re.findall(r"^## Round (\d+)$", result.out, re.M)
    assert rounds[:2] == ["1", "2"]
    assert rounds == [str(i) for i in range(1, len(rounds) + 1)]


@pytest.mark.parametrize("args, needle", [
    (["--executor", "dask", "--scheduler", "foo"], "tcp://HOST:PORT"),
    (["--scheduler", "tcp://127.0.0.1:8786"], "only used with --executor dask"),
])
def test_bad_scheduler_is_bad_input(capsys, tmp_path, args, needle):
    result = fray(capsys, "batch", DUEL, "-n", "5", "--out", str(tmp_path / "x"), *args)
    assert result.code == 2 and needle in result.out + result.err
    assert "Traceback" not in result.out + result.err
    assert not (tmp_path / "x" / ".encounters.csv.part").exists()


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_help_with_an_example(capsys, command):
    result = fray(capsys, command, "--help")
    assert result.code == 0 and f"Example: fray {command}" in result.out


@pytest.mark.parametrize("command", ["batch", "compare"])
def test_resume_needs_the_folder(capsys, command):
    result = fray(capsys, command, DUEL, "-n", "3", "--resume")
    assert_usage_error(result, "error: --resume: name the folder of the interrupted")


def test_batch_all_rulesets_then_resume_a_complete_folder(tmp_path, capsys):
    out = tmp_path / "all"
    result = fray(capsys, "batch", DUEL, "-n", "4", "--ruleset", "all", "-q", "--workers", "1",
                  "--out", str(out))
    assert result.code == 0, result.err
    assert sorted(p.name for p in out.iterdir()) == sorted(registry.names())
    for name in registry.names():
        summary = json.loads((out / name / "summary.json").read_text())
        assert summary["ruleset"] == name and summary["encounters"] == 4
        assert f"duel under {name}: 4 encounters, seed 1" in result.out
    again = fray(capsys, "batch", DUEL, "-n", "4", "--ruleset", "all", "-q", "--workers", "1",
                 "--out", str(out), "--resume")
    assert again.code == 0, again.err
    assert again.err.count("already complete") == len(registry.names())


def test_batch_all_rulesets_interrupted_resumes_from_the_parent_folder(tmp_path, capsys,
                                                                      monkeypatch):
    """Stopped in the second ruleset: the hint names the parent; --resume keeps the finished
    ruleset, resumes the interrupted one, runs the rest: the files of an uninterrupted run."""
    args = ("batch", DUEL, "-n", "30", "--ruleset", "all", "-q", "--workers", "1",
            "--chunk-size", "10", "--seed", "3")
    whole = fray(capsys, *args, "--out", str(tmp_path / "whole"))
    assert whole.code == 0, whole.err
    first, second, *rest = registry.names()

    @contextlib.contextmanager
    def bar(_total, label, _quiet=False):
        def advance(_n):
            if f"[{second}]" in label:  # after the second ruleset's first chunk
                raise KeyboardInterrupt

        yield advance

    out = tmp_path / "cut"
    with monkeypatch.context() as patch:
        patch.setattr("sim.cli.params.progress_bar", bar)
        cut = fray(capsys, *args, "--out", str(out))
    assert cut.code == 130, cut.err
    assert f"10 of 30 encounters kept in {out / second}" in cut.err
    assert cut.err.rstrip().endswith(f"--resume --out {out}")
    assert (out / first / "summary.json").exists()
    assert not any((out / name / "summary.json").exists() for name in rest)

    resumed = fray(capsys, *args, "--out", str(out), "--resume")
    assert resumed.code == 0, resumed.err
    assert f"{out / first}: already complete" in resumed.err
    for name in registry.names():
        for file in ("encounters.csv", "summary.json"):
            assert ((out / name / file).read_bytes()
                    == (tmp_path / "whole" / name / file).read_bytes()), (name, file)
        assert not (out / name / ".batch-state.json").exists()


def test_batch_all_rulesets_resume_with_nothing_to_resume(tmp_path, capsys):
    result = fray(capsys, "batch", DUEL, "-n", "4", "--ruleset", "all", "-q", "--workers", "1",
                  "--out", str(tmp_path / "empty"), "--resume")
    assert_usage_error(result, "no interrupted batch to resume here")


# ---------------------------------------------------------------------------- parameter types
def test_ruleset_types_share_their_messages():
    one, listed = values.RulesetType(allow_all=True), values.RulesetListType()
    assert one.convert("all", None, None) == "all"
    first, second = two_rulesets()
    assert listed.convert(f"{first}, {second},{first}", None, None) == [first, second]
    assert listed.convert("all", None, None) == registry.names()
    with pytest.raises(click.BadParameter, match=f"did you mean '{second}'"):
        listed.convert(typo(second), None, None)
    with pytest.raises(click.BadParameter, match=f"did you mean '{first}'"):
        values.RulesetType().convert(typo(first), None, None)
    with pytest.raises(click.BadParameter, match=f"allowed: .*{registry.names()[-1]}$"):
        values.RulesetType().convert("all", None, None)  # not where only one is allowed
    assert values.expand_rulesets("all") == registry.names()
    assert values.expand_rulesets(first) == [first] and values.expand_rulesets(None) is None


@pytest.mark.parametrize("address, ok", [
    ("local", True), ("tcp://127.0.0.1:8786", True), ("tls://sched.lan:8786", True),
    ("tcp://host", False), ("http://host:8786", False), ("foo", False)])
def test_scheduler_addresses(address, ok):
    if ok:
        assert params.check_scheduler(None, None, address) == address
    else:
        with pytest.raises(click.BadParameter, match="tcp://HOST:PORT"):
            params.check_scheduler(None, None, address)


def test_the_cli_has_no_local_imports():
    """Imports sit at the top of every CLI module: nothing dodges a cycle, nothing hides."""
    local = []
    for path in sorted((ROOT / "sim" / "cli").glob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text())):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                local += [f"{path.name}:{node.lineno}" for node in ast.walk(fn)
                          if isinstance(node, ast.Import | ast.ImportFrom)]
    assert not local, local


def test_resume_never_replaces_a_finished_batch_of_something_else(capsys, tmp_path):
    out = str(tmp_path / "duel")
    assert fray(capsys, "batch", DUEL, "-n", "20", "--out", out, "-q").code == 0
    before = (tmp_path / "duel" / "summary.json").read_text()
    again = fray(capsys, "batch", DUEL, "-n", "30", "--out", out, "--resume", "-q")
    assert again.code == 2 and "holds a finished batch that differs" in again.err
    assert "encounters: 20 there, 30 now" in again.err
    same = fray(capsys, "batch", DUEL, "-n", "20", "--out", out, "--resume", "-q")
    assert same.code == 0 and "already complete" in same.err
    both = fray(capsys, "batch", DUEL, "-n", "20", "--out", out, "--resume", "--force")
    assert both.code == 2 and "give one of them" in both.err
    assert (tmp_path / "duel" / "summary.json").read_text() == before


def test_compare_resume_with_nothing_to_resume_is_refused(capsys, tmp_path):
    for out in (tmp_path / "missing", tmp_path):  # no folder; a folder with no results
        result = fray(capsys, "compare", DUEL, "--rulesets", any_ruleset(), "-n", "5", "--out",
                      str(out), "--resume", "-q")
        assert result.code == 2 and "no interrupted comparison to resume here" in result.err
    assert not (tmp_path / "missing").exists()


def test_compare_takes_ruleset_as_the_other_commands_spell_it(capsys, tmp_path):
    names = two_rulesets()
    result = fray(capsys, "compare", DUEL, "--ruleset", ",".join(names), "-n", "5",
                  "--out", str(tmp_path / "cmp"), "-q")
    assert result.code == 0
    assert set(json.loads((tmp_path / "cmp" / "lethality.json").read_text())["rulesets"]) == \
        set(names)


def test_compare_resume_keeps_a_finished_comparison_of_something_else(capsys, tmp_path):
    out = str(tmp_path / "cmp")
    args = ("compare", DUEL, "--rulesets", ",".join(two_rulesets()), "--out", out, "-q")
    assert fray(capsys, *args, "-n", "20").code == 0
    before = (tmp_path / "cmp" / "lethality.json").read_text()
    again = fray(capsys, *args, "-n", "10", "--resume")
    assert again.code == 2 and "holds a finished batch that differs" in again.err
    assert (tmp_path / "cmp" / "lethality.json").read_text() == before


def test_a_side_cannot_be_named_draw(capsys, tmp_path):
    bad = tmp_path / "draw.yaml"
    bad.write_text("name: x\nsides:\n  draw: [{name: A}]\n  blue: [{name: B}]\n")
    result = fray(capsys, "validate", str(bad))
    assert result.code == 2 and "sides.draw: 'draw' cannot name a side" in result.err


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_lazy_command_list_says_what_each_command_says(name):
    # fray --help lists the commands without importing them: its lines must be theirs
    command = LazyGroup.get_command(cli, None, name)
    assert command is not None and command.help.split("\n\n")[0].replace("\n", " ") == (
        COMMANDS[name][2])


def test_help_imports_no_command():
    import subprocess
    import sys
    code = ("import sys; from sim.cli.main import main; sys.argv = ['fray', '--help']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('networkx', 'pydantic', 'rich', 'sim.cli.batch', "
            "'sim.scenario.loader') if m in sys.modules]\n"
            "print('HEAVY', heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "HEAVY []" in out


@pytest.mark.parametrize("command", ["compare", "campaign", "sweep"])
def test_help_of_a_run_until_sure_gives_no_count_it_never_runs(capsys, command):
    # without -n these run until sure (at most PRECISION_CAP); "[default: 1000]" was a
    # count they never ran
    result = fray(capsys, command, "--help")
    text = " ".join(result.out.split())
    assert result.code == 0
    assert f"Without -n: until sure (--precision), at most {params.PRECISION_CAP}" in text
    assert "[default: 1000" not in text and "[default: 500;" not in text


def test_python_dash_m_runs_fray_from_a_checkout():
    # a checkout without `pip install -e .` runs fray as `python -m sim.cli`; its usage line
    # still says `fray`, as every example in the help does
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "sim.cli", "rulesets", "--help"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: fray rulesets")


def test_validate_imports_no_ruleset_for_a_scenario_naming_none(tmp_path):
    # every ruleset pulls in the engine and networkx: checking a file without a ruleset's
    # block or options needs none of them (that a block imports its ruleset alone:
    # tests/rulesets/bgrade/test_validate.py)
    out = validated_with_imports(tmp_path, "name: x\nsides:\n  a: [{name: A}]\n  b: [{name: B}]\n")
    assert "networkx" not in out
    assert not [module for module in ruleset_modules() if module in out], out
