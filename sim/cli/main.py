"""The ``fray`` command: the click group, its commands, and the exit codes.

Exit codes: 0 success; 2 bad input (a bad option, an unreadable or invalid scenario), with
a message naming the file and the field and never a traceback; 1 an unexpected failure
(130 when interrupted). The commands live in ``sim.cli.run`` (run, validate, rulesets),
``sim.cli.batch`` (batch), ``sim.cli.compare`` (convert, compare, sweep),
``sim.cli.campaign`` (campaign), ``sim.cli.play`` (play) and ``sim.cli.authoring`` (map,
schema, new, scenarios); what they share in ``sim.cli.params`` and ``sim.cli.records``.
"""

from __future__ import annotations

import os
import signal
import sys

import click

from sim import __version__
from sim.batch.executors import SIGNALLED, STOPS_ASKED, say
from sim.cli.advise import advise
from sim.cli.authoring import map_command, new_command, scenarios_command, schema_command
from sim.cli.batch import batch
from sim.cli.campaign import campaign
from sim.cli.compare import compare, convert, sweep
from sim.cli.play import play
from sim.cli.run import rulesets_command, run, validate
from sim.scenario.errors import FrayInputError

COMMANDS = (run, play, advise, batch, campaign, compare, convert, sweep, validate, rulesets_command,
            map_command, schema_command, new_command, scenarios_command)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fray")
def cli() -> None:
    """fray: simulate fights under dice-pool tabletop RPG rules.

    Batch-test encounters (win rates, deaths), read one fight as a solo-play log, and
    compare how lethal rulesets are with the same people and weapons.
    """


for _command in COMMANDS:
    cli.add_command(_command)


STOPPING = (signal.SIGTERM, signal.SIGHUP)  # what timeout, CI and a closed terminal send


def _stop_like_ctrl_c(signum: int, _frame) -> None:
    """SIGTERM and SIGHUP stop a run as Ctrl-C does (finished chunks kept, workers ended).

    The commands' interrupt path runs; ``main`` then exits with 128 + the signal's number.
    """
    SIGNALLED.append(signum)  # the exit status, and what the stop's messages say
    STOPS_ASKED.append(signum)
    raise KeyboardInterrupt


def _ctrl_c(signum: int, _frame) -> None:
    """Ctrl-C as Python has it (a KeyboardInterrupt), counted.

    One raised inside a finalizer is lost; the batch then makes the stop itself
    (``executors.STOPS_ASKED``).
    """
    STOPS_ASKED.append(signum)
    raise KeyboardInterrupt


def _unraisable(args) -> None:
    """A stop that lands inside a finalizer is not an error to print.

    Python reports an exception raised in ``__del__`` as "Exception ignored in ..." with a
    traceback, and goes on; a KeyboardInterrupt there is a stop asked by a signal, already
    counted (``executors.STOPS_ASKED``): the batch makes it at its next chunk. Anything
    else is reported as Python would.
    """
    if isinstance(args.exc_value, KeyboardInterrupt):
        return
    sys.__unraisablehook__(args)


def main() -> None:
    """Entry point: run the CLI, turning input errors into exit code 2."""
    sys.unraisablehook = _unraisable
    for signum in STOPPING:
        # a signal ignored at start stays ignored, as Python leaves SIGINT: ``nohup fray
        # batch ... &`` must outlive the terminal that started it
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _stop_like_ctrl_c)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _ctrl_c)
    try:
        _main()
    except SystemExit as exc:
        if exc.code == 130 and SIGNALLED:  # stopped by SIGTERM/SIGHUP, not Ctrl-C
            sys.exit(128 + SIGNALLED[0])
        raise


def _main() -> None:
    try:
        cli.main(prog_name="fray", standalone_mode=False)
    except FrayInputError as exc:
        say(f"error: {exc.render()}")
        sys.exit(2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.Abort:
        say("aborted")
        sys.exit(130)
    except KeyboardInterrupt:
        say("interrupted")
        sys.exit(130)
    except OSError as exc:  # a full disk, a folder made read-only while running, ...
        if os.environ.get("FRAY_DEBUG"):
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        say(f"error: {where}{exc.strerror or exc}; what finished is kept (an interrupted "
            "batch resumes with --resume once this is fixed)")
        sys.exit(1)
    except Exception as exc:  # an unexpected failure: exit 1 with a short message
        if os.environ.get("FRAY_DEBUG"):
            raise
        say(f"internal error: {type(exc).__name__}: {exc} (set FRAY_DEBUG=1 for the "
            "traceback)")
        sys.exit(1)
