"""The ruleset contract as checks: what every ruleset owes the engine, the AI and the log.

Each ``check_*`` runs one duty on a ruleset by its registry name and fails with an
``AssertionError`` that says which. ``test_contract.py`` runs them over the registry (and
the throwaway ``coinflip``); ``test_contract_catches.py`` plants known mistakes in copies of
``coinflip`` and shows that each is caught. docs/adding-a-ruleset.md lists the same duties.
``contract_play.py`` holds the rest (the legend, odds as chances, the fallen left alone,
cover, deaths).
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from contract_play import first_side_books
from helpers import SCENARIOS, fighter_slots, scenario, support, watch_declarations

from sim import scenario as scenario_mod
from sim.core.actions import Attack, Retreat
from sim.core.combatant import Combatant, Status
from sim.core.engine import Encounter
from sim.rulesets import registry
from sim.rulesets.base import Ruleset
from sim.scenario.specs import Scenario
from sim.scenario.vocabulary import (
    RANGED_WEAPONS,
    SKILL_RANGE,
    SKILLS,
    TRAIT_RANGE,
    TRAITS,
    WEAPONS,
)

FIGHTS = 12  # per ruleset and scenario: enough to reach every branch of the bookkeeping
ROLL_EVENTS = {"roll", "attack"}  # the log line that shows an attack's or a pool's dice
# what a fighter's block does not build: the member it came from, the engine's bookkeeping
BOOKKEEPING = frozenset({"spec", "reach_kept", "effects"})


# ---------------------------------------------------------------------------- registration
def check_registers(module: str) -> None:
    """Importing a ruleset's module (its ``BUILTIN_RULESETS`` line) registers a ruleset.

    A class without ``@register`` is imported and never run: nothing else would notice.
    """
    importlib.import_module(module)
    registered = [name for name in registry.names()
                  if registry.get(name).__module__ == module]
    assert registered, f"{module} registers no ruleset: is its class decorated @register?"


# ---------------------------------------------------------------------------- watching a fight
@dataclass
class Tally:
    """Attacks resolved on a foe still in the fight: counted as made, or not."""

    counted: int = 0
    uncounted: int = 0

    def check(self) -> None:
        """An attack is counted as made when it is resolved, hit or miss.

        A ruleset may turn a few away uncounted (OpenCore's stunned attacker, up to 6% of a
        bundled scenario's attacks), never as many as one in five: counting only the hits
        would turn away half.
        """
        assert self.uncounted * 4 <= self.counted, (
            f"{self.uncounted} attacks resolved on a foe in the fight were not counted as "
            f"made ({self.counted} were): call enc.record_attack for each, hit or miss")


def _looks(enc: Encounter) -> dict[Combatant, tuple[str, float, Status]]:
    return {c: (c.state(), enc.advisor.threat(c), c.status) for c in enc.combatants}


def checked_encounter(scen: Scenario, ruleset: str, seed: int, log: bool = False,
                      tally: Tally | None = None) -> Encounter:
    """An encounter whose ruleset is watched as it runs.

    Every declaration holds to ``supports`` and ``max_actions``; ``threat`` stays in [0, 1];
    each attack on a foe in the fight is tallied as counted or not; a hit that deals damage
    changes some other fighter's state, threat or status (damage that harms no one is lost).
    """
    enc = Encounter(scen, ruleset, seed, log=log)
    rules, advisor = enc.ruleset, enc.advisor
    end_round, resolve = rules.end_round, rules.resolve
    tally = tally if tally is not None else Tally()

    def check(e, c, intents):
        # ai.decide trims what a ruleset would ignore and says so: a profile never should
        assert "not declared under these rules" not in c.why, (c.name, c.why)
        for intent in intents:  # nothing declared that the ruleset would ignore
            assert type(intent) in rules.supports, (c.name, intent)
        if rules.max_actions is not None:
            assert len(intents) <= rules.max_actions, (c.name, intents)

    def watched_end(e):
        end_round(e)
        for c in e.combatants:
            assert 0.0 <= advisor.threat(c) <= 1.0, (c.name, advisor.threat(c))

    def watched_resolve(e, action):
        f, intent = action.actor, action.intent
        attack = type(intent) is Attack and f.in_fight and intent.target.in_fight
        attacks, damage, before = f.attacks, f.damage, _looks(e)
        resolve(e, action)
        if attack:
            if f.attacks > attacks:
                tally.counted += 1
            else:
                tally.uncounted += 1
        if f.damage > damage:
            after = _looks(e)
            assert any(before[c] != after[c] for c in e.combatants if c is not f), (
                f"{f.name} dealt {f.damage - damage} damage (enc.record_hit) and no other "
                "fighter's state(), threat or status changed: the hit harmed no one")

    watch_declarations(enc, check)  # as each is made: at the round's start or at a turn
    rules.end_round = watched_end  # type: ignore[method-assign]  # a watch on this one
    rules.resolve = watched_resolve  # type: ignore[method-assign]  # encounter's ruleset
    return enc


def check_books(enc: Encounter) -> None:
    """Run the fight; its books add up."""
    result = enc.run()
    assert 1 <= result.rounds <= enc.scenario.max_rounds
    assert result.winner in (None, *enc.scenario.side_names)
    # RULES.md "Out of the fight" (amended): the fight ends when at most one side has
    # members in it (that side wins), or at max_rounds, a draw
    standing = [side.name for side in result.sides if side.standing]
    if len(standing) > 1:
        assert result.winner is None and result.rounds == enc.scenario.max_rounds, standing
    elif result.winner is not None or result.rounds < enc.scenario.max_rounds:
        # (a draw at the round limit may lose a side's last standing fighter to bleeding in
        # the aftermath: ``standing`` counts to the end of the scene)
        assert result.winner == (standing[0] if standing else None), standing
    for side in result.sides:
        assert 0 <= side.hits <= side.attacks, side
        assert side.standing + side.out_of_fight == side.members, side
        assert side.deaths + side.fled + side.surrendered <= side.out_of_fight, side
        assert 0 <= side.deaths_after <= side.deaths, side
        assert side.damage >= 0 and (side.hits or not side.damage), side
    for c in enc.combatants:
        assert 0.0 <= enc.advisor.threat(c) <= 1.0


def check_scenario(ruleset: str, path: Path) -> None:
    """A bundled scenario from neutral traits, over a dozen seeds: sound declarations,
    threat and books; attacks counted; damage that harms."""
    scen = scenario_mod.load(path)
    tally = Tally()
    for seed in range(FIGHTS):
        check_books(checked_encounter(scen, ruleset, seed, tally=tally))
    tally.check()


# ---------------------------------------------------------------------------- native blocks
def fingerprint(value: Any, depth: int = 0) -> Any:
    """A comparable copy of a value: containers, and objects without ``==``, by content."""
    if isinstance(value, (list, tuple)):
        return tuple(fingerprint(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((repr(k), fingerprint(v, depth + 1)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(repr(v) for v in value))
    if type(value).__eq__ is not object.__eq__ or depth > 4:
        return value  # it compares by value already (or is too deep to be state)
    names = [n for cls in type(value).__mro__ for n in getattr(cls, "__slots__", ())]
    state = {n: getattr(value, n) for n in names if hasattr(value, n)}
    state.update(getattr(value, "__dict__", {}))  # a wound track, a body: by what it holds
    return type(value).__name__, tuple(sorted(
        (name, fingerprint(v, depth + 1)) for name, v in state.items()))


def fighter_state(f: Combatant) -> dict[str, Any]:
    """Everything a fighter was built with, comparable (``helpers.fighter_slots``)."""
    return {k: fingerprint(v) for k, v in fighter_slots(f).items() if k not in BOOKKEEPING}


def _other(value: int, bounds: tuple[int, int]) -> int:
    return bounds[1] if value != bounds[1] else bounds[0]


def check_native_blocks(ruleset: str, path: Path) -> None:
    """Each fighter's native block (``native_block_of``) rebuilds it, whatever its traits.

    The block goes into the scenario with every neutral trait and skill changed, so a block
    that leaves a number out (and lets the traits fill it in) is caught; the rebuilt fighter
    must equal the first in every field, not only in ``describe()``.
    """
    scen = scenario_mod.load(path)
    built = Encounter(scen, ruleset, 0).combatants
    rules = registry.get(ruleset)()
    key = rules.native_key
    if key is None:
        assert all(rules.native_block_of(c) is None for c in built)
        return
    assert rules.NativeBlock is not None, f"{ruleset}: native_key without a NativeBlock"
    data = yaml.safe_load(path.read_text())
    by_name = {c.spec.name: c for c in built}
    for members in data["sides"].values():
        for m in members:  # one block per entry; copies of a member are built alike
            first = m["name"] if m.get("count", 1) == 1 else f"{m['name']} 1"
            m[key] = rules.native_block_of(by_name[first])
            traits, skills = m.get("traits", {}), m.get("skills", {})
            m["traits"] = {t: _other(traits.get(t, 2), TRAIT_RANGE) for t in TRAITS}
            m["skills"] = {s: _other(skills.get(s, 0), SKILL_RANGE) for s in SKILLS}
    native = scenario_mod.parse(data, str(path))
    rebuilt = Encounter(native, ruleset, 0).combatants
    for first, again in zip(built, rebuilt, strict=True):
        assert again.describe() == first.describe(), (
            f"{first.name}: its native block rebuilds it as {again.describe()!r}, "
            f"not {first.describe()!r}")
        was, now = fighter_state(first), fighter_state(again)
        differ = sorted(k for k in was if was[k] != now.get(k))
        assert not differ, (f"{first.name}: its native block rebuilds it with other "
                            f"{', '.join(differ)}: native_block_of leaves them out or "
                            "writes them wrong")
    for seed in range(FIGHTS // 3):
        check_books(checked_encounter(native, ruleset, seed))


# ---------------------------------------------------------------------------- moves
RUNNER = {"name": "Runner", "at": "camp"}
FAR_FOE = {"name": "Watcher", "at": "tower", "ai": "passive"}
EXIT_MAP = {"nodes": {"camp": {}, "gate": {"exit": True}, "tower": {}},
            "edges": [["camp", "gate", 1], ["camp", "tower", 20]]}


def check_retreat(ruleset: str) -> None:
    """A ``Retreat`` is carried out: a fighter fleeing to an exit 1 m away walks there and
    leaves the field by it (``Ruleset.move_to``). Its one foe stands 20 m off, within the
    escape distance, so only the walk to the exit can take it off the field."""
    if Retreat not in registry.get(ruleset).supports:
        return

    def flee(enc, c):
        c.why = "runs for the gate"
        return [Retreat(enc.field.node("gate"), leave=True)]

    scen = scenario({"a": [RUNNER], "b": [FAR_FOE]}, map=EXIT_MAP, max_rounds=10)
    enc = Encounter(scen, ruleset, 1, log=True, minds={"Runner": flee})
    enc.run()
    runner = enc.sides["a"][0]
    assert runner.status is Status.FLED, (
        f"a fighter fleeing to an exit 1 m away, its one foe 20 m away, is "
        f"{runner.status.value} after {enc.round} rounds: resolve a Retreat with "
        "self.move_to")


def check_move_wording(ruleset: str) -> None:
    """A move to a place names the place: "moves to west_wall", not "a new place".

    Tactical archers take cover (their reason reads "takes cover at west_wall"); the
    declaration's own words must name where they go.
    """
    data = yaml.safe_load((SCENARIOS / "mirror.yaml").read_text())
    for members in data["sides"].values():
        for member in members:
            member["ai"] = "tactical"
    scen = scenario_mod.parse(data, "mirror.yaml")
    said = []
    for seed in range(3):
        enc = Encounter(scen, ruleset, seed, log=True)
        enc.run()
        assert enc.log is not None
        said += [e["text"] for e in enc.log if e["type"] in ("declare", "roll")]
    covers = [t for t in said if "takes cover at " in t]
    # a tactical screen holds the cover in front of its archers ("holds west_wall in front
    # of West archer 1"): a move to a place too
    fronts = [t for t in said if "holds " in t and " in front of " in t]
    assert covers or fronts, "no move to a place to check"
    for text in covers:
        place = (text.split("takes cover at ")[1].split(")")[0].split(" and")[0]
                 .split(",")[0].rstrip("."))
        assert f"to {place}" in text, f"a move to a place does not name it: {text!r}"
    for text in fronts:  # (one already there holds it: "declares dodge (holds ...")
        place = text.split("holds ")[1].split(" in front of ")[0]
        if "move" in text.split("(")[0]:
            assert f"to {place}" in text, f"a move to a place does not name it: {text!r}"
    assert not [t for t in said if "a new place" in t]


# ---------------------------------------------------------------------------- the log
@cache
def event_validator() -> jsonschema.Draft202012Validator:
    """The one log event schema shipped with the package (docs/log-format.md)."""
    text = resources.files("sim.report").joinpath("events.schema.json").read_text()
    return jsonschema.Draft202012Validator(json.loads(text))


def check_log(ruleset: str) -> None:
    """The solo log declares and shows the dice, and every event holds to the event schema
    (sim/report/events.schema.json: the event types and fields a log may hold)."""
    validator = event_validator()
    for path in (SCENARIOS / "ambush.yaml", SCENARIOS / "neutral_skirmish.yaml"):
        enc = checked_encounter(scenario_mod.load(path), ruleset, 1, log=True)
        enc.run()
        assert enc.log is not None
        kinds = {e["type"] for e in enc.log}
        assert "declare" in kinds and kinds & ROLL_EVENTS, kinds
        for event in enc.log:
            errors = sorted(validator.iter_errors(event), key=str)
            assert not errors, (f"{path.name}: an event outside the log schema "
                                f"(sim/report/events.schema.json): {event}: "
                                f"{errors[0].message}")


# ---------------------------------------------------------------------------- reload
CROSSBOW = {"name": "Crossbow", "weapon": "crossbow",
            "traits": {"agility": 4, "dexterity": 4}, "skills": {"ranged": 4}}
TARGET = {"name": "Target", "ai": "passive", "at": "range", "armor": "plate",
          "traits": {"endurance": 5, "strength": 5}}
RANGE_MAP = {"nodes": {"butt": {}, "range": {}}, "edges": [["butt", "range", 8]]}


def shots_by_round(ruleset: str, profile: str, seed: int) -> list[int]:
    """Attacks a crossbowman resolved in each round of one fight on a hardy target."""
    sides = {"a": [{**CROSSBOW, "ai": profile, "at": "butt"}], "b": [TARGET]}
    enc = Encounter(scenario(sides, max_rounds=8, map=RANGE_MAP), ruleset, seed)
    shooter = enc.sides["a"][0]
    counts: list[int] = []
    end_round = enc.ruleset.end_round

    def count(e):
        end_round(e)
        counts.append(shooter.attacks - sum(counts))

    enc.ruleset.end_round = count  # type: ignore[method-assign]  # counts this fight's shots
    enc.run()
    return counts


def check_reload(ruleset: str, profile: str) -> None:
    """A crossbow shoots once, then takes an action to reload (RULES.md, reload weapons).

    Once a round at most; never two rounds running, but where a turn may hold the reload
    and the shot (OpenD6's several actions a turn: ``Advisor.reload_and_shoot``).
    """
    rules: type[Ruleset] = registry.get(ruleset)
    one_turn = getattr(rules.Advisor, "reload_and_shoot", None) is not None
    shots = 0
    for seed in range(25):
        counts = shots_by_round(ruleset, profile, seed)
        assert all(c <= 1 for c in counts), f"two crossbow shots in one round: {counts}"
        if not one_turn:
            assert not any(a and b for a, b in zip(counts, counts[1:], strict=False)), (
                f"a crossbow shot two rounds running, with no reload between: {counts}")
        shots += sum(counts)
    assert shots >= 25, f"a crossbowman {profile} hardly shoots: {shots} shots in 25 fights"


def check_reload_together(ruleset: str) -> None:
    """Two crossbowmen on one target reload too (B-Grade: working together merges shots):
    neither shoots two rounds running."""
    sides = {"a": [{**CROSSBOW, "count": 2, "ai": "basic", "at": "butt"}], "b": [TARGET]}
    scen = scenario(sides, max_rounds=10, map=RANGE_MAP)
    for seed in range(15):
        enc = Encounter(scen, ruleset, seed)
        by_round: dict[int, set[str]] = {}

        def check(e, c, intents, by_round=by_round):
            shots = by_round.setdefault(e.round, set())
            if any(type(i) is Attack for i in intents):
                shots.add(c.name)

        watch_declarations(enc, check)
        enc.run()
        shooting = [by_round[r] for r in sorted(by_round)]
        assert any(shooting), "nobody shot: the check saw nothing"
        for before, now in zip(shooting, shooting[1:], strict=False):
            assert not before & now, f"a crossbow shot two rounds running: {shooting}"


# ---------------------------------------------------------------------------- conversion
NEUTRAL_HERO = {"name": "Hero", "traits": {"strength": 4, "endurance": 3, "agility": 3,
                                           "dexterity": 2, "perception": 3},
                "skills": {"melee": 3, "brawl": 1, "ranged": 2, "dodge": 2, "parry": 1},
                "weapon": "sword", "armor": "leather"}
def neutral_hero(ruleset: str, weapon: str = "sword") -> Combatant:
    """The one neutral hero every ruleset's conversion check converts (RULES.md)."""
    scen = scenario({"a": [{**NEUTRAL_HERO, "weapon": weapon}], "b": [{"name": "Foe"}]})
    return Encounter(scen, ruleset, seed=0).combatants[0]


def check_conversion(ruleset: str, weapon: str) -> None:
    """The ruleset's own check of the neutral hero, armed and unarmed (its ``support``)."""
    support(ruleset).check_conversion(neutral_hero(ruleset, weapon), weapon == "unarmed")



# ---------------------------------------------------------------------------- catalog
def check_weapon_names(ruleset: str) -> None:
    """The catalog keys every neutral weapon: ``bow`` is the short bow (the fighter built
    with one equals the fighter built with a ``shortbow``), a ``longbow`` stays one, and
    every ranged weapon shoots (``fighter.ranged``), no other."""

    def armed(weapon: str) -> Combatant:
        scen = scenario({"a": [{"name": "Archer", "weapon": weapon, "skills": {"ranged": 3}}],
                         "b": [{"name": "Target"}]})
        return Encounter(scen, ruleset, 1).sides["a"][0]

    assert fighter_state(armed("bow")) == fighter_state(armed("shortbow")), (
        "a bow builds another fighter than a shortbow: bow is the short bow in every catalog")
    assert armed("longbow").spec.weapon == "longbow"
    for weapon in WEAPONS:
        assert armed(weapon).ranged == (weapon in RANGED_WEAPONS), (
            f"{weapon}: fighter.ranged is {armed(weapon).ranged}")


def check_natural_weapons(ruleset: str) -> None:
    """A beast's natural weapons fight (RULES.md): two wolves, each with a ``bite`` and brawl
    3, win some of twenty fights against a swordsman of melee 3. A catalog that leaves the
    natural weapons out, or makes them harmless, never lets the beasts win."""
    wolf = {"name": "Wolf", "count": 2, "weapon": "bite",
            "traits": {"strength": 4, "agility": 3}, "skills": {"brawl": 3, "melee": 0}}
    scen = scenario({"beasts": [wolf],
                     "men": [{"name": "Man", "weapon": "sword", "skills": {"melee": 3}}]})
    winners = {Encounter(scen, ruleset, seed).run().winner for seed in range(20)}
    assert "beasts" in winners, (
        f"{ruleset}: two wolves never beat a swordsman in 20 fights: do natural weapons "
        "(claws, bite, horns) fight with brawl and deal harm?")


# ---------------------------------------------------------------------------- armor
ARMOR_ORDER = ("none", "leather", "chain", "plate")
ARMOR_FIGHTS = 150
# each armor must leave at most this share of the harm per attack of the one below it: the
# smallest step measured is OpenCore's chain over leather (0.82); B-Grade's, in even steps,
# 0.73, 0.66 and 0.32 (harm 0.92, 0.67, 0.44, 0.14); a tie (B-Grade's leather and none,
# chain and plate, before its armor ruling) is 1.0
ARMOR_MOST = 0.95


def harm_per_attack(ruleset: str, armor: str) -> float:
    """The harm a swordsman's attacks do a passive man in ``armor``, per attack, in the
    ruleset's own unit, over the same encounter seeds."""
    scen = scenario({"a": [{"name": "Swordsman", "weapon": "sword", "traits": {"strength": 3},
                            "skills": {"melee": 3}}],
                     "b": [{"name": "Dummy", "ai": "passive", "armor": armor,
                            "traits": {"endurance": 3}}]}, max_rounds=100)
    attacks, _, damage = first_side_books(scen, ruleset, ARMOR_FIGHTS)
    assert attacks, f"{ruleset}: a swordsman made no attack on a passive man in {armor}"
    return damage / attacks


def check_armor_order(ruleset: str) -> None:
    """Armor keeps its order (RULES.md): none < leather < chain < plate in protection.

    Read as a game master reads it, the harm per attack of a swordsman on a passive man;
    each armor leaves at most ``ARMOR_MOST`` of the harm of the one below. A ruleset whose
    catalog ignores armor fails at the first step.
    """
    harm = [harm_per_attack(ruleset, armor) for armor in ARMOR_ORDER]
    for lighter, heavier, a, b in zip(ARMOR_ORDER, ARMOR_ORDER[1:], harm, harm[1:],
                                      strict=False):
        assert b <= ARMOR_MOST * a, (
            f"{ruleset}: {heavier} lets through {b:.3f} harm per attack, {lighter} {a:.3f}: "
            f"armor must keep its order (none < leather < chain < plate), {harm}")
