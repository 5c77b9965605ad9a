"""The input edge: scenario files -> validated, frozen specs; every user error is found here.

``load(path)`` and ``parse(data)`` are the entry points; ``specs`` holds what they return,
``vocabulary`` the neutral names every ruleset converts from, ``errors`` the input errors.
"""

from sim.scenario.errors import FrayInputError, ScenarioError
from sim.scenario.loader import load, parse, read_yaml
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

__all__ = [
    "AftermathSpec", "Doctrine", "FrayInputError", "MapSpec", "MemberSpec", "NodeSpec", "Scenario",
    "ScenarioError", "SideSpec", "Skills", "Traits", "load", "parse", "read_yaml",
]
