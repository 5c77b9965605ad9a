"""Files of a run: atomic writes, the output-folder policy, the resume state."""

from __future__ import annotations

import csv
import hashlib
import json
import os

import pytest
from helpers import any_ruleset, two_rulesets

from sim.batch import files, parquet
from sim.scenario.errors import FrayInputError


def listing(folder):
    return sorted(p.name for p in folder.iterdir())


# ---------------------------------------------------------------------------- atomic writes
def test_whole_documents_are_written_and_leave_nothing_else(tmp_path):
    assert files.write_text(tmp_path / "a.md", "× one\n") == tmp_path / "a.md"
    files.write_bytes(tmp_path / "b.bin", b"\x00\x01")
    files.write_json(tmp_path / "c.json", {"k": [1, 2]})
    files.write_csv(tmp_path / "d.csv", [{"x": 1, "y": None}, {"x": 2, "z": "q"}])
    assert (tmp_path / "a.md").read_text(encoding="utf-8") == "× one\n"
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    assert (tmp_path / "c.json").read_text() == '{\n  "k": [\n    1,\n    2\n  ]\n}\n'
    assert (tmp_path / "d.csv").read_text() == "x,y,z\n1,,\n2,,q\n"
    assert listing(tmp_path) == ["a.md", "b.bin", "c.json", "d.csv"]


def test_a_failed_write_keeps_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "summary.json"
    target.write_text("old\n")
    with pytest.raises(RuntimeError), files.atomic_open(target, "w") as handle:
        handle.write("half of a ne")
        raise RuntimeError("the writer died")
    assert target.read_text() == "old\n"
    assert listing(tmp_path) == ["summary.json"]
    with pytest.raises(TypeError):
        files.write_json(target, {"not json": object()})
    assert target.read_text() == "old\n" and listing(tmp_path) == ["summary.json"]


def test_the_target_appears_only_when_the_stream_is_closed(tmp_path):
    target = tmp_path / "rows.csv"
    with files.atomic_path(target) as tmp:
        assert tmp.parent == tmp_path and tmp.name.startswith(".")
        tmp.write_text("a\n")
        assert not target.exists()
    assert target.read_text() == "a\n" and not tmp.exists()


def test_a_user_named_file_in_a_missing_folder_is_bad_input(tmp_path):
    with pytest.raises(FrayInputError, match="cannot write: No such file or directory"):
        files.write_out_file(tmp_path / "no" / "log.txt", "x")
    (tmp_path / "log.txt").write_text("keep")
    with pytest.raises(FrayInputError, match="file exists; use --force"):
        files.claim_out_file(tmp_path / "log.txt", force=False)
    files.claim_out_file(tmp_path / "log.txt", force=True)


# ---------------------------------------------------------------------------- folders
def test_batch_folder_policy(tmp_path):
    out = tmp_path / "b"
    files.claim_batch_dir(out, force=False)  # created
    assert out.is_dir() and files.results_in(out) == [] and not files.complete(out)
    (out / "summary.json").write_text("{}")
    assert files.results_in(out) == ["summary.json"] and files.complete(out)
    with pytest.raises(FrayInputError, match="already holds results .*--force"):
        files.claim_batch_dir(out, force=False)
    files.claim_batch_dir(out, force=True)
    state = {"rows": 3, "bytes": 40, "sha256": "0" * 64}
    files.write_state(out, state)
    assert files.read_state(out) == state and not files.complete(out)
    with pytest.raises(FrayInputError, match="interrupted batch; use --resume"):
        files.claim_batch_dir(out, force=False)
    files.clear_state(out)
    assert files.read_state(out) is None


def test_a_file_is_no_output_folder(tmp_path):
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    with pytest.raises(FrayInputError, match="exists and is not a folder"):
        files.claim_out_dir(blocker, None, force=True)
    with pytest.raises(FrayInputError, match="cannot create the output folder"):
        files.make_out_dir(blocker / "sub")


def test_where_batches_go(tmp_path, monkeypatch):
    # the default folder is made at once: under this test's own folder, not the repository's
    monkeypatch.setattr(files, "RESULTS_ROOT", tmp_path / "results")
    first, second = two_rulesets()
    assert files.batch_targets(tmp_path, [first]) == {first: tmp_path}
    assert files.batch_targets(tmp_path, [first, second]) == {
        first: tmp_path / first, second: tmp_path / second}
    default = files.default_out_dir("ambush", "compare")
    assert default.parent == files.RESULTS_ROOT
    assert default.name.startswith("ambush-compare-")


def test_parquet_is_written_atomically(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    with open(tmp_path / "encounters.csv", "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerows([["index", "winner", "a_out_rounds"], [0, "a", "1 2"], [1, "draw", ""]])
    path = parquet.write_parquet(tmp_path)
    assert listing(tmp_path) == ["encounters.csv", "encounters.parquet"]
    rows = pq.read_table(path).to_pylist()
    assert rows == [{"index": 0, "winner": "a", "a_out_rounds": "1 2"},
                    {"index": 1, "winner": "draw", "a_out_rounds": ""}]


def test_state_is_json_on_disk(tmp_path):
    files.write_state(tmp_path, {"rows": 1, "bytes": 20})
    assert json.loads((tmp_path / files.STATE).read_text()) == {"rows": 1, "bytes": 20}
    assert os.listdir(tmp_path) == [files.STATE]


# ---------------------------------------------------------------------------- resume, streamed
def test_a_resume_folds_the_part_file_row_by_row(tmp_path):
    """Recovering the kept rows reads one line at a time, not the whole part file."""
    import tracemalloc

    from helpers import SCENARIOS

    from sim import scenario as scenario_mod
    from sim.batch import chunks, runner
    from sim.core.seeds import encounter_seed

    scen = scenario_mod.load(SCENARIOS / "duel.yaml")
    cols = chunks.columns(scen)
    rows = chunks.run_chunk(scen, any_ruleset(), 4, 0, 20)
    copies = 500  # 10,000 rows (the 20 again, each with its own index and seed), about a MB
    part = tmp_path / files.PART
    with open(part, "wb") as handle:
        handle.write(chunks.csv_text([], cols, header=True))
        for c in range(copies):
            handle.write(chunks.csv_text([
                {**row, "index": 20 * c + k, "seed": encounter_seed(4, 20 * c + k)}
                for k, row in enumerate(rows)], cols))
        size = handle.tell()
        handle.write(b"1,2,3")  # a half-written tail, past the checkpoint
    digest = hashlib.sha256(part.read_bytes()[:size]).hexdigest()
    spec = runner.BatchSpec(scen, any_ruleset(), 50000, seed=4, chunk_size=20)
    files.write_state(tmp_path, {**spec.identity(), "rows": 20 * copies, "bytes": size,
                                 "sha256": digest})
    tally = chunks.new_tally(scen, any_ruleset(), 4)
    tracemalloc.start()
    try:
        kept = runner._recover(spec, tmp_path, tally)
        assert kept[:2] == (20 * copies, size) and kept[2].hexdigest() == digest
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert tally.encounters == 20 * copies
    assert peak < size / 10, (peak, size)
