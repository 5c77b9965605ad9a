"""Signals from outside: nohup's ignored SIGHUP, a closed terminal, what a stop waits for."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import FRAY_COMMAND as FRAY
from helpers import ROOT, SCENARIOS, killed_at_exit, wait_for_state
from helpers import batch_outputs as outputs

from sim.batch.files import PART, read_state

DUEL = str(SCENARIOS / "duel.yaml")
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ptys, /proc: Linux")


def batch_args(out: Path, n: int = 1200) -> list[str]:
    return FRAY + ["batch", DUEL, "-n", str(n), "--seed", "4", "--workers", "2",
                   "--chunk-size", "10", "--out", str(out), "-q"]




def _ignore_sighup() -> None:  # what nohup does before it starts the command
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def test_a_batch_started_under_nohup_outlives_the_terminal(tmp_path, reference):
    """SIGHUP ignored at start stays ignored: the batch runs on and finishes."""
    out = tmp_path / "run"
    proc = subprocess.Popen(batch_args(out), cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_ignore_sighup)
    with killed_at_exit(proc):
        wait_for_state(out, proc)
        proc.send_signal(signal.SIGHUP)  # the terminal closes
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert outputs(out) == reference


def part_rows(folder: Path) -> int:
    return (folder / PART).read_bytes().count(b"\n") - 1


@LINUX
@pytest.mark.parametrize("quiet", [True, False], ids=["quiet", "progress bar"])
def test_a_closed_terminal_stops_the_batch_and_keeps_the_chunks(tmp_path, reference, quiet):
    """stderr on a terminal that is gone (EIO): the stop goes on, keeps its chunks, 129."""
    import os
    import pty

    out = tmp_path / "run"
    args = batch_args(out, 200000)
    master, slave = pty.openpty()
    proc = subprocess.Popen(args if quiet else args[:-1], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=slave, start_new_session=True)
    os.close(slave)
    with killed_at_exit(proc):
        wait_for_state(out, proc)
        os.close(master)  # the terminal window closes: writes to it fail with EIO
        proc.send_signal(signal.SIGHUP)
        proc.wait(timeout=60)
    assert proc.returncode == 129
    assert part_rows(out) == read_state(out)["rows"] > 0
    assert not (out / "encounters.csv").exists()


def slow_chunk(a: int, b: int) -> tuple[int, int]:
    time.sleep(0.4)
    return a, b


def test_a_stop_waits_only_for_the_chunks_really_running(capsys):
    """The pool never holds more chunks than workers: a stop cancels the rest and says so."""
    from sim.batch.executors import run_local

    chunks = [(a, a + 1) for a in range(12)]
    with run_local(slow_chunk, (), chunks, workers=2) as ordered:
        assert next(ordered) == (0, 1)
        capsys.readouterr()
        handed = [chunk for chunk, _ in ordered._pending if chunk[1] > 1]  # after the first
        running = [chunk for chunk, f in ordered._pending if chunk[1] > 1 and not f.done()]
        started = time.time()
        kept = list(ordered.drain(1))
        waited = time.time() - started
    err = capsys.readouterr().err
    # at most one chunk a worker running (a chunk that ended early makes room for the next,
    # so more may have been handed out, finished, and be kept); nothing is handed out after
    # the stop, and the wait is for the running ones only
    assert len(running) <= 2 and waited < 0.75
    assert len(kept) <= len(handed)
    assert "waiting for the 5 chunks" not in err and "3 chunks" not in err
    assert kept == chunks[1:1 + len(kept)]  # in order, from the first not kept


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_stop_by_a_signal_says_how_to_stop_at_once_in_its_terms(tmp_path, signum):
    """'Ctrl-C again' means nothing to a stop sent by timeout or a service manager."""
    out = tmp_path / "run"
    args = FRAY + ["batch", DUEL, "-n", "20000", "--workers", "2", "--chunk-size", "500",
                   "--out", str(out), "-q"]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    with killed_at_exit(proc):
        wait_for_state(out, proc)  # a chunk kept, the workers on the next ones
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum, err
    name = signal.Signals(signum).name
    # waiting for the chunks running, or (between chunks) keeping those finished
    assert "stopping: waiting for the" in err or "stopping: keeping the chunks" in err, err
    assert f"(send {name} again or press Ctrl-C to stop at once)" in err
    assert "Ctrl-C again" not in err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_sent_while_a_chunk_is_kept_waits_for_it(signum):
    """A chunk's rows, checkpoint and fold are kept whole (``stops_held``): a stop sent in
    the middle is acted on once the block ends. Before, a SIGHUP between the growth of two
    of the tally's lists left one shorter, and the stop ended in an IndexError."""
    import os

    from sim.batch.stops import stops_held

    def stop(_signum, _frame):
        raise KeyboardInterrupt

    old = signal.signal(signum, stop)
    steps = []
    try:
        with pytest.raises(KeyboardInterrupt):
            with stops_held():
                os.kill(os.getpid(), signum)
                time.sleep(0.05)  # the handler would have run by now, were it not held
                steps.append("kept whole")
            steps.append("not reached")  # the held stop is acted on as the block ends
    finally:
        signal.signal(signum, old)
    assert steps == ["kept whole"]
