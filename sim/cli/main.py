"""The ``fray`` command: the click group, its commands, and the exit codes.

Exit codes: 0 success; 2 bad input (a bad option, an unreadable or invalid scenario), with
a message naming the file and the field and never a traceback; 1 an unexpected failure
(130 when interrupted). The commands live in ``sim.cli.run`` (run, rulesets),
``sim.cli.validate`` (validate), ``sim.cli.batch`` (batch), ``sim.cli.compare`` (convert,
compare, sweep), ``sim.cli.balance`` (balance),
``sim.cli.campaign`` (campaign), ``sim.cli.play`` (play) and ``sim.cli.authoring`` (map,
schema, new, scenarios); what they share in ``sim.cli.params`` and ``sim.cli.records``.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys

import click

from sim import __version__
from sim.batch.stops import SIGNALLED, STOPS_ASKED, say

# Each command's module is imported only when that command runs (networkx, pydantic, rich
# and the rulesets cost most of half a CPU-second): name -> (module, attribute, the first
# line of its help, which ``fray --help`` lists; tests/cli check it against the command's).
COMMANDS: dict[str, tuple[str, str, str]] = {
    "run": ("sim.cli.run", "run", "Run one encounter and tell it round by round."),
    "play": ("sim.cli.play", "play", "Play your own combatants; the AI runs everyone else."),
    "advise": ("sim.cli.advise", "advise",
               "Weigh every first declaration of one combatant by playing the fight on."),
    "batch": ("sim.cli.batch", "batch",
              "Run many encounters; write summary.json and encounters.csv; print a summary."),
    "campaign": ("sim.cli.campaign", "campaign",
                 "Run a party through a campaign's stages, carrying wounds and resting "
                 "between."),
    "compare": ("sim.cli.compare", "compare",
                "Run one scenario (or campaign) under several rulesets and compare how lethal "
                "they are."),
    "convert": ("sim.cli.compare", "convert",
                "Show what each combatant becomes under a ruleset."),
    "sweep": ("sim.cli.compare", "sweep",
              "Vary scenario values (a grid for several); report win and death rates for "
              "each."),
    "balance": ("sim.cli.balance", "balance",
                "Find the value of a scenario setting that brings a rate nearest a target."),
    "validate": ("sim.cli.validate", "validate",
                 "Check scenario and campaign files (a campaign with its stages); print OK "
                 "per valid file."),
    "rulesets": ("sim.cli.run", "rulesets_command", "List the registered rulesets."),
    "map": ("sim.cli.authoring", "map_command",
            "Draw a scenario's battlefield as a PNG or SVG picture."),
    "schema": ("sim.cli.authoring", "schema_command",
               "Print the JSON Schema of scenario files (for editors)."),
    "new": ("sim.cli.authoring", "new_command",
            "Write NAME.yaml, a commented scenario to start from."),
    "scenarios": ("sim.cli.authoring", "scenarios_command",
                  "List the scenarios that come with fray, and where they are."),
}


class LazyGroup(click.Group):
    """A group whose commands are imported when one is run (``COMMANDS``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, sorted as click lists them."""
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Import the command's module now, and return the command."""
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        return getattr(importlib.import_module(entry[0]), entry[1])

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands from ``COMMANDS`` alone: nothing imported for ``--help``."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        # click's own shortening (``Command.get_short_help_str``), without importing the
        # command: its help text is in ``COMMANDS``
        rows = [(name, click.Command(name, help=COMMANDS[name][2]).get_short_help_str(limit))
                for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fray")
def cli() -> None:
    """fray: simulate fights under dice-pool tabletop RPG rules.

    Batch-test encounters (win rates, deaths), read one fight as a solo-play log, and
    compare how lethal rulesets are with the same people and weapons.
    """


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
    # the checkpoints this run leaves (an error names them); a command that writes none never
    # imports the module that keeps them
    files = sys.modules.get("sim.batch.files")
    if files is not None:
        files.KEPT.clear()
    try:
        cli.main(prog_name="fray", standalone_mode=False)
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
        files = sys.modules.get("sim.batch.files")
        kept = [str(folder) for folder in files.KEPT if files.has_state(folder)] if files else []
        # --resume is named only where a batch of this run left a checkpoint to resume
        hint = (f"; the finished part is kept in {', '.join(kept)}: once this is fixed, the "
                "same command plus --resume continues it" if kept else "")
        say(f"error: {where}{exc.strerror or exc}{hint}")
        sys.exit(1)
    except Exception as exc:
        # an input error: exit 2 with the file, the field and what is allowed (its module
        # was imported by the command that raised it, so nothing is imported here)
        errors = sys.modules.get("sim.scenario.errors")
        if errors is not None and isinstance(exc, errors.FrayInputError):
            say(f"error: {exc.render()}")
            sys.exit(2)
        if os.environ.get("FRAY_DEBUG"):  # an unexpected failure: exit 1, a short message
            raise
        say(f"internal error: {type(exc).__name__}: {exc} (set FRAY_DEBUG=1 for the "
            "traceback)")
        sys.exit(1)
