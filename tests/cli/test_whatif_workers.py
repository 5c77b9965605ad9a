"""The what-if workers (``?`` at a play menu, ``fray advise``) never outlive fray.

A SIGKILL of the main process leaves no worker behind holding fray's output pipe (the
batch pools' fix: ``sim.batch.executors.process_pool``).
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time

import pytest
from helpers import (
    FRAY_COMMAND,
    ROOT,
    SCENARIOS,
    alive,
    killed_at_exit,
    killed_leaves_no_worker,
    workers_of,
)


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
        killed_leaves_no_worker(proc)


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
        workers = workers_of(proc)
        proc.send_signal(signal.SIGINT)  # the weighing stops at once, its workers too
        deadline = time.time() + 20
        while alive(workers) and time.time() < deadline:
            time.sleep(0.05)
        assert alive(workers) == [] and proc.poll() is None  # the play goes on
        assert proc.stdout is not None
        shown = []  # up to the word that the weighing stopped: the menu waits for an answer
        while not shown or "What if? stopped" not in shown[-1]:
            shown.append(proc.stdout.readline())
            assert shown[-1], "".join(shown)
        proc.send_signal(signal.SIGINT)  # at the same menu, waiting for an answer: it ends
        rest, err = proc.communicate(timeout=60)
        out = "".join(shown) + rest
    assert proc.returncode == 130, err
    assert "What if? stopped: back to the same menu" in out
    assert out.count("Ser Aldric> ?") == 1
    assert out.rindex("What if? stopped") > out.rindex("Ser Aldric> ?")
    assert "Traceback" not in err and "internal error" not in err
    assert json.loads(record.read_text())["answers"] == ["1", ""]  # all so far kept
    assert log.read_text().startswith("# ")
