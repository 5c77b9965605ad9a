"""OpenCore d100 (seed 001): ruleset ``opencore``.

Here: initiative order and the one action per round (``plan_round``); the attack's checks
(``_attack``), then the strike with both d100 rolls, fumbles, damage and criticals (the part
it holds, ``strikes``: ``strike.py``); picking up and reloading (``_reload``); what happens
after and between fights (``recovery.py``). The data is in ``tables.py`` and
``criticals.py``, the pure rules in ``rules.py``, the blocks in ``blocks.py``, the fighter,
stuns and knockouts in ``fighter.py``, hit points and bleeding in ``health.py``, the log's
lines in ``log.py``.
Rulings not in RULES.md or the seed are marked "Ruling:" where they are applied.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, cast

from sim.core import arms, space
from sim.core.actions import Aim, Attack, Bide, Defend, Move, Reload, Retreat, TimedAction, Withdraw
from sim.core.words import count
from sim.registry import register
from sim.rulesets.base import Ruleset, offsets_by_rank
from sim.rulesets.dice import roll
from sim.rulesets.opencore import recovery
from sim.rulesets.opencore.advisor import OpenCoreAdvisor
from sim.rulesets.opencore.blocks import OpenCoreBlock, OpenCoreOptions
from sim.rulesets.opencore.coverage import COVERAGE
from sim.rulesets.opencore.fighter import (
    RUN_DEFENSE_DIVISOR,
    RUN_METRES,
    SHOT_IN_MELEE,
    UNARMED,
    OpenCoreFighter,
    converted,
    place_penalties,
)
from sim.rulesets.opencore.health import Fallen
from sim.rulesets.opencore.log import (
    intent_text,
    weapon_name,
)
from sim.rulesets.opencore.rules import (
    BIDE_BONUS,
    DEFENSE_MULTIPLIER,
    STUN_DEFENSE_PENALTY,
    fortitude_score,
    hit_points,
    rolled_initiative,
)
from sim.rulesets.opencore.strike import Strikes, shots_this_round

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.battlefield import Position
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter
    from sim.core.harm import Harm
    from sim.scenario.specs import MemberSpec

GROUP_DIE = 6


@register
class OpenCoreRuleset(Ruleset[OpenCoreFighter]):
    """OpenCore d100: opposed d100 rolls, initiative, fumbles, armor and critical tables."""

    name = "opencore"
    coverage = COVERAGE
    summary = ("OpenCore d100: opposed 1d100 + skill rolls, initiative by weapon speed, "
               "armor that wears out, fumbles and critical tables")
    legend = ("Reading the log: an attack is d100 + attack skill against the defender's d100 "
              "+ defense (Evade), the higher wins, a tie to the defender; 01-05 on either "
              "d100 is a fumble. Damage goes to the armor's rating first, then Toughness, "
              "then HP (HP 40/60); reaching HP rolls a critical. At 0 HP unconscious, below "
              "0 bleeding 1 HP a round, dead at -CON. Penalties to a roll say why.")
    seconds_per_round = 5.0
    native_key = "opencore"
    NativeBlock = OpenCoreBlock
    Options = OpenCoreOptions
    Advisor = OpenCoreAdvisor
    supports = frozenset({Attack, Move, Retreat, Withdraw, Defend, Bide, Reload, Aim})
    ARMS = ("weapon", "fire", "held", "loaded", "attack_skill", "init_bonus",
            "ranged", "reach")  # what a drawn sidearm changes
    max_actions = 1  # one action per round (seed)
    # this encounter's fallen that bleed without a process each (``health.Fallen``); None
    # with a log, or outside ``Encounter.run``
    fallen: Fallen | None = None
    morale_may_end = False  # someone's morale may break (the fight may end after a round)
    options: OpenCoreOptions

    def __init__(self, options: OpenCoreOptions | None = None):
        super().__init__(options)
        self.strikes = Strikes(self)  # an attack as it lands: dice, damage, criticals

    # ------------------------------------------------------------ building
    def build(self, member: MemberSpec, pos: Position, rng: random.Random) -> OpenCoreFighter:
        """A fighter from the member's numbers; HP from the native block or the hp rule."""
        n = converted(member)
        hp = n.hp if n.hp is not None else hit_points(n.con, self.options.hp_rule, rng)
        return OpenCoreFighter(member, pos, n, hp)

    def native_block_of(self, f: OpenCoreFighter) -> dict[str, Any]:
        """Scores, HP, Toughness and gear of a built fighter, as an ``opencore:`` block."""
        block: dict[str, Any] = {
            "abilities": dict(f.abilities), "skills": dict(f.skills), "hp": f.max_hp,
            "toughness": f.toughness, "weapon": f.weapon.key, "armor": f.armor.key,
            "mode": f.fire.mode.value}
        if f.fire.damage is not None:
            block["damage"] = str(f.fire.damage)
        return block

    def start(self, enc: Encounter) -> None:
        """Without a log, the fallen bleed on a list (``health.Fallen``)."""
        self.fallen = Fallen(self.seconds_per_round) if enc.log is None else None
        self.morale_may_end = any(c.doctrine.morale is not None for c in enc.combatants)

    def harm_lasts(self, target: OpenCoreFighter, harm: Harm) -> bool:
        """Hit points lost, and armor or Toughness worn away: none comes back in the fight.

        The seed's armor damage rating is used up by hits, and Toughness with it, so even
        a hit that reaches no hit points brings the next one nearer (RULES.md ``opencore``).
        """
        return harm.lasting > 0 or harm.worn > 0 or not target.in_fight

    def end_round(self, enc: Encounter) -> None:
        """The fallen's ticks due, when the fight may end now (``health.Fallen``).

        It may end at a round's end by morale, the round limit, or a flight that gets away
        (``Encounter.escapes``: anyone in flight, by morale or by choice).
        """
        fallen = self.fallen
        if fallen is not None and fallen.fighters and (
                enc.sides_left <= 1 or self.morale_may_end
                or enc.round >= enc.scenario.max_rounds
                or any(c.fleeing and c.in_fight for c in enc.combatants)):
            fallen.catch_up(enc)

    # ------------------------------------------------------------ after and between fights
    def aftermath(self, enc: Encounter, tended: frozenset[OpenCoreFighter]) -> None:
        """Bleeding runs on after the fight (``recovery.aftermath``)."""
        recovery.aftermath(enc, tended, self.fallen)

    def carry(self, old: OpenCoreFighter, new: OpenCoreFighter) -> None:
        """HP, armor, Toughness, injuries and an empty weapon last (``recovery.carry``)."""
        recovery.carry(old, new)

    def recover(self, f: OpenCoreFighter, rest: str, rng: random.Random) -> list[str]:
        """Reload, Toughness, and at a long rest armor and HP (``recovery.recover``)."""
        return recovery.recover(f, rest)

    def fit(self, f: OpenCoreFighter) -> bool:
        """Alive with hit points above 0 (``recovery.fit``)."""
        return recovery.fit(f)

    # ------------------------------------------------------------ planning
    def declaration_order(self, enc: Encounter,
                          fighters: list[OpenCoreFighter]) -> list[OpenCoreFighter]:
        """Drawn each round (``Ruleset.declaration_order``); the knocked out declare nothing.

        RULES.md "Down for a while is not out": a helpless fighter is in the fight but
        cannot act, so it gets no turn (not even a defense action).
        """
        return super().declaration_order(enc, [f for f in fighters if not f.knocked_out])

    def declaration(self, enc: Encounter, f: OpenCoreFighter, intents: list[Intent]) -> str:
        """The one action of the round, in OpenCore's words: ``an attack on X``."""
        return intent_text(intents[0], f, enc.field)

    def plan_round(self, enc: Encounter, declared: list[tuple[OpenCoreFighter, list[Intent]]]
                   ) -> list[TimedAction[int]]:
        """Roll initiative and give each fighter its one action, highest initiative first.

        Distinct initiative values get evenly spaced offsets; equal values are simultaneous
        (ruling). A fighter that declared nothing still gets its turn when a defense action or
        a stumble waits for it to end (``intent`` None).
        """
        rng = enc.rng
        group = self.options.initiative == "group"
        if group:
            side_roll = {name: roll(rng, GROUP_DIE) for name in enc.sides}
        actions: list[TimedAction[int]] = []
        for f, intents in declared:
            if not intents and not (f.defending or f.stumbling):
                f.bided = False
                continue
            if group:
                # Ruling: under group initiative a bide adds its +20 to the side's 1d6.
                f.init = side_roll[f.side] + (BIDE_BONUS if f.bided else 0)
            else:
                f.init = rolled_initiative(rng, initiative_now(f), f.bided)
            f.bided = False
            turn = f.turn
            if turn is None:  # its first turn: the action it takes every round from now on
                turn = f.turn = TimedAction(0.0, f, None, 0)
            # One action per round: anything declared after the first is dropped.
            turn.intent, turn.payload, turn.done = intents[0] if intents else None, f.init, False
            actions.append(turn)
        if self.fallen is not None and enc.sides_left <= 1:
            # a surrender ended it: the fight ends at the first action, which may not come
            self.fallen.keep_time(enc)
        if not actions:
            return actions
        rank = offsets_by_rank([a.payload for a in actions], self.seconds_per_round)
        for a in actions:
            a.offset = rank[a.payload]
        if enc.log is not None:
            order = sorted(actions, key=lambda a: -a.payload)
            enc.emit("initiative", order=[[a.actor.name, a.payload] for a in order],
                     text="Initiative" + (" (group)" if group else "") + ": " + ", ".join(
                         f"{a.actor.name} {a.payload}" for a in order) + ".")
        return actions

    # ------------------------------------------------------------ resolving
    def resolve(self, enc: Encounter, action: TimedAction[int]) -> None:
        """Carry out a fighter's one action of the round (or just end its turn)."""
        action.done = True
        f = action.actor
        if TYPE_CHECKING:  # ``build`` made every fighter of the fight (no call every action)
            f = cast(OpenCoreFighter, f)
        # Its turn: a defense action, a run and a stumble last "until next turn".
        f.defending, f.running, f.stumbling = False, False, 0
        if f.knocked_out:  # knocked out after it declared: helpless, it does nothing
            if enc.log is not None and action.intent is not None:
                enc.emit("helpless", who=f.name,
                         text=f"{f.name} is knocked out and cannot act.")
        else:
            self._act(enc, f, action.intent, True)
        if enc.sides_left <= 1 and self.fallen is not None:
            self.fallen.catch_up(enc)  # the fight ends in this instant

    def _act(self, enc: Encounter, f: OpenCoreFighter, intent: Intent | None,
             may_redecide: bool) -> None:
        """One declared action; an attack that cannot be made is declared anew once.

        Ruling (issue "actions that find a target"): a fighter acts at its own initiative,
        so an attack whose foe is already down, or that a stun taken since the declaration
        forbids, is not thrown away: the fighter decides again at its turn, as things stand
        (``_redecide``), and does what it then declares (another foe in reach, a move, a
        defense).
        """
        log = enc.log
        # ``type(intent) is``: as fast as a lookup, and the checker narrows ``intent`` by it
        # (a ``match`` costs 1% of a batch here)
        if type(intent) is Attack:
            target = intent.target
            if TYPE_CHECKING:  # as every fighter of the fight (no call every attack)
                target = cast(OpenCoreFighter, target)
            if may_redecide and (f.stun or not target.in_fight):
                self._redecide(enc, f, target)
            else:
                self._attack(enc, f, target)
            return
        if type(intent) is Move:
            self.walk_toward(enc, f, intent, self._stride(f, intent.run))
            return
        kind = type(intent)  # the rarer ones tell by it once (``type(intent) is`` narrows)
        if kind is Reload:
            self._reload(enc, f)
        elif type(intent) is Retreat:
            self.move_to(enc, f, intent, self._stride(f, intent.run))
        elif type(intent) is Withdraw:
            self.withdraw(enc, f, intent)
        elif kind is Defend:
            f.defending = True
            if log is not None:
                enc.emit("defend", who=f.name, text=f"{f.name} concentrates on defense "
                         f"(evade {f.evade} doubled until its next action).")
        elif kind is Bide:
            f.bided = True
            if log is not None:
                enc.emit("bide", who=f.name, text=f"{f.name} bides (+{BIDE_BONUS} initiative "
                         f"next round).")
        elif kind is Aim and log is not None:
            # Ruling: OpenCore has no aiming; an Aim is a skill use that changes nothing.
            enc.emit("skill", who=f.name, text=f"{f.name} takes aim (no effect in OpenCore).")

    def run_metres(self, f: OpenCoreFighter) -> float:
        """RULES.md (amended): a run covers ``RUN_METRES`` (12 m); option ``run: false``, a move."""
        return RUN_METRES if self.options.run else f.speed

    def _stride(self, f: OpenCoreFighter, run: bool) -> float:
        """Metres of a move; a run's, its defense halved until its next action."""
        if run and self.options.run:
            f.running = True
            return RUN_METRES
        return f.speed

    def free_attack(self, enc: Encounter, f: OpenCoreFighter, target: OpenCoreFighter) -> None:
        """``f``'s ordinary attack on a foe leaving its reach (RULES.md "Leaving melee").

        Not its one action of the round: it still takes that at its initiative.
        """
        self._attack(enc, f, target)

    def _redecide(self, enc: Encounter, f: OpenCoreFighter, foe: Combatant) -> None:
        """``f``'s declared attack on ``foe`` cannot be made: it declares again and acts.

        Its AI (or its player) is asked as at a declaration (``Encounter.declare``); the
        advisor answers that a stunned fighter cannot hit (``OpenCoreAdvisor.can_hit``), so
        it moves or defends. The new declaration is carried out as declared, never asked a
        third time.
        """
        why = (f"{foe.name} {foe.status.phrase(already=True)}" if not foe.in_fight
               else "it is stunned and cannot attack")
        intents = enc.declare(f)
        if not f.in_fight:  # it gave up instead (``Encounter.declare`` said so)
            return
        intent = intents[0] if intents else None
        if enc.log is not None:
            what = (f"declares {intent_text(intent, f, enc.field)} instead ({f.why})"
                    if intent is not None else f"does nothing ({f.why})")
            enc.emit("redeclare", who=f.name, text=f"{f.name}'s attack on {foe.name} cannot "
                     f"be made ({why}): {what}.")
        self._act(enc, f, intent, False)

    def _reload(self, enc: Encounter, f: OpenCoreFighter) -> None:
        """The Reload action: pick a dropped weapon up, else reload a single-shot weapon.

        Ruling: picking up comes first and is the whole action; a dropped crossbow (it was
        dropped by the fumble of the shot that spent its bolt) takes a second action to
        reload.
        """
        if not f.held:
            f.held, event, text = True, "pickup", f"picks up the {weapon_name(f.weapon)}"
        elif not f.loaded:
            f.loaded, event, text = True, "reload", f"reloads the {weapon_name(f.weapon)}"
        else:
            event, text = "pickup", "readies its weapon"
        if enc.log is not None:
            enc.emit(event, who=f.name, text=f"{f.name} {text}.")

    def _attack(self, enc: Encounter, f: OpenCoreFighter, target: OpenCoreFighter) -> None:
        """The Attack action: checks that may stop it, then one strike."""
        log = enc.log
        if not target.in_fight and enc.finds_down(f, target):  # a call only when down
            return
        if f.stun:
            if log is not None:
                enc.emit("stunned", who=f.name, text=f"{f.name} is stunned and cannot attack.")
            return
        if arms.none_to_throw(f):  # thrown its last this round
            if log is not None:
                enc.emit("miss", who=f.name, target=target.name, text=f"{f.name} has no "
                         f"{weapon_name(f.weapon)} left to throw at {target.name}.")
            return
        if f.held and not f.loaded:
            # Ruling: the AI declares no shot with an empty crossbow, but an extra attack can
            # spend the bolt after the declaration: the action then goes to reloading.
            self._reload(enc, f)
            return
        most = space.shots_allowed(f)
        if f.held and most is not None and shots_this_round(enc, f) >= most:
            # RULES.md "Rate of fire": an extra attack (a foe's fumble) came first this round
            # and loosed what the weapon looses in one: the declared shot is not made
            if log is not None:
                enc.emit("miss", who=f.name, target=target.name,
                         text=f"{f.name} has loosed the {count(most, 'shot', 'shots')} its "
                              f"{weapon_name(f.weapon)} looses a round: no shot at "
                              f"{target.name}.")
            return
        if not space.in_reach(enc, f, target):
            enc.record_attack(f)  # resolved, as in every ruleset: the target moved out of reach
            if log is not None:
                enc.emit("miss", who=f.name, target=target.name,
                         text=f"{f.name} attacks {target.name}: out of reach.")
            return
        self.strikes.strike(enc, f, target, 0)

    def attack_skill(self, enc: Encounter, f: OpenCoreFighter, target: Combatant,
                     held: bool | None = None) -> int:
        """Attack skill for this strike.

        The weapon's class skill, less location penalties, less cover and visibility for
        ranged attacks (ruling, option ``cover``).

        Args:
            enc: the encounter (cover and visibility at the target).
            f: the attacker.
            target: the defender.
            held: as if ``f`` held (True) or had dropped (False) its weapon; None: as it
                stands. Without it, ``f`` fights hand to hand.
        """
        base, injuries, cover, visibility, pressed = self.attack_terms(enc, f, target, held)
        return base - injuries - cover - visibility - pressed

    def attack_terms(self, enc: Encounter, f: OpenCoreFighter, target: Combatant,
                     held: bool | None = None) -> tuple[int, int, int, int, int]:
        """The skill an attack starts from, and its penalties.

        Injuries, cover, visibility, and a shot with a foe in reach (RULES.md "Shooting in
        melee", ``SHOT_IN_MELEE``). Plain numbers (this runs for every attack of a batch);
        the log names them.
        """
        armed = f.held if held is None else held
        # unarmed: never declared in practice, the AI picks the weapon up first
        base = f.attack_skill if armed else f.unarmed_skill
        if armed and f.ranged:
            pressed = SHOT_IN_MELEE if space.pressed(enc, f) else 0
            if self.options.cover:
                cover, visibility = place_penalties(enc.field, target.pos)
                return base, f.skill_penalty, cover, visibility, pressed
            return base, f.skill_penalty, 0, 0, pressed
        return base, f.skill_penalty, 0, 0, 0

    def defense_skill(self, f: OpenCoreFighter, defending: bool | None = None) -> int:
        """Defense for one roll: Evade (doubled by a defense action), then the penalties.

        The sum of ``defense_terms``.

        Args:
            f: the defender.
            defending: as if it had (True) or had not (False) taken the defense action;
                None: as it stands.
        """
        evade, injuries, stumble, stun, shield = self.defense_terms(f, defending)
        return evade - injuries - stumble - stun + shield

    def defense_terms(self, f: OpenCoreFighter,
                      defending: bool | None = None) -> tuple[int, int, int, int, int]:
        """A defense roll's bonus, term by term, for ``defense_skill`` and the log's words.

        Evade (doubled by a defense action, halved by a run); the penalties of injuries, a
        stumble and a stun; a shield's bonus.
        """
        if defending is None:
            defending = f.defending
        evade = f.evade * DEFENSE_MULTIPLIER if defending else f.evade
        if f.running:  # RULES.md (amended): a runner's defense is halved
            evade //= RUN_DEFENSE_DIVISOR
        return (evade, f.skill_penalty,
                f.stumbling, STUN_DEFENSE_PENALTY if f.stun else 0,
                self.options.shield_bonus if f.shield else 0)

    def fortitude(self, target: OpenCoreFighter) -> int:
        """The damage dice ``target``'s fortitude removes: 0 unless the option is on."""
        return fortitude_score(target.con) if self.options.fortitude else 0


def initiative_now(f: OpenCoreFighter) -> int:
    """What initiative adds to the d20 this round: the speed factor of what is in hand.

    ``init_bonus`` holds the weapon's speed factor; a fighter whose weapon is on the ground
    (a fumble dropped it) fights hand to hand until it picks it up, at the hand-to-hand
    speed factor (until this version the dropped weapon's stayed in initiative).
    """
    if f.held:
        return f.init_bonus
    return f.init_bonus - f.weapon.speed_factor + UNARMED.speed_factor

