"""Fixtures of the batch tests: a reference batch, a real Dask cluster on loopback."""

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import ROOT, SCENARIOS, any_ruleset, batch_outputs

from sim import scenario as scenario_mod
from sim.batch.runner import BatchSpec, run_batch


@pytest.fixture
def ctrl_c() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt, as a terminal's Ctrl-C does, for this test.

    A run started as a background job (``cmd &``, some CI runners) inherits SIGINT ignored,
    and Python then leaves it ignored: a test that sends itself SIGINT would wait in vain.
    """
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


@pytest.fixture(scope="session")
def reference(tmp_path_factory) -> tuple[bytes, bytes]:
    """An uninterrupted 1,200-encounter duel batch (seed 4, one worker, chunks of 100): the
    files every interrupted and resumed batch of the same spec must equal."""
    out = tmp_path_factory.mktemp("reference")
    run_batch(BatchSpec(scenario_mod.load(SCENARIOS / "duel.yaml"), any_ruleset(), 1200, seed=4,
                        workers=1, chunk_size=100), out)
    return batch_outputs(out)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_cluster(folder: Path) -> Iterator[tuple[str, subprocess.Popen]]:
    """A real Dask scheduler and one worker, on loopback: the address and the scheduler."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", str(port), "--no-dashboard"],
        cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    worker = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
         "--nworkers", "1", "--no-dashboard", "--no-nanny"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        yield address, scheduler
    finally:
        for proc in (worker, scheduler):
            proc.terminate()
        for proc in (worker, scheduler):
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()


@pytest.fixture
def dask_cluster(tmp_path):
    """A real Dask scheduler and one worker, on loopback: the scheduler's address."""
    with running_cluster(tmp_path) as (address, _scheduler):
        yield address


@pytest.fixture
def dask_scheduler(tmp_path):
    """The same cluster: the scheduler's address and its process (to take it away)."""
    with running_cluster(tmp_path) as found:
        yield found
