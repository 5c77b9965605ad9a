"""How an ORE-family ruleset resolves a set's action when its moment comes.

The part of ``OreRuleset`` (which is an ``OreResolution``) that carries out each timed
action: an attack with its set (a miss and why, or a hit marked on the wound boxes), a
move or a run, a withdraw, a reload, a defense standing ready, and the free attack a foe
leaving reach is given. B-Grade overrides the hit's marks and the miss test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from sim.core import arms, moving, space
from sim.core.actions import (
    Attack,
    Defend,
    Intent,
    Move,
    Reload,
    Retreat,
    TimedAction,
    Withdraw,
)
from sim.core.combatant import Status
from sim.core.harm import Harm
from sim.core.words import count
from sim.rulesets.base import Ruleset
from sim.rulesets.dice import roll_pool
from sim.rulesets.ore import choices
from sim.rulesets.ore.catalog import LOCATION_BY_HEIGHT, LOCATION_NAMES, TORSO
from sim.rulesets.ore.fighter import OF, DifficultyOptions, OreFighter
from sim.rulesets.ore.harm import lasts
from sim.rulesets.ore.log import WORDS, spilled_text
from sim.rulesets.ore.rules import (
    RolledSet,
    arms_ok,
    best_set,
    gobble,
    hit_costs_a_die,
    parry_implement,
)
from sim.rulesets.ore.sets import Set, find_sets

if TYPE_CHECKING:
    from sim.core.engine import Encounter
    from sim.rulesets.ore.body import Body
    from sim.rulesets.ore.planner import KeptPlans


class OreResolution(Ruleset[OF]):
    """The resolving half of an ORE-family ruleset (``OreRuleset`` sets what it reads)."""

    # ORE's or B-Grade's model (``OreOptions``, ``BGradeOptions``): the shared code reads its
    # difficulty alone, which the base's plain BaseModel does not promise
    options: DifficultyOptions  # type: ignore[assignment]
    planner: KeptPlans[OF]
    _always_hits: bool  # ORE's own miss test with no difficulty: a surviving set hits
    in_time: Callable[..., bool]  # when a defense set gobbles in time

    if TYPE_CHECKING:
        def set_worth(self, f: OF) -> Callable[[Intent, Set], float] | None:
            """What a set is worth to ``f``'s attack (``OreRuleset.set_worth``)."""

        @staticmethod
        def speed(s: Set) -> tuple[int, ...]:
            """A set's speed (``OreRuleset.speed``)."""

    # ------------------------------------------------------------ resolving
    def resolve(self, enc: Encounter, action: TimedAction[RolledSet]) -> None:
        """Carry out one set's action: attack, move, retreat, reload or stand ready."""
        action.done = True
        intent = action.intent
        f = action.actor
        if TYPE_CHECKING:  # built by ``build`` (no cast call on every action)
            f = cast("OF", f)
        # ``type(intent) is``, not ``match``: this runs for every action, and a class
        # pattern costs twice as much (mypy narrows either)
        if type(intent) is Attack:
            self._attack(enc, action, f, intent)
            return
        kind = type(intent)  # the others tell by it once; ``type(intent) is`` where it narrows
        if kind is Reload:
            f.loaded = True
            if enc.log is not None:
                enc.emit("reload", who=f.name, text=f"{f.name} reloads the {f.weapon.name}.")
        elif kind is Move or kind is Retreat:
            if action.payload.height and action.payload.width < 2:
                # a move rolled with other actions needs its Run set: broken, it does not happen
                if enc.log is not None:
                    enc.emit("move", who=f.name,
                             text=f"{f.name}'s move fails: its set was broken.")
            elif type(intent) is Move:
                self.walk_toward(enc, f, intent,
                                 self.run_metres(f) if intent.run else self._metres(f))
            elif type(intent) is Retreat:
                self.move_to(enc, f, intent,
                             self.run_metres(f) if intent.run else self._metres(f))
        elif type(intent) is Withdraw:
            self.withdraw(enc, f, intent)
        elif type(intent) is Defend and enc.log is not None:
            d = action.payload
            text = (f"{f.name} stands ready to {intent.kind} with {d} "
                    f"({d.width} gobble dice of height {d.height})." if d.width >= 2 else
                    f"{f.name}'s {intent.kind} set was broken.")
            enc.emit("defend", who=f.name, text=text)

    def run_metres(self, f: OF) -> float:
        """A run: twice a move (RULES.md, 20 m), halved like a move by a useless leg."""
        return 2 * self._metres(f)

    def free_attack(self, enc: Encounter, f: OF, target: OF) -> None:
        """``f``'s ordinary attack on a foe leaving its reach: its pool alone, the best set.

        RULES.md "Leaving melee": not an action, so no die off for other actions and
        nothing ``f`` declared is spent; rolled now, resolved as any attack with that set
        (the target's declared defenses gobble it if in time).
        """
        attack = target.plain_attack
        p = self.planner.plan(enc, f, [attack])
        faces = roll_pool(enc.rng, p.dice)
        sets = find_sets(faces)
        if enc.log is not None:
            shown = sorted(faces, reverse=True)
            enc.emit("roll", who=f.name, dice=shown, sets=[str(s) for s in sets],
                     text=f"{f.name} rolls {p.dice}d for the free attack: "
                          f"{' '.join(map(str, shown))} -> "
                          f"{', '.join(map(str, sets)) or 'no set, a miss'}.")
        if not sets:
            enc.record_attack(f)
            return
        s = best_set(attack, sets, self.set_worth(f))
        self._attack(enc, TimedAction(enc.now, f, attack, RolledSet(s, self.speed(s))), f,
                     attack)

    @staticmethod
    def _metres(f: OreFighter[Any]) -> float:
        """Ruling: one useless leg halves movement; with none usable the fighter cannot move."""
        legs = f.wounds.usable_legs()
        return f.speed if legs == 2 else f.speed / 2 if legs == 1 else 0.0

    def _attack(self, enc: Encounter, action: TimedAction[RolledSet], f: OF,
                intent: Attack) -> None:
        """Resolve ``f``'s attack ``intent`` with its set: a miss, and why, or a hit."""
        target = intent.target
        if TYPE_CHECKING:  # a fighter of this ruleset (no cast call on every attack)
            target = cast("OF", target)
        s = action.payload
        log = enc.log
        if not target.in_fight and enc.finds_down(f, target, s):  # a call only when down
            return
        enc.record_attack(f)
        width = s.width
        reason = ""
        loosed = False
        if not f.loaded:
            reason = f"the {f.weapon.name} is not loaded"
        elif arms.none_to_throw(f):
            reason = f"no {f.weapon.name} left to throw"
        elif not arms_ok(f):
            reason = "no usable arm"
        elif not space.in_reach(enc, f, target):
            reason = "out of reach"
        else:  # the blow is struck, the bolt loosed: spent, hit or miss
            loosed = True
            if f.weapon.reload:
                f.loaded = False
            if f.throws_left is not None:  # a thrown weapon is spent as a bolt is
                arms.thrown(f)
            if width < 2:
                reason = "its set was broken"
        gobbled = 0
        if not reason and target.defenses:
            width, gobbled = gobble(
                width, s.height, s.key, target.defenses, melee=not f.weapon.ranged,
                unarmed_attack=f.weapon.unarmed, shield=target.shield,
                can_parry=parry_implement(target), arms=arms_ok(target),
                timely=self.in_time)
            if width < 2:
                reason = f"{target.name} gobbles {count(gobbled, 'die', 'dice')}"
        if not reason and not self._always_hits:
            reason = self._miss_reason(width, s)
        if reason:
            if log is not None:
                enc.emit("miss", who=f.name, target=target.name, set=str(s),
                         text=f"{s} {f.name} attacks {target.name}: miss ({reason}).")
        else:
            enc.record_hit(f, target, self._damage(enc, f, target, width, s, gobbled))
        if f.weapon.ranged and loosed:  # RULES.md "Shooting in melee": a foe in reach strikes
            moving.shot_in_melee(enc, f)

    def _miss_reason(self, width: int, s: RolledSet) -> str:
        """Why a set that survived the defense still fails ("" when it hits).

        ORE: a set succeeds only if its height reaches the difficulty (``options.ore``).
        """
        difficulty = self.options.difficulty
        if s.height < difficulty:
            return f"height {s.height} is below the difficulty {difficulty}"
        return ""

    def _damage(self, enc: Encounter, f: OF, target: OF, width: int,
                s: RolledSet, gobbled: int) -> Harm:
        """Mark a hit's Killing and Shock on ``target``; returns them, where they landed."""
        body: Body = target.wounds  # ORE's own: hit locations (B-Grade has its ``_damage``)
        loc = LOCATION_BY_HEIGHT[s.height]
        killing, shock = f.weapon.damage.roll(width)
        struck = body.landing(loc)  # a useless limb passes the hit to the torso
        ar = max(0, target.armor[struck] - f.weapon.ap)
        killing, shock = max(0, killing - ar), max(0, shock - ar)
        # what a filling limb will pass on to the torso, for the log (before the hit marks it)
        spilled = spilled_text(body, loc, killing, shock) if enc.log is not None else ""
        marked = sum(body.killing)  # Shock with no room left becomes Killing: count after
        landed = body.take(loc, killing, shock)
        marked = sum(body.killing) - marked
        # hit before acting: only a hit that marked a box (``hit_costs_a_die``); nothing to
        # lose with no set pending
        lost = (choices.lose_die(enc, target, s.key)
                if target.sets and hit_costs_a_die(killing + shock) else None)
        if enc.log is not None:
            where = LOCATION_NAMES[loc] + ("" if landed == loc else
                                           f" (useless, to the {LOCATION_NAMES[landed]})")
            if landed != TORSO:  # the limb filled up: what had no room there went on
                where += spilled
            text = (f"{s} {f.name} hits {target.name} in the {where}"
                    f"{f' at width {width} after {gobbled} gobbled' if gobbled else ''}: "
                    + (f"{killing} Killing, {shock} Shock (AR {ar})" if killing or shock
                       else f"stopped by armor (AR {ar})")
                    + f" -> {body.summary()}.")
            if lost is not None:
                text += (f" {target.name} loses a die from the set of its "
                         f"{WORDS.text(lost.intent)} (now {lost.payload}).")
            enc.emit("hit", who=f.name, target=target.name, set=str(s), width=width,
                     location=LOCATION_NAMES[landed], killing=killing, shock=shock, armor=ar,
                     text=text)
        if body.dead:
            enc.take_out(target, Status.DEAD, "head or torso full of Killing")
        elif body.unconscious:
            enc.take_out(target, Status.UNCONSCIOUS, "head full")
        elif body.beaten and not self.options.lethal_unarmed:
            # ruling "beaten" (RULES.md, amended): out of the fight, so nobody strikes it
            # again, unarmed or not (``Encounter.finds_down``)
            enc.take_out(target, Status.UNCONSCIOUS, "beaten: torso full of Shock")
        return Harm(marked, killing + shock - marked, LOCATION_NAMES[landed])

    def harm_lasts(self, target: OF, harm: Harm) -> bool:
        """Killing; Shock on the head or torso (``ore.harm.lasts``); a hit that took it out."""
        return lasts(harm) or not target.in_fight
