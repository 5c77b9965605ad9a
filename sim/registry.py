"""The plug-in point: rulesets by name, and the mind the engine asks by default.

``register`` a ``Ruleset`` subclass and ``get`` it back; ``mind`` is the AI the engine asks
when no other mind is given.

The built-in rulesets are imported on first use, by module name (``BUILTIN``): a plug-in
list, like a package's entry points, so that the scenario loader can ask for native blocks
and options, and the engine for a ruleset, without depending on any ruleset. Each module's
line also says which ruleset it registers and which native block it reads, so a command
imports only the rulesets it needs (a scenario naming no native block imports none to be
checked: every ruleset pulls in the engine and networkx). A new ruleset adds its line here
(or calls ``register`` itself, as the tests' throwaway ruleset does) and touches nothing
else. The default mind is named the same way (``MIND``): the engine
sits below the AI, which builds on it, so it is given its mind rather than importing it.
This module imports nothing of ``sim``; every layer may ask it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from types import ModuleType

    from pydantic import BaseModel

    from sim.rulesets.base import Ruleset

# module -> (the ruleset it registers, the member block its fighters read): known before
# any is imported; tests/rulesets/test_registry.py checks them against the classes.
BUILTIN_RULESETS: dict[str, tuple[str, str | None]] = {
    "sim.rulesets.ore.ruleset": ("ore", "ore"),
    "sim.rulesets.bgrade.ruleset": ("bgrade", "bgrade"),
    "sim.rulesets.opencore.ruleset": ("opencore", "opencore"),
    "sim.rulesets.opend6.wounds": ("opend6", "opend6"),
    "sim.rulesets.opend6.hp": ("opend6-hp", "opend6"),
}
BUILTIN = tuple(BUILTIN_RULESETS)

# The AI the engine asks for a fighter's intents (``decide(enc, c)``) and, at a round's
# end, whose morale breaks (``check_morale(enc)``), when no other mind is given.
MIND = "sim.ai.mind"

_table: dict[str, type[Ruleset[Any]]] = {}
_aliases: dict[str, str] = {}
_loaded = False


def mind() -> ModuleType:
    """The default mind (``MIND``), imported on first use."""
    return importlib.import_module(MIND)


def register(cls: type[Ruleset[Any]]) -> type[Ruleset[Any]]:
    """Class decorator: make ``cls`` available under ``cls.name`` (and ``cls.aliases``)."""
    if cls.name in _table and _table[cls.name] is not cls:
        raise ValueError(f"a ruleset named {cls.name!r} is already registered")
    _table[cls.name] = cls
    for alias in cls.aliases:
        _aliases[alias] = cls.name
    return cls


def unregister(name: str) -> None:
    """Remove a ruleset (tests register throwaway ones)."""
    cls = _table.pop(name, None)
    for alias in getattr(cls, "aliases", ()):
        _aliases.pop(alias, None)


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in BUILTIN:
            importlib.import_module(module)


def _ordered() -> list[type[Ruleset[Any]]]:
    """The registered classes: the built-ins in ``BUILTIN``'s order, then the others.

    Not by when each registered: a program that imports one ruleset's module before the
    registry loads the rest would otherwise move it first, and with it the default ruleset
    of a scenario that names none (``default()``) and the order of ``--ruleset all``.
    """
    _load_builtins()
    rank = {module: k for k, module in enumerate(BUILTIN)}
    later = len(BUILTIN)  # the others keep their registration order, after the built-ins
    return sorted(_table.values(), key=lambda cls: rank.get(cls.__module__, later))


def names() -> list[str]:
    """Registered ruleset names: the built-ins in ``BUILTIN``'s order, then the others.

    Nothing is imported: the built-ins' names are in ``BUILTIN_RULESETS``.
    """
    builtin = [name for name, _ in BUILTIN_RULESETS.values()]
    return builtin + [name for name in _table if name not in builtin]


def default() -> str:
    """The ruleset of a scenario that names none, and of any default written out: the first."""
    return names()[0]


def get(name: str) -> type[Ruleset[Any]]:
    """The ruleset class registered as ``name`` or an alias of it (KeyError when unknown).

    A built-in is imported alone; a name nobody registered yet (an alias) loads them all.
    """
    name = _aliases.get(name, name)
    if name not in _table:
        for module, (builtin, _) in BUILTIN_RULESETS.items():
            if builtin == name:
                importlib.import_module(module)
    if name not in _table:
        _load_builtins()
        name = _aliases.get(name, name)
    return _table[name]


def describe() -> list[tuple[str, str]]:
    """``(name, one-line summary)`` for every ruleset."""
    return [(cls.name, cls.summary) for cls in _ordered()]


def native_keys() -> tuple[str, ...]:
    """The member block names rulesets read (``ore``, ...), without importing any built-in."""
    keys = [key for _, key in BUILTIN_RULESETS.values() if key]
    keys += [cls.native_key for cls in _table.values() if cls.native_key]
    return tuple(dict.fromkeys(keys))


def native_block(key: str) -> type[BaseModel]:
    """The validation model of member block ``key`` (KeyError when no ruleset reads it).

    Only a ruleset that reads ``key`` is imported.
    """
    for module, (_, native) in BUILTIN_RULESETS.items():
        if native == key:
            importlib.import_module(module)
            break
    for cls in _table.values():
        if cls.native_key == key and cls.NativeBlock is not None:
            return cls.NativeBlock
    raise KeyError(key)


def native_blocks() -> dict[str, type[BaseModel]]:
    """Scenario native block name -> its validation model (every ruleset imported)."""
    return {cls.native_key: cls.NativeBlock for cls in _ordered()
            if cls.native_key and cls.NativeBlock is not None}


def option_blocks() -> dict[str, type[BaseModel]]:
    """Scenario ``options.<name>`` -> its validation model (every ruleset imported)."""
    _load_builtins()
    return {name: cls.Options for name, cls in _table.items()}
