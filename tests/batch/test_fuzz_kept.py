"""A fuzz of the files fray reads back: a play's record, a stopped batch's checkpoint and
part file, mutated at random. Each is refused with a reason (``FrayInputError``, exit 2) or
gives exactly what the intact file gives; nothing else escapes, nothing differs silently."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from helpers import SCENARIOS, StopAfter, any_ruleset
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sim import scenario as scenario_mod
from sim.batch.chunks import scenario_digest
from sim.batch.files import PART, STATE
from sim.batch.runner import BatchSpec, run_batch
from sim.cli import records
from sim.scenario.errors import FrayInputError

SCEN = scenario_mod.load(SCENARIOS / "duel.yaml")
SPEC = BatchSpec(SCEN, any_ruleset(), 120, seed=4, chunk_size=40)
EVERYONE = [m.name for side in SCEN.sides for m in side.members]


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    """A batch stopped after two chunks (its part file and checkpoint), and the whole one."""
    stopped, whole = tmp_path_factory.mktemp("stopped"), tmp_path_factory.mktemp("whole")
    with pytest.raises(KeyboardInterrupt):
        run_batch(SPEC, stopped, StopAfter(2))
    run_batch(SPEC, whole)
    return ((stopped / PART).read_bytes(), (stopped / STATE).read_bytes(),
            (whole / "summary.json").read_bytes(), (whole / "encounters.csv").read_bytes())


def _mutate(data: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
    """Each edit: at a position (modulo the length), delete some bytes and insert others."""
    for where, cut, insert in edits:
        at = where % (len(data) + 1)
        data = data[:at] + insert + data[at + cut:]
    return data


EDITS = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3),
                           st.binary(max_size=4) | st.sampled_from([b"\n", b",", b"0", b"\0"])),
                 min_size=1, max_size=3)
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.text(max_size=8),
                   st.lists(st.integers(0, 3), max_size=3), st.floats())


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_mutated_stop_is_refused_or_resumes_to_the_same_bytes(kept, data):
    part, state, summary, rows = kept
    if data.draw(st.booleans()):
        part = _mutate(part, data.draw(EDITS))
    else:
        doc = json.loads(state)
        key = data.draw(st.sampled_from(sorted(doc)))
        if data.draw(st.booleans()):
            doc[key] = data.draw(VALUES)
            state = json.dumps(doc).encode()
        else:
            state = _mutate(state, data.draw(EDITS))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        (out / PART).write_bytes(part)
        (out / STATE).write_bytes(state)
        try:
            run_batch(SPEC, out, resume=True)
        except FrayInputError as exc:
            event("refused with a reason")
            assert exc.problems
            return
        event("resumed")
        assert (out / "summary.json").read_bytes() == summary
        assert (out / "encounters.csv").read_bytes() == rows


def _record() -> bytes:
    record = records.Record("play", SCEN.slug, scenario_digest(SCEN), any_ruleset(), 3,
                            (EVERYONE[0],))
    return json.dumps(record.document(["1", "", "2", "attack"]), indent=2).encode()


RECORD = _record()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_mutated_record_is_refused_or_read_as_written(data):
    doc = json.loads(RECORD)
    if data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(doc)))
        doc[key] = data.draw(VALUES)
        text = json.dumps(doc).encode()
    else:
        text = _mutate(RECORD, data.draw(EDITS))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.json"
        path.write_bytes(text)
        try:
            got = records.read(path, "play", SCEN.slug, scenario_digest(SCEN), EVERYONE)
        except FrayInputError as exc:
            event("refused with a reason")
            assert exc.problems
            return
    event("read")
    # What decides the fight is what the file says: the original fields while its check
    # stands (an edit under the check is refused above), the edited ones once an edit has
    # also removed the check (a record made before checks, or edited on purpose).
    want = json.loads(text)
    assert (got.seed, got.ruleset, list(got.played), list(got.answers)) == (
        want["seed"], want["ruleset"], want["as"], want["answers"])
