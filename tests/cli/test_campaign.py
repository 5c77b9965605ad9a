"""``fray campaign``: a party through a chain of fights, run many times, told once, played.

Small campaigns of sword duels written into ``tmp_path`` (JSON is YAML) keep this quick;
stage files are given by paths relative to the campaign file, or inline. Everything runs
through ``sim.cli.main.main`` with ``sys.argv`` set, as the installed script does.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml
from helpers import SCENARIOS, Result, fray

from sim import registry
from sim import scenario as scenario_mod

DUEL = SCENARIOS / "duel.yaml"
ROAD = SCENARIOS / "campaigns" / "road_to_the_keep.yaml"
# the ruleset of the duel (two_duels' first stage, so the campaign's), and another
OWN = scenario_mod.load(DUEL).ruleset
OTHER = next(name for name in reversed(registry.names()) if name != OWN)
OUTCOME_OF_WINNER = {"red": "won", "blue": "lost", "draw": "draw"}
STAGE_COLUMNS = ("outcome", "deaths", "fighters", "rounds", "fled", "surrendered")


# ---------------------------------------------------------------------------- helpers
def assert_bad_input(result: Result, *needles: str) -> None:
    """Exit 2, every needle in stderr, no traceback or internal error."""
    text = result.out + result.err
    assert result.code == 2, text
    assert "Traceback" not in text and "internal error" not in text, text
    for needle in needles:
        assert needle in result.err, f"{needle!r} missing:\n{result.err}"


def write_campaign(folder: Path, data: dict, name: str = "two_duels.yaml") -> Path:
    """Write a campaign (as JSON, which is YAML) into ``folder``; return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(data, indent=1))
    return path


def two_duels(tmp_path: Path, **top) -> Path:
    """Two duels for Ser Aldric (party ``red``): the first a file next to the campaign, the
    second a file in a subfolder; a long rest between."""
    shutil.copy(DUEL, tmp_path / "duel.yaml")
    (tmp_path / "stages").mkdir(exist_ok=True)
    shutil.copy(DUEL, tmp_path / "stages" / "second_duel.yaml")
    data = {"name": "Two duels", "party": "red",
            "stages": [{"scenario": "duel.yaml", "rest": "long"},
                       {"scenario": "stages/second_duel.yaml"}], **top}
    return write_campaign(tmp_path, data)


def read_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file in ``folder`` (hidden ones too): its bytes and modification time."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.iterdir()) if p.is_file()}


def campaign(capsys, path: Path, out: Path, *args: str) -> Result:
    return fray(capsys, "campaign", str(path), "--out", str(out), "-q", *args)


def first_won_seed(rows: list[dict[str, str]]) -> dict[str, str]:
    """The first row of a two-stage batch whose party won stage 1 (and so rested)."""
    return next(r for r in rows if r["stage1_outcome"] == "won")


# ---------------------------------------------------------------------------- a batch
def test_a_batch_writes_its_files_and_table(capsys, tmp_path):
    camp = two_duels(tmp_path)
    out = tmp_path / "out"
    result = campaign(capsys, camp, out, "-n", "40", "--workers", "1")
    assert result.code == 0, result.err
    assert sorted(p.name for p in out.iterdir()) == ["campaign.csv", "summary.json",
                                                     "survival.png"]
    assert (out / "survival.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    # the table on the terminal
    assert f"two_duels under {OWN}: 40 runs, seed 1, party 'red' (1 member)" in result.out
    assert "(P(reach))" in result.out and "P(win | reached)" in result.out
    assert "won/lost/" in result.out  # how the runs that reached a stage ended there
    assert "1 duel" in result.out and "2 second_duel" in result.out
    assert "P(clear every stage)" in result.out
    assert f"wrote {out / 'summary.json'}, {out / 'campaign.csv'}" in result.out

    rows = read_rows(out / "campaign.csv")
    header = (out / "campaign.csv").read_text().splitlines()[0].split(",")
    assert header == ["index", "seed", "reached", "outcome", "survivors", "deaths",
                      *(f"stage{k}_{c}" for k in (1, 2) for c in STAGE_COLUMNS)]
    assert len(rows) == 40 and [int(r["index"]) for r in rows] == list(range(40))

    summary = json.loads((out / "summary.json").read_text())
    assert (summary["campaign"], summary["name"], summary["ruleset"]) == (
        "two_duels", "Two duels", OWN)
    assert (summary["runs"], summary["seed"], summary["party"], summary["members"]) == (
        40, 1, "red", 1)
    stages = summary["stages"]
    assert [(s["stage"], s["scenario"], s["rest"]) for s in stages] == [
        (1, "duel", "long"), (2, "second_duel", "none")]
    for s in stages:
        assert {"reached", "won", "deaths", "p_reach", "p_win_given_reached"} <= set(s)
        assert s["won"] + s["lost"] + s["draw"] + s["unable"] == s["reached"]
        assert s["p_reach"]["value"] == pytest.approx(s["reached"] / 40, abs=1e-6)
        lo, hi = s["p_reach"]["ci95"]
        assert lo <= s["p_reach"]["value"] <= hi and s["p_reach"]["method"] == "wilson"
    assert stages[0]["reached"] == 40
    assert stages[1]["reached"] == stages[0]["won"]  # a run goes on only after a win
    assert 0 < stages[0]["won"] < 40  # both branches are exercised by this batch
    assert stages[0]["p_win_given_reached"]["value"] == pytest.approx(
        stages[0]["won"] / 40, abs=1e-6)
    assert stages[1]["p_reach"]["value"] == pytest.approx(
        stages[0]["p_reach"]["value"] * stages[0]["p_win_given_reached"]["value"], abs=1e-5)
    assert summary["p_clear"]["value"] == pytest.approx(stages[1]["won"] / 40, abs=1e-6)
    assert summary["outcomes"]["cleared"] == stages[1]["won"]
    assert sum(summary["outcomes"].values()) == 40

    # the summary is the tally of the rows
    for k, s in enumerate(stages, start=1):
        outcomes = Counter(r[f"stage{k}_outcome"] for r in rows if r[f"stage{k}_outcome"])
        assert outcomes.total() == s["reached"]
        assert (outcomes["won"], outcomes["lost"], outcomes["draw"]) == (
            s["won"], s["lost"], s["draw"])
        assert sum(int(r[f"stage{k}_deaths"] or 0) for r in rows) == s["deaths"]
    assert Counter(r["outcome"] for r in rows) == Counter(
        {k: v for k, v in summary["outcomes"].items() if v})
    assert summary["survivors"]["histogram"] == dict(
        sorted(Counter(r["survivors"] for r in rows).items()))
    for r in rows:  # a stage not reached is empty; the last one reached is the run's end
        reached = int(r["reached"])
        assert all(r[f"stage{k}_outcome"] == "won" for k in range(1, reached))
        assert all(r[f"stage{k}_{c}"] == "" for k in range(reached + 1, 3)
                   for c in STAGE_COLUMNS)
        last = r[f"stage{reached}_outcome"]
        assert r["outcome"] == ("cleared" if reached == 2 and last == "won" else last)


def test_inline_stages_and_a_ruleset_override(capsys, tmp_path):
    data = {"name": "Inline", "party": "red", "stages": [
        {"scenario": {"name": "First blood", "max_rounds": 20, "sides": {
            "red": [{"name": "Hero", "weapon": "sword"}],
            "blue": [{"name": "Foe", "weapon": "club"}]}}, "rest": "short"},
        {"scenario": {"name": "Second blood", "sides": {
            "red": [{"name": "Hero", "weapon": "sword", "ai": "aggressive"}],
            "blue": [{"name": "Foe", "weapon": "knife"}]}}}]}
    camp = write_campaign(tmp_path, data, "inline.yaml")
    out = tmp_path / "out"
    result = campaign(capsys, camp, out, "-n", "20", "--workers", "1", "--ruleset", OTHER)
    assert result.code == 0, result.err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["ruleset"] == OTHER and summary["runs"] == 20
    assert [s["scenario"] for s in summary["stages"]] == ["first_blood", "second_blood"]
    assert len(read_rows(out / "campaign.csv")) == 20


def test_the_default_folder_is_under_results(capsys, tmp_path, monkeypatch):
    camp = two_duels(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = fray(capsys, "campaign", str(camp), "-n", "5", "--workers", "1", "-q",
                  "--ruleset", OTHER)
    assert result.code == 0, result.err
    made = list((tmp_path / "results").glob(f"two_duels-{OTHER}-*"))
    assert len(made) == 1
    assert sorted(p.name for p in made[0].iterdir()) == ["campaign.csv", "summary.json",
                                                         "survival.png"]


# ---------------------------------------------------------------------------- determinism
def test_output_does_not_depend_on_workers_or_chunks(capsys, tmp_path):
    camp = two_duels(tmp_path)
    runs = {"one": ("--workers", "1"), "two": ("--workers", "2"),
            "chunks": ("--workers", "1", "--chunk-size", "7")}
    for name, args in runs.items():
        result = campaign(capsys, camp, tmp_path / name, "-n", "30", "--seed", "11", *args)
        assert result.code == 0, (name, result.err)
    for name in ("two", "chunks"):
        for file in ("summary.json", "campaign.csv"):
            assert (tmp_path / name / file).read_bytes() == (
                tmp_path / "one" / file).read_bytes(), (name, file)
    other = campaign(capsys, camp, tmp_path / "seed12", "-n", "30", "--seed", "12",
                     "--workers", "1")
    assert other.code == 0
    assert (tmp_path / "seed12" / "campaign.csv").read_bytes() != (
        tmp_path / "one" / "campaign.csv").read_bytes()


def test_a_one_stage_campaign_fights_the_batch_encounters(capsys, tmp_path):
    camp = write_campaign(tmp_path, {"name": "One duel", "party": "red",
                                     "stages": [{"scenario": str(DUEL)}]}, "one.yaml")
    args = ("-n", "50", "--seed", "5", "--workers", "1", "-q")
    assert fray(capsys, "campaign", str(camp), *args, "--out", str(tmp_path / "c")).code == 0
    assert fray(capsys, "batch", str(DUEL), *args, "--out", str(tmp_path / "b")).code == 0
    runs = read_rows(tmp_path / "c" / "campaign.csv")
    encounters = read_rows(tmp_path / "b" / "encounters.csv")
    assert len(runs) == len(encounters) == 50
    assert {e["winner"] for e in encounters} >= {"red", "blue"}  # not a one-sided sample
    for run, enc in zip(runs, encounters, strict=True):
        assert (run["index"], run["seed"]) == (enc["index"], enc["seed"])
        assert run["stage1_outcome"] == OUTCOME_OF_WINNER[enc["winner"]], run["index"]
        assert run["stage1_rounds"] == enc["rounds"]
        assert run["stage1_deaths"] == run["deaths"] == enc["red_deaths"]


def test_solo_retells_the_runs_of_the_batch(capsys, tmp_path):
    """``--solo --seed`` with a seed from campaign.csv ends as that row says."""
    camp = two_duels(tmp_path)
    assert campaign(capsys, camp, tmp_path / "out", "-n", "12", "--workers", "1").code == 0
    rows = read_rows(tmp_path / "out" / "campaign.csv")
    assert {r["outcome"] for r in rows} >= {"lost"} and any(r["reached"] == "2" for r in rows)
    for row in rows[:8]:
        told = fray(capsys, "campaign", str(camp), "--solo", "--seed", row["seed"])
        assert told.code == 0, told.err
        if row["outcome"] == "cleared":
            assert "The campaign is cleared: red won all 2 stages." in told.out
        else:
            assert (f"The campaign ends at stage {row['reached']} of 2 ({row['outcome']})."
                    in told.out), row
        assert told.out.count(" of 2: Sword duel") == int(row["reached"])


def test_an_unhurt_member_fights_stage_two_as_fray_run_would(capsys, tmp_path):
    """Nothing carried: stage 2 of the story is ``fray run`` with the stage's seed."""
    camp = two_duels(tmp_path)
    assert campaign(capsys, camp, tmp_path / "out", "-n", "20", "--workers", "1").code == 0
    rows = read_rows(tmp_path / "out" / "campaign.csv")
    for row in rows:
        if row["stage1_outcome"] != "won":
            continue
        told = fray(capsys, "campaign", str(camp), "--solo", "--seed", row["seed"]).out
        stage2 = told.split("Stage 2 of 2", 1)[1]
        if "The party goes in: Ser Aldric unhurt." not in stage2:
            continue
        seed = stage2.split("(seed ", 1)[1].split(")", 1)[0]
        alone = fray(capsys, "run", str(tmp_path / "stages" / "second_duel.yaml"),
                     "--seed", seed)
        assert alone.code == 0
        # the campaign tells the legend once, at stage 1: the rest of the fight is the same
        head, legend_and_rest = alone.out.split("  Reading the log", 1)
        fight = head + legend_and_rest.split("\n\n", 1)[1]
        assert fight.strip() in stage2
        return
    pytest.fail("no run in the sample won stage 1 unhurt")


# ---------------------------------------------------------------------------- resume
def interrupt_after_first_chunk(monkeypatch) -> None:
    """Make the progress bar of ``fray campaign`` raise Ctrl-C once a chunk is done."""

    @contextlib.contextmanager
    def bar(_total, _label, _quiet=False):
        def advance(_n):
            raise KeyboardInterrupt

        yield advance

    monkeypatch.setattr("sim.cli.params.progress_bar", bar)


def test_an_interrupted_batch_resumes_to_the_same_files(capsys, tmp_path, monkeypatch):
    camp = two_duels(tmp_path)
    args = ("-n", "30", "--workers", "1", "--chunk-size", "10")
    whole = campaign(capsys, camp, tmp_path / "whole", *args)
    assert whole.code == 0, whole.err

    out = tmp_path / "cut"
    with monkeypatch.context() as patch:
        interrupt_after_first_chunk(patch)
        cut = campaign(capsys, camp, out, *args)
    assert cut.code == 130, cut.err
    assert f"interrupted: 10 of 30 runs kept in {out}" in cut.err
    assert "--resume" in cut.err
    assert not (out / "summary.json").exists() and not (out / "campaign.csv").exists()
    assert (out / ".batch-state.json").exists()

    again = campaign(capsys, camp, out, *args)  # not without --resume
    assert_bad_input(again, "interrupted batch", "--resume")
    other = campaign(capsys, camp, out, "-n", "31", "--workers", "1", "--resume")
    assert_bad_input(other, "the interrupted batch differs", "n: was 30, now 31")

    resumed = campaign(capsys, camp, out, *args, "--resume")
    assert resumed.code == 0, resumed.err
    for file in ("summary.json", "campaign.csv"):
        assert (out / file).read_bytes() == (tmp_path / "whole" / file).read_bytes(), file
    assert not (out / ".batch-state.json").exists()
    assert sorted(p.name for p in out.iterdir()) == ["campaign.csv", "summary.json",
                                                     "survival.png"]


def test_resume_of_a_finished_batch_says_it_is_complete(capsys, tmp_path):
    camp = two_duels(tmp_path)
    out = tmp_path / "out"
    args = ("-n", "20", "--workers", "1")
    assert campaign(capsys, camp, out, *args).code == 0
    before = snapshot(out)
    again = campaign(capsys, camp, out, *args, "--resume")
    assert again.code == 0, again.err
    assert "already complete" in again.err
    assert snapshot(out) == before  # survival.png not rewritten either


def test_resume_refuses_a_finished_batch_of_other_options(capsys, tmp_path):
    camp = two_duels(tmp_path)
    out = tmp_path / "out"
    assert campaign(capsys, camp, out, "-n", "20", "--workers", "1").code == 0
    before = snapshot(out)
    more = campaign(capsys, camp, out, "-n", "30", "--workers", "1", "--resume")
    assert_bad_input(more, f"error: {out}: holds a finished batch that differs",
                     "runs: 20 there, 30 now", "--force")
    seed = campaign(capsys, camp, out, "-n", "20", "--seed", "3", "--workers", "1",
                    "--resume")
    assert_bad_input(seed, "holds a finished batch that differs", "seed: 1 there, 3 now")
    rules = campaign(capsys, camp, out, "-n", "20", "--ruleset", OTHER, "--workers", "1",
                     "--resume")
    assert_bad_input(rules, "holds a finished batch that differs", f"ruleset: '{OWN}' there")
    both = campaign(capsys, camp, out, "-n", "20", "--resume", "--force")
    assert_bad_input(both, "give one of them")
    no_out = fray(capsys, "campaign", str(camp), "-n", "20", "--resume")
    assert_bad_input(no_out, "--resume: name the folder of the interrupted campaign")
    assert snapshot(out) == before


def test_a_chart_of_the_users_in_the_folder_is_not_replaced_without_force(capsys, tmp_path):
    camp = two_duels(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "survival.png").write_text("mine")
    refused = campaign(capsys, camp, out, "-n", "5", "--workers", "1")
    assert_bad_input(refused, f"error: {out}: folder already holds results (survival.png)",
                     "--force")
    assert (out / "survival.png").read_text() == "mine"
    assert campaign(capsys, camp, out, "-n", "5", "--workers", "1", "--force").code == 0
    assert (out / "survival.png").read_bytes().startswith(b"\x89PNG")


def test_a_campaign_comparison_keeps_a_chart_in_a_rulesets_folder(capsys, tmp_path):
    camp = two_duels(tmp_path)
    out = tmp_path / "cc"
    (out / OWN).mkdir(parents=True)
    (out / OWN / "survival.png").write_text("mine")
    args = ["compare", str(camp), "-n", "4", "--rulesets", f"{OWN},{OTHER}", "--out", str(out),
            "-q", "--workers", "1"]
    refused = fray(capsys, *args)
    assert_bad_input(refused, f"folder already holds results ({OWN}/survival.png)", "--force")
    assert (out / OWN / "survival.png").read_text() == "mine"
    assert fray(capsys, *args, "--force").code == 0


def test_a_second_batch_into_the_same_folder_needs_force(capsys, tmp_path):
    camp = two_duels(tmp_path)
    out = tmp_path / "out"
    assert campaign(capsys, camp, out, "-n", "20", "--workers", "1").code == 0
    before = snapshot(out)
    again = campaign(capsys, camp, out, "-n", "25", "--seed", "4", "--workers", "1")
    assert_bad_input(again, f"error: {out}: folder already holds results", "--force")
    # each file named once (the campaign's own files overlap a batch's results)
    assert "results (summary.json, campaign.csv, survival.png)" in again.err, again.err
    assert snapshot(out) == before
    forced = campaign(capsys, camp, out, "-n", "25", "--seed", "4", "--workers", "1",
                      "--force")
    assert forced.code == 0, forced.err
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["runs"], summary["seed"]) == (25, 4)
    assert len(read_rows(out / "campaign.csv")) == 25


def test_resume_after_the_campaign_changed_is_bad_input(capsys, tmp_path):
    camp = two_duels(tmp_path)
    out = tmp_path / "out"
    assert campaign(capsys, camp, out, "-n", "20", "--workers", "1").code == 0
    before = snapshot(out)
    data = json.loads(camp.read_text())
    data["stages"].append({"scenario": "duel.yaml"})
    camp.write_text(json.dumps(data))
    again = campaign(capsys, camp, out, "-n", "20", "--workers", "1", "--resume")
    assert_bad_input(again, "differs")
    assert snapshot(out) == before


def test_resume_never_replaces_the_results_of_a_scenario_batch(capsys, tmp_path):
    camp = two_duels(tmp_path)
    out = tmp_path / "out"
    assert fray(capsys, "batch", str(DUEL), "-n", "10", "--workers", "1", "-q",
                "--out", str(out)).code == 0
    before = snapshot(out)
    again = campaign(capsys, camp, out, "-n", "10", "--workers", "1", "--resume")
    assert_bad_input(again, str(out))
    assert snapshot(out) == before


def test_resume_with_nothing_to_resume_is_bad_input(capsys, tmp_path):
    camp = two_duels(tmp_path)
    out = tmp_path / "typo"
    result = campaign(capsys, camp, out, "-n", "10", "--workers", "1", "--resume")
    assert_bad_input(result, "no interrupted batch to resume here")
    assert not (out / "summary.json").exists()


# ---------------------------------------------------------------------------- bad input
def bad_campaigns(tmp_path: Path) -> dict[str, tuple[Path, tuple[str, ...], tuple[str, ...]]]:
    """Each bad case: the campaign file, extra arguments, what stderr must say."""
    shutil.copy(DUEL, tmp_path / "duel.yaml")
    (tmp_path / "duel_mace.yaml").write_text(
        DUEL.read_text().replace("weapon: sword", "weapon: mace", 1))
    (tmp_path / "duel_alone.yaml").write_text(
        DUEL.read_text().replace("name: Ser Aldric", "name: Ser Osric", 1))
    good = {"name": "Good", "party": "red", "stages": [{"scenario": "duel.yaml"}]}
    cases = {
        "no-party": ({"name": "X", "stages": [{"scenario": "duel.yaml"}]}, (),
                     ("party: required key is missing",)),
        "no-stage-file": ({**good, "stages": [{"scenario": "nowhere.yaml"}]}, (),
                          ("stages[0].scenario", str(tmp_path / "nowhere.yaml"), "file not found")),
        "no-party-side": ({**good, "party": "green"}, (),
                          ("stages[0].scenario: stage 1 (duel) has no side 'green' (the party)",
                           "its sides: red, blue")),
        "member-differs": ({**good, "stages": [{"scenario": "duel.yaml"},
                                               {"scenario": "duel_mace.yaml"}]}, (),
                           ("stages[1].scenario: 'Ser Aldric' in stage 2 (duel_mace) is not the "
                            "character of stage 1 (duel): weapon",)),
        "member-missing": ({**good, "stages": [{"scenario": "duel.yaml"},
                                               {"scenario": "duel_alone.yaml"}]}, (),
                           ("stages[1].scenario: party member 'Ser Aldric' (from stage 1 "
                            "(duel)) is missing from side 'red' of stage 2 (duel_alone)",)),
        "unknown-rest": ({**good, "stages": [{"scenario": "duel.yaml", "rest": "nap"}]}, (),
                         ("stages[0].rest: unknown rest 'nap'", "none, short, long")),
        "unknown-key": ({**good, "stagse": []}, (), ("stagse",)),
        "solo-and-play": (good, ("--solo", "--play", "Ser Aldric"),
                          ("--as", "give one of them")),
        "play-stranger": (good, ("--play", "Ser Benedek"),
                          ("--as: unknown party member 'Ser Benedek'",
                           "allowed: Ser Aldric")),
        "play-typo": (good, ("--play", "Ser Aldrik"),
                      ("unknown party member 'Ser Aldrik' (did you mean 'Ser Aldric'?)",)),
    }
    made = {}
    for name, (data, args, needles) in cases.items():
        path = write_campaign(tmp_path, data, f"{name}.yaml")
        file_needles = () if name.startswith(("solo", "play")) else (str(path),)
        made[name] = (path, args, (*file_needles, *needles))
    return made


BAD = ["no-party", "no-stage-file", "no-party-side", "member-differs", "member-missing",
       "unknown-rest", "unknown-key", "solo-and-play", "play-stranger", "play-typo"]


@pytest.mark.parametrize("case", BAD)
def test_bad_campaigns_are_bad_input(capsys, monkeypatch, tmp_path, case):
    path, args, needles = bad_campaigns(tmp_path)[case]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    out = tmp_path / "out"
    batch = () if case.startswith(("play", "solo")) else ("-n", "5", "--workers", "1", "-q",
                                                          "--out", str(out))
    result = fray(capsys, "campaign", str(path), *batch, *args)
    assert_bad_input(result, *needles)
    assert not out.exists() or not any(out.iterdir())
    if case not in ("solo-and-play", "play-stranger", "play-typo"):
        checked = fray(capsys, "validate", str(path))
        assert_bad_input(checked, *needles)
        assert checked.out == ""


# ---------------------------------------------------------------------------- solo
def test_solo_tells_the_stages_the_rest_and_the_end(capsys, tmp_path):
    camp = two_duels(tmp_path)
    assert campaign(capsys, camp, tmp_path / "out", "-n", "10", "--workers", "1").code == 0
    row = first_won_seed(read_rows(tmp_path / "out" / "campaign.csv"))
    told = fray(capsys, "campaign", str(camp), "--solo", "--seed", row["seed"])
    assert told.code == 0, told.err
    text = told.out
    assert text.startswith(f"Two duels: 2 stages under {OWN}, party 'red', seed {row['seed']}")
    assert "Stage 1 of 2: Sword duel (duel)" in text
    assert "Stage 2 of 2: Sword duel (second_duel)" in text
    assert "The party goes in: Ser Aldric" in text
    assert "Ser Aldric (red): standing" in text  # stage 1's roll call: it won
    assert "Stage 1: victory to red." in text
    assert "Between stages: a long rest (a night and a day)" in text
    assert "  Ser Aldric: rest roll Body + Vigor" in text
    assert text.index("Stage 1 of 2") < text.index("Between stages") < text.index(
        "Stage 2 of 2") < text.index("The party at the end:")
    assert "The party at the end:\n  Ser Aldric: " in text
    assert fray(capsys, "campaign", str(camp), "--solo", "--seed", row["seed"]).out == text


def test_solo_ends_at_a_lost_first_stage_without_a_rest(capsys, tmp_path):
    camp = two_duels(tmp_path)
    assert campaign(capsys, camp, tmp_path / "out", "-n", "10", "--workers", "1").code == 0
    row = next(r for r in read_rows(tmp_path / "out" / "campaign.csv")
               if r["stage1_outcome"] == "lost")
    text = fray(capsys, "campaign", str(camp), "--solo", "--seed", row["seed"]).out
    assert "Stage 1: defeat for red: the campaign ends here." in text
    assert "Between stages" not in text and "Stage 2 of 2" not in text
    assert "The campaign ends at stage 1 of 2 (lost)." in text
    assert "The party at the end:\n  Ser Aldric: dead" in text


def test_solo_markdown_to_a_file_is_not_overwritten(capsys, tmp_path):
    camp = two_duels(tmp_path)
    story = tmp_path / "story.md"
    result = fray(capsys, "campaign", str(camp), "--solo", "--seed", "7",
                  "--format", "markdown", "--output", str(story))
    assert result.code == 0, result.err
    assert result.out == "" and f"wrote {story}" in result.err
    text = story.read_text()
    assert text.startswith(f"# Two duels: 2 stages under {OWN}, party 'red', seed 7\n")
    assert "\n## Stage 1 of 2: Sword duel (duel)\n" in text
    assert f"\n### Sword duel under {OWN} (seed " in text  # the fight, a level down
    assert "**The party at the end:**" in text
    before = story.read_bytes()
    again = fray(capsys, "campaign", str(camp), "--solo", "--seed", "8",
                 "--format", "markdown", "--output", str(story))
    assert_bad_input(again, f"error: {story}: file exists; use --force to overwrite it")
    assert story.read_bytes() == before
    forced = fray(capsys, "campaign", str(camp), "--solo", "--seed", "8",
                  "--format", "markdown", "--output", str(story), "--force")
    assert forced.code == 0
    assert "seed 8" in story.read_text().splitlines()[0]


# ---------------------------------------------------------------------------- play
def play(capsys, monkeypatch, answers: str, *args: str) -> Result:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    return fray(capsys, "campaign", *args)


def test_play_a_campaign_from_a_script_with_a_journal(capsys, monkeypatch, tmp_path):
    camp = two_duels(tmp_path)
    assert campaign(capsys, camp, tmp_path / "out", "-n", "10", "--workers", "1").code == 0
    row = first_won_seed(read_rows(tmp_path / "out" / "campaign.csv"))
    journal = tmp_path / "journal.md"
    result = play(capsys, monkeypatch, "1\n", str(camp), "--play", "Ser Aldric",
                  "--seed", row["seed"], "--output", str(journal))
    assert result.code == 0, result.err
    out = result.out
    assert "(attack Ser Benedek)" in out  # the menu was shown
    assert "End of the player's answers" in out
    assert "Stage 1: victory to red." in out  # the seed of a won first stage
    assert "Between stages: a long rest (a night and a day)" in out
    assert "The party at the end:\n  Ser Aldric: " in out
    assert ("The campaign is cleared" in out) or ("The campaign ends at stage 2 of 2" in out)
    assert f"wrote {journal}" in result.err

    text = journal.read_text()
    assert text.startswith(f"# Two duels: 2 stages under {OWN}, party 'red', seed {row['seed']}")
    assert "\n## Stage 1 of 2: Sword duel (duel)\n" in text
    assert "\n## Stage 2 of 2: Sword duel (second_duel)\n" in text
    assert "the player's choice: attack Ser Benedek" in text
    assert "**Between stages: a long rest (a night and a day)**" in text
    assert "**The party at the end:**" in text

    before = journal.read_bytes()
    again = play(capsys, monkeypatch, "1\n", str(camp), "--play", "Ser Aldric",
                 "--seed", row["seed"], "--output", str(journal))
    assert_bad_input(again, f"error: {journal}: file exists")
    assert journal.read_bytes() == before


class CtrlCAtOnce:
    """A non-terminal stdin whose first answer is a Ctrl-C."""

    def isatty(self):
        return False

    def __iter__(self):
        raise KeyboardInterrupt
        yield  # a generator: the Ctrl-C comes when the first answer is asked for


def test_ctrl_c_in_play_keeps_the_journal_so_far(capsys, monkeypatch, tmp_path):
    """A squire joins at stage 2 and is played: stage 1 (AI only) is over at the Ctrl-C."""
    second = yaml.safe_load(DUEL.read_text())
    second["sides"]["red"].append({"name": "Squire", "weapon": "club"})
    camp = write_campaign(tmp_path, {"name": "Squire joins", "party": "red", "stages": [
        {"scenario": str(DUEL), "rest": "short"}, {"scenario": second}]}, "squire.yaml")
    assert campaign(capsys, camp, tmp_path / "out", "-n", "10", "--workers", "1").code == 0
    row = first_won_seed(read_rows(tmp_path / "out" / "campaign.csv"))
    monkeypatch.setattr("sys.stdin", CtrlCAtOnce())
    journal = tmp_path / "journal.md"
    result = fray(capsys, "campaign", str(camp), "--play", "Squire", "--seed", row["seed"],
                  "--output", str(journal))
    assert result.code == 130, result.err
    assert "interrupted" in result.err and f"wrote {journal}" in result.err
    assert "Stage 1: victory to red." in result.out
    assert "Between stages: a short rest (an hour)" in result.out
    assert "The party at the end" not in result.out
    text = journal.read_text()
    assert text.startswith(f"# Squire joins: 2 stages under {OWN}")
    assert "\n## Stage 1 of 2: Sword duel (duel)\n" in text
    assert "**Stage 1: victory to red.**" in text
    # the stage in progress is kept as far as it went, and says it was cut short
    assert "\n## Stage 2 of 2: Sword duel (sword_duel)\n" in text
    assert text.rstrip().endswith("*Interrupted here.*")
    assert "The party at the end" not in text


# ---------------------------------------------------------------------------- record, replay
# Kestrel is played through the road to the keep: answers to the menus and to the choices
# after a roll (1 and Enter are good answers to every question), then the AI decides.
ROAD_ANSWERS = "1\n\n" * 60
SEEDS_TO_TRY = ("7", "3", "1", "2", "4", "5", "10", "11")


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_played_campaign_is_recorded_and_replays_the_same(capsys, monkeypatch, tmp_path,
                                                            ruleset):
    journal = tmp_path / "journal.md"
    for seed in SEEDS_TO_TRY:  # the first run in which Kestrel lives to be played in stage 2
        first = play(capsys, monkeypatch, ROAD_ANSWERS, str(ROAD), "--play", "Kestrel",
                     "--ruleset", ruleset, "--seed", seed, "--output", str(journal),
                     "--force")
        assert first.code == 0, first.err
        if "Kestrel> " in first.out.partition("Stage 2 of 3")[2]:
            break
    record_file = tmp_path / "journal.md.record.json"  # beside --output by default
    assert f"wrote {record_file}" in first.err
    record = json.loads(record_file.read_text())
    assert {k: record[k] for k in ("kind", "campaign", "ruleset", "seed", "as", "menu")} == {
        "kind": "campaign", "campaign": "road_to_the_keep", "ruleset": ruleset,
        "seed": int(seed), "as": ["Kestrel"], "menu": 3}  # the two-step menu's answers
    assert record["answers"] == ROAD_ANSWERS.splitlines()[:len(record["answers"])]
    assert "The party at the end:" in first.out
    # Kestrel was played past the first stage: a replay must carry the answers across
    assert "Kestrel> " in first.out.split("Stage 2 of 3")[1]

    again_journal = tmp_path / "again.md"
    again = play(capsys, monkeypatch, "9\n9\n", str(ROAD), "--replay", str(record_file),
                 "--output", str(again_journal))  # stdin is not read by a replay
    assert again.code == 0, again.err
    assert again.out == first.out  # the same fights, the same log, the same roll call
    assert again_journal.read_bytes() == journal.read_bytes()
    # the replay's own record (beside its journal) is the record it replayed
    assert json.loads((tmp_path / "again.md.record.json").read_text()) == record


def test_record_chooses_the_file_and_overwriting_needs_force(capsys, monkeypatch, tmp_path):
    record = tmp_path / "mine.json"
    args = (str(ROAD), "--play", "Kestrel", "--seed", "7", "--record", str(record))
    assert play(capsys, monkeypatch, "1\n", *args).code == 0
    assert json.loads(record.read_text())["answers"] == ["1"]
    assert not list(tmp_path.glob("*.record.json"))  # no journal, no record beside it
    before = record.read_bytes()
    refused = play(capsys, monkeypatch, "2\n", *args)
    assert_bad_input(refused, f"error: {record}: file exists; use --force to overwrite it")
    assert "Stage 1" not in refused.out and record.read_bytes() == before
    assert play(capsys, monkeypatch, "\n", *args, "--force").code == 0
    assert json.loads(record.read_text())["answers"] == [""]


def test_a_play_without_a_journal_or_record_writes_nothing(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert play(capsys, monkeypatch, "1\n", str(ROAD), "--play", "Kestrel").code == 0
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("extra, needle", [
    (("--play", "Kestrel"), "--as: --replay takes the party members played, the ruleset "
                            "and the seed from its record; drop --as"),
    (("--seed", "3"), "drop --seed"),
    (("--ruleset", OTHER), "drop --ruleset"),
    (("--solo",), "--replay: --solo tells a campaign, --as plays it"),
    (("-n", "5"), "--solo, --as and --replay tell one run: drop -n"),
    (("--out", "x"), "drop --out"),
])
def test_a_campaign_replay_refuses_options_its_record_fixes(capsys, monkeypatch, tmp_path,
                                                            extra, needle):
    record = tmp_path / "r.json"
    assert play(capsys, monkeypatch, "1\n", str(ROAD), "--play", "Kestrel", "--seed", "7",
                "--record", str(record)).code == 0
    result = play(capsys, monkeypatch, "", str(ROAD), "--replay", str(record), *extra)
    assert_bad_input(result, needle)
    assert "Stage 1" not in result.out


@pytest.mark.parametrize("args", [("-n", "5", "--workers", "1", "-q"), ("--solo",)])
def test_record_is_only_for_a_play(capsys, monkeypatch, tmp_path, args):
    monkeypatch.chdir(tmp_path)
    result = play(capsys, monkeypatch, "", str(ROAD), *args, "--record", "r.json")
    assert_bad_input(result, "--record: keeps the answers of a play: only with --as")
    assert not any(tmp_path.iterdir())


def test_a_record_of_another_campaign_or_of_a_fight_is_refused(capsys, monkeypatch,
                                                              tmp_path):
    record = tmp_path / "r.json"
    assert play(capsys, monkeypatch, "1\n", str(ROAD), "--play", "Kestrel", "--seed", "7",
                "--record", str(record)).code == 0
    other = two_duels(tmp_path)
    result = play(capsys, monkeypatch, "", str(other), "--replay", str(record))
    assert_bad_input(result, f"{record}: digest: the record was made from another campaign "
                             "file, or from this one before it changed (recorded: "
                             "'road_to_the_keep'", "this file: 'two_duels'")
    # the same campaign changed (a longer rest): its fights would not be the recorded ones
    road = yaml.safe_load(ROAD.read_text())
    road["stages"][0]["rest"] = "long"
    for stage in road["stages"]:
        stage["scenario"] = str((ROAD.parent / stage["scenario"]).resolve())
    changed = write_campaign(tmp_path, road, "road_to_the_keep.yaml")
    result = play(capsys, monkeypatch, "", str(changed), "--replay", str(record))
    assert_bad_input(result, f"{record}: digest: the record was made from another campaign "
                             "file, or from this one before it changed")
    # a record of fray play is not a campaign's, nor a campaign's a fight's
    fight = tmp_path / "fight.json"
    assert fray(capsys, "play", str(DUEL), "--as", "Ser Aldric", "--record",
                str(fight)).code == 0
    result = play(capsys, monkeypatch, "", str(ROAD), "--replay", str(fight))
    assert_bad_input(result, f"{fight}: kind: a record of fray play (scenario 'duel'); here "
                             "--replay takes a record of fray campaign --as")
    result = fray(capsys, "play", str(DUEL), "--replay", str(record))
    assert_bad_input(result, f"{record}: kind: a record of fray campaign --as (campaign "
                             "'road_to_the_keep'); here --replay takes a record of fray play")


@pytest.mark.parametrize("change, needle", [
    ({"as": ["Kestral"]}, "as: unknown party member 'Kestral' (did you mean 'Kestrel'?); "
                          "allowed: Wolfman, Brother Ansel, Kestrel"),
    ({"as": ["Bandit 1"]}, "as: unknown party member 'Bandit 1'"),
    ({"seed": 1.5}, "seed: expected an integer of 0 or more, got 1.5"),
    ({"answers": None}, "answers: expected a list of answers (strings, one per answer), "
                        "got None"),
    ({"ruleset": None}, "ruleset: unknown ruleset 'None'; allowed: "),
    ({"menu": 4}, "menu: the record's answers are to menu 4, which this fray does not know "
                  "(it knows 1, the one long list, 2 and 3, the two-step menu)"),
    ({"menu": "2"}, "menu: the record's answers are to menu '2'"),
])
def test_a_damaged_campaign_record_names_the_field(capsys, monkeypatch, tmp_path, change,
                                                   needle):
    record = tmp_path / "r.json"
    assert play(capsys, monkeypatch, "1\n", str(ROAD), "--play", "Kestrel", "--seed", "7",
                "--record", str(record)).code == 0
    doc = {**json.loads(record.read_text()), **change}
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(doc))
    result = play(capsys, monkeypatch, "", str(ROAD), "--replay", str(damaged))
    assert_bad_input(result, f"error: {damaged}: {needle}")
    del doc["campaign"]
    damaged.write_text(json.dumps(doc))
    result = play(capsys, monkeypatch, "", str(ROAD), "--replay", str(damaged))
    assert_bad_input(result, f"{damaged}: campaign: missing: a record of fray campaign --as "
                             "holds campaign, digest, ruleset, seed, as and answers")


def test_a_bad_answer_keeps_the_record_and_the_journal(capsys, monkeypatch, tmp_path):
    journal = tmp_path / "j.md"
    result = play(capsys, monkeypatch, "1\nswing wildly\n", str(ROAD), "--play", "Kestrel",
                  "--seed", "7", "--output", str(journal))
    assert_bad_input(result, "answer 2: 'swing wildly'")
    record = json.loads((tmp_path / "j.md.record.json").read_text())
    assert record["answers"] == ["1"]
    text = journal.read_text()
    assert "\n## Stage 1 of 3: Ambush at the ford (ambush)\n" in text
    assert text.rstrip().endswith("*Stopped here: a refused answer.*")


def test_an_interrupted_record_replays_as_far_as_it_went(capsys, monkeypatch, tmp_path):
    """Ctrl-C keeps the record; its replay gives the answers kept, then the AI decides."""
    journal = tmp_path / "j.md"
    monkeypatch.setattr("sys.stdin", CtrlCAtOnce())
    result = fray(capsys, "campaign", str(ROAD), "--play", "Kestrel", "--seed", "7",
                  "--output", str(journal))
    assert result.code == 130
    record_file = tmp_path / "j.md.record.json"
    assert json.loads(record_file.read_text())["answers"] == []
    again = play(capsys, monkeypatch, "", str(ROAD), "--replay", str(record_file))
    ai = play(capsys, monkeypatch, "", str(ROAD), "--play", "Kestrel", "--seed", "7")
    assert again.code == ai.code == 0
    assert again.out == ai.out and "End of the player's answers" in again.out


# ---------------------------------------------------------------------------- compare
def test_compare_a_campaign_under_two_rulesets(capsys, tmp_path):
    camp = two_duels(tmp_path)
    out = tmp_path / "cmp"
    result = fray(capsys, "compare", str(camp), "-n", "20", "--rulesets", f"{OWN},{OTHER}",
                  "--out", str(out), "--workers", "1", "-q")
    assert result.code == 0, result.err
    for name in (f"{OWN}/summary.json", f"{OWN}/campaign.csv", f"{OTHER}/summary.json",
                 f"{OTHER}/campaign.csv", "report.md", "survival.png"):
        assert (out / name).exists(), name
    assert "P(reach)" in result.out and "2 second_duel" in result.out and OTHER in result.out
    for name in (OWN, OTHER):
        summary = json.loads((out / name / "summary.json").read_text())
        assert (summary["ruleset"], summary["runs"]) == (name, 20)
        assert len(read_rows(out / name / "campaign.csv")) == 20
    report = (out / "report.md").read_text()
    assert report.startswith("# Two duels: how far the party gets under each ruleset")
    assert "clears every stage most often under" in report
    assert f"| {OWN} |" in report and f"| {OTHER} |" in report
    # the same runs as fray campaign under that ruleset
    alone = campaign(capsys, camp, tmp_path / "alone", "-n", "20", "--ruleset", OTHER,
                     "--workers", "1")
    assert alone.code == 0
    for file in ("campaign.csv", "summary.json"):
        assert (tmp_path / "alone" / file).read_bytes() == (
            out / OTHER / file).read_bytes()
    own_seeds = [r["seed"] for r in read_rows(out / OWN / "campaign.csv")]
    assert own_seeds == [r["seed"] for r in read_rows(out / OTHER / "campaign.csv")]


# ---------------------------------------------------------------------------- validate
def test_validate_the_bundled_campaign(capsys):
    result = fray(capsys, "validate", str(ROAD))
    assert result.code == 0, result.err
    assert result.out == f"{ROAD}: OK\n"


def test_validate_good_and_bad_campaigns(capsys, tmp_path):
    good = two_duels(tmp_path)
    joins = write_campaign(tmp_path, {"name": "Joins", "party": "red", "stages": [
        {"scenario": {"name": "A", "sides": {"red": [{"name": "X"}], "blue": [{"name": "Y"}]}}},
        {"scenario": {"name": "B", "sides": {"red": [{"name": "X", "ai": "aggressive"},
                                                     {"name": "Z"}],
                                             "blue": [{"name": "Y"}]}}}]}, "joins.yaml")
    bad = write_campaign(tmp_path, {"name": "Bad", "party": "red",
                                    "stages": [{"scenario": "duel.yaml", "rest": "week"}]},
                         "bad.yaml")
    result = fray(capsys, "validate", str(good), str(joins), str(bad), str(DUEL))
    assert_bad_input(result, f"{bad}: stages[0].rest: unknown rest 'week'")
    assert result.out.splitlines() == [f"{good}: OK", f"{joins}: OK", f"{DUEL}: OK"]


def test_a_campaign_with_stages_misspelt_is_told_as_a_campaign(capsys, tmp_path):
    """It has a party and no sides: a campaign, not a scenario with unknown keys."""
    typo = write_campaign(tmp_path, {"name": "Typo", "party": "red",
                                     "stage": [{"scenario": "duel.yaml"}]}, "typo.yaml")
    for command in ("validate", "campaign"):
        result = fray(capsys, command, str(typo))
        assert_bad_input(result, f"{typo}: stage: unknown key 'stage' (did you mean 'stages'?)")
        assert "sides" not in result.err


@pytest.mark.parametrize("args, needle", [
    (("--solo", "-n", "5"), "--solo, --as and --replay tell one run: drop -n"),
    (("--play", "Ser Aldric", "--out", "somewhere"), "drop --out"),
    (("-n", "5", "--output", "story.md"), "only --solo, --as and --replay tell a run"),
    (("-n", "5", "--format", "markdown"), "drop --format"),
])
def test_options_a_mode_would_ignore_are_refused(capsys, monkeypatch, tmp_path, args, needle):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.chdir(tmp_path)
    result = fray(capsys, "campaign", str(ROAD), *args)
    assert_bad_input(result, needle)
    assert not any(tmp_path.iterdir())  # nothing run, nothing written


def test_the_record_and_the_journal_cannot_be_one_file(capsys, monkeypatch, tmp_path):
    same = tmp_path / "same.md"
    result = play(capsys, monkeypatch, "1\n", str(ROAD), "--play", "Kestrel", "--output",
                  str(same), "--record", str(same))
    assert_bad_input(result, f"--record: {same} is also the --output file: give the record a "
                             "file of its own")
    assert not same.exists()


def test_what_if_in_a_played_campaign_weighs_the_rollouts_asked_for(capsys, monkeypatch,
                                                                      tmp_path):
    """``?`` at a campaign's menu, as at ``fray play``'s: ``--rollouts`` sets how many."""
    asked, plain = tmp_path / "asked.json", tmp_path / "plain.json"
    args = (str(ROAD), "--play", "Kestrel", "--seed", "7", "--rollouts", "3")
    with_odds = play(capsys, monkeypatch, "?\n1\n", *args, "--record", str(asked))
    assert with_odds.code == 0, with_odds.err
    assert "What if? 3 rollouts of each line" in with_odds.out
    without = play(capsys, monkeypatch, "1\n", *args, "--record", str(plain))
    assert json.loads(asked.read_text())["answers"] == json.loads(plain.read_text())["answers"]
    fight = [line for line in with_odds.out.splitlines() if line.startswith("  [")]
    assert fight == [line for line in without.out.splitlines() if line.startswith("  [")]
    refused = fray(capsys, "campaign", str(ROAD), "--solo", "--rollouts", "3")
    assert_bad_input(refused, "--rollouts")


def test_the_played_party_members_are_named_by_as_as_in_fray_play(capsys, monkeypatch,
                                                                   tmp_path):
    """``--as`` names whom a campaign's player plays, as ``fray play --as`` does; the
    older ``--play`` still works and records the same play."""
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    assert play(capsys, monkeypatch, "1\n", str(ROAD), "--as", "Kestrel", "--seed", "7",
                "--record", str(new)).code == 0
    assert play(capsys, monkeypatch, "1\n", str(ROAD), "--play", "Kestrel", "--seed", "7",
                "--record", str(old)).code == 0
    assert json.loads(new.read_text())["answers"] == json.loads(old.read_text())["answers"]
    assert json.loads(new.read_text())["as"] == ["Kestrel"]
