"""The ruleset registry: names, and their order, whatever was imported first."""

from __future__ import annotations

import subprocess
import sys

from helpers import ROOT

from sim.rulesets import registry

FIRST = """
import sys
sys.path.insert(0, {root!r})
import {module}  # one ruleset's module before the registry loads the others
from sim.rulesets import registry
from sim import scenario
print(registry.names())
sides = {{"a": [{{"name": "A"}}], "b": [{{"name": "B"}}]}}
print(scenario.parse({{"name": "t", "sides": sides}}).ruleset)
"""


def test_the_order_of_the_rulesets_does_not_follow_imports():
    """OpenCore imported first made it the default ruleset of a scenario naming none (and
    the first of --ruleset all): a test importing its module changed another's fights."""
    order = [registry.get(name).__module__ for name in registry.names()]
    assert order == sorted(order, key=registry.BUILTIN.index)  # BUILTIN's order, whatever it is
    for module in (*registry.BUILTIN[1:][::-1], registry.BUILTIN[0]):  # the last ones first
        out = subprocess.run([sys.executable, "-c", FIRST.format(root=str(ROOT), module=module)],
                             capture_output=True, text=True, check=True).stdout.splitlines()
        assert out == [str(registry.names()), registry.names()[0]], module


def test_the_builtin_table_says_what_each_module_registers():
    # names and native blocks are read from BUILTIN_RULESETS before any ruleset is imported
    for module, (name, native_key) in registry.BUILTIN_RULESETS.items():
        cls = registry.get(name)
        assert cls.__module__ == module and cls.native_key == native_key
    assert registry.names()[:len(registry.BUILTIN)] == [cls.name for cls in registry._ordered()
                                                       ][:len(registry.BUILTIN)]
    assert set(registry.native_keys()) >= set(registry.native_blocks())
    for key, block in registry.native_blocks().items():
        assert registry.native_block(key) is block
