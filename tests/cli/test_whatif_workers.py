"""The what-if workers (``?`` at a play menu, ``fray advise``) never outlive fray.

A SIGKILL of the main process leaves no worker behind holding fray's output pipe (the
batch pools' fix: ``sim.batch.executors.process_pool``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from helpers import FRAY_COMMAND, ROOT, SCENARIOS, alive, children, killed_at_exit


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl and /proc: Linux")
@pytest.mark.parametrize("how", ["advise", "play"])
def test_a_sigkill_of_fray_leaves_no_what_if_worker_behind(tmp_path, how):
    duel = tmp_path / "duel.yaml"
    shutil.copyfile(SCENARIOS / "duel.yaml", duel)
    if how == "advise":
        args = ["advise", str(duel), "--as", "Ser Aldric", "-n", "100000", "--workers", "2",
                "-q"]
        stdin = subprocess.DEVNULL
    else:
        args = ["play", str(duel), "--as", "Ser Aldric", "--rollouts", "100000"]
        stdin = subprocess.PIPE
    out = subprocess.PIPE  # a reader of fray's output: it must see the end of it
    with killed_at_exit(subprocess.Popen([*FRAY_COMMAND, *args], cwd=ROOT, stdin=stdin,
                                         stdout=out, stderr=subprocess.DEVNULL)) as proc:
        if how == "play":
            assert proc.stdin is not None
            proc.stdin.write(b"?\n")
            proc.stdin.flush()
        deadline = time.time() + 60
        while len(children(proc.pid)) < 2 and proc.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        workers = children(proc.pid)
        assert len(workers) >= 2, "no what-if workers started"
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.time() + 10
        while alive(workers) and time.time() < deadline:
            time.sleep(0.1)
        left = alive(workers)
        for pid in left:  # a failed test leaves nothing running either
            os.kill(pid, signal.SIGKILL)
        assert left == []
        assert proc.stdout is not None
        proc.stdout.read()  # ends: no worker holds the pipe open


def _wait_for_workers(proc: subprocess.Popen) -> None:
    deadline = time.time() + 60
    while len(children(proc.pid)) < 2 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    assert len(children(proc.pid)) >= 2, "no what-if workers started"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc: Linux")
def test_ctrl_c_during_a_question_mark_goes_back_to_the_menu_and_a_second_ends_keeping_all(
        tmp_path):
    from helpers import default_sigint

    log, record = tmp_path / "journal.md", tmp_path / "journal.md.record.json"
    args = ["play", str(SCENARIOS / "duel.yaml"), "--as", "Ser Aldric", "--seed", "3",
            "--rollouts", "100000", "--log", str(log)]
    with killed_at_exit(subprocess.Popen([*FRAY_COMMAND, *args], cwd=ROOT,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True,
                                         preexec_fn=default_sigint)) as proc:
        assert proc.stdin is not None
        proc.stdin.write("1\n\n?\n")  # two answers kept, then a long weighing in round 2
        proc.stdin.flush()
        _wait_for_workers(proc)
        workers = children(proc.pid)
        proc.send_signal(signal.SIGINT)  # the weighing stops at once, its workers too
        deadline = time.time() + 20
        while alive(workers) and time.time() < deadline:
            time.sleep(0.05)
        assert alive(workers) == [] and proc.poll() is None  # the play goes on
        proc.send_signal(signal.SIGINT)  # at the same menu, waiting for an answer: it ends
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "What if? stopped: back to the same menu" in out
    assert out.count("Ser Aldric> ?") == 1
    assert out.rindex("What if? stopped") > out.rindex("Ser Aldric> ?")
    assert "Traceback" not in err and "internal error" not in err
    assert json.loads(record.read_text())["answers"] == ["1", ""]  # all so far kept
    assert log.read_text().startswith("# ")
