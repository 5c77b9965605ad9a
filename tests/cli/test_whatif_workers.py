"""The what-if workers (``?`` at a play menu, ``fray advise``) never outlive fray.

A SIGKILL of the main process leaves no worker behind holding fray's output pipe (the
batch pools' fix: ``sim.batch.executors.process_pool``).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import FRAY_COMMAND, ROOT, SCENARIOS, killed_at_exit


def _children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == parent:
                found.append(int(entry.name))
    return found


def _alive(pids: list[int]) -> list[int]:
    return [pid for pid in pids if Path(f"/proc/{pid}").exists()
            and (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z")]


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
        while len(_children(proc.pid)) < 2 and proc.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        workers = _children(proc.pid)
        assert len(workers) >= 2, "no what-if workers started"
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.time() + 10
        while _alive(workers) and time.time() < deadline:
            time.sleep(0.1)
        left = _alive(workers)
        for pid in left:  # a failed test leaves nothing running either
            os.kill(pid, signal.SIGKILL)
        assert left == []
        assert proc.stdout is not None
        proc.stdout.read()  # ends: no worker holds the pipe open
