"""The one home of the "Reproduce with ..." commands the reports print.

A report names the ``fray`` command that runs it again; that command must be one the
command line accepts, word for word (paths and ``--set`` values quoted for a POSIX shell).
``fray compare`` takes a list of rulesets (``--rulesets a,b``); ``fray sweep`` takes one
name or ``all`` (``--ruleset``), so a sweep over every ruleset reproduces as ``all``.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from sim import registry

__all__ = ["command", "one_ruleset"]


def command(verb: str, source: str, *options: tuple[str, object | None]) -> str:
    """``fray VERB SOURCE --opt value ...``, an option whose value is ``None`` left out."""
    words = ["fray", verb, source]
    for option, value in options:
        if value is not None:
            words += [option, str(value)]
    return shlex.join(words)


def one_ruleset(names: Sequence[str] | None) -> str | None:
    """The ``--ruleset`` value (one name or ``all``) that runs ``names``.

    ``None`` (each scenario's own ruleset) stays ``None``: the option is left out. Every
    registered ruleset is ``all``; one ruleset is its name.

    Raises:
        ValueError: several rulesets but not all of them: no single ``--ruleset`` runs them.
    """
    if names is None:
        return None
    names = list(dict.fromkeys(names))
    if len(names) == 1:
        return names[0]
    if sorted(names) == sorted(registry.names()):
        return "all"
    raise ValueError(f"no single --ruleset runs {', '.join(names)} (one name or all)")
