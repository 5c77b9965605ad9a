"""OpenD6 (seed 004): rulesets ``opend6`` (wound levels) and ``opend6-hp`` (hit points).

Where each rule lives:
- dice codes, the wild die, points, wounds, hit points, ranges, modifiers: ``opend6_rules``;
  weapons and armor: ``opend6_catalog``; the native block, options and the fighter's dice
  codes: ``opend6_model``; exact odds for the AI: ``opend6_odds``;
- turn order (an Agility roll each, or a d6 per side, once per fight): ``OpenD6Ruleset.start``;
- a turn (all of a combatant's actions at its initiative, the multiple-action penalty,
  the free move and extra moves): ``OpenD6Ruleset.resolve``;
- attacks, active defenses, cover, visibility, pinned, aim, called shots, range bands,
  reloads: ``OpenD6Ruleset._attack`` and ``_defend``;
- damage against resistance: ``_damage``; wounds or hit points: ``_harm`` (the variant's hook);
- the AI's questions (reach, extra attacks, when to spend character and fate points):
  ``opend6_ai``; the solo log's text: ``opend6_log``.

Rulings not in the seed or RULES.md are marked "Ruling:" where they are applied.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from sim.ai import tactics
from sim.core.actions import Aim, Attack, Bide, Defend, Intent, Move, Reload, Retreat, TimedAction
from sim.core.combatant import Combatant, Status
from sim.rulesets.base import Ruleset, offsets_by_rank
from sim.rulesets.dice import roll
from sim.rulesets.opend6.advisor import OpenD6Advisor
from sim.rulesets.opend6.dice import roll_code
from sim.rulesets.opend6.fighter import (
    D6Fighter,
    OpenD6Block,
    WoundOptions,
    make_fighter,
    native_block,
)
from sim.rulesets.opend6.log import log_attack, log_turn, tn_reasons
from sim.rulesets.opend6.rules import (
    AIM_DICE,
    BLINDED_DICE,
    CALLED_SHOT_DICE,
    SIZE_STEP_DICE,
    RangeBand,
    WoundStatus,
    attack_hits,
    extra_move_difficulty,
    multiple_action_penalty,
    pool_with_points,
    range_band,
    target_number,
    wound_status,
    wounds_from_damage,
)
from sim.rulesets.registry import register

if TYPE_CHECKING:
    from sim.core.battlefield import Position
    from sim.core.engine import Encounter
    from sim.scenario.specs import MemberSpec

STUNNED = WoundStatus.STUNNED
_EPS = 1e-6  # a defense lapses just before the same moment of the next round
_MOVES = (Move, Retreat)
_FREE = (Move, Retreat, Bide)


@register
class OpenD6Ruleset(Ruleset):
    """OpenD6 as in seed 004's notes, with wound levels (5 wounds kill)."""

    name = "opend6"
    summary = "OpenD6: d6 pools with a wild die vs difficulty 10 or a defense roll; wound levels"
    seconds_per_round = 5.0
    native_key = "opend6"
    NativeBlock = OpenD6Block
    Options = WoundOptions
    Advisor = OpenD6Advisor
    supports = frozenset({Attack, Move, Retreat, Defend, Aim, Reload, Bide})

    # ------------------------------------------------------------ building and health
    def build(self, member: MemberSpec, pos: Position, rng: random.Random) -> D6Fighter:
        """Convert the neutral description (native block overrides), then set health."""
        f = make_fighter(member, pos, encumbrance=self.options.encumbrance)
        self._init_health(f, rng)
        return f

    def native_block_of(self, f: D6Fighter) -> dict[str, Any]:
        """The ``opend6:`` block that builds ``f`` (``fighter.native_block``)."""
        return native_block(f)

    def _init_health(self, f: D6Fighter, rng: random.Random) -> None:
        f.wounds = 0

    @staticmethod
    def _health(f: D6Fighter) -> int:
        """The health measure damage is counted in: wounds here, hit points in -hp."""
        return f.wounds

    def _harm(self, enc: Encounter, target: D6Fighter, damage: int, resistance: int) -> str:
        """Apply a hit's damage against the resistance total; return the log's words."""
        limit = self.options.wounds_limit
        taken = wounds_from_damage(damage, resistance, limit)
        if taken:
            target.wounds = min(limit, target.wounds + taken)
            self._set_level(enc, target, wound_status(target.wounds, limit))
        if enc.log is None:
            return ""
        return (f"{taken} wound{'s' if taken != 1 else ''} (damage >= {taken} x resistance)"
                if taken else "no wound")

    def _set_level(self, enc: Encounter, target: D6Fighter, level: WoundStatus) -> None:
        """Set a new wound level; a stun lasts the rest of this round.

        ``_damage`` takes the dead out, after logging the hit.
        """
        target.level = level
        if level is STUNNED:
            target.stun_round = enc.round

    def would_finish(self, actor: D6Fighter, target: D6Fighter) -> bool:
        """Whether a hit at average damage against average resistance takes ``target`` out."""
        res = max(1, target.resist_code.average)
        expected = max(1, actor.damage_code.average // res)
        return target.wounds + expected >= self.options.wounds_limit

    def one_from_death(self, target: D6Fighter) -> bool:
        """Whether one more wound kills ``target``."""
        return target.wounds >= self.options.wounds_limit - 1

    def health_lost(self, f: D6Fighter) -> float:
        """Wounds taken over the wounds that kill (0 fresh, 1 dead)."""
        return min(1.0, f.wounds / self.options.wounds_limit)

    # ------------------------------------------------------------ turn order
    def start(self, enc: Encounter) -> None:
        """Roll initiative once per fight and give each combatant its offset in a round.

        Individual: an Agility roll each, highest first; ties broken by the Agility code,
        then by a random draw (Ruling: turns come one after another in the seed, so a tie
        is never simultaneous, and scenario order gives no one an edge). Side option: a d6
        per side, ties broken by a random draw; a side's members all act at its turn.
        """
        rng, complication = enc.rng, self.options.complication
        keys = {}
        if self.options.initiative == "side":
            side_key = {name: (roll(rng, 6), rng.random()) for name in enc.sides}
            for f in enc.combatants:
                f.initiative = side_key[f.side][0]
                f.init_text = f"side d6 {f.initiative}"
                keys[f] = side_key[f.side]
        else:
            for f in enc.combatants:
                agility = f.attrs["agility"]
                r = roll_code(rng, agility.dice, agility.pips, complication=complication)
                f.initiative = r.total - f.encumbrance  # an Agility roll, like any other
                f.init_text = str(f.initiative)
                keys[f] = (f.initiative, agility.dice, agility.pips, rng.random())
        offsets = offsets_by_rank(list(keys.values()), self.seconds_per_round, leave_end=False)
        for f, k in keys.items():
            f.offset = offsets[k]

    def declaration_order(self, enc: Encounter, fighters: list[Combatant]) -> list[Combatant]:
        """Fastest first, as the seed's individual turn order declares."""
        return sorted(fighters, key=_by_offset)

    def plan_round(self, enc: Encounter, declared) -> list[TimedAction]:
        """One timed action per combatant: its whole turn, at its initiative's offset."""
        return [TimedAction(f.offset, f, intents[0], intents)
                for f, intents in declared if intents]

    # ------------------------------------------------------------ a turn
    def resolve(self, enc: Encounter, action: TimedAction) -> None:
        """Carry out a combatant's whole turn: every action it declared, in order."""
        action.done = True
        f: D6Fighter = action.actor
        intents: list[Intent] = action.payload
        if self._stale(enc, f, intents):
            # Ruling: the seed declares at each turn; the engine asks at the round's start,
            # so a plan made stale by faster combatants is declared again now.
            intents = enc.declare(f)
        f.shot_at = False  # it acts: no longer pinned
        moves = sum(1 for i in intents if type(i) in _MOVES)
        # the first move of a turn is free; biding is doing nothing
        count = sum(1 for i in intents if type(i) not in _FREE) + max(0, moves - 1)
        penalty = multiple_action_penalty(count)
        if enc.log is not None:
            log_turn(enc, f, intents, count, penalty)
        moved = 0
        for intent in intents:
            if not f.in_fight:
                break
            kind = type(intent)
            if kind is Attack:
                self._attack(enc, f, intent, penalty)
            elif kind is Move:
                self._move(enc, f, intent, penalty, moved)
                moved += 1
            elif kind is Retreat:
                if not moved or self._extra_move(enc, f, penalty, moved):
                    self.move_to(enc, f, intent, f.speed)
                moved += 1
            elif kind is Defend:
                self._defend(enc, f, intent.kind, penalty)
            elif kind is Aim:
                f.aim_at = intent.target
                if enc.log is not None:
                    enc.emit("aim", who=f.name, target=intent.target.name,
                             text=f"{f.name} aims at {intent.target.name} (+1D next attack).")
            elif kind is Reload:
                f.loaded = True
                if enc.log is not None:
                    enc.emit("reload", who=f.name,
                             text=f"{f.name} reloads the {f.weapon.name}.")

    def _stale(self, enc: Encounter, f: D6Fighter, intents: list[Intent]) -> bool:
        """A declared target is down, or a first attack's target is out of reach."""
        for intent in intents:
            kind = type(intent)
            if kind is Move:
                return not intent.target.in_fight
            if kind is Attack:
                target = intent.target
                return not target.in_fight or not tactics.in_reach(enc, f, target)
            if kind is Aim and not intent.target.in_fight:
                return True
        return False

    def health_penalty(self, enc: Encounter, f: D6Fighter) -> int:
        """Dice off action rolls for wounds (never on resistance): a stun lasts its round."""
        level = f.level
        if level is STUNNED:
            return -1 if f.stun_round == enc.round else 0
        return level.penalty

    def _retarget(self, enc: Encounter, f: D6Fighter) -> D6Fighter | None:
        """Ruling: a later action of a turn whose foe fell goes to the nearest foe."""
        return tactics.nearest_enemy(enc, f)

    # ------------------------------------------------------------ moving
    def _move(self, enc: Encounter, f: D6Fighter, intent: Move, penalty: int,
              extra: int) -> None:
        """The first move of a turn is free; the n-th extra move needs Agility vs 10 x n."""
        target = intent.target
        if not target.in_fight:
            target = self._retarget(enc, f)
            if target is None:
                return
        if extra and not self._extra_move(enc, f, penalty, extra):
            return
        self.walk_toward(enc, f, Move(target, intent.stop_at), f.speed)

    def _extra_move(self, enc: Encounter, f: D6Fighter, penalty: int, extra: int) -> bool:
        """Roll the n-th extra move of a turn: Agility against 10 x n; True when made."""
        code = f.move_code
        r = roll_code(enc.rng, code.dice + penalty + self.health_penalty(enc, f),
                      code.pips, complication=self.options.complication)
        need = extra_move_difficulty(extra) + f.encumbrance
        if enc.log is not None:
            enc.emit("roll", who=f.name, total=r.total, difficulty=need,
                     text=f"{f.name} runs (extra move {extra}): Agility {r} vs {need}"
                          f" -> {'made it' if r.total >= need else 'stumbles'}.")
        return r.total >= need

    # ------------------------------------------------------------ defending
    def _defend(self, enc: Encounter, f: D6Fighter, kind: str, penalty: int) -> None:
        """Roll an active defense; it replaces the 10 until this fighter's next turn.

        Ruling: a block without a shield, or a parry with a ranged weapon, is a dodge.
        Encumbrance (option) takes its +4 difficulty off every defense roll: dodge, parry
        and block are all Agility rolls.
        """
        if kind == "block" and f.shield is None or kind == "parry" and f.weapon.ranged:
            kind = "dodge"
        code = f.parry_code if kind == "parry" else f.block_code if kind == "block" \
            else f.dodge_code
        r = roll_code(enc.rng, code.dice + penalty + self.health_penalty(enc, f),
                      code.pips, complication=self.options.complication)
        total = r.total - f.encumbrance
        f.defense = total if total > 0 else 0
        f.defense_kind = kind
        f.defense_until = enc.env.now + self.seconds_per_round - _EPS
        if enc.log is not None:
            enc.emit("defend", who=f.name, defense=kind, total=f.defense,
                     text=f"{f.name} will {kind}: {r}"
                          f"{f' -{f.encumbrance} encumbrance' if r.total != total else ''}"
                          f" -> attacks on it must beat {f.defense} until its next turn.")

    def defense_against(self, enc: Encounter, actor: D6Fighter,
                         target: D6Fighter) -> tuple[int | None, bool]:
        """The target's defense roll facing this attack (None: the base 10), and parry."""
        if target.defense_until <= enc.env.now:
            return None, False
        if target.defense_kind == "parry":
            if actor.weapon.ranged:
                return None, False  # a parry stops melee attacks only
            return target.defense, True
        return target.defense, False

    def target_number(self, enc: Encounter, actor: D6Fighter, target: D6Fighter,
                       defense: int | None, parry: bool) -> int:
        """What ``actor``'s attack on ``target`` must reach now (``rules.target_number``)."""
        field = enc.field
        # Ruling: pinned (-5) is a target shot at since its last turn (option ``pinning``);
        # cover counts in melee too (the seed only keeps it off parries).
        return target_number(defense, parry=parry, cover=field.cover(target.pos),
                             visibility=field.visibility(target.pos),
                             pinned=self.options.pinning and target.shot_at,
                             # a melee attack is an Agility roll: encumbrance adds to it
                             extra=actor.weapon.difficulty
                             + (0 if actor.weapon.ranged else actor.encumbrance))

    # ------------------------------------------------------------ attacking
    def _attack(self, enc: Encounter, f: D6Fighter, intent: Attack, penalty: int) -> None:
        """One attack: pool, modifiers, points, the roll against the target number."""
        target: D6Fighter = intent.target
        log = enc.log
        if not target.in_fight:
            target = self._retarget(enc, f)
            if target is None or not tactics.in_reach(enc, f, target):
                if log is not None:
                    enc.emit("fizzle", who=f.name,
                             text=f"{f.name}'s attack finds no foe in reach.")
                return
        enc.record_attack(f)
        notes: list[str] = []
        band_dice, reason = self._in_range(enc, f, target, notes)
        if reason:
            if log is not None:
                enc.emit("miss", who=f.name, target=target.name,
                         text=f"{f.name} attacks {target.name}: miss ({reason}).")
            return
        dice = (f.attack_code.dice + penalty + self.health_penalty(enc, f) + band_dice
                + self._modifiers(f, target, intent, notes))
        cp, fate = self.advisor.points_to_spend(f, target) if f.policy.spends else (0, False)
        if cp or fate:
            notes.append(" and ".join(
                (["a character point +1D"] if cp else []) + (["a fate point x2"] if fate else [])))
        dice = pool_with_points(dice, cp, fate)
        r = roll_code(enc.rng, dice, f.attack_code.pips, complication=self.options.complication)
        defense, parry = self.defense_against(enc, f, target)
        tn = self.target_number(enc, f, target, defense, parry)
        pinned = self.options.pinning and target.shot_at
        weapon = f.weapon
        if weapon.ranged:
            f.loaded = not weapon.reload_actions
            target.shot_at = True
        hit = attack_hits(r.total, tn, opposed=defense is not None)
        if log is not None:
            log_attack(enc, f, target, dice=dice, notes=notes, r=r, defense=defense,
                       parry=parry, tn=tn, hit=hit, penalty=penalty,
                       health=self.health_penalty(enc, f),
                       why=tn_reasons(enc.field.cover(target.pos),
                                      enc.field.visibility(target.pos),
                                      pinned=pinned, parry=parry, extra=weapon.difficulty))
        if hit:
            enc.record_hit(f, self._damage(enc, f, target))

    @staticmethod
    def _in_range(enc: Encounter, f: D6Fighter, target: D6Fighter,
                  notes: list[str]) -> tuple[int, str]:
        """``(range band dice, why it cannot hit)``: the band, reach and a loaded weapon."""
        weapon = f.weapon
        dist = enc.field.distance(f.pos, target.pos)
        if not weapon.ranged:
            return 0, (f"out of reach at {dist:g} m" if dist > f.reach else "")
        band = range_band(dist, weapon)
        if band is RangeBand.OUT_OF_RANGE:
            return 0, f"out of range at {dist:g} m"
        if weapon.reload_actions and not f.loaded:
            return 0, f"the {weapon.name} is not loaded"
        if band.dice:
            notes.append(f"{band.name.lower().replace('_', ' ')} {band.dice:+d}D")
        return band.dice, ""

    @staticmethod
    def _modifiers(f: D6Fighter, target: D6Fighter, intent: Attack, notes: list[str]) -> int:
        """Dice from blindness, a called shot and aiming (an aim is spent by any attack)."""
        dice = 0
        if f.blinded:
            dice += BLINDED_DICE
            notes.append(f"blinded {BLINDED_DICE}D")
        if intent.called:
            dice += CALLED_SHOT_DICE
            notes.append(f"called shot {CALLED_SHOT_DICE}D")
        if f.aim_at is not None:
            if f.aim_at is target:
                dice += AIM_DICE
                notes.append(f"aimed +{AIM_DICE}D")
            f.aim_at = None
        return dice

    def _damage(self, enc: Encounter, f: D6Fighter, target: D6Fighter) -> int:
        """Damage (Strength + weapon, or the weapon alone) against Endurance + armor.

        Returns what the hit took off: wounds, or hit points in ``opend6-hp``.
        """
        rng, complication = enc.rng, self.options.complication
        code = f.damage_code
        scale = (f.size - target.size) * SIZE_STEP_DICE
        dmg = roll_code(rng, code.dice + scale, code.pips, complication=complication)
        res_code = target.resist_code  # wound penalties never apply to resistance
        res = roll_code(rng, res_code.dice, res_code.pips, complication=complication)
        before = self._health(target)
        words = self._harm(enc, target, dmg.total, res.total)
        dealt = abs(self._health(target) - before)
        if enc.log is not None:
            enc.emit("damage", who=f.name, target=target.name, damage=dmg.total,
                     resistance=res.total, state=target.state(),
                     text=f"    damage {code}: {dmg} vs {target.name}'s resistance "
                          f"{res_code}: {res} -> {words}; {target.name}: {target.state()}.")
        if target.level is WoundStatus.DEAD:
            enc.take_out(target, Status.DEAD, target.state())
        return dealt


def _by_offset(f: D6Fighter) -> float:
    return f.offset
