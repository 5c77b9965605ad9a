"""OpenD6 (seed 004): what ``opend6`` (wound levels, ``wounds``) and ``opend6-hp`` (``hp``) share.

Where each rule lives:
- dice codes and the wild die: ``dice``; points, wounds, hit points, ranges, modifiers:
  ``rules``; weapons and armor: ``catalog``; the native block, options and the fighter's dice
  codes: ``fighter``; exact odds for the AI: ``odds``;
- turn order (an Agility roll each, or a d6 per side, once per fight): ``D6Ruleset.start``;
- a turn (all of a combatant's actions at its initiative, the multiple-action penalty,
  the free move and extra moves): ``D6Ruleset.resolve``;
- attacks (points, cover, visibility, pinned, aim, called shots, range bands, reloads),
  active defenses and damage: ``combat.OpenD6Combat``, which the ruleset holds; wounds or
  hit points: each variant's health hooks (``harm`` ...), in ``wounds`` and in ``hp``;
- between fights (what carries over, rest): ``recovery``;
- the AI's questions (reach, extra attacks, when to spend character and fate points):
  ``advisor``; the solo log's text: ``log``.

Rulings not in the seed or RULES.md are marked "Ruling:" where they are applied.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, cast

from sim.core import draws, space
from sim.core.actions import Aim, Attack, Defend, Move, Reload, Retreat, TimedAction, Withdraw
from sim.core.draws import shuffle
from sim.rulesets.base import Ruleset, offsets_by_rank
from sim.rulesets.dice import roll
from sim.rulesets.opend6 import recovery
from sim.rulesets.opend6.advisor import OpenD6Advisor
from sim.rulesets.opend6.combat import OpenD6Combat, health_penalty
from sim.rulesets.opend6.dice import counts_one, roll_total
from sim.rulesets.opend6.fighter import (
    D6Fighter,
    OpenD6Block,
    OpenD6Options,
    make_fighter,
    native_block,
)
from sim.rulesets.opend6.log import log_turn
from sim.rulesets.opend6.rules import (
    WoundStatus,
    extra_move_difficulty,
    multiple_action_penalty,
    turn_actions,
)

STUNNED = WoundStatus.STUNNED

if TYPE_CHECKING:
    from pydantic import BaseModel

    from sim.core.actions import Intent
    from sim.core.battlefield import Position
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter
    from sim.core.harm import Harm
    from sim.scenario.specs import MemberSpec



class D6Ruleset(Ruleset[D6Fighter]):
    """What both OpenD6 rulesets share: turn order, turns, moves, rest; each health its own.

    Attacks, defenses and damage are its ``combat``'s (``OpenD6Combat``); the health
    measure (wounds, or hit points) is a variant's: ``init_health``, ``level_of``,
    ``heal_day``, ``harm``, ``short_of_death`` and what the advisor asks of it
    (``would_finish``, ``expected_harm``, ``kill_threshold``, ``harm_threshold``,
    ``one_from_death``, ``health_lost``).
    """

    harm_words: ClassVar[str]  # what a hit that harms does, on a player's menu
    glossary = ("Words: 'medium -1D' is a range band (point blank +1D, close, medium -1D, "
                "long -2D), dice given to or taken from the shooter; cover (light, medium, "
                "heavy) is where the target stands, and raises the number to beat instead "
                "('medium cover +10').")
    seconds_per_round = 5.0
    native_key = "opend6"
    NativeBlock = OpenD6Block
    Advisor = OpenD6Advisor
    # no Bide: initiative is rolled once per fight, so biding would change nothing (the
    # player's menu offered it as "act later, first next round", which OpenD6 never did)
    supports = frozenset({Attack, Move, Retreat, Withdraw, Defend, Aim, Reload})
    ARMS = ("weapon", "ranged", "reach", "attack_code", "parry_code", "damage_code",
            "skills", "loaded", "aim_at")  # what a drawn sidearm changes (an aim is the bow's)
    declares_at_turn = True  # RULES.md: "declared at the start of the turn"
    options: OpenD6Options
    advisor: OpenD6Advisor
    # the fighters stunned in the round going on (their ``stun_round`` ends with it)
    _stunned: tuple[D6Fighter, ...] = ()
    # option ``side_declares: together``: the (round, side) whose members have declared,
    # and what each of them has yet to carry out
    _side_turn: tuple[int, str] | None = None
    _side_intents: dict[Combatant, list[Intent]] = {}  # noqa: RUF012 - replaced, never mutated

    def __init__(self, options: BaseModel | None = None):
        super().__init__(options)
        self.combat = OpenD6Combat(self)  # after the options: it reads them

    # ------------------------------------------------------------ building
    def build(self, member: MemberSpec, pos: Position, rng: random.Random) -> D6Fighter:
        """Convert the neutral description (native block overrides), then set health."""
        f = make_fighter(member, pos, encumbrance=self.options.encumbrance)
        self.init_health(f, rng)
        return f

    def native_block_of(self, f: D6Fighter) -> dict[str, Any]:
        """The ``opend6:`` block that builds ``f`` (``fighter.native_block``)."""
        return native_block(f)

    # ------------------------------------------------------------ the variant's health
    @abstractmethod
    def init_health(self, f: D6Fighter, rng: random.Random) -> None:
        """Give a fighter just built its health before its first fight."""

    @abstractmethod
    def level_of(self, f: D6Fighter) -> WoundStatus:
        """The wound level ``f``'s health gives under this fight's options."""

    @abstractmethod
    def heal_day(self, f: D6Fighter) -> str | None:
        """Heal a day of rest's worth; returns what it healed (None: nothing)."""

    @abstractmethod
    def harm(self, enc: Encounter, target: D6Fighter, damage: int,
             resistance: int) -> tuple[int, str]:
        """Apply a hit's damage against the resistance total.

        Returns what it took off (wounds, or hit points), and the log's words ("" without a
        log).
        """

    @abstractmethod
    def short_of_death(self, target: D6Fighter) -> None:
        """An unarmed blow reached the wounds (or HP) that kill: one step short instead.

        RULES.md "Harm that is not meant to kill" (seed 004's "cannot take actions / Dead":
        the first for a beating, the second for weapons; option ``lethal_unarmed`` turns it
        off). Ruling: the fighter keeps the health one short of death (4 wounds, or 1 HP:
        mortally wounded) and is out of the fight, unconscious; a campaign carries it on at
        that level. Each variant sets its own measure.
        """

    @abstractmethod
    def would_finish(self, actor: D6Fighter, target: D6Fighter) -> bool:
        """Whether a hit at average damage against average resistance takes ``target`` out."""

    @abstractmethod
    def expected_harm(self, actor: D6Fighter, target: D6Fighter) -> float:
        """Expected harm one hit of ``actor`` deals ``target``, exactly, at most what it has."""

    @abstractmethod
    def kill_threshold(self, target: D6Fighter, damage: int) -> int:
        """The highest resistance total against which ``damage`` kills ``target`` (-1: none)."""

    @abstractmethod
    def harm_threshold(self, damage: int) -> int:
        """The highest resistance total against which ``damage`` harms at all (-1: none)."""

    @abstractmethod
    def one_from_death(self, target: D6Fighter) -> bool:
        """Whether ``target`` is mortally wounded: the least more harm kills it."""

    @abstractmethod
    def health_lost(self, f: D6Fighter) -> float:
        """The share of its health lost (0 fresh, 1 dead)."""

    @abstractmethod
    def health_left(self, f: D6Fighter) -> int:
        """The harm ``f`` can still take before death: wounds (``opend6``), or HP."""

    def set_level(self, enc: Encounter, target: D6Fighter, level: WoundStatus) -> None:
        """Set a new wound level; a stun lasts the rest of this round.

        ``OpenD6Combat`` takes the dead out, after logging the hit.
        """
        target.level = level
        if level is STUNNED:
            target.stun_round = enc.round
            self._stunned += (target,)

    def harm_lasts(self, target: D6Fighter, harm: Harm) -> bool:
        """Every wound (or hit point, ``opend6-hp``) lasts: none heals within the fight.

        A stun ends with its round, but the wound that stunned stays (RULES.md ``opend6``).
        """
        return harm.lasting > 0 or not target.in_fight

    def end_round(self, enc: Encounter) -> None:
        """The round's stuns end with it: their fighters read ``no penalty`` from here on.

        Only the words change (``D6Fighter.state``): ``health_penalty`` already gives no
        die off once the round has passed.
        """
        if self._stunned:
            for f in self._stunned:
                f.stun_round = -1
            self._stunned = ()

    def aftermath(self, enc: Encounter, tended: frozenset[D6Fighter]) -> None:
        """The fight's last round is over too: its stuns end before the roll call."""
        self.end_round(enc)

    # ------------------------------------------------------------ between fights
    def carry(self, old: D6Fighter, new: D6Fighter) -> None:
        """Health, the points left and an empty crossbow carry over (``recovery.carry``)."""
        recovery.carry(self, old, new)

    def recover(self, f: D6Fighter, rest: str, rng: random.Random) -> list[str]:
        """Reload at any rest; a long rest heals a day's worth (``recovery.recover``)."""
        return recovery.recover(self, f, rest)

    def fit(self, f: D6Fighter) -> bool:
        """Alive by its health under this fight's options (``recovery.fit``)."""
        return recovery.fit(self, f)

    # ------------------------------------------------------------ turn order
    def start(self, enc: Encounter) -> None:
        """Roll initiative once per fight and give each combatant its offset in a round.

        Individual: an Agility roll each, highest first; ties broken by the Agility code,
        then by a random draw (Ruling: turns come one after another in the seed, so a tie
        is never simultaneous, and scenario order gives no one an edge). Side option: a d6
        per side, ties broken by a random draw; a side's members all act at its turn.
        """
        rng, complication = enc.rng, self.options.complication
        if TYPE_CHECKING:  # an OpenD6 fight's are all D6 (a cast is a call at run time)
            fighters = cast("list[D6Fighter]", enc.combatants)
        else:
            fighters = enc.combatants
        keys: dict[D6Fighter, tuple[float, ...]] = {}
        self._side_turn = None
        if self.options.initiative == "side":
            side_key = {name: (roll(rng, 6), rng.random()) for name in enc.sides}
            for f in fighters:
                f.initiative = side_key[f.side][0]
                f.init_text = f"side d6 {f.initiative}"
                keys[f] = side_key[f.side]
        else:
            # option ``initiative_groups``: a roll a group
            groups: dict[object, tuple[int, str, tuple[float, ...]]] = {}
            for f in fighters:
                like = like_characters(f) if self.options.initiative_groups else f
                if like in groups:
                    f.initiative, f.init_text, keys[f] = groups[like]
                    continue
                agility = f.attrs["agility"]
                # an Agility roll: a wound carried in from an earlier fight costs its dice
                penalty = self.health_penalty(enc, f)
                dice = max(1, agility.dice + penalty) if penalty else agility.dice
                # not an action: its wild 1 counts as 1 (``dice.counts_one``)
                total = roll_total(rng, dice, agility.pips, counts_one(False, complication))
                f.initiative = total - f.encumbrance  # an Agility roll, like any other
                f.init_text = str(f.initiative)
                keys[f] = (f.initiative, agility.dice, agility.pips, rng.random())
                groups[like] = (f.initiative, f.init_text, keys[f])
        offsets = offsets_by_rank(list(keys.values()), self.seconds_per_round, leave_end=False)
        for f, k in keys.items():
            f.offset = offsets[k]

    def plan_round(self, enc: Encounter, declared: list[tuple[D6Fighter, list[Intent]]]
                   ) -> list[TimedAction[None]]:
        """One timed action per combatant in the fight: its turn, at its initiative's offset.

        Nobody has declared yet (``declares_at_turn``): each declares as its turn comes.
        """
        return [TimedAction(f.offset, f, None, None) for f, _ in declared]

    # ------------------------------------------------------------ a turn
    def resolve(self, enc: Encounter, action: TimedAction[None]) -> None:
        """A combatant's whole turn: it declares now, then carries out each action in order.

        RULES.md: actions are "declared at the start of the turn" (seed 004: each character
        declares, then resolves), so a slower fighter sees what the faster ones did: a foe
        that closed in is attacked, not walked toward. Under side initiative a side's members
        share the turn, in the order the engine draws for simultaneous actions.
        """
        action.done = True
        f = action.actor
        if TYPE_CHECKING:  # an OpenD6 fight's fighters are all D6 (no cast call every turn)
            f = cast("D6Fighter", f)
        f.shot_at = False  # its turn: no longer pinned, whatever it does
        if self.options.side_declares == "together" and self.options.initiative == "side":
            intents = self._declared_with_side(enc, f)
        else:
            intents = enc.declare(f)
        if not f.in_fight:  # it gave up instead (``Encounter.declare`` said so)
            return
        if len(intents) == 1 and type(intents[0]) is Reload and f.name not in enc.minds:
            intents = self._reload_and_shoot(enc, f, intents)
        count = turn_actions(intents)
        penalty = multiple_action_penalty(count)
        if enc.log is not None:
            log_turn(enc, f, intents, count, penalty)
        moved = 0
        for intent in intents:
            if not f.in_fight:
                break
            # ``type(intent) is``, not ``match``: a class pattern costs twice as much here
            if type(intent) is Attack:
                self.combat.attack(enc, f, intent, penalty)
            elif type(intent) is Move:
                self._move(enc, f, intent, penalty, moved)
                moved += 1 + intent.run
            elif type(intent) is Retreat:
                if not moved or self._extra_move(enc, f, penalty, moved):
                    self.move_to(enc, f, intent, self._run(enc, f, intent.run, penalty,
                                                           moved))
                moved += 1 + intent.run
            elif type(intent) is Withdraw:
                self.withdraw(enc, f, intent)
            elif type(intent) is Defend:
                self.combat.defend(enc, f, intent.kind, penalty)
            elif type(intent) is Aim:
                f.aim_at = intent.target
                if enc.log is not None:
                    enc.emit("aim", who=f.name, target=intent.target.name,
                             text=f"{f.name} aims at {intent.target.name} (+1D next attack).")
            elif type(intent) is Reload:
                f.loaded = True
                if enc.log is not None:
                    enc.emit("reload", who=f.name,
                             text=f"{f.name} reloads the {f.weapon.name}.")

    def _declared_with_side(self, enc: Encounter, f: D6Fighter) -> list[Intent]:
        """``f``'s intents when its side declares together (option ``side_declares``).

        Seed 004: "all characters on one side declare their actions, and after all actions
        are declared, they get resolved". At the first turn of a side in a round, each of its
        members in the fight declares, in an order drawn by the encounter's generator (never
        file order: later declarers see earlier intents); each then carries its own out at
        its turn. A later member's foe may have fallen to an earlier one by then: its attack
        goes to the nearest foe in reach (``retarget``).
        """
        turn = (enc.round, f.side)
        if self._side_turn != turn:
            self._side_turn = turn
            members = [c for c in enc.sides[f.side] if c.in_fight]
            shuffle(enc.rng, members)
            if enc.log is not None:
                enc.emit("note", side=f.side, text=f"The {f.side} side declares "
                         "together, then resolves.")
            self._side_intents = {c: enc.declare(c) for c in members}
        return self._side_intents.pop(f, [])

    def _reload_and_shoot(self, enc: Encounter, f: D6Fighter,
                          intents: list[Intent]) -> list[Intent]:
        """An AI's lone reload, with the shot of the same turn when that pays.

        Ruling (issue "actions that find a target"): RULES.md allows several actions a turn
        at -1D each beyond the first, so a crossbowman may reload and shoot in one turn; the
        profiles declare the reload their weapon needs, and its advisor adds the shot when
        it pays (``OpenD6Advisor.reload_and_shoot``). A player declares its own turn.
        """
        foe = self.advisor.reload_and_shoot(enc, f)
        if foe is None:
            return intents
        f.why = f"{f.why}; reloads and shoots {foe.name} in one turn (-1D)"
        intents = [*intents, foe.plain_attack]
        enc.declared[f] = intents
        return intents

    health_penalty = staticmethod(health_penalty)  # (``combat.health_penalty``)

    def retarget(self, enc: Encounter, f: D6Fighter, *,
                  in_reach: bool = False) -> D6Fighter | None:
        """Ruling: a later action of a turn whose foe fell goes to another foe.

        An attack (``in_reach``) goes to the nearest foe in reach, else nowhere; a move to
        the nearest foe.
        """
        if in_reach:
            foes = [e for e in enc.enemies(f) if space.in_reach(enc, f, e)]
            found = draws.best(enc, foes, lambda e: -enc.field.distance(f.pos, e.pos))
        else:
            found = space.nearest_enemy(enc, f)
        if TYPE_CHECKING:  # an OpenD6 fight's fighters are all D6 (no cast call)
            found = cast("D6Fighter | None", found)
        return found

    # ------------------------------------------------------------ moving
    def _move(self, enc: Encounter, f: D6Fighter, intent: Move, penalty: int,
              extra: int) -> None:
        """The first move of a turn is free; the n-th extra move needs Agility vs 10 x n."""
        target = intent.target
        if not target.in_fight:
            found = self.retarget(enc, f)
            if found is None:
                return
            target = found
        if extra and not self._extra_move(enc, f, penalty, extra):
            return
        self.walk_toward(enc, f, Move(target, intent.stop_at, intent.run),
                         self._run(enc, f, intent.run, penalty, extra))

    def _run(self, enc: Encounter, f: D6Fighter, run: bool, penalty: int, moved: int) -> float:
        """Metres of a move: one move, and with ``run`` the next extra move if its roll is made.

        RULES.md "Running" under OpenD6: seed 004's extra moves, each with its Agility
        roll (against 10 x its number), the run's one action.
        """
        if run and self._extra_move(enc, f, penalty, moved + 1):
            return 2 * f.speed
        return f.speed

    def free_attack(self, enc: Encounter, f: D6Fighter, target: D6Fighter) -> None:
        """``f``'s ordinary attack on a foe leaving its reach (RULES.md "Leaving melee").

        Not an action: no multiple-action penalty, and nothing ``f`` declared is spent.
        """
        self.combat.attack(enc, f, target.plain_attack, 0)

    def _extra_move(self, enc: Encounter, f: D6Fighter, penalty: int, extra: int) -> bool:
        """Roll the n-th extra move of a turn: Agility against 10 x n; True when made."""
        code = f.move_code
        dice = code.dice + penalty + self.health_penalty(enc, f)
        total, r = self.combat.roll(enc, dice, code.pips)
        need = extra_move_difficulty(extra) + f.encumbrance
        if enc.log is not None:
            enc.emit("roll", who=f.name, total=total, difficulty=need,
                     text=f"{f.name} runs (extra move {extra}): Agility {r} vs {need}"
                          f" -> {'made it' if total >= need else 'stumbles'}.")
        return total >= need


def like_characters(f: Combatant) -> object:
    """What makes fighters "like characters" for one initiative roll (``initiative_groups``).

    Seed 004: "the GM should make only one Agility roll for groups of like-characters. For
    example, a group of soldiers." Ruling: the same side and the same description in the
    scenario, but for the name and the place (a ``count`` of them, or members written out
    alike).
    """
    return replace(f.spec, name="", at="")
