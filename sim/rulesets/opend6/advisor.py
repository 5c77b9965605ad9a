"""What the AI asks OpenD6: reach, hopeless attacks, extra attacks, hit chances, defenses.

``OpenD6Advisor`` answers from the dice (exact odds from ``odds``), for both variants; the
profiles in :mod:`sim.ai.profiles` hold no dice logic. It reads the ruleset's public rules:
``attack_dice``, ``defense_code``, ``defense_against``, ``target_number``,
``health_penalty``, ``health_lost``, ``expected_harm``, ``would_finish`` and
``one_from_death``, so it expects exactly what the ruleset rolls.

Ruling (what an attacker knows): the target number it can see (the 10 with cover,
visibility, pinned and its weapon's modifier) and the pool of a defender's dodge, parry or
block, not that roll's total (see ``points.fate_point``). Its odds against an active defense are
taken over the defense roll's distribution.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from sim.core import space, targets
from sim.core.actions import DEFENDS, Aim, Attack, Defend
from sim.core.advisor import Advisor
from sim.core.draws import NEAR, near_best
from sim.rulesets.opend6 import odds as opend6_odds
from sim.rulesets.opend6.fighter import D6Fighter
from sim.rulesets.opend6.rules import (
    AIM_DICE,
    BASE_DIFFICULTY,
    COVER_DIFFICULTY,
    SHOT_IN_MELEE_DICE,
    multiple_action_penalty,
    turn_actions,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter
    from sim.rulesets.opend6.ruleset import D6Ruleset

# Ruling (aggressive AI): at most this many extra attacks a round; more only pays against
# very easy targets, and four attacks a round is already a flurry.
MAX_EXTRA_ATTACKS = 3
# Ruling (cautious, tactical AI): a defense roll must average this much above the 10 it
# replaces (it replaces it even when lower).
DEFENSE_MARGIN = 1.0


class OpenD6Advisor(Advisor[D6Fighter]):
    """The AI's questions under OpenD6 (see :class:`sim.core.advisor.Advisor`)."""

    rules: D6Ruleset

    # the last distance ``can_attack`` measured, keyed by all it read: (map, from, to, metres)
    _measured: tuple[object, object, object, float] = (None, None, None, 0.0)

    def can_attack(self, enc: Encounter, actor: D6Fighter, target: Combatant) -> bool:
        """Within reach (``space.in_reach``); the distance is kept for ``can_hit``.

        A profile asks ``can_hit`` right after this, about the same two fighters.
        """
        field, here, there = enc.field, actor.pos, target.pos
        dist = field.known.get((here, there))
        if dist is None:
            dist = field.distance(here, there)
        self._measured = (field, here, there, dist)
        return dist <= actor.reach

    def threat(self, actor: D6Fighter) -> float:
        """The share of its health lost (wounds toward death, or hit points)."""
        return self.rules.health_lost(actor)

    def single_shot(self, actor: D6Fighter) -> bool:
        """A weapon with a reload action (crossbow)."""
        return actor.weapon.reload_actions > 0

    def needs_reload(self, actor: D6Fighter) -> bool:
        """A crossbow that has shot needs a reload action."""
        return actor.weapon.reload_actions > 0 and not actor.loaded

    def reload_and_shoot(self, enc: Encounter, actor: D6Fighter) -> D6Fighter | None:
        """The foe to shoot in the turn an empty crossbow is reloaded, or None.

        Ruling (issue: shooters reload and shoot in one turn): the reload is an action, so a
        shot in the same turn rolls at -1D (``multiple_action_penalty``); it pays when that
        shot hits more than half as often as a full-dice shot next turn would, since the
        crossbow is empty again after either: ``hit_chance(d - 1) > hit_chance(d) / 2``
        (exact odds against the foe as it stands, its defense roll included). The foe is
        the one its doctrine picks among those in range (``targets.pick_target``).
        """
        if not self.needs_reload(actor):
            return None
        foes = [e for e in enc.enemies(actor) if space.in_reach(enc, actor, e)]
        if not foes:
            return None
        foe = targets.pick_target(enc, actor, foes, actor.doctrine.focus)
        if TYPE_CHECKING:  # one of ``foes`` (no cast call every turn)
            foe = cast("D6Fighter", foe)
        dice = self.rules.combat.attack_dice(enc, actor, foe)
        if dice - 1 < 1:
            return None
        against = self.against(enc, actor, foe)  # the same for both pools
        if self._chance(actor, against, dice - 1) > self._chance(actor, against, dice) / 2:
            return foe
        return None

    def called_shot(self, enc: Encounter, actor: D6Fighter, target: Combatant) -> str | None:
        """Ruling: OpenD6 has no hit locations, so a called shot (-2D) never pays."""
        return None

    def can_move_and_attack(self, enc: Encounter, actor: D6Fighter) -> bool:
        """Whether a free move (the first 10 m of a turn) brings the nearest foe into reach.

        The move is no action, so moving and attacking costs no die; the weapon must be
        ready, and the attack must roll 1D or more wherever the move leaves it
        (``least_attack_dice``).
        """
        if self.needs_reload(actor) or self.rules.combat.least_attack_dice(enc, actor) < 1:
            return False
        foe = space.nearest_enemy(enc, actor)
        return foe is not None and (
            enc.field.distance(actor.pos, foe.pos) <= actor.speed + actor.reach)

    def can_hit(self, enc: Encounter, actor: D6Fighter, target: D6Fighter) -> bool:
        """Whether a plain single attack now rolls at least 1D (the AI never attacks with 0D).

        The pool is the ruleset's own (``attack_dice``): wound penalty, range band, blinded,
        aim; a single action has no multiple-action penalty and the AI calls no shots.
        False out of reach or range and with a weapon to reload.
        """
        if self.needs_reload(actor):
            return False
        field, here, there, dist = self._measured  # one measure for reach and range
        if field is not enc.field or here is not actor.pos or there is not target.pos:
            dist = enc.field.distance(actor.pos, target.pos)
        if dist > actor.reach:  # ``space.in_reach``
            return False
        # the dice unpressed: who presses a shooter is asked only when its -2D decides
        free = self.rules.combat.attack_dice(enc, actor, target, distance=dist, pressed=False)
        if not actor.ranged or free < 1 or free + SHOT_IN_MELEE_DICE >= 1:
            return free >= 1
        return not space.pressed(enc, actor)

    def hopeless(self, enc: Encounter, actor: D6Fighter,
                 target: D6Fighter) -> tuple[list[Intent], str]:
        """In reach but 0D to hit: aim, step closer, defend or hold.

        A shooter aims (+1D) when that makes next round's shot possible and it is not aimed
        at ``target`` yet, else steps closer (the default: range penalties shrink). A melee
        fighter holds its ground, defending when a defense beats the 10 (``defense_kind``).
        """
        dice = self.rules.combat.attack_dice(enc, actor, target)
        if actor.ranged:
            if actor.aim_at is not target and dice + AIM_DICE >= 1:
                return ([Aim(target)],
                        f"{dice}D to hit {target.name}: aims for +{AIM_DICE}D next round")
            return super().hopeless(enc, actor, target)
        kind = self.defense_kind(enc, actor, ranged=target.ranged)
        if kind:
            return [Defend(kind)], f"{dice}D to hit {target.name}: {DEFENDS[kind]} instead"
        return [], f"{dice}D to hit {target.name}: holds its ground"

    def extra_attacks(self, enc: Encounter, actor: D6Fighter, target: D6Fighter) -> int:
        """The number of extra attacks that maximises the expected hits this round.

        Each extra attack costs every attack 1D; the odds are exact (``hit_chance``). Every
        attack keeps at least 1D. Counts within ``NEAR`` of the best are as good as the odds
        tell apart: one is drawn (``near_best``). A weapon that must be reloaded after each
        shot never takes extra attacks.
        """
        if actor.weapon.reload_actions:
            return 0
        dice = self.rules.combat.attack_dice(enc, actor, target)
        against = self.against(enc, actor, target)  # the same for every count of attacks
        counts = range(min(MAX_EXTRA_ATTACKS, dice - 1) + 1)
        best = near_best(enc, counts, lambda k: (k + 1) * self._chance(actor, against, dice - k),
                         NEAR)
        return best or 0

    # ------------------------------------------------------------ hit chances
    def attack_odds(self, enc: Encounter, actor: D6Fighter,
                    intents: list[Intent]) -> float | None:
        """Exact chance the turn's first attack hits, with the turn's multiple-action penalty."""
        attack = next((i for i in intents if type(i) is Attack), None)
        if attack is None:
            return None
        target = attack.target
        if TYPE_CHECKING:  # every fighter of an OpenD6 fight is one (no cast call)
            target = cast("D6Fighter", target)
        penalty = multiple_action_penalty(turn_actions(intents))
        dice = self.rules.combat.attack_dice(enc, actor, target, penalty=penalty,
                                             called=bool(attack.called))
        return self.hit_chance(enc, actor, target, dice) if dice >= 1 else 0.0

    def harm_odds(self, enc: Encounter, actor: D6Fighter,
                  intents: list[Intent]) -> tuple[tuple[str, float], ...]:
        """The chance the first attack wounds, and takes the foe down, as rolled now.

        ``opend6-hp``: takes hit points; down: the wounds or hit points left. Exact over
        the hit (``attack_odds``), the damage roll and the resistance roll
        (``harm_threshold``, ``kill_threshold``); a character point the foe may put on its
        resistance is not counted.
        """
        attack = next((i for i in intents if type(i) is Attack), None)
        hit = self.attack_odds(enc, actor, intents)
        if attack is None or hit is None:
            return ()
        rules, target = self.rules, cast("D6Fighter", attack.target)
        res = target.resist_code
        dist = opend6_odds.harm_distribution(rules.combat.damage_dice(actor, target),
                                             actor.damage_code.pips)
        harm = down = 0.0
        for damage, p in enumerate(dist):
            if p:
                harm += p * opend6_odds.p_harm_at_most(res.dice, res.pips,
                                                       rules.harm_threshold(damage))
                down += p * opend6_odds.p_harm_at_most(res.dice, res.pips,
                                                       rules.kill_threshold(target, damage))
        return ((rules.harm_words, hit * harm), ("to take down", hit * down))

    def hit_chance(self, enc: Encounter, actor: D6Fighter, target: D6Fighter,
                   dice: int) -> float:
        """Exact chance that ``dice``D (+ the attack's pips) hits ``target`` now.

        Against the target number ``actor`` can see, or over the distribution of
        ``target``'s active defense roll (plus the same modifiers); ties hit.
        """
        return self._chance(actor, self.against(enc, actor, target), dice)

    def against(self, enc: Encounter, actor: D6Fighter,
                 target: D6Fighter) -> tuple[tuple[int, int, int] | None, int]:
        """What an attack of ``actor`` on ``target`` meets now, as ``hit_chance`` weighs it.

        ``(None, target number)`` without an active defense, else ``(the defense roll's
        (dice, pips, minus), what adds to its total)``.
        """
        rules = self.rules
        defense, parry = rules.combat.defense_against(enc, actor, target)
        if defense is None:
            return None, rules.combat.target_number(enc, actor, target, None, False)
        return target.defense_roll, rules.combat.target_number(enc, actor, target, 0, parry)

    def _chance(self, actor: D6Fighter, against: tuple[tuple[int, int, int] | None, int],
                dice: int) -> float:
        """Exact chance that ``dice``D (+ the attack's pips) meets ``against`` (``against``)."""
        roll, number = against
        pips, complication = actor.attack_code.pips, self.rules.options.complication
        if roll is None:
            return opend6_odds.p_at_least(dice, pips, number, complication)
        return opend6_odds.p_meets_roll(dice, pips, roll, number, complication)

    def total_hits(self, against: tuple[tuple[int, int, int] | None, int],
                    total: int) -> float:
        """Chance, as the attacker sees it, that an attack ``total`` meets ``against``."""
        roll, number = against
        if roll is None:
            return 1.0 if total >= number else 0.0
        return opend6_odds.p_total_meets_roll(total, roll, number,
                                              self.rules.options.complication)

    # ------------------------------------------------------------ cautious and tactical
    def danger(self, enc: Encounter, actor: D6Fighter) -> float:
        """Chance of meeting the base difficulty times the average damage roll."""
        code, dmg = actor.attack_code, actor.damage_code
        complication = self.rules.options.complication
        return (opend6_odds.p_at_least(code.dice, code.pips, BASE_DIFFICULTY, complication)
                * opend6_odds.mean(dmg.dice, dmg.pips, opend6_odds.HARM_COUNTS_ONE))

    def attack_worth(self, enc: Encounter, actor: D6Fighter, target: D6Fighter) -> float:
        """Expected harm of one plain attack now: P(hit) x the expected harm of a hit.

        In wounds (``opend6``) or hit points (``opend6-hp``): ``Ruleset.expected_harm``, exact
        over the damage and resistance rolls, at most what ``target`` has left. 0 for an
        attack that would roll 0D (never declared).
        """
        return self._attack_worth(enc, actor, target, 0)

    def _attack_worth(self, enc: Encounter, actor: D6Fighter, target: D6Fighter,
                      penalty: int) -> float:
        dice = self.rules.combat.attack_dice(enc, actor, target, penalty=penalty)
        if dice < 1:
            return 0.0
        return (self.hit_chance(enc, actor, target, dice)
                * self.rules.expected_harm(actor, target))

    def defense_worth(self, enc: Encounter, actor: D6Fighter,
                      threats: dict[D6Fighter, float], kind: str) -> float:
        """Expected harm a defense (``kind``) declared alone spares ``actor`` this round.

        For each threat, one plain attack on ``actor`` (``attack_dice``; none from a foe that
        would roll 0D or must reload): its chance to hit the number ``actor`` offers without
        a defense roll (10 with cover and visibility), minus its chance against the defense
        roll's distribution (plus cover and visibility; a parry keeps no cover and does not
        stop shots), times the harm of its hit (``expected_harm``). Same unit as
        ``attack_worth``. Declared alone, the defense costs no other action a die; with an
        attack, both lose 1D (``attack_and_defend``).
        """
        return self._defense_worth(enc, actor, threats, kind, 0)

    def _defense_worth(self, enc: Encounter, actor: D6Fighter,
                       threats: dict[D6Fighter, float], kind: str, penalty: int) -> float:
        rules = self.rules
        complication = rules.options.complication
        kind, code = rules.combat.defense_code(actor, kind)
        roll = (code.dice + penalty + rules.health_penalty(enc, actor), code.pips,
                actor.encumbrance)
        parry = kind == "parry"
        spared = 0.0
        for e, n in threats.items():
            dice = rules.combat.attack_dice(enc, e, actor)
            if dice < 1 or self.needs_reload(e) or parry and e.weapon.ranged:
                continue
            pips = e.attack_code.pips
            bare = opend6_odds.p_at_least(
                dice, pips, rules.combat.target_number(enc, e, actor, None, False), complication)
            guarded = opend6_odds.p_meets_roll(
                dice, pips, roll, rules.combat.target_number(enc, e, actor, 0, parry), complication)
            spared += n * (bare - guarded) * rules.expected_harm(e, actor)
        return spared

    def defense_worth_at(self, enc: Encounter, actor: D6Fighter,
                         threats: dict[D6Fighter, float], kind: str, dice: int) -> float:
        """``defense_worth`` with ``dice`` more (or fewer) dice: a point's, or an action's."""
        return self._defense_worth(enc, actor, threats, kind, dice)

    def hit_chance_against(self, enc: Encounter, e: D6Fighter, actor: D6Fighter,
                           kind: str) -> Callable[[int], float] | None:
        """The chance ``e``'s plain attack meets ``actor``'s defense, by its total.

        None when that attack is not made on the defense (0D, a reload, a shot at a parry).
        """
        rules = self.rules
        kind, _ = rules.combat.defense_code(actor, kind)
        parry = kind == "parry"
        dice = rules.combat.attack_dice(enc, e, actor)
        if dice < 1 or self.needs_reload(e) or parry and e.weapon.ranged:
            return None
        pips = e.attack_code.pips
        offset = rules.combat.target_number(enc, e, actor, 0, parry)
        complication = rules.options.complication

        def chance(total: int) -> float:
            return opend6_odds.p_at_least(dice, pips, total + offset, complication)
        return chance

    def defense_kinds(self, enc: Encounter, actor: D6Fighter) -> tuple[str, ...]:
        """Dodge; parry with a melee weapon; block with a shield."""
        return (("dodge",) + (("parry",) if not actor.weapon.ranged else ())
                + (("block",) if actor.shield is not None else ()))

    def defense_kind(self, enc: Encounter, actor: D6Fighter, ranged: bool) -> str | None:
        """The active defense with the highest average roll, if that beats the 10 it replaces.

        A parry (melee only, not with a ranged weapon) loses the cover a dodge or block keeps,
        so it must beat 10 plus the cover; a block needs a shield.
        """
        return self._best_defense(enc, actor, ranged, 0)

    def _best_defense(self, enc: Encounter, actor: D6Fighter, ranged: bool,
                      penalty: int) -> str | None:
        complication = self.rules.options.complication
        health = self.rules.health_penalty(enc, actor)
        cover = COVER_DIFFICULTY[enc.field.cover(actor.pos)]
        options = [("dodge", actor.dodge_code, -actor.encumbrance)]
        if actor.shield is not None:
            options.append(("block", actor.block_code, -actor.encumbrance))
        if not ranged and not actor.weapon.ranged:
            options.append(("parry", actor.parry_code, -cover - actor.encumbrance))
        best, best_margin = None, DEFENSE_MARGIN
        for kind, code, shift in options:
            dice = code.dice + penalty + health
            if dice < 1:
                continue
            margin = opend6_odds.mean(dice, code.pips, complication) + shift - BASE_DIFFICULTY
            if margin > best_margin:
                best, best_margin = kind, margin
        return best

    def attack_and_defend(self, enc: Encounter, actor: D6Fighter, target: D6Fighter,
                          kind: str) -> bool:
        """Both at -1D, when that does more than the better of the two alone.

        By expected harm: the attack's worth plus the defense's, each rolled at -1D, against
        the larger of ``attack_worth`` and ``defense_worth`` (against the attacks expected on
        ``actor``: ``targets.attacks_expected``). The attack must keep 1D.
        """
        if self.rules.combat.attack_dice(enc, actor, target, penalty=-1) < 1:
            return False
        # an OpenD6 fight's fighters are all D6
        threats = cast("dict[D6Fighter, float]",
                       targets.attacks_expected(enc, actor, enc.enemies(actor)))
        both = (self._attack_worth(enc, actor, target, -1)
                + self._defense_worth(enc, actor, threats, kind, -1))
        alone = max(self._attack_worth(enc, actor, target, 0),
                    self._defense_worth(enc, actor, threats, kind, 0))
        return both > alone

    def while_closing(self, enc: Encounter, actor: D6Fighter,
                      target: D6Fighter) -> list[Intent]:
        """A shooter walking into range aims as it comes.

        The move is free and the aim its one action: the next shot gets +1D.
        """
        if actor.ranged and not self.needs_reload(actor) and actor.aim_at is not target:
            return [Aim(target)]
        return []

    def can_step_back_and_attack(self, enc: Encounter, actor: D6Fighter) -> bool:
        """The first move of a turn is free: a shooter with a ready weapon steps and shoots.

        Only when the shot rolls 1D or more wherever it lands (``least_attack_dice``).
        """
        return (actor.ranged and not self.needs_reload(actor)
                and self.rules.combat.least_attack_dice(enc, actor) >= 1)

    def wait_intents(self, enc: Encounter, actor: D6Fighter,
                     foes: list[D6Fighter]) -> tuple[list[Intent], str]:
        """Holding: defend when a shooter has it in range and a defense beats the 10."""
        shooters = space.shooters_on(enc, actor, foes)
        kind = self.defense_kind(enc, actor, ranged=True) if shooters else None
        if kind:
            return [Defend(kind)], f"{DEFENDS[kind]} {shooters[0].name}'s shots"
        return [], "holds its ground"

