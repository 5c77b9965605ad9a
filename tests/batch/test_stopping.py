"""Stopping a batch: what a Ctrl-C keeps, a local Dask cluster's workers, a lost scheduler."""

import dataclasses
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import FRAY_COMMAND as FRAY
from helpers import (
    ROOT,
    SCENARIOS,
    StopAfter,
    any_ruleset,
    default_sigint,
    killed_at_exit,
    wait_for_state,
)
from helpers import batch_outputs as outputs

from sim import scenario as scenario_mod
from sim.batch import campaign, chunks
from sim.batch import files as files_mod
from sim.batch.chunks import ENCOUNTERS
from sim.batch.files import PART, STATE, read_state
from sim.batch.runner import BatchSpec, run_batch
from sim.scenario.campaign import load_campaign
from sim.scenario.errors import FrayInputError

DUEL = str(SCENARIOS / "duel.yaml")
GO = "FRAY_TEST_GO"  # the file the gated chunks wait for
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc: Linux")


def spec(workers: int = 1, **kw) -> BatchSpec:
    return BatchSpec(scenario_mod.load(DUEL), any_ruleset(), 1200, seed=4, workers=workers,
                     chunk_size=100, **kw)


def part_rows(folder: Path) -> int:
    return (folder / PART).read_bytes().count(b"\n") - 1


def _wait_for_the_stop(start: int) -> None:
    """Every chunk but the first waits for the stop to have been pressed."""
    if start:
        go, deadline = Path(os.environ[GO]), time.time() + 60
        while not go.exists() and time.time() < deadline:
            time.sleep(0.01)


def gated_rows(subject, ruleset, seed, start, stop):
    _wait_for_the_stop(start)
    return chunks.run_chunk(subject, ruleset, seed, start, stop)


def gated_runs(subject, ruleset, seed, start, stop):
    _wait_for_the_stop(start)
    return campaign.run_rows(subject, ruleset, seed, start, stop)


class PressAfterFirst:
    """A progress callback: after the first chunk, let the gated chunks go, then Ctrl-C."""

    def __init__(self, go: Path, first: int):
        self.go, self.first, self.pressed = go, first, False

    def __call__(self, _n):
        if not self.pressed:
            self.pressed = True
            assert read_state(self.go.parent)["rows"] == self.first  # only chunk 0 kept now
            self.go.touch()
            raise KeyboardInterrupt


def test_a_chunk_finishing_while_the_stop_waits_is_kept(tmp_path, reference, monkeypatch):
    """Chunk 1 runs when Ctrl-C is pressed and can only finish after it: it is kept."""
    out = tmp_path / "run"
    out.mkdir()
    monkeypatch.setenv(GO, str(out / "go"))
    gated = dataclasses.replace(spec(2), work=dataclasses.replace(ENCOUNTERS,
                                                                   run_rows=gated_rows))
    with pytest.raises(KeyboardInterrupt):
        run_batch(gated, out, PressAfterFirst(out / "go", 100))
    kept = part_rows(out)
    assert kept >= 200 and kept % 100 == 0  # chunk 1 (and the others started) kept whole
    assert kept == read_state(out)["rows"]
    assert not (out / "encounters.csv").exists()
    run_batch(spec(2), out, resume=True)
    assert outputs(out) == reference


def test_a_campaign_stop_keeps_the_runs_finishing_while_it_waits(tmp_path, monkeypatch):
    """Campaign batches stream through the same runner: the same stop, the same resume."""
    road = load_campaign(SCENARIOS / "campaigns" / "road_to_the_keep.yaml")
    ref, out = tmp_path / "reference", tmp_path / "run"
    campaign.run_campaigns(campaign.spec_for(road, any_ruleset(), 120, seed=4, chunk_size=20), ref,
                           chart=False)
    out.mkdir()
    monkeypatch.setenv(GO, str(out / "go"))
    two = campaign.spec_for(road, any_ruleset(), 120, seed=4, workers=2, chunk_size=20)
    gated = dataclasses.replace(two, work=dataclasses.replace(campaign.CAMPAIGN,
                                                               run_rows=gated_runs))
    with pytest.raises(KeyboardInterrupt):
        campaign.run_campaigns(gated, out, PressAfterFirst(out / "go", 20), chart=False)
    kept = (out / files_mod.part_file("campaign.csv")).read_bytes().count(b"\n") - 1
    assert kept >= 40 and kept == read_state(out)["rows"]
    campaign.run_campaigns(two, out, resume=True, chart=False)
    assert all((out / name).read_bytes() == (ref / name).read_bytes()
               for name in ("campaign.csv", "summary.json"))


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_stop_while_a_chunk_is_written_keeps_the_checkpoint_true(tmp_path, reference,
                                                                    monkeypatch, when):
    """Ctrl-C on either side of a chunk's checkpoint: part file and checkpoint agree."""
    real, calls = files_mod.write_state, []

    def write_state(folder, state):
        calls.append(state)
        if len(calls) == 3 and when == "before":
            raise KeyboardInterrupt  # the chunk's rows are written, its checkpoint not
        real(folder, state)
        if len(calls) == 3:
            raise KeyboardInterrupt  # the checkpoint is written, the runner not told

    monkeypatch.setattr(files_mod, "write_state", write_state)
    with pytest.raises(KeyboardInterrupt):
        run_batch(spec(1), tmp_path)
    monkeypatch.setattr(files_mod, "write_state", real)
    assert part_rows(tmp_path) == read_state(tmp_path)["rows"] == 300
    run_batch(spec(1), tmp_path, resume=True)
    assert outputs(tmp_path) == reference


def test_a_second_ctrl_c_while_waiting_stops_at_once(tmp_path, reference, monkeypatch, ctrl_c):
    out = tmp_path / "run"
    out.mkdir()
    monkeypatch.setenv(GO, str(out / "never"))  # the started chunks would wait a minute
    gated = dataclasses.replace(spec(2), work=dataclasses.replace(ENCOUNTERS,
                                                                   run_rows=gated_rows))

    def press_twice(_n):  # Ctrl-C after the first chunk, and again while the stop waits
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        raise KeyboardInterrupt

    started = time.time()
    with pytest.raises(KeyboardInterrupt):
        run_batch(gated, out, press_twice)
    assert time.time() - started < 20
    assert part_rows(out) == read_state(out)["rows"] == 100
    run_batch(spec(2), out, resume=True)
    assert outputs(out) == reference


# ---------------------------------------------------------------------------- Dask
def _stat(pid: int) -> list[str] | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2:].split()  # state, parent, ...


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (Linux /proc)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        fields = _stat(int(entry.name)) if entry.name.isdigit() else None
        if fields and fields[0] != "Z":
            parents[int(entry.name)] = int(fields[1])
    found, todo = set(), [pid]
    while todo:
        pid = todo.pop()
        kids = {child for child, parent in parents.items() if parent == pid}
        found |= kids
        todo += kids
    return found


def living(pids: set[int]) -> set[int]:
    return {pid for pid in pids if (_stat(pid) or ["Z"])[0] != "Z"}






@LINUX
@pytest.mark.slow
@pytest.mark.parametrize("how", ["SIGTERM", "SIGTERM as the cluster starts",
                                 "Ctrl-C in a terminal", "SIGKILL"])
def test_a_local_dask_cluster_ends_with_the_main_process(tmp_path, how):
    """``--executor dask`` without ``--scheduler``: no worker outlives fray, however stopped."""
    out = tmp_path / "run"
    args = FRAY + ["batch", DUEL, "-n", "200000", "--workers", "2", "--executor", "dask",
                   "--out", str(out), "-q"]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, preexec_fn=default_sigint)
    with killed_at_exit(proc):
        if how == "SIGTERM as the cluster starts":  # its first processes are there
            deadline = time.time() + 60
            while not descendants(proc.pid) and time.time() < deadline:
                time.sleep(0.01)
        else:
            wait_for_state(out, proc)
        below = descendants(proc.pid)
        assert below  # the cluster's worker processes (and a resource tracker)
        if how == "Ctrl-C in a terminal":  # the whole foreground group gets it
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(getattr(signal, how.split()[0]))
        deadline = time.time() + 90
        while proc.poll() is None and time.time() < deadline:  # workers started meanwhile
            below |= descendants(proc.pid)
            time.sleep(0.05)
        _, err = proc.communicate(timeout=10)
    deadline = time.time() + 15
    while living(below) and time.time() < deadline:
        time.sleep(0.1)
    assert living(below) == set()
    if how != "SIGKILL":
        assert proc.returncode == (130 if how.startswith("Ctrl-C") else 143), err
        assert "interrupted" in err and "Traceback" not in err and "distributed." not in err
    if how in ("SIGTERM", "Ctrl-C in a terminal"):
        assert "--resume" in err and part_rows(out) == read_state(out)["rows"]


@pytest.mark.slow
def test_a_stopped_local_dask_batch_keeps_whole_chunks_and_resumes(tmp_path, reference):
    with pytest.raises(KeyboardInterrupt):
        run_batch(spec(2, executor="dask", scheduler="local"), tmp_path, StopAfter(1))
    assert part_rows(tmp_path) == read_state(tmp_path)["rows"] >= 100
    run_batch(spec(2), tmp_path, resume=True)
    assert outputs(tmp_path) == reference


@pytest.mark.slow
def test_a_lost_scheduler_says_so_in_one_line_and_the_batch_resumes(tmp_path, reference,
                                                                     dask_scheduler):
    address, scheduler = dask_scheduler
    out = tmp_path / "run"
    args = FRAY + ["batch", DUEL, "-n", "1200", "--seed", "4", "--out", str(out), "-q"]
    proc = subprocess.Popen(args + ["--executor", "dask", "--scheduler", address,
                                    "--chunk-size", "1"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    with killed_at_exit(proc):
        wait_for_state(out, proc)
        scheduler.kill()
        scheduler.wait()
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert err.count("\n") == 1 and "Traceback" not in err and "internal error" not in err
    assert err.startswith(f"error: lost the Dask scheduler at {address}") and "--resume" in err
    assert part_rows(out) == read_state(out)["rows"]
    done = subprocess.run(args + ["--resume"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert outputs(out) == reference


def test_an_unreachable_scheduler_is_refused_and_the_batch_stays_resumable(tmp_path, reference,
                                                                            monkeypatch):
    import socket

    from sim.batch import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        nowhere = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    with pytest.raises(KeyboardInterrupt):
        run_batch(spec(1), tmp_path, StopAfter(2))
    kept = (tmp_path / PART).read_bytes(), (tmp_path / STATE).read_bytes()
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 20)  # refused at once all the same
    started = time.monotonic()
    with pytest.raises(FrayInputError, match=f"cannot use the Dask scheduler at {nowhere}: "
                                             r".*[Rr]efused"):
        run_batch(spec(1, executor="dask", scheduler=nowhere), tmp_path, resume=True)
    assert time.monotonic() - started < 5
    assert ((tmp_path / PART).read_bytes(), (tmp_path / STATE).read_bytes()) == kept
    run_batch(spec(1), tmp_path, resume=True)
    assert outputs(tmp_path) == reference


def test_a_scheduler_that_never_answers_is_refused_in_time(tmp_path, monkeypatch):
    """A listener that accepts and says nothing: Dask's client would wait for ever."""
    import socket

    from sim.batch import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        mute = f"tcp://127.0.0.1:{listener.getsockname()[1]}"
        started = time.time()
        with pytest.raises(FrayInputError, match="accepted the connection but did not answer "
                                                 "within 1 s"):
            run_batch(spec(1, executor="dask", scheduler=mute), tmp_path)
    assert time.time() - started < 15


def test_a_signal_whose_interrupt_a_finalizer_swallowed_still_stops_the_run(monkeypatch):
    """SIGTERM's (or Ctrl-C's) KeyboardInterrupt raised inside an object's ``__del__`` is
    printed as "Exception ignored" and lost: a Dask batch then ran on (to its end, exit 0,
    or past a test's patience). The next chunk asked for raises it again, once; a run
    stopped the usual way is not stopped twice.
    """
    import importlib

    from sim.batch import executors

    main = importlib.import_module("sim.cli.main")  # the module (``sim.cli.main`` the name is
    # also the entry point function, which ``sim.cli`` exports)
    for signum, handler in ((signal.SIGTERM, main._stop_like_ctrl_c),
                            (signal.SIGINT, main._ctrl_c)):
        monkeypatch.setattr(executors, "SIGNALLED", [])
        monkeypatch.setattr(executors, "STOPS_ASKED", [])
        monkeypatch.setattr(main, "SIGNALLED", executors.SIGNALLED)
        monkeypatch.setattr(main, "STOPS_ASKED", executors.STOPS_ASKED)
        ordered = executors.run_serial(lambda a, b: (a, b), [(0, 1), (1, 2), (2, 3)])
        assert next(ordered) == (0, 1)
        with pytest.raises(KeyboardInterrupt):  # the handler ran; say its exception is lost
            handler(signum, None)
        with pytest.raises(KeyboardInterrupt):
            next(ordered)
        assert next(ordered) == (1, 2)  # raised once: the stop path drains what it wants
        later = executors.run_serial(lambda a, b: (a, b), [(0, 1)])
        assert next(later) == (0, 1)  # a run started after a signal owes it nothing


def test_a_stop_lost_in_a_finalizer_prints_no_traceback(capsys):
    """Python prints "Exception ignored in ... Traceback" for an exception raised in
    ``__del__``; fray's hook keeps a KeyboardInterrupt there quiet (the stop is counted and
    made at the next chunk) and reports anything else as Python would."""
    import importlib

    main = importlib.import_module("sim.cli.main")

    class Stopped:
        def __del__(self):
            raise KeyboardInterrupt

    class Broken:
        def __del__(self):
            raise ValueError("a real fault")

    before = sys.unraisablehook
    sys.unraisablehook = main._unraisable
    try:
        Stopped()
        assert "Traceback" not in capsys.readouterr().err
        Broken()
        assert "ValueError: a real fault" in capsys.readouterr().err
    finally:
        sys.unraisablehook = before
