"""Damage to the files a stopped batch keeps, and links planted where it writes: each
refused with "cannot resume: <reason>" (exit 2), or resumed to the byte; nothing followed."""

from __future__ import annotations

import json
import os

import pytest
from helpers import SCENARIOS, StopAfter, any_ruleset, fray

from sim import scenario as scenario_mod
from sim.batch import files
from sim.batch.files import PART, STATE
from sim.batch.runner import BatchSpec, run_batch

DUEL = str(SCENARIOS / "duel.yaml")


@pytest.fixture(scope="module")
def stopped(tmp_path_factory):
    """A batch of 300 stopped after two chunks of 100: its part file and checkpoint."""
    folder = tmp_path_factory.mktemp("stopped")
    spec = BatchSpec(scenario_mod.load(DUEL), any_ruleset(), 300, seed=4, chunk_size=100)
    with pytest.raises(KeyboardInterrupt):
        run_batch(spec, folder, StopAfter(2))
    whole = tmp_path_factory.mktemp("whole")
    run_batch(spec, whole)
    return ((folder / PART).read_bytes(), (folder / STATE).read_text(),
            (whole / "encounters.csv").read_bytes(), (whole / "summary.json").read_bytes())


def _resume(capsys, folder):
    return fray(capsys, "batch", DUEL, "-n", "300", "--seed", "4", "--chunk-size", "100",
                "--ruleset", any_ruleset(), "-q", "--out", str(folder), "--resume")


def _lay(folder, part: bytes, state: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / PART).write_bytes(part)
    (folder / STATE).write_text(state)


def _swap_two_rows(part: bytes) -> bytes:
    lines = part.split(b"\n")
    lines[3], lines[4] = lines[4], lines[3]
    return b"\n".join(lines)


def _one_digit(part: bytes) -> bytes:
    lines = part.split(b"\n")
    cells = lines[5].split(b",")
    cells[3] = str(int(cells[3]) + 1).encode()  # the rounds of encounter 4
    lines[5] = b",".join(cells)
    return b"\n".join(lines)


def _cut_checkpoint(state: str) -> str:
    doc = json.loads(state)
    doc["bytes"] -= 7  # the checkpoint ends inside a row
    return json.dumps(doc)


PART_DAMAGE = {
    "one digit changed": (_one_digit, "changed since its checkpoint"),
    "two rows swapped": (_swap_two_rows, "changed since its checkpoint"),
    "NUL bytes": (lambda p: p[:200] + b"\0\0\0" + p[203:], "changed since its checkpoint"),
    "cut short": (lambda p: p[: len(p) // 2], "fewer than the"),
}
STATE_DAMAGE = {
    "empty": (lambda s: "", "damaged .*not JSON"),
    "not JSON": (lambda s: "{rows: 3", "damaged .*not JSON"),
    "too deep": (lambda s: "[" * 100_000 + "]" * 100_000, "damaged .*nested deeper"),
    "a list": (lambda s: "[1, 2]", "damaged .*not a JSON object"),
    "rows not a count": (lambda s: s.replace('"rows": ', '"rows": -'), "'rows' is not a count"),
    "no digest": (lambda s: json.dumps({k: v for k, v in json.loads(s).items()
                                        if k != "sha256"}), "no digest"),
    "cuts a row": (_cut_checkpoint, "changed since its checkpoint"),
}


@pytest.mark.parametrize("damage", PART_DAMAGE)
def test_damage_to_the_part_file_is_refused(capsys, tmp_path, stopped, damage):
    part, state, _, _ = stopped
    change, why = PART_DAMAGE[damage]
    _lay(tmp_path / "out", change(part), state)
    result = _resume(capsys, tmp_path / "out")
    assert result.code == 2, result.err
    assert "cannot resume:" in result.err and why in result.err.replace("\n", " ")
    assert "internal error" not in result.err and "Traceback" not in result.err


@pytest.mark.parametrize("damage", STATE_DAMAGE)
def test_damage_to_the_checkpoint_is_refused(capsys, tmp_path, stopped, damage):
    import re

    part, state, _, _ = stopped
    change, why = STATE_DAMAGE[damage]
    _lay(tmp_path / "out", part, change(state))
    result = _resume(capsys, tmp_path / "out")
    assert result.code == 2, result.err
    assert "cannot resume:" in result.err and re.search(why, result.err), result.err


def test_a_forged_checkpoint_still_needs_each_row_in_its_place(tmp_path, stopped):
    """Rows swapped and the digest made to match: each row's index and seed are checked."""
    import hashlib

    part, state, _, _ = stopped
    swapped = _swap_two_rows(part)
    doc = json.loads(state)
    doc["sha256"] = hashlib.sha256(swapped[: doc["bytes"]]).hexdigest()
    _lay(tmp_path, swapped, json.dumps(doc))
    spec = BatchSpec(scenario_mod.load(DUEL), any_ruleset(), 300, seed=4, chunk_size=100)
    with pytest.raises(files.FrayInputError, match="row 3 of .* is not encounter 2"):
        run_batch(spec, tmp_path, resume=True)


def test_an_intact_stop_resumes_to_the_byte(capsys, tmp_path, stopped):
    part, state, rows, summary = stopped
    _lay(tmp_path / "out", part, state)
    assert _resume(capsys, tmp_path / "out").code == 0
    assert (tmp_path / "out" / "encounters.csv").read_bytes() == rows
    assert (tmp_path / "out" / "summary.json").read_bytes() == summary


def test_a_planted_link_as_the_part_file_is_not_followed(capsys, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("IMPORTANT\n")
    out = tmp_path / "out"
    out.mkdir()
    for name in (PART, ".campaign.csv.part"):
        (out / name).symlink_to(victim)
    result = fray(capsys, "batch", DUEL, "-n", "20", "-q", "--out", str(out))
    assert result.code == 0, result.err
    assert victim.read_text() == "IMPORTANT\n"
    assert not (out / "encounters.csv").is_symlink()
    assert (out / "encounters.csv").read_text().startswith("index,seed,")


def test_a_link_as_the_kept_part_file_is_refused_on_resume(capsys, tmp_path, stopped):
    part, state, _, _ = stopped
    victim = tmp_path / "victim.csv"
    victim.write_bytes(part)
    out = tmp_path / "out"
    _lay(out, b"", state)
    (out / PART).unlink()
    (out / PART).symlink_to(victim)
    result = _resume(capsys, out)
    assert result.code == 2 and "symbolic link" in result.err, result.err
    assert victim.read_bytes() == part


def test_a_full_disk_while_the_summary_is_written_is_resumable(capsys, tmp_path, stopped,
                                                                monkeypatch):
    part, state, rows, summary = stopped
    out = tmp_path / "out"
    _lay(out, part, state)
    real = files.write_json

    def full(path, data):
        if path.name == "summary.json":
            raise OSError(28, "No space left on device", str(path))
        return real(path, data)

    monkeypatch.setattr(files, "write_json", full)
    result = _resume(capsys, out)
    assert result.code == 1 and "No space left on device" in result.err
    assert f"kept in {out}" in result.err and "plus --resume" in result.err  # and it is
    monkeypatch.setattr(files, "write_json", real)
    plain = fray(capsys, "batch", DUEL, "-n", "300", "--seed", "4", "-q", "--out", str(out))
    assert plain.code == 2 and "--resume" in plain.err  # which works:
    assert _resume(capsys, out).code == 0
    assert (out / "encounters.csv").read_bytes() == rows
    assert (out / "summary.json").read_bytes() == summary
    assert not os.path.lexists(out / STATE)


def test_a_stop_between_publishing_and_clearing_resumes(capsys, tmp_path, stopped):
    """Rows published, checkpoint not yet cleared: --resume finishes it, not "no batch"."""
    part, state, rows, summary = stopped
    out = tmp_path / "out"
    _lay(out, part, state)
    assert _resume(capsys, out).code == 0
    files.write_state(out, json.loads((tmp_path / "out" / STATE).read_text())
                      if (out / STATE).exists() else {
                          **json.loads(state), "rows": 300, "bytes": len(rows),
                          "sha256": __import__("hashlib").sha256(rows).hexdigest()})
    result = _resume(capsys, out)
    assert result.code == 0, result.err
    assert (out / "encounters.csv").read_bytes() == rows
    assert (out / "summary.json").read_bytes() == summary


def test_a_checkpoint_without_its_rows_cannot_resume(capsys, tmp_path, stopped):
    _, state, _, _ = stopped
    _lay(tmp_path / "out", b"", state)
    (tmp_path / "out" / PART).unlink()
    result = _resume(capsys, tmp_path / "out")
    assert result.code == 2
    assert "cannot resume: its checkpoint is there but its rows" in result.err
