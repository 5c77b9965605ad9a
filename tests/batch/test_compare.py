"""Comparing rulesets: ``fray convert``, ``fray compare``, ``fray sweep`` (each ruleset checks
its own neutral conversion: tests/rulesets/<name>/test_conversion.py)."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import struct
import sys
from pathlib import Path

import pytest
from helpers import SCENARIOS, Result, any_ruleset, fray, two_rulesets, typo

from sim import scenario as scenario_mod
from sim.batch.chunks import fold_csv
from sim.batch.compare import prepare_out_dir, run_compare
from sim.batch.runner import BatchSpec, summary_of
from sim.cli.main import main
from sim.results.difficulty import with_words
from sim.rulesets import registry
from sim.scenario.settings import parse_set

AMBUSH = str(SCENARIOS / "ambush.yaml")
SKIRMISH = str(SCENARIOS / "neutral_skirmish.yaml")
DUEL = str(SCENARIOS / "neutral_duel.yaml")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_convert_prints_every_combatant_under_every_ruleset(capsys):
    result = fray(capsys, "convert", AMBUSH, "--ruleset", "all")
    assert result.code == 0, result.err
    scen = scenario_mod.load(AMBUSH)
    for side in scen.sides:
        for m in side.members:
            assert f"{m.name} ({side.name}):" in result.out
    for name in registry.names():
        assert f"  {name} " in result.out
        assert f"built by {registry.get(name).build.__module__}" in result.out


def test_convert_one_ruleset_and_a_typo(capsys):
    """(Each ruleset's own numbers: ``tests/rulesets/<folder>/test_convert.py``.)"""
    shown, other = two_rulesets()
    result = fray(capsys, "convert", DUEL, "--ruleset", shown)
    assert result.code == 0 and f"  {shown} " in result.out and f"  {other} " not in result.out
    result = fray(capsys, "convert", DUEL, "--ruleset", typo(shown))
    assert result.code == 2 and f"did you mean '{shown}'?" in result.err


# ---------------------------------------------------------------------------- compare
def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _expected_verdict(doc):
    """The verdict rule, recomputed from lethality.json's numbers."""
    rulesets = doc["rulesets"]
    sides = list(next(iter(rulesets.values()))["sides"])
    deaths = {s: sum(r["sides"][s]["counts"]["deaths"] for r in rulesets.values())
              for s in sides}
    side = max(sides, key=lambda s: deaths[s])
    rate = {n: r["sides"][side]["death_rate"] for n, r in rulesets.items()}
    hi = max(r["value"] for r in rate.values())
    lo = min(r["value"] for r in rate.values())
    top = sorted(n for n in rate if rate[n]["value"] == hi)  # a tie: all, in name order
    bottom = sorted(n for n in rate if rate[n]["value"] == lo)
    overlap = min(rate[n]["ci95"][0] for n in top) <= max(rate[n]["ci95"][1] for n in bottom)
    return side, top, bottom, overlap, hi, lo


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    """``fray compare scenarios/ambush.yaml -n 40 --out DIR``, run once for these tests."""
    out = tmp_path_factory.mktemp("compare") / "cmp"
    # capsys is function-scoped: capture by hand for a module-scoped run
    stdout, stderr = io.StringIO(), io.StringIO()
    old = sys.argv
    sys.argv = ["fray", "compare", AMBUSH, "-n", "40", "--out", str(out), "-q"]
    code = 0
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            main()
    except SystemExit as exc:
        code = exc.code
    finally:
        sys.argv = old
    return Result(code, stdout.getvalue(), stderr.getvalue()), out


def test_compare_writes_every_file(compared):
    result, out = compared
    assert result.code == 0, result.err
    for name in ("report.md", "lethality.json"):
        assert (out / name).stat().st_size > 0
    for name in ("survival.png", "death_rate.png", "rounds.png"):
        width, height = _png_size(out / name)
        assert width > 300 and height > 200
        from matplotlib.image import imread

        assert imread(out / name).shape[:2] == (height, width)
    seeds = None
    for name in registry.names():
        summary = json.loads((out / name / "summary.json").read_text())
        assert summary["ruleset"] == name and summary["encounters"] == 40
        rows = list(csv.DictReader(open(out / name / "encounters.csv")))
        assert len(rows) == 40
        mine = [r["seed"] for r in rows]
        assert seeds is None or mine == seeds  # the same encounter seeds for every ruleset
        seeds = mine


def test_compare_table_and_report_hold_every_ruleset(compared):
    result, out = compared
    report = (out / "report.md").read_text()
    header = next(line for line in result.out.splitlines() if "┃" in line)
    for name in registry.names():
        assert name in header
        assert f"| {name} |" in report or f" {name} |" in report


def test_compare_numbers_agree_with_the_batches(compared):
    _, out = compared
    doc = json.loads((out / "lethality.json").read_text())
    assert list(doc["rulesets"]) == registry.names()
    for name, r in doc["rulesets"].items():
        summary = json.loads((out / name / "summary.json").read_text())
        for side, s in r["sides"].items():
            assert s["counts"]["wins"] == summary["outcomes"][side]
            assert s["counts"]["deaths"] == summary["sides"][side]["deaths"]
            assert s["win_rate"]["value"] == pytest.approx(summary["sides"][side]["win_rate"])
            assert s["death_rate"]["value"] == pytest.approx(
                summary["sides"][side]["deaths"] / (40 * s["members"]), abs=1e-6)
        assert r["rounds"]["mean"]["value"] == pytest.approx(summary["rounds"]["mean"],
                                                             abs=1e-4)
        assert r["overall"]["p_any_death"]["value"] == pytest.approx(
            summary["lethality"]["p_any_death"])


def test_lethality_comes_from_the_batch_tally(compared):
    """Each ruleset's entry is the fold of its encounters.csv: one tally, no second pass."""
    _, out = compared
    doc = json.loads((out / "lethality.json").read_text())
    scen = scenario_mod.load(AMBUSH)
    for name, entry in doc["rulesets"].items():
        tally = fold_csv(out / name / "encounters.csv", scen, name, doc["seed"])
        # the tally's entry, each side given its difficulty word (sim.results.difficulty)
        assert with_words(tally.lethality()) == entry
        spec = BatchSpec(scen, name, doc["encounters"], doc["seed"])
        written = json.loads((out / name / "summary.json").read_text())
        assert len(written.pop("variants")["variants"]) == 2  # the scenario's, fought after
        assert json.dumps(summary_of(spec, tally), indent=2) == json.dumps(written, indent=2)


def test_verdict_matches_the_numbers(compared):
    result, out = compared
    doc = json.loads((out / "lethality.json").read_text())
    v = doc["verdict"]
    side, top, bottom, overlap, hi, lo = _expected_verdict(doc)
    assert (v["side"], v["most_rulesets"], v["least_rulesets"], v["overlap"]) == \
        (side, top, bottom, overlap)
    assert (v["most"], v["least"]) == (top[0], bottom[0])
    most = " and ".join([", ".join(top[:-1]), top[-1]]) if len(top) > 1 else top[0]
    least = " and ".join([", ".join(bottom[:-1]), bottom[-1]]) if len(bottom) > 1 \
        else bottom[0]
    assert v["text"].startswith(f"under {most} the {side} di")
    if overlap:
        assert f"about as often as under {least}" in v["text"]
    elif lo == 0:
        assert f"under {least}" in v["text"] and "never died" in v["text"]
    elif min(doc["rulesets"][r]["sides"][side]["counts"]["deaths"] for r in top + bottom) < 10:
        assert v["too_few"] and "the counts are too small to compare" in v["text"]
    else:
        ratio = hi / lo
        shown = (f"{ratio:.2f}×" if ratio < 1.095 else f"{ratio:.1f}×" if ratio < 9.95
                 else f"{ratio:.0f}×")
        assert f" {shown} as often as under {least}" in v["text"]
    # the terminal wraps the verdict at 100 columns
    assert f"verdict: {v['text']}" in " ".join(result.out.split())
    assert v["text"] in (out / "report.md").read_text()


def test_compare_refuses_existing_results(compared, capsys):
    _, out = compared
    result = fray(capsys, "compare", AMBUSH, "-n", "5", "--out", str(out), "-q",
                  "--rulesets", any_ruleset())
    assert result.code == 2
    assert "already holds results" in result.err and "--force" in result.err
    assert "Traceback" not in result.err


def test_compare_force_and_a_ruleset_list(tmp_path, capsys):
    out = tmp_path / "c"
    names = two_rulesets()
    (out / names[0]).mkdir(parents=True)
    (out / names[0] / "summary.json").write_text("{}")
    assert fray(capsys, "compare", DUEL, "-n", "5", "--out", str(out), "-q",
                "--rulesets", ",".join(names), "--workers", "1").code == 2
    result = fray(capsys, "compare", DUEL, "-n", "5", "--out", str(out), "-q",
                  "--rulesets", ",".join(names), "--workers", "1", "--force")
    assert result.code == 0, result.err
    doc = json.loads((out / "lethality.json").read_text())
    assert list(doc["rulesets"]) == names


def test_compare_unknown_ruleset(tmp_path, capsys):
    first, second = two_rulesets()
    result = fray(capsys, "compare", DUEL, "--rulesets", f"{first},{typo(second)}", "--out",
                  str(tmp_path))
    assert result.code == 2
    assert f"unknown ruleset '{typo(second)}' (did you mean '{second}'?)" in result.err


def test_neutral_scenarios_have_no_native_blocks():
    for path in (SKIRMISH, DUEL):
        scen = scenario_mod.load(path)
        assert all(m.native == () for side in scen.sides for m in side.members)
    skirmish = scenario_mod.load(SKIRMISH)
    assert [len(s.members) for s in skirmish.sides] == [4, 4]
    weapons = {m.weapon for s in skirmish.sides for m in s.members}
    assert weapons & {"bow", "crossbow"} and weapons & {"spear", "sword", "mace"}
    assert {n.cover for n in skirmish.map.nodes} - {"none"}


def test_neutral_skirmish_under_every_ruleset(tmp_path):
    scen = scenario_mod.load(SKIRMISH)
    doc = run_compare(scen, registry.names(), 60, tmp_path, seed=3, charts=False)
    death_rates = set()
    for name, r in doc["rulesets"].items():
        wins = sum(s["counts"]["wins"] for s in r["sides"].values())
        assert wins + round(r["draw_rate"]["value"] * 60) == 60, name
        for side, s in r["sides"].items():
            c = s["counts"]
            assert c["deaths"] <= c["out_of_fight"] <= 60 * s["members"], (name, side)
            assert 0 < c["hits"] <= c["attacks"], (name, side)
            for key in ("win_rate", "death_rate", "out_rate", "hits_per_attack"):
                m = s[key]
                assert 0 <= m["ci95"][0] <= m["value"] <= m["ci95"][1] <= 1, (name, key)
        assert 1 <= r["rounds"]["mean"]["value"] <= scen.max_rounds
        death_rates.add(r["overall"]["death_rate"]["value"])
    assert len(death_rates) >= 3  # the rulesets differ
    assert "the fight" in (tmp_path / "report.md").read_text()


# ---------------------------------------------------------------------------- sweep
def test_parse_set():
    assert parse_set("sides.bandits[0].count=1..3") == (
        "sides.bandits[0].count", ["sides", "bandits", 0, "count"], [1, 2, 3])
    assert parse_set("max_rounds=5,10,20")[2] == [5, 10, 20]
    assert parse_set("max_rounds=3..1")[2] == [3, 2, 1]
    assert parse_set("sides.heroes[0].weapon=sword, spear")[2] == ["sword", "spear"]
    assert parse_set("sides.heroes[0].shield=true,false")[2] == [True, False]


def test_sweep_three_values(tmp_path, capsys):
    result = fray(capsys, "sweep", AMBUSH, "--set", "sides.bandits[1].count=1,3,6",
                  "--ruleset", any_ruleset(), "-n", "40", "--out", str(tmp_path), "-q",
                  "--workers", "1")
    assert result.code == 0, result.err
    rows = list(csv.DictReader(open(tmp_path / "sweep.csv")))
    assert [int(r["value"]) for r in rows] == [1, 3, 6]
    assert [int(r["bandits_members"]) for r in rows] == [3, 5, 8]
    for r in rows:
        assert r["ruleset"] == any_ruleset() and int(r["encounters"]) == 40
        total = float(r["heroes_win_rate"]) + float(r["bandits_win_rate"]) + \
            float(r["draw_rate"])
        assert total == pytest.approx(1, abs=1e-5)
        for side in ("heroes", "bandits"):
            for key in ("win", "death"):
                lo, v, hi = (float(r[f"{side}_{key}_{x}"]) for x in ("lo", "rate", "hi"))
                assert 0 <= lo <= v <= hi <= 1
    # more bandits, fewer hero wins (ORE: all of 40 with one brawler, far fewer with six;
    # archers alone are run down)
    assert float(rows[0]["heroes_win_rate"]) > float(rows[2]["heroes_win_rate"])
    assert _png_size(tmp_path / "sweep.png")[0] > 300
    assert "sweep over Bandit count" in result.out  # what was swept, in words


@pytest.mark.parametrize("mine, html", [("sweep.png", False), ("report.html", True),
                                         ("sweep.csv", False)])
def test_sweep_replaces_no_file_of_the_users_without_force(tmp_path, capsys, mine, html):
    """Each file a sweep writes is refused, not only sweep.csv (sweep.png was replaced)."""
    (tmp_path / mine).write_text("mine")
    args = ["sweep", AMBUSH, "--set", "max_rounds=1..2", "--ruleset", any_ruleset(), "-n", "5",
            "--out", str(tmp_path), "-q", "--workers", "1", *(["--html"] if html else [])]
    refused = fray(capsys, *args)
    assert refused.code == 2 and f"folder already holds {mine}" in refused.err, refused.err
    assert (tmp_path / mine).read_text() == "mine"
    assert fray(capsys, *args, "--force").code == 0
    assert (tmp_path / mine).read_bytes() != b"mine"


def test_a_report_html_is_no_sweep_file_without_html(tmp_path, capsys):
    (tmp_path / "report.html").write_text("mine")
    result = fray(capsys, "sweep", AMBUSH, "--set", "max_rounds=1..2", "--ruleset", any_ruleset(),
                  "-n", "5", "--out", str(tmp_path), "-q", "--workers", "1")
    assert result.code == 0, result.err
    assert (tmp_path / "report.html").read_text() == "mine"  # not written, not touched


@pytest.mark.parametrize("setting, needles", [
    ("sides.bandts[0].count=1..3", ["--set: sides.bandts: unknown key 'bandts'",
                                    "did you mean 'bandits'?"]),
    ("sides.bandits[7].count=1..3", ["sides.bandits[7]: no entry [7]"]),
    ("sidez.bandits[0].count=1,2", ["--set: sidez: unknown key 'sidez'", "did you mean 'sides'?"]),
    ("sides.bandits[0].count=0..2", ["--set sides.bandits[0].count=0",
                                     "sides.bandits[0].count: must be from 1 to 1000"]),
    ("sides.bandits[0].traits.strength=4,9", ["sides.bandits[0].traits.strength: must be "
                                              "from 1 to 5"]),
    ("max_rounds=a..b", ["max_rounds: a range is two whole numbers"]),
    ("max_rounds=3,5,3", ["max_rounds: the value '3' is given twice in '3,5,3'; give each once"]),
    ("max_rounds", ["expected PATH=VALUES"]),
])
def test_sweep_bad_path_or_value(tmp_path, capsys, setting, needles):
    result = fray(capsys, "sweep", AMBUSH, "--set", setting, "-n", "5", "--out",
                  str(tmp_path), "-q")
    assert result.code == 2, result.out
    assert "Traceback" not in result.err
    for needle in needles:
        assert needle in result.err, result.err
    assert not (tmp_path / "sweep.csv").exists()


def test_sweep_runs_every_combination_of_two_settings_rather_than_keep_the_last(tmp_path,
                                                                                capsys):
    result = fray(capsys, "sweep", AMBUSH, "--set", "max_rounds=5,10", "--set",
                  "sides.bandits[0].count=1..2", "-n", "5", "--out", str(tmp_path), "-q")
    assert result.code == 0, result.err
    rows = list(csv.DictReader((tmp_path / "sweep.csv").open()))
    assert [(r["max_rounds"], r["sides.bandits[0].count"]) for r in rows] == [
        ("5", "1"), ("5", "2"), ("10", "1"), ("10", "2")]


@pytest.mark.parametrize("command", ["convert", "compare", "sweep"])
def test_help_has_an_example(capsys, command):
    result = fray(capsys, command, "--help")
    assert result.code == 0 and f"Example: fray {command} " in result.out


def test_compare_resumes_after_an_interruption(tmp_path):
    scen = scenario_mod.load(AMBUSH)
    whole, part = tmp_path / "whole", tmp_path / "part"
    first, second = names = two_rulesets()
    prepare_out_dir(whole, names, False)
    expected = run_compare(scen, names, 60, whole, seed=3, charts=False)

    calls = {"n": 0}

    @contextlib.contextmanager
    def stop_in_second_ruleset(label):
        def advance(k):
            if second in label:
                calls["n"] += 1
                if calls["n"] == 1:
                    raise KeyboardInterrupt
        yield advance

    prepare_out_dir(part, names, False)
    with pytest.raises(KeyboardInterrupt):
        run_compare(scen, names, 60, part, seed=3, charts=False,
                    progress=stop_in_second_ruleset)
    first_csv = (part / first / "encounters.csv").stat().st_mtime_ns
    got = run_compare(scen, names, 60, part, seed=3, charts=False, resume=True)
    assert (part / first / "encounters.csv").stat().st_mtime_ns == first_csv  # kept, not rerun
    assert got["rulesets"] == expected["rulesets"]
    for name in names:
        assert (part / name / "encounters.csv").read_bytes() == \
            (whole / name / "encounters.csv").read_bytes()


def test_a_comparison_says_what_each_ruleset_modelled(compared):
    _, out = compared
    doc = json.loads((out / "lethality.json").read_text())
    assert set(doc["coverage"]) == set(doc["rulesets"])
    for name, block in doc["coverage"].items():
        assert block["ruleset"] == name and block["source"].startswith("docs/rules/")
    report = (out / "report.md").read_text()
    assert "## What was modelled" in report and "surprise rounds" in report
