"""A throwaway ruleset written by following docs/adding-a-ruleset.md: heads costs a hit point.

Each fighter makes one attack a round on the nearest foe in reach (or walks toward it, or
falls back); a coin decides the hit, the target's armor may turn it (a d6 at or under its
soak), and so may its cover a shot (another d6 at or under 1 to 3); a hit costs the target
one hit point (as many as its endurance, or its ``coinflip:`` block's ``hp``); at none it
is dead. A crossbow shoots once, then takes an action to reload. Nothing else: no defense,
no points. It exists to
prove that a new ruleset plugs in without touching anything outside its own folder: the
contract test runs it like the real ones, and tests/rulesets/test_contract_catches.py plants
mistakes in copies of it to show the contract fails on each.

It registers itself (``@register``); a real ruleset is imported through its line in the
registry's ``BUILTIN_RULESETS`` instead, which is why this module is imported by the tests
alone.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from sim.core import space
from sim.core.actions import Attack, Move, Reload, Retreat, TimedAction
from sim.core.advisor import Advisor
from sim.core.combatant import Combatant, Status
from sim.core.harm import Harm
from sim.core.words import IntentWords
from sim.registry import register
from sim.rulesets.base import Ruleset, offsets_by_rank
from sim.rulesets.dice import roll
from sim.scenario.models import Strict
from sim.scenario.vocabulary import RANGED_WEAPONS, Cover

SHOT_REACH = 100.0  # metres: every ranged weapon shoots this far
RELOADS = frozenset({"crossbow"})  # one shot, then an action to reload
# a d6 at or under the soak turns a blow: heavier armor turns more (the contract's order)
SOAK = {"none": 0, "leather": 1, "chain": 2, "plate": 3, "kevlar": 2}
# cover turns a shot on a second d6, at or under its step: light 1, medium 2, heavy 3
COVER_SOAK = {Cover.NONE: 0, Cover.LIGHT: 1, Cover.MEDIUM: 2, Cover.HEAVY: 3}
SIDES = 6  # the armor die, and the cover die
# how the log words a declaration: the one home of that wording (``sim/core/words.py``)
WORDS = IntentWords(attack="attacks {target}", called="", move="moves toward {target}",
                    leave="falls back off the field", relocate="moves to {place}",
                    others={"reload": "reloads"})


class CoinBlock(Strict):
    """The ``coinflip:`` native block: the hit points, overriding endurance."""

    hp: int = Field(ge=1)


class CoinFighter(Combatant):
    """A fighter with hit points, an armor's soak and, for a crossbow, a bolt loaded or not."""

    __slots__ = ("hp", "max_hp", "soak", "reloads", "loaded")
    hp: int
    max_hp: int
    soak: int  # its armor turns a blow on a d6 at or under this
    reloads: bool  # its weapon holds one shot
    loaded: bool

    def describe(self) -> str:
        return f"HP {self.max_hp}" + (", reloads" if self.reloads else "")

    def state(self) -> str:
        return f"HP {self.hp}/{self.max_hp}"


def cover_soak(enc, target: CoinFighter) -> int:
    """The faces of the cover die that turn a shot at ``target``: 0 in the open, 1 to 3."""
    return COVER_SOAK[enc.field.cover(target.pos)]


class CoinAdvisor(Advisor):
    """Hurt by the share of hit points lost; a crossbow shoots once, then reloads."""

    def threat(self, actor: Combatant) -> float:
        assert isinstance(actor, CoinFighter)
        return 1.0 if not actor.in_fight else 1.0 - actor.hp / actor.max_hp

    def single_shot(self, actor: Combatant) -> bool:
        assert isinstance(actor, CoinFighter)
        return actor.reloads

    def needs_reload(self, actor: Combatant) -> bool:
        assert isinstance(actor, CoinFighter)
        return actor.reloads and not actor.loaded

    def attack_odds(self, enc, actor: Combatant, intents) -> float | None:
        """Heads, and the armor die not turning it: a chance in [0, 1]."""
        attack = next((i for i in intents if type(i) is Attack), None)
        if attack is None:
            return None
        target = attack.target
        chance = 0.5 * (1 - target.soak / SIDES)
        if actor.ranged:
            chance *= 1 - cover_soak(enc, target) / SIDES
        return chance


@register
class CoinFlip(Ruleset):
    """Heads costs a hit point."""

    name = "coinflip"
    aliases = ("coin",)
    summary = "Coin flip: one attack a round, heads costs the target a hit point"
    legend = ("Reading the log: each attack flips a coin; heads costs the target a hit point "
              "unless a d6 at or under its armor's soak turns it (leather 1, chain 2, plate "
              "3), or, for a shot, another d6 at or under its cover (light 1 to heavy 3).")
    seconds_per_round = 1.0
    native_key = "coinflip"
    NativeBlock = CoinBlock
    Advisor = CoinAdvisor
    supports = frozenset({Attack, Move, Retreat, Reload})
    max_actions = 1

    def build(self, member, pos, rng) -> CoinFighter:
        f = CoinFighter(member, pos)
        block = member.native_block(self.native_key)
        f.hp = f.max_hp = block.hp if block is not None else member.traits.endurance
        f.soak = SOAK[member.armor]
        f.ranged = member.weapon in RANGED_WEAPONS
        if f.ranged:
            f.reach = SHOT_REACH
        f.reloads, f.loaded = member.weapon in RELOADS, True
        return f

    def native_block_of(self, f: Combatant) -> dict[str, Any]:
        assert isinstance(f, CoinFighter)
        return {"hp": f.max_hp}

    def plan_round(self, enc, declared):
        actions = [TimedAction(0.0, f, intents[0], roll(enc.rng, 6))
                   for f, intents in declared if intents]
        offsets = offsets_by_rank([a.payload for a in actions], self.seconds_per_round)
        for a in actions:
            a.offset = offsets[a.payload]
            if enc.log is not None:
                enc.emit("declare", who=a.actor.name, text=f"{a.actor.name} declares: "
                         f"{WORDS.text(a.intent, enc.field)} ({a.actor.why}).")
        return actions

    def harm_lasts(self, target, harm):
        """A hit point lost lasts: nothing heals in a fight."""
        return harm.lasting > 0 or not target.in_fight

    def resolve(self, enc, action):
        f, intent = action.actor, action.intent
        if type(intent) is Move:
            self.walk_toward(enc, f, intent, f.speed)
        elif type(intent) is Retreat:
            self.move_to(enc, f, intent, f.speed)
        elif type(intent) is Reload:
            f.loaded = True
            if enc.log is not None:
                enc.emit("reload", who=f.name, text=f"{f.name} reloads.")
        elif intent.target.in_fight:
            self.flip(enc, f, intent.target)

    def free_attack(self, enc, f: CoinFighter, target: CoinFighter) -> None:
        """A foe leaving reach: one more flip, not an action."""
        self.flip(enc, f, target)

    def flip(self, enc, f: CoinFighter, target: CoinFighter) -> None:
        """One attack: counted as made, the bolt spent; heads not turned by armor costs a
        hit point."""
        enc.record_attack(f)
        if f.reloads:
            f.loaded = False
        heads = space.in_reach(enc, f, target) and roll(enc.rng, 2) == 2
        turned = heads and roll(enc.rng, 6) <= target.soak
        turned = turned or heads and f.ranged and roll(enc.rng, SIDES) <= cover_soak(enc, target)
        if enc.log is not None:
            enc.emit("roll", who=f.name, text=f"{f.name} flips at {target.name}: "
                     f"{'heads' if heads else 'tails'}{', turned by armor' if turned else ''}.")
        if heads and not turned:
            target.hp -= 1
            enc.record_hit(f, target, Harm(1))
            if target.hp <= 0:
                enc.take_out(target, Status.DEAD, "heads")
