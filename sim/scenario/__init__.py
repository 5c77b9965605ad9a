"""The input edge: scenario files -> validated, frozen specs; every user error is found here.

``load(path)`` and ``parse(data)`` are the entry points; ``specs`` holds what they return,
``vocabulary`` the neutral names every ruleset converts from, ``errors`` the input errors.

The names below are loaded on first use (PEP 562): the specs and the checked file opener
are plain Python, while the loader brings PyYAML, pydantic and the ruleset registry, which
a module that only needs a spec (the engine's map, a file check) should not pay for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sim.scenario.errors import FrayInputError, ScenarioError
    from sim.scenario.loader import load, parse
    from sim.scenario.reading import read_yaml
    from sim.scenario.specs import (
        AftermathSpec,
        Doctrine,
        MapSpec,
        MemberSpec,
        NodeSpec,
        Scenario,
        SideSpec,
        Skills,
        Traits,
    )

_HOMES = {
    "FrayInputError": "errors", "ScenarioError": "errors",
    "load": "loader", "parse": "loader", "read_yaml": "reading",
    **dict.fromkeys(("AftermathSpec", "Doctrine", "MapSpec", "MemberSpec", "NodeSpec",
                     "Scenario", "SideSpec", "Skills", "Traits"), "specs"),
}

__all__ = [
    "AftermathSpec", "Doctrine", "FrayInputError", "MapSpec", "MemberSpec", "NodeSpec", "Scenario",
    "ScenarioError", "SideSpec", "Skills", "Traits", "load", "parse", "read_yaml",
]


def __getattr__(name: str) -> Any:
    """A name of ``__all__`` from its module, imported now (then kept on the package)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
