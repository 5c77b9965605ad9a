"""Rulesets: the ``Ruleset`` lifecycle, and one sub-package per ruleset.

Each sub-package has the same file roles: ``ruleset.py`` (plan and resolve), ``rules.py``
(pure rule functions), ``fighter.py`` (native block, options, state, conversion from
neutral traits), ``catalog.py``/``tables.py`` (data) and ``advisor.py`` (the AI's
questions). Nothing outside this package names a ruleset: the others find them through
the registry (``sim.registry``; ``from sim.rulesets import registry`` gives the same module).
"""

from sim import registry
from sim.registry import describe, get, names, register

__all__ = ["describe", "get", "names", "register", "registry"]
