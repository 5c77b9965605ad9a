"""A fight's whole state as plain values: two encounters in the same state fight on alike.

An encounter is deterministic: from the same state (its fighters, its books, its ruleset's,
its generator's) it plays the same rest of the fight, die for die. ``fingerprint`` reads
that state at a round's start, when nothing is half done, as nested tuples of numbers,
words and None, compared exactly (no hash that could collide). The what-if uses it
(``sim.ai.together``): two lines of a menu whose rollouts on the same dice reach the same
state at a round's start end alike, so the second need not be fought on.

It is exact by construction rather than by a list of what matters: it walks every
attribute of the encounter, of its ruleset and of each fighter, and of every object they
hold, by value, and leaves out only the attributes ``NOT_STATE`` names (words for the log,
records of decisions nobody reads again in the fight, answers kept while nothing changes,
the map, which no fight changes). What it cannot read by value (a live SimPy process, such
as a bleeding, with its place in its generator; a function; a container it does not know)
makes it answer None: no state, and the fight is fought on. Numbers compare as numbers
(1 and 1.0 alike, as every rule reads them).
"""

from __future__ import annotations

import enum
import random
from operator import attrgetter
from typing import TYPE_CHECKING, Any

import simpy

from sim.core.combatant import Combatant

if TYPE_CHECKING:
    from sim.core.engine import Encounter

# attributes that are not the fight's state, by name, wherever they are met; each says why
NOT_STATE = frozenset({
    # words: the AI's last reason, the log and what it last told (no rule reads them)
    "why", "log", "_told", "instant_told",
    # the scenario and the map, which no fight changes, and the map's kept distances
    "scenario", "field",
    # who decides: the minds and the AI module (a fighter's own ``ai``, its profile, is set
    # once when it is built, as its spec says); the advisor, which answers questions (it
    # holds the ruleset, walked as the encounter's, and answers kept by identity); a
    # combat's or a table's ``rules``: the ruleset again
    "minds", "ai", "_askers", "advisor", "rules",
    # decisions recorded for replays (``Encounter.made``), read only before a rollout's
    # branch; this round's declarations and free attacks, emptied before the next round's
    "made", "declared", "struck_free",
    # answers kept while nothing changes, dropped by the changes themselves: the nearest
    # foes, the foes of each side, each fighter's last reach answer, its attacks on itself
    "nearest_kept", "_foes", "reach_kept", "plain_attack", "called_attacks", "nearest",
    # an ORE fighter's single attacks' roll plans, checked by identity before they are used
    "plans",
    # an OpenCore fighter's turn: the one action object it is given every round, all of
    # it set anew when the round is planned; the shots it loosed, read only in the round
    # they are counted for (at a round's start, none yet)
    "turn", "loosed",
    # the deciding shooter's kept answer (None between declarations)
    "deciding", "deciding_pressed",
    # the SimPy environment: its clock and what it has waiting are read apart (``fingerprint``)
    "env",
    # a campaign's party the fight was built with (read once, at the start); the seed
    # (its generator is the state)
    "carried", "seed",
    # who reads the state at a round's start (``sim.ai.together``), and the rounds'
    # process: read there, it is at a round's start, as the fight's own clock says
    "at_round", "_rounds",
})

_PLAIN_KINDS: tuple[type, ...] = (int, float, str, bool, bytes, type(None))
_PLAIN = frozenset(_PLAIN_KINDS)  # (exact types: a set lookup, faster than isinstance)


class Unreadable(Exception):
    """A piece of the state that cannot be read by value (``fingerprint`` answers None)."""


def fingerprint(enc: Encounter) -> tuple[Any, ...] | None:
    """``enc``'s whole state now as plain values, or None when some of it cannot be read.

    Nested tuples of numbers, words and None, compared exactly: two states are the same
    only when every value is equal (a hash alone could collide). Its parts, each read on
    its own (``part``): the encounter's (its clock, what SimPy has waiting, its books, its
    ruleset's, its generator's), then each fighter's.

    Read at a round's start (``Encounter.at_round``): between rounds, nothing is half
    done. Two encounters of the same scenario and ruleset with the same state play the
    same rest of the fight.
    """
    try:
        return (part(enc, None), *[part(enc, f) for f in enc.combatants])
    except Unreadable:
        return None


def part(enc: Encounter, who: Combatant | None) -> tuple[Any, ...]:
    """One part of ``enc``'s state: fighter ``who``'s, or (None) the encounter's own.

    A fighter met inside a part is its name (each is a part of its own). What SimPy has
    waiting is read as its count: a live process (an effect: a bleeding, a stun's end) is
    met in its fighter's ``effects``, and cannot be read by value (its state is its
    generator's frame): ``Unreadable``.
    """
    if who is not None:
        return _object(who, {})
    return (enc.env.now, len(enc.env._queue),  # noqa: SLF001 (what SimPy has waiting)
            _object(enc, {}))


def _value(o: Any, seen: dict[int, int]) -> Any:
    """``o`` as plain values, walked through; a fighter met inside another is its name.

    Anything that could change (a list, a dict, a set, an object not frozen, a generator)
    is noted in ``seen`` (``_MUTABLE``): a frozen object that holds one is not kept.
    Anything it does not know how to read by value is ``Unreadable``.
    """
    kind = type(o)
    if kind in _PLAIN:
        return o
    kept = _KEPT.get(id(o))  # (first: most objects met are the same specs and weapons)
    if kept is not None and kept[0] is o:
        return kept[1]
    if isinstance(o, Combatant):  # (``fingerprint`` walks each fighter once, itself)
        return ("fighter", o.name)
    if kind is tuple:
        return ("tuple", *[v if type(v) in _PLAIN else _value(v, seen) for v in o])
    if isinstance(o, list):
        seen[_MUTABLE] = 1
        return (kind.__name__, *[v if type(v) in _PLAIN else _value(v, seen) for v in o])
    if isinstance(o, dict):  # (a defaultdict's or a Counter's entries are read too)
        seen[_MUTABLE] = 1
        return (kind.__name__, *[(k if type(k) in _PLAIN else _value(k, seen),
                                  v if type(v) in _PLAIN else _value(v, seen))
                                 for k, v in o.items()])
    if isinstance(o, enum.Enum):
        return (kind.__name__, o.value)
    if isinstance(o, _PLAIN_KINDS):  # a subclass of a plain type (its repr says which)
        return o
    if isinstance(o, (set, frozenset)):
        if not isinstance(o, frozenset):
            seen[_MUTABLE] = 1
        return (kind.__name__, *sorted(repr(_value(x, seen)) for x in o))
    if isinstance(o, random.Random):  # its 625 words
        seen[_MUTABLE] = 1
        return ("rng", o.getstate())
    if isinstance(o, simpy.Process):  # an effect that has ended holds nothing any more
        if o.is_alive:
            raise Unreadable(f"a live process in {kind.__name__}")
        seen[_MUTABLE] = 1
        return ("ended",)
    if isinstance(o, type):
        return ("class", o.__module__, o.__qualname__)
    if isinstance(o, tuple):  # a named tuple
        return (kind.__name__, *[_value(x, seen) for x in o])
    getter = _SLOTS.get(kind)
    if getter is None:
        getter = _SLOTS[kind] = _slots(kind)
    if (callable(o) or kind.__module__ in ("builtins", "collections")
            or not (getter.declared or hasattr(o, "__dict__"))):
        # a function, a generator, a deque, a bytearray: nothing here reads its state
        raise Unreadable(f"a {kind.__name__}")
    frozen = _FROZEN_KIND.get(kind)
    if frozen is None:
        frozen = _FROZEN_KIND[kind] = _frozen(kind)
    if not frozen:
        seen[_MUTABLE] = 1
        return _object(o, seen)
    inner: dict[int, int] = {}  # (what it holds, read on its own: no "again" into this walk)
    value = _object(o, inner)
    if _MUTABLE in inner:  # it holds something that may change: not kept, and nor is
        seen[_MUTABLE] = 1  # a frozen object holding it
        return value
    if len(_KEPT) >= KEPT_MOST:
        _KEPT.clear()
    _KEPT[id(o)] = (o, value)  # (the same value object each time: compared at once)
    return value


# A frozen object (a frozen dataclass, a frozen pydantic model: a fighter's spec, its
# doctrine, a weapon) is read once and its value kept, by its identity, with the object
# itself (so that no other object takes its id while the value is kept). The same specs
# and weapons are met in every rollout of a moment. One that holds anything that could
# change inside it (a list, a dict, a set, an object not frozen, a generator, an effect),
# even through another frozen object, is read every time.
_MUTABLE = -1  # noted in a walk's ``seen`` when it meets something that could change
KEPT_MOST = 4096
_KEPT: dict[int, tuple[object, Any]] = {}
_FROZEN_KIND: dict[type, bool] = {}


def _frozen(kind: type) -> bool:
    """Whether objects of ``kind`` never change once made (frozen dataclass or model)."""
    params = getattr(kind, "__dataclass_params__", None)
    if params is not None:
        return bool(params.frozen)
    config = getattr(kind, "model_config", None)
    return isinstance(config, dict) and bool(config.get("frozen"))


def _object(o: Any, seen: dict[int, int]) -> tuple[Any, ...]:
    """``o``'s attributes as plain values; an object met before in this walk, where."""
    key = id(o)
    if key in seen:
        return ("again", seen[key])
    seen[key] = len(seen)
    kind = type(o)
    getter = _SLOTS.get(kind)
    if getter is None:
        getter = _SLOTS[kind] = _slots(kind)
    try:  # the slots' values in their order, fetched at once
        values = getter(o)
    except AttributeError:  # (a slot never set: one at a time)
        values = tuple(getattr(o, name, "unset") for name in getter.names)
    out: list[Any] = [kind.__name__,
                      *[v if type(v) in _PLAIN else _value(v, seen) for v in values]]
    attrs = getattr(o, "__dict__", None)
    if attrs is not None:
        out += [(name, v if type(v) in _PLAIN else _value(v, seen))
                for name, v in attrs.items() if name not in NOT_STATE]
    return tuple(out)


class _Getter:
    """The state slots of a class (``_slots``), fetched at once (``operator.attrgetter``)."""

    __slots__ = ("declared", "fetch", "names")

    def __init__(self, names: tuple[str, ...], declared: bool):
        self.names = names
        self.declared = declared  # a class of this code's that names its slots
        fetch = attrgetter(*names) if names else (lambda o: ())
        # (one name: attrgetter gives the value alone, not a tuple of one)
        self.fetch = (lambda o: (attrgetter(names[0])(o),)) if len(names) == 1 else fetch

    def __call__(self, o: Any) -> tuple[Any, ...]:
        values: tuple[Any, ...] = self.fetch(o)
        return values


_SLOTS: dict[type, _Getter] = {}


def _slots(kind: type) -> _Getter:
    """The slots of ``kind`` and its bases that hold state (not ``NOT_STATE``)."""
    names: list[str] = []
    for cls in reversed(kind.__mro__):
        own = cls.__dict__.get("__slots__", ())
        names += [n for n in ([own] if isinstance(own, str) else own) if n not in names]
    declared = any("__slots__" in cls.__dict__ for cls in kind.__mro__[:-1])
    return _Getter(tuple(n for n in names
                         if n not in ("__dict__", "__weakref__") and n not in NOT_STATE),
                   declared)
