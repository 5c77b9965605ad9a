"""Inputs that once ended in "internal error": each is now exit 2 naming the field and the
bound, and a play keeps its journal and record.
"""

from __future__ import annotations

import io
import json
import shutil

import pytest
from helpers import SCENARIOS, fray

from sim.cli import records

DUEL = str(SCENARIOS / "duel.yaml")
HUGE = "9" * 5000  # past Python's 4,300 digits of int()
AS = ("--as", "Ser Aldric", "--seed", "3")


def play(capsys, monkeypatch, answers: str, *args: str):
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    return fray(capsys, "play", *args)


@pytest.mark.parametrize("answer", [HUGE, "0" * 5000 + "1" + "0" * 30], ids=["9s", "0s"])
def test_a_huge_number_at_a_menu_is_a_bad_answer_and_the_journal_is_kept(
        capsys, monkeypatch, tmp_path, answer):
    log = tmp_path / "journal.md"
    result = play(capsys, monkeypatch, f"{answer}\n", DUEL, *AS, "--log", str(log))
    assert result.code == 2, result.err
    assert "internal error" not in result.err and "is not on the menu" in result.err
    assert "(5,0" in result.err and len(result.err) < 400  # the answer is cut, not echoed
    assert log.read_text().startswith("# ")
    assert json.loads((tmp_path / "journal.md.record.json").read_text())["answers"] == []


def test_a_huge_number_after_a_question_mark_is_out_of_range(capsys, monkeypatch):
    result = play(capsys, monkeypatch, f"? {HUGE}\n1\n", DUEL, *AS, "--rollouts", "2")
    assert result.code == 0, result.err
    assert "N from 1 to 100000" in result.out


def test_a_record_with_a_huge_answer_replays_to_the_same_clear_error(capsys, monkeypatch,
                                                                     tmp_path):
    record, log = tmp_path / "r.json", tmp_path / "again.md"
    assert play(capsys, monkeypatch, "1\n", DUEL, *AS, "--record", str(record)).code == 0
    doc = {k: v for k, v in json.loads(record.read_text()).items() if k != "check"}
    record.write_text(json.dumps({**doc, "answers": ["1", "9" * 300]}))
    for _ in range(2):  # the same error each time
        result = play(capsys, monkeypatch, "", DUEL, "--replay", str(record), "--log",
                      str(log), "--force")
        assert result.code == 2, result.err
        assert f"{record}: answers: answer 2: " in result.err and "(300 characters)" in result.err
        assert log.read_text().startswith("# ")  # the journal so far is kept


@pytest.mark.parametrize("answer, words", [
    ("? 100000", f"N is from 1 to {records.MAX_RECORD_ROLLOUTS}"),
    ("? " + "9" * 300, "a number that long"),
    ("x" * 19_000, f"at most {records.MAX_ANSWER_CHARS}"),
], ids=["rollouts", "digits", "long"])
def test_a_record_is_bounded_and_says_its_bounds(capsys, monkeypatch, tmp_path, answer,
                                                 words):
    record = tmp_path / "r.json"
    assert play(capsys, monkeypatch, "1\n", DUEL, *AS, "--record", str(record)).code == 0
    doc = {k: v for k, v in json.loads(record.read_text()).items() if k != "check"}
    record.write_text(json.dumps({**doc, "answers": ["1", answer]}))
    result = play(capsys, monkeypatch, "", DUEL, "--replay", str(record))
    assert result.code == 2 and f"{record}: answers[1]: " in result.err, result.err
    assert words in result.err


@pytest.mark.parametrize("command", [
    ("batch", DUEL, "-n", "10"),
    ("compare", DUEL, "-n", "10"),
    ("sweep", DUEL, "--set", "max_rounds=2,3", "-n", "10"),
    ("campaign", str(SCENARIOS / "campaigns" / "road_to_the_keep.yaml"), "-n", "2"),
    ("balance", DUEL, "--vary", "max_rounds", "--range", "1..3", "--target", "0.5"),
])
@pytest.mark.parametrize("width", ["1e-200", "1e-155", "0.00009"])
def test_a_precision_nearer_zero_than_any_batch_reaches_is_refused(capsys, tmp_path, command,
                                                                   width):
    result = fray(capsys, *command, "--precision", width, "--out", str(tmp_path / "o"))
    assert result.code == 2, result.err
    assert "--precision" in result.err and "0.0001 or more and below 0.5" in result.err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("span, words", [
    (f"1..{HUGE}", "a number of more than 40 digits"),
    ("1..1000000", "1..1000000 holds 1,000,000 values; at most 1000"),
], ids=["digits", "values"])
def test_a_balance_range_is_bounded(capsys, tmp_path, span, words):
    result = fray(capsys, "balance", DUEL, "--vary", "max_rounds", "--range", span,
                  "--target", "0.5", "--out", str(tmp_path / "o"))
    assert result.code == 2 and f"--range: {words}" in result.err, result.err


def test_a_nul_byte_in_a_stage_path_names_the_stage(capsys, tmp_path):
    for path in (SCENARIOS / "campaigns").iterdir():
        shutil.copyfile(path, tmp_path / path.name)
    campaign = tmp_path / "road_to_the_keep.yaml"
    text = campaign.read_text().replace("scenario: ../ambush.yaml", 'scenario: "a\\0b.yaml"')
    campaign.write_text(text)
    for command in (("validate", str(campaign)), ("campaign", str(campaign), "-n", "2")):
        result = fray(capsys, *command)
        assert result.code == 2, result.err
        assert "stages[0].scenario" in result.err and "NUL byte (\\x00)" in result.err
