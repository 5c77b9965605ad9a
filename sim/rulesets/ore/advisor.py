"""What the AI asks the One Roll Engine: reach, reloads, and what a declaration is worth.

``OreAdvisor`` answers for ORE (B-Grade's advisor builds on it). Every dice count comes
from the ruleset's roll plan (``OreRuleset.planner``, ``rules.plan_roll``): the AI expects to
roll exactly what the ruleset rolls for the same declaration. The exact set odds and a
hit's and an attack's worth are ``sim.rulesets.ore.odds``'s; the tactical AI picks the
declaration with the highest expected worth.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core import space
from sim.core.actions import DEFENDS, Attack, Defend, Intent, Move, Retreat, attack_on
from sim.core.advisor import Advisor
from sim.core.draws import NEAR, near_best
from sim.rulesets.ore.catalog import (
    BOXES,
    CALLED_HEIGHT,
    HEAD,
    LOCATION_BY_HEIGHT,
    TORSO,
)
from sim.rulesets.ore.fighter import OF
from sim.rulesets.ore.harm import can_harm
from sim.rulesets.ore.odds import expected_value, p_set_at_least, p_set_in, p_sets, value_table
from sim.rulesets.ore.rules import action_pool, arms_ok, parry_implement

if TYPE_CHECKING:

    from sim.core.engine import Encounter
    from sim.rulesets.ore.body import Body
    from sim.rulesets.ore.ruleset import OreRuleset

# Ruling (aggressive AI): when a called shot at the head, an extra attack, or a move with an
# attack "pays" -- the dice rolled for the declaration must be at least this many.
CALLED_SHOT_MIN_DICE = 7
MULTI_ACTION_MIN_DICE = 6

# Ruling (cautious AI): a defense set needs this many dice to be worth declaring (3d10 hold
# a set 28% of the time; fewer almost never).
DEFENSE_MIN_DICE = 3
# Ruling (cautious, tactical AI): several actions in one roll only when the pool holds a set
# for each of them at least this often.
MULTI_ACTION_ODDS = 0.5
# Ruling (tactical AI): a second attack in the same roll must add this much worth over one.
EXTRA_ATTACK_GAIN = 1.1
# Ruling (cautious AI): the share of an attack a defense set stops when the pool holds one:
# its gobble dice work only on sets no faster and no higher than it, about half of them.
GOBBLE_SHARE = 0.5
# A declaration whose first action moves (a charge, a run to cover) rolls one pool for the
# move and the attack after it: two sets, the faster to move.
MOVES_FIRST = (Move, Retreat)


# ---------------------------------------------------------------------------- the advisor
class OreAdvisor(Advisor[OF]):
    """The AI's questions under ORE (see :class:`sim.core.advisor.Advisor`).

    Dice counts come from ``self.rules.planner.plan``: with the encounter, for a declaration as it
    would be rolled now (range, cover, a called shot); without it (``enc`` None), before
    any situation, for questions asked about a fighter in general (danger, defense).
    Generic over the ruleset's fighter (``OF``): B-Grade's advisor is ``OreAdvisor`` of
    ``BGradeFighter``.
    """

    rules: OreRuleset[OF]

    def dice(self, enc: Encounter | None, actor: OF, intents: list[Intent]) -> int:
        """Dice ``actor`` would roll for ``intents``: the ruleset's own roll plan."""
        return self.rules.planner.plan(enc, actor, intents).dice

    def can_attack(self, enc: Encounter, actor: OF, target: OF) -> bool:
        """A usable arm (two for a two-handed weapon) and the target within reach."""
        return arms_ok(actor) and space.in_reach(enc, actor, target)

    def single_shot(self, actor: OF) -> bool:
        """A reload weapon (crossbow)."""
        return actor.weapon.reload

    def needs_reload(self, actor: OF) -> bool:
        """A crossbow that has shot."""
        return actor.weapon.reload and not actor.loaded

    def threat(self, actor: OF) -> float:
        """Torso Killing out of 10, or the head's marks out of 4, whichever is nearer full."""
        w: Body = actor.wounds  # ORE's own: hit locations
        return max(w.killing[TORSO] / BOXES[TORSO],
                   (w.killing[HEAD] + w.shock[HEAD]) / BOXES[HEAD])

    def called_shot(self, enc: Encounter, actor: OF, target: OF) -> str | None:
        """The head, with an expert die or enough dice left for the called shot.

        Never a called shot that could not make a set (fewer than two dice).
        """
        dice = self.dice(enc, actor, [attack_on(target, "head")])
        expert = action_pool(actor, target.plain_attack)[1] in actor.expert
        return "head" if dice >= 2 and (expert or dice >= CALLED_SHOT_MIN_DICE) else None

    def can_hit(self, enc: Encounter, actor: OF, target: OF) -> bool:
        """A set needs two dice: fewer after the penalties is a hopeless attack."""
        return self.dice(enc, actor, [target.plain_attack]) >= 2

    def pools(self, enc: Encounter, actor: OF) -> str:
        """Dice each action rolls alone now (penalties and the cap applied; before range)."""
        rolls: dict[str, list[Intent]] = {"attack": [Attack(actor)], "dodge": [Defend("dodge")],
                 "parry": [Defend("parry")], "run": [Move(actor)]}
        return "pools: " + ", ".join(f"{name} {self.dice(None, actor, intents)}d"
                                     for name, intents in rolls.items())

    def called_locations(self, enc: Encounter, actor: OF,
                         target: OF) -> tuple[str, ...]:
        """Every hit location (a called shot sets one die to its height)."""
        return tuple(CALLED_HEIGHT)

    def defense_kinds(self, enc: Encounter, actor: OF) -> tuple[str, ...]:
        """Dodge always; parry with a usable arm and a melee weapon or a shield."""
        parry = parry_implement(actor) and arms_ok(actor)
        return ("dodge", "parry") if parry else ("dodge",)

    def attack_odds(self, enc: Encounter, actor: OF,
                    intents: list[Intent]) -> float | None:
        """Chance the roll holds a set for the first attack (one that beats the difficulty).

        Exact: a die set to 10 (called head shot, expert die) makes a set with any rolled
        10; otherwise two rolled dice must match. Gobble dice are not counted.
        """
        attack = next((i for i in intents if type(i) is Attack), None)
        if attack is None:
            return None
        plan = self.rules.planner.plan(enc, actor, intents)
        least = getattr(self.rules.options, "difficulty", 0)
        if type(intents[0]) in MOVES_FIRST:  # the faster set moves, the slower strikes
            return p_sets(plan.dice, 2, max(1, least))
        skill = plan.skill
        fixed = (plan.called is not None) + (skill in actor.expert)
        return p_set_at_least(plan.dice, min(fixed, plan.dice), least)

    def move_attack_odds(self, enc: Encounter, actor: OF,
                         intents: list[Intent]) -> float | None:
        """The roll's chance of two sets, one to move and one to strike (``attack_odds``)."""
        return self.attack_odds(enc, actor, intents)

    def harm_odds(self, enc: Encounter, actor: OF,
                  intents: list[Intent]) -> tuple[tuple[str, float], ...]:
        """The chance of a head hit; for a called shot, of a set at the called location.

        Exact as ``attack_odds``: a plain attack's expert die, set to 10, makes a head set
        with any rolled 10; a called shot's die (and an expert die with it) shows the called
        height, and any set of its location's heights lands there (``assign_sets``). The
        difficulty's least height counts.
        """
        attack = next((i for i in intents if type(i) is Attack), None)
        if attack is None:
            return ()
        plan = self.rules.planner.plan(enc, actor, intents)
        least = max(1, getattr(self.rules.options, "difficulty", 0))
        expert = int(plan.skill in actor.expert)
        if attack.called is None:
            fixed = min(expert, plan.dice)
            return (("to the head", p_set_in(plan.dice - fixed, fixed, max(least, 10), 10)),)
        height = CALLED_HEIGHT[attack.called]
        loc = LOCATION_BY_HEIGHT[height]
        heights = [h for h in range(least, 11) if LOCATION_BY_HEIGHT[h] == loc]
        fixed = min(1 + expert, plan.dice)
        chance = (p_set_in(plan.dice - fixed, fixed if height >= least else 0, heights[0],
                           heights[-1]) if heights else 0.0)
        return ((f"at the {attack.called}", chance),)

    def wounded(self, actor: OF) -> bool:
        """Any box marked, Killing or Shock, anywhere (a leg's wound is no ``threat``)."""
        w: Body = actor.wounds  # ORE's own: hit locations
        return any(w.killing) or any(w.shock)

    def hopeless(self, enc: Encounter, actor: OF,
                 target: OF) -> tuple[list[Intent], str]:
        """Too few dice: a shooter steps closer (smaller range penalty), else it defends.

        Holding its ground, a fighter with a defense pool declares it (its gobble dice still
        count); without one it just holds.
        """
        if actor.ranged and not space.engaged(enc, actor, [target]):
            return super().hopeless(enc, actor, target)
        kind = self.defense_kind(enc, actor, ranged=target.ranged)
        if kind:
            return [Defend(kind)], f"no chance to hit {target.name}: {DEFENDS[kind]} instead"
        return super().hopeless(enc, actor, target)

    def extra_attacks(self, enc: Encounter, actor: OF, target: OF) -> int:
        """One extra attack when two attacks still roll ``MULTI_ACTION_MIN_DICE`` dice.

        Never with a reload weapon: it holds one bolt.
        """
        if actor.weapon.reload:
            return 0
        dice = self.dice(enc, actor, [target.plain_attack, target.plain_attack])
        return 1 if dice >= MULTI_ACTION_MIN_DICE else 0

    def can_move_and_attack(self, enc: Encounter, actor: OF) -> bool:
        """A move and an attack roll ``MULTI_ACTION_MIN_DICE`` dice, before any situation."""
        return self.dice(None, actor, [Move(actor), Attack(actor)]) >= MULTI_ACTION_MIN_DICE

    # ---------------------------------------------------------------- cautious and tactical
    def danger(self, enc: Encounter, actor: OF) -> float:
        """Chance of a set in the attack pool times the Killing and Shock of a 2-wide hit."""
        killing, shock = actor.weapon.damage.roll(2)
        return p_sets(self.dice(None, actor, [Attack(actor)]), 1) * (killing + shock)

    def defense_kind(self, enc: Encounter, actor: OF, ranged: bool) -> str | None:
        """The bigger of the Dodge and Parry pools (Parry stops missiles only with a shield).

        None when that pool rolls fewer than ``DEFENSE_MIN_DICE`` dice.
        """
        can_parry = parry_implement(actor) and arms_ok(actor) and (not ranged or actor.shield)
        dodge = action_pool(actor, Defend("dodge"))[0]
        parry = action_pool(actor, Defend("parry"))[0] if can_parry else 0
        kind = "parry" if parry > dodge else "dodge"
        return kind if self.dice(None, actor, [Defend(kind)]) >= DEFENSE_MIN_DICE else None

    def attack_and_defend(self, enc: Encounter, actor: OF, target: OF,
                          kind: str) -> bool:
        """Both when the roll for the two holds two sets at ``MULTI_ACTION_ODDS``."""
        dice = self.dice(enc, actor, [target.plain_attack, Defend(kind)])
        return p_sets(dice, 2) >= MULTI_ACTION_ODDS

    def can_harm(self, enc: Encounter, actor: OF, target: OF) -> bool:
        """A set of the dice rolled now marks harm that lasts (``ore.harm.can_harm``)."""
        return can_harm(actor.weapon, target.armor, self.dice(enc, actor, [target.plain_attack]))

    def attack_worth(self, enc: Encounter, actor: OF, target: OF) -> float:
        """Expected worth of one plain attack now (``expected_value``: 0..1 of a take-out)."""
        skill = action_pool(actor, target.plain_attack)[1]
        expert = 1 if skill in actor.expert or skill in actor.master else 0
        dice = self.dice(enc, actor, [target.plain_attack])
        return expected_value(value_table(actor, target, dice), dice, expert)

    def defense_worth(self, enc: Encounter, actor: OF,
                      threats: dict[OF, float], kind: str) -> float:
        """The threats' attack worth on ``actor`` that a defense set would stop.

        The chance the defense pool holds a set, times ``GOBBLE_SHARE`` (ruling), times the
        worth of each attack expected on ``actor`` (the same ``attack_worth``).
        """
        guard = p_sets(self.dice(None, actor, [Defend(kind)]), 1) * GOBBLE_SHARE
        return guard * sum(n * self.attack_worth(enc, e, actor) for e, n in threats.items())

    def tactical_attack(self, enc: Encounter, actor: OF,
                        target: OF) -> tuple[list[Intent], str]:
        """The best of a plain attack, a called head shot, and two attacks, by expected worth.

        Two attacks (one possibly called) must hold two sets at ``MULTI_ACTION_ODDS`` and add
        ``EXTRA_ATTACK_GAIN`` over one; the second attack's worth is its set's chance times a
        2-wide set's worth at an even height. Declarations worth within ``NEAR`` of the best
        are as good as far as these odds can tell: one of them is drawn (``near_best``).
        """
        skill = action_pool(actor, target.plain_attack)[1]
        expert = 1 if skill in actor.expert or skill in actor.master else 0
        dice = self.dice(enc, actor, [target.plain_attack])
        value = value_table(actor, target, dice)
        plain = expected_value(value, dice, expert)
        called = expected_value(value, self.dice(enc, actor, [attack_on(target, "head")]),
                                expert + 1)
        # worth: the expected share of a takedown (``hit_value``, 0 to 1)
        lines: list[tuple[float, list[Intent], str]] = [
            (plain, [target.plain_attack], ""),
            (called, [attack_on(target, "head")],
             f"called shot at the head (worth {called:.2f} of a takedown vs {plain:.2f} plain)")]
        odds = p_sets(self.dice(enc, actor, [target.plain_attack, target.plain_attack]), 2)
        if not actor.weapon.reload and odds >= MULTI_ACTION_ODDS:
            second = odds * sum(value[2][1:]) / 10
            for head in (False, True):
                pair: list[Intent] = [attack_on(target, "head" if head else None),
                                      target.plain_attack]
                first = expected_value(value, self.dice(enc, actor, pair), expert + head)
                lines.append(((first + second) / EXTRA_ATTACK_GAIN, pair,
                              f"two attacks: two sets {odds:.0%} likely"))
        chosen = near_best(enc, lines, lambda line: line[0], NEAR)
        assert chosen is not None
        return chosen[1], chosen[2]

    def wait_intents(self, enc: Encounter, actor: OF,
                     foes: list[OF]) -> tuple[list[Intent], str]:
        """Holding with no foe in reach: dodge when a shooter has it in range."""
        shooters = space.shooters_on(enc, actor, foes)
        melee = [e for e in foes if not e.ranged and space.can_charge(enc, e, actor.pos)]
        kind = self.defense_kind(enc, actor, ranged=not melee) if shooters else None
        if kind:
            return [Defend(kind)], f"{DEFENDS[kind]} {shooters[0].name}'s shots"
        return [], "holds its ground"
