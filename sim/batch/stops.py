"""The stops asked of a run, and the lines that tell them, light enough for every command.

``sim.cli.main`` counts the signals as they come and ``sim.batch.executors`` reads them;
both say things on stderr that must not fail when its terminal is gone. Their own module,
so that a command that runs no batch (``fray --help``, ``fray validate``) does not import
the process pool to get them.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# the signals that stop a run: Ctrl-C, and SIGTERM and SIGHUP made into one (sim.cli.main)
STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
SIGNALLED: list[int] = []  # SIGTERM or SIGHUP made into a Ctrl-C (sim.cli.main), in order
# every stop asked by a signal, Ctrl-C included (sim.cli.main counts them as they come): a
# KeyboardInterrupt raised inside a finalizer is lost, the count is not (``__next__``)
STOPS_ASKED: list[int] = []


def say(text: str) -> None:
    """A line on stderr; a terminal gone (closed: EIO, EPIPE) is no reason to fail a stop.

    Once a write fails, stderr becomes ``os.devnull``: later lines (and the flush at exit,
    which would turn the exit status into 120) go nowhere, and the stop goes on.
    """
    try:
        print(text, file=sys.stderr, flush=True)
    except OSError:
        stderr_gone()


def stderr_gone() -> None:
    """Writing to stderr failed (its terminal closed): send the rest of the run's to nowhere."""
    sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - stderr for the rest of the run


@contextmanager
def stops_held() -> Iterator[None]:
    """A stop sent while the block runs (Ctrl-C, SIGTERM, SIGHUP) is acted on after it.

    For what must not be left half done: a chunk's rows written, checkpointed and folded
    into the tally (a stop between two lists' growth left one shorter, and the next fold
    failed with an IndexError), or a Dask cluster half started. While the block runs each
    stop is noted, not acted on; then the handlers are put back and the first stop noted
    is raised again, to its own handler. Not the kernel's signal mask: a process pool's
    threads would take the signal in the main thread's place. A stop that comes while the
    handlers are swapped in or back is never lost: one that finds its own handler acts at
    once (the swapped ones are put back), and a noting handler left behind puts its own
    back and raises the stop again. Outside the main thread (where no handler can be set),
    the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before: dict[int, Any] = {}
    noted: list[int] = []
    over = False

    def note(signum: int, _frame: object) -> None:
        if over:  # left behind by a stop while the handlers were put back
            _put_back(signum, before.get(signum))
            signal.raise_signal(signum)
            return
        noted.append(signum)

    try:
        for stop in STOPPING:
            before[stop] = signal.signal(stop, note)
        yield
    finally:
        over = True
        for sent, handler in before.items():
            _put_back(sent, handler)
        if noted:
            signal.raise_signal(noted[0])


def _put_back(signum: int, handler: Any) -> None:
    """Put ``handler`` back for ``signum`` (None: one set outside Python, left as it is)."""
    if handler is not None:
        signal.signal(signum, handler)
