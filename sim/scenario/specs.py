"""What a validated scenario is: plain frozen dataclasses the engine trusts.

``sim.scenario.loader`` builds them from a file; nothing here validates.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sim.scenario.vocabulary import THROWN_WEAPONS

# A side's columns in ``encounters.csv`` (``{side}_{stat}``; the loader refuses two sides
# whose columns would share a name). deaths counts every death to the end of the scene:
# deaths_in_fight + deaths_after, and deaths_after = deaths_after_tended +
# deaths_after_untended (who was tended: the scenario's ``aftermath: {tend: ...}``, nobody
# after a draw; docs/deaths.md)
SIDE_COLUMNS = ("standing", "out", "deaths", "deaths_in_fight", "deaths_after", "fled",
                "surrendered", "attacks", "hits", "damaging_hits", "damage", "out_rounds",
                "deaths_after_tended", "deaths_after_untended")


def side_columns(side: str) -> list[str]:
    """The ``encounters.csv`` columns of one side."""
    return [f"{side}_{stat}" for stat in SIDE_COLUMNS]


@dataclass(frozen=True, slots=True, repr=False)
class NodeSpec:
    """A place on the map.

    ``width``: at most this many fighters of a side fight there at once (None: room for
    all); ``exit``: a way out, where a fleeing fighter leaves the field.
    """

    name: str
    cover: str = "none"
    visibility: str = "clear"
    width: int | None = None
    exit: bool = False

    def __repr__(self) -> str:
        """As a dataclass says it, with ``width`` and ``exit`` only when set.

        A scenario's fingerprint is its ``repr`` (``scenario_digest``): records and
        resumable batches made before these settings existed still match.
        """
        extra = (f", width={self.width!r}" if self.width is not None else "") + (
            ", exit=True" if self.exit else "")
        return (f"NodeSpec(name={self.name!r}, cover={self.cover!r}, "
                f"visibility={self.visibility!r}{extra})")


@dataclass(frozen=True, slots=True)
class MapSpec:
    """Nodes and edges (metres) of the battlefield."""

    nodes: tuple[NodeSpec, ...]
    edges: tuple[tuple[str, str, float], ...] = ()


@dataclass(frozen=True, slots=True)
class Traits:
    """Neutral attributes, 1-5."""

    strength: int = 2
    endurance: int = 2
    agility: int = 2
    dexterity: int = 2
    perception: int = 2


@dataclass(frozen=True, slots=True)
class Skills:
    """Neutral skills, 0-5."""

    melee: int = 0
    brawl: int = 0
    ranged: int = 0
    dodge: int = 0
    parry: int = 0


@dataclass(frozen=True, slots=True, repr=False)
class Doctrine:
    """How an AI fights: its profile and the settings a scenario gave it.

    ``None`` leaves a setting to the profile's default (``sim.ai.profiles.PROFILE_DEFAULTS``).
    ``retreat_at``: the share of its own health lost at which it retreats or yields;
    ``morale``: the share of its side out of the fight at which it breaks (flees, or
    surrenders when a foe is in reach); ``focus``: which foe it picks;
    ``prefers``: ranged or melee when it could do either. ``budget`` and ``horizon``
    (``lookahead`` only): the fights it plays out for a decision, and how many rounds each.
    ``hold``: a map node it fights from, goes back to, and does not chase off.
    """

    profile: str = "basic"
    focus: str | None = None
    retreat_at: float | None = None
    morale: float | None = None
    prefers: str | None = None
    budget: int | None = None
    horizon: int | None = None
    hold: str | None = None

    def __repr__(self) -> str:
        """As a dataclass says it, with ``budget`` and ``horizon`` only when set.

        A scenario's fingerprint is the ``repr`` of what it says (``scenario_digest``):
        records and resumable batches made before these settings existed still match.
        """
        shown = [f"{name}={getattr(self, name)!r}" for name in
                 ("profile", "focus", "retreat_at", "morale", "prefers")]
        shown += [f"{name}={getattr(self, name)!r}" for name in ("budget", "horizon", "hold")
                  if getattr(self, name) is not None]
        return f"Doctrine({', '.join(shown)})"


@dataclass(frozen=True, slots=True, repr=False)
class MemberSpec:
    """One combatant as the scenario describes it (``count`` already expanded)."""

    name: str
    side: str
    at: str
    ai: str = "basic"
    traits: Traits = Traits()
    skills: Skills = Skills()
    weapon: str = "unarmed"
    armor: str = "none"
    shield: bool = False
    native: tuple[tuple[str, Any], ...] = ()
    doctrine: Doctrine = Doctrine()
    kind: str = "person"  # or "beast" (RULES.md "Kinds")
    sidearm: str | None = None  # a hand weapon a shooter draws as part of a move
    carry: int | None = None  # thrown weapons carried (None: not a thrown weapon)

    def __repr__(self) -> str:
        """As a dataclass says it, with ``sidearm`` only when set (``Scenario.__repr__``)."""
        shown = [f"{f}={getattr(self, f)!r}" for f in
                 ("name", "side", "at", "ai", "traits", "skills", "weapon", "armor", "shield",
                  "native", "doctrine", "kind")]
        if self.sidearm is not None:
            shown.append(f"sidearm={self.sidearm!r}")
        if self.carry is not None:
            shown.append(f"carry={self.carry!r}")
        return f"MemberSpec({', '.join(shown)})"

    @property
    def other_weapon(self) -> str | None:
        """The weapon it may take up instead of its main one: its sidearm, or None.

        A thrower without a sidearm fights bare-handed once its last thrown weapon is gone
        (RULES.md "Rate of fire"): its bare hands stand in for the sidearm.
        """
        if self.sidearm is not None:
            return self.sidearm
        return "unarmed" if self.weapon in THROWN_WEAPONS else None

    def with_sidearm(self) -> MemberSpec:
        """This member with its sidearm in hand: the build a drawn sidearm's slots come from.

        A native block's weapon keys (OpenD6 and OpenCore ``weapon``, OpenCore ``mode`` and
        ``damage``) describe the main weapon, so the sidearm's build leaves them out. A
        thrower without a sidearm is built bare-handed (``other_weapon``).
        """
        other = self.other_weapon
        assert other is not None
        native = tuple((key, _without_weapon(block)) for key, block in self.native)
        return replace(self, weapon=other, sidearm=None, carry=None, native=native)

    def native_block(self, key: str) -> Any | None:
        """The validated native block for ``key`` (e.g. ``"ore"``), or None."""
        for name, block in self.native:
            if name == key:
                return block
        return None


def _without_weapon(block: Any) -> Any:
    """A native block with its weapon keys unset (``MemberSpec.with_sidearm``)."""
    unset = {k: None for k in WEAPON_KEYS if getattr(block, k, None) is not None}
    return block.model_copy(update=unset) if unset else block


WEAPON_KEYS = ("weapon", "mode", "damage")
"""Native block keys that describe a member's main weapon (``MemberSpec.with_sidearm``)."""


@dataclass(frozen=True, slots=True)
class SideSpec:
    """A named side and its members."""

    name: str
    members: tuple[MemberSpec, ...]


@dataclass(frozen=True, slots=True)
class AftermathSpec:
    """What happens to the fallen once the fight is over.

    ``tend``: ``own`` (the side holding the field tends its own fallen), ``all`` or
    ``none``. A draw tends nobody.
    """

    tend: str = "own"


@dataclass(frozen=True, slots=True, repr=False)
class Scenario:
    """A validated scenario, ready for ``engine.Encounter``."""

    name: str
    source: str
    ruleset: str
    max_rounds: int
    map: MapSpec
    sides: tuple[SideSpec, ...]
    options: tuple[tuple[str, Any], ...] = ()
    aftermath: AftermathSpec = AftermathSpec()
    escape: float | None = None  # metres beyond every foe at which a flight ends (None: 30)

    def __repr__(self) -> str:
        """As a dataclass says it, with ``escape`` only when set (``NodeSpec.__repr__``)."""
        shown = [f"{f}={getattr(self, f)!r}" for f in
                 ("name", "source", "ruleset", "max_rounds", "map", "sides", "options",
                  "aftermath")]
        if self.escape is not None:
            shown.append(f"escape={self.escape!r}")
        return f"Scenario({', '.join(shown)})"

    def ruleset_options(self, key: str) -> Any | None:
        """The validated options block for ruleset ``key``, or None."""
        for name, block in self.options:
            if name == key:
                return block
        return None

    @property
    def side_names(self) -> tuple[str, ...]:
        """Names of the sides, in file order."""
        return tuple(side.name for side in self.sides)

    @property
    def slug(self) -> str:
        """The file's stem, used to name outputs (``ambush``)."""
        return Path(self.source).stem


