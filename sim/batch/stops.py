"""The stops asked of a run, and the lines that tell them, light enough for every command.

``sim.cli.main`` counts the signals as they come and ``sim.batch.executors`` reads them;
both say things on stderr that must not fail when its terminal is gone. Their own module,
so that a command that runs no batch (``fray --help``, ``fray validate``) does not import
the process pool to get them.
"""

from __future__ import annotations

import os
import sys

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
