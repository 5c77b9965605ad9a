"""No process outlives a SIGKILL of fray: balance, sweep and compare run their fights on the
batch's pool, whose workers die with the main process (``executors.process_pool``).

``tests/cli/test_whatif_workers.py`` kills ``advise`` and ``play`` during ``?``;
``tests/batch/test_scale.py`` and ``test_stopping.py`` kill ``batch``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from helpers import FRAY_COMMAND, ROOT, SCENARIOS, alive, children, killed_at_exit

DUEL = str(SCENARIOS / "duel.yaml")
LONG = "100000"
COMMANDS = {
    "balance": ("balance", DUEL, "--vary", "max_rounds", "--range", "1..40", "--target", "0.5",
                "-n", LONG),
    "sweep": ("sweep", DUEL, "--set", "max_rounds=1..40", "-n", LONG, "--precision", "0"),
    "compare": ("compare", DUEL, "-n", LONG, "--precision", "0"),
}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl and /proc: Linux")
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_sigkill_of_fray_leaves_no_worker_behind(tmp_path, name):
    command = [*COMMANDS[name], "--workers", "2", "-q", "--out", str(tmp_path / "out")]
    with killed_at_exit(subprocess.Popen([*FRAY_COMMAND, *command], cwd=ROOT,
                                         stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL)) as proc:
        deadline = time.time() + 60
        while len(children(proc.pid)) < 2 and proc.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        workers = children(proc.pid)
        assert len(workers) >= 2, "no workers started"
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
        proc.stdout.read()  # ends: no worker holds fray's output pipe
