"""Rulesets by name. Import a ruleset module here to make it available everywhere."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import BaseModel

    from sim.rulesets.base import Ruleset


@cache
def _table() -> dict[str, type[Ruleset]]:
    # Imported lazily: ruleset modules import the scenario dataclasses.
    from sim.rulesets.bgrade import BGradeRuleset
    from sim.rulesets.opencore import OpenCoreRuleset
    from sim.rulesets.opend6 import OpenD6HpRuleset, OpenD6Ruleset
    from sim.rulesets.ore import OreRuleset

    classes: list[type[Ruleset]] = [OreRuleset, BGradeRuleset, OpenCoreRuleset, OpenD6Ruleset,
                                    OpenD6HpRuleset]
    return {cls.name: cls for cls in classes}


def names() -> list[str]:
    """Registered ruleset names, in registration order."""
    return list(_table())


def get(name: str) -> type[Ruleset]:
    """The ruleset class registered as ``name`` (KeyError when unknown)."""
    return _table()[name]


def describe() -> list[tuple[str, str]]:
    """``(name, one-line summary)`` for every ruleset."""
    return [(name, cls.summary) for name, cls in _table().items()]


def native_blocks() -> dict[str, type[BaseModel]]:
    """Scenario native block name -> its validation model."""
    out = {}
    for cls in _table().values():
        if cls.native_key and cls.NativeBlock is not None:
            out[cls.native_key] = cls.NativeBlock
    return out


def option_blocks() -> dict[str, type[BaseModel]]:
    """Scenario ``options.<name>`` -> its validation model."""
    return {name: cls.Options for name, cls in _table().items()}
