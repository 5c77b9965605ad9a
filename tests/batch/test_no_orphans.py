"""No process outlives a SIGKILL of fray: balance, sweep and compare run their fights on the
batch's pool, whose workers die with the main process (``executors.process_pool``).

``tests/cli/test_whatif_workers.py`` kills ``advise`` and ``play`` during ``?``;
``tests/batch/test_scale.py`` and ``test_stopping.py`` kill ``batch``.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import FRAY_COMMAND, ROOT, SCENARIOS, killed_at_exit, killed_leaves_no_worker

DUEL = str(SCENARIOS / "duel.yaml")
LONG = "100000"
COMMANDS = {
    # a target the duel never reaches: the search runs on (at 0.5 it is found in seconds,
    # and the fight could end before two workers were seen, under load)
    "balance": ("balance", DUEL, "--vary", "max_rounds", "--range", "1..40", "--target", "0.99",
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
        killed_leaves_no_worker(proc)
