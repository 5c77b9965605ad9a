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
    failed with an IndexError). While the block runs, each stop is noted, not acted on;
    then the handlers are put back and each noted stop goes to its own, in order. Not the
    kernel's signal mask: a process pool's threads would take the signal in its place.
    Outside the main thread (where no handler can be set), the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []

    def note(signum: int, _frame: object) -> None:
        noted.append(signum)

    handlers = {signum: signal.signal(signum, note) for signum in STOPPING}
    try:
        yield
    finally:
        for sent, handler in handlers.items():
            signal.signal(sent, handler)
        stopped: BaseException | None = None
        for signum in noted:
            handler = handlers[signal.Signals(signum)]
            try:
                if callable(handler):
                    handler(signum, None)
                elif handler == signal.SIG_DFL:
                    os.kill(os.getpid(), signum)
            except BaseException as exc:  # noqa: BLE001 - the first stop is raised below
                stopped = stopped or exc
        if stopped is not None:
            raise stopped
