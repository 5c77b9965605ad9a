"""The ``fray`` command line: click commands that parse, call and print (no logic here)."""

from sim.cli.main import main

__all__ = ["main"]
