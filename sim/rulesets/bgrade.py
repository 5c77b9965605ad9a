"""B-Grade (a converted One Roll Engine): ruleset ``bgrade``.

B-Grade is ORE with the changes of RULES.md ``bgrade``; everything else (declaration by
Sense, sets resolved widest first, gobble dice, the die lost when hit before acting,
movement, weapons and armor by neutral name) is ``sim.rulesets.ore``'s code, inherited.

Where each change lives:
- no 10-dice cap, no multiple-action penalty, +1d bonuses, drama cards and possibility
  points (d6 rolls): ``BGradeRuleset._roll``; the deck itself: ``bgrade_deck``;
- working together (allies on one foe pool their hands): ``BGradeRuleset._work_together``;
- difficulty: ``BGradeRuleset._miss_reason``; degrees of success, benefits, armor and the
  wound/Shock tracks: ``bgrade_rules``, applied in ``BGradeRuleset._damage``.

Rulings not in the seed or RULES.md are marked "Ruling:" where they are applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from sim.actions import Attack, Defend, Intent, Move, Reload, Retreat, TimedAction
from sim.combatant import Status
from sim.rulesets.bgrade_ai import BGradeTactics
from sim.rulesets.bgrade_deck import DramaDeck, card_name, choose_card
from sim.rulesets.bgrade_rules import (
    Benefit,
    Track,
    armor_soak,
    beats_difficulty,
    choose_benefit,
    degree_name,
    expected_sets,
    hit_damage,
)
from sim.rulesets.bgrade_team import Roll, find_teams, pool_hands
from sim.rulesets.ore import (
    MULTI_ACTION_MIN_DICE,
    ROLLED,
    OreBlock,
    OreFighter,
    OreRuleset,
    RolledSet,
    Stat,
    _intent_text,
    _Strict,
    action_pool,
    assign_sets,
    lose_die,
    roll_action_pool,
)
from sim.rulesets.ore_catalog import TORSO, WEAPONS

if TYPE_CHECKING:
    import random

    from sim.battlefield import Position
    from sim.combatant import Combatant
    from sim.engine import Encounter
    from sim.scenario import MemberSpec

# Ruling (AI): profiles that never play cards or spend points (DESIGN.md: basic never spends).
FRUGAL = frozenset({"passive", "basic"})
# Ruling (AI): below this many dice a card's dice matter most, so the best card is played.
CARD_SMALL_POOL = 7
# Ruling (AI): a possibility point (d6s: more sets, lower heights) is spent on an attack roll
# of at most this many dice (4d: any set 50% on d10, 72% on d6), when the foe declared no
# defense (gobble dice eat low sets) and the difficulty leaves d6 pairs a fair chance.
POINT_MAX_DICE = 6
POINT_MAX_DIFFICULTY = 3
# Ruling (AI): extra attacks declared = expected sets in the pool (rounded) - 1, at most 3.
MAX_EXTRA_ATTACKS = 3


# ---------------------------------------------------------------------------- scenario blocks
class BGradeStats(_Strict):
    """B-Grade's six stats, 1-6 (ORE's knowledge is intelligence here)."""

    body: int | None = Stat
    coordination: int | None = Stat
    sense: int | None = Stat
    intelligence: int | None = Stat
    command: int | None = Stat
    charm: int | None = Stat


class BGradeBlock(OreBlock):
    """Native ``bgrade:`` block: stats 1-6, skills 0-6, expert/master dice by skill name."""

    stats: BGradeStats = BGradeStats()


class BGradeOptions(_Strict):
    """``options: {bgrade: {...}}`` in a scenario.

    Attributes:
        working_together: allies attacking one foe in one round pool their hands.
        drama_deck: deal 4-card hands from a 52-card deck; a card adds dice to a roll.
        possibility_points: points per character (0 switches them off).
        difficulty: Difficulty of every attack (0: none); a width-2 set needs height > D.
    """

    working_together: bool = True
    drama_deck: bool = True
    possibility_points: int = Field(default=2, ge=0, le=20)
    difficulty: int = Field(default=0, ge=0, le=10)


# ---------------------------------------------------------------------------- state
class BGradeFighter(OreFighter):
    """An ORE fighter with B-Grade's extras.

    ``wounds`` holds a ``bgrade_rules.Track`` (wounds and Shock) instead of ORE's locations;
    ``bonus`` is the dice pending for the next attack, ``points`` the possibility points
    left, ``hand`` the drama cards held.
    """

    __slots__ = ("intelligence", "command", "charm", "bonus", "points", "hand")

    def describe(self) -> str:
        """Stats, skills, weapon, armor, points and hand for the solo log."""
        hand = " ".join(card_name(c) for c in self.hand)
        return (f"body {self.body}, coordination {self.coordination}, sense {self.sense}; "
                f"fight {self.fight}, shoot {self.shoot}, dodge {self.dodge}, "
                f"parry {self.parry}; {self.weapon.name} ({'Killing' if lethal(self) else 'Shock'})"
                f", armor {armor_soak(self.armor[TORSO], 0)}; {self.points} possibility points"
                + (f", hand {hand}" if hand else ""))


def lethal(f: OreFighter) -> bool:
    """Whether the fighter's weapon deals Killing in ORE (B-Grade: wounds, not Shock)."""
    d = f.weapon.damage
    return bool(d.k_width or d.k_plus)


def attack_pool(f: OreFighter) -> int:
    """Body + Fight, or Coordination + Shoot with a ranged weapon."""
    return f.coordination + f.shoot if f.weapon.ranged else f.body + f.fight


# ---------------------------------------------------------------------------- the ruleset
class BGradeRuleset(BGradeTactics, OreRuleset):
    """B-Grade: ORE without the cap, with degrees of success, points and a drama deck."""

    name = "bgrade"
    summary = ("B-Grade (converted ORE): uncapped d10 pools, degrees of success by width, "
               "possibility points, drama deck")
    native_key = "bgrade"
    NativeBlock = BGradeBlock
    Options = BGradeOptions
    fighter_class: ClassVar[type[OreFighter]] = BGradeFighter
    deck: DramaDeck | None = None  # the fight's deck, made in ``start``

    # ------------------------------------------------------------ building
    def build(self, member: MemberSpec, pos: Position, rng: random.Random) -> BGradeFighter:
        """ORE's build (conversion or native block), then B-Grade's stats, track, points."""
        f = super().build(member, pos, rng)
        block = member.native_block(self.native_key)
        stats = block.stats if block is not None else None
        f.intelligence = (stats and stats.intelligence) or 2
        f.command = (stats and stats.command) or 2
        f.charm = (stats and stats.charm) or 2
        f.wounds = Track(f.body)
        f.bonus = 0
        f.points = self.options.possibility_points
        f.hand = []
        return f

    def start(self, enc: Encounter) -> None:
        """Shuffle the fight's deck with the encounter's RNG and deal every hand."""
        self.deck = None
        if self.options.drama_deck:
            self.deck = DramaDeck(enc.rng)
            for c in enc.combatants:
                self.deck.deal(c.hand)

    # ------------------------------------------------------------ AI queries
    def called_shot(self, enc: Encounter, actor: OreFighter, target: Combatant) -> str | None:
        """Ruling: no hit locations, so a called shot buys nothing."""
        return None

    def extra_attacks(self, enc: Encounter, actor: BGradeFighter, target: Combatant) -> int:
        """Rounded expected number of sets in the pool, minus the first attack (at most 3).

        No penalty for several actions, so each set that the pool is likely to hold can
        carry an attack; an attack left without a set costs nothing but a counted miss.
        """
        dice = max(0, attack_pool(actor) - self._penalty(enc, actor, Attack(target)))
        sets = expected_sets(dice + actor.bonus)
        return min(MAX_EXTRA_ATTACKS, max(0, int(sets + 0.5) - 1))

    def can_move_and_attack(self, enc: Encounter, actor: BGradeFighter) -> bool:
        """Moving and attacking needs two sets: worth it from ORE's dice threshold (no -1d)."""
        return min(actor.body + actor.run, attack_pool(actor)) >= MULTI_ACTION_MIN_DICE

    def threat(self, actor: BGradeFighter) -> float:
        """Wounds out of 5 or Shock out of its track, whichever is nearer full."""
        t = actor.wounds
        return max(t.wounds / 5, t.shock / t.shock_boxes)

    # ------------------------------------------------------------ planning
    def plan_round(self, enc: Encounter, declared) -> list[TimedAction]:
        """Roll every pool, pool the teams' hands, give sets to actions, time them as ORE."""
        actions: list[TimedAction] = []
        rolls: list[Roll] = []
        for f, intents in declared:
            f.defenses = []
            f.sets = []
            if not intents:
                continue
            if len(intents) == 1 and type(intents[0]) in (Move, Retreat, Reload):
                self._plan_fighter(enc, f, intents, actions)  # ORE: no roll
            else:
                r = self._roll(enc, f, intents)
                if r is not None:
                    rolls.append(r)
        if self.options.working_together and len(rolls) > 1:
            rolls = self._work_together(enc, rolls, actions)
        for r in rolls:
            pairs = assign_sets(r.rolled, r.sets)
            if enc.log is not None:
                self._log_roll_b(enc, r, pairs)
            self._commit(r.f, pairs, actions)
        self._schedule(actions)
        return actions

    def _roll(self, enc: Encounter, f: BGradeFighter, intents: list[Intent]) -> Roll | None:
        """Roll one fighter's pool for all its declared actions.

        The smallest of the actions' pools, as in ORE, but with no cap and no penalty for
        several actions; on a roll with an attack, the pending bonus dice, and for a spending
        AI a card and a possibility point.
        """
        rolled = [i for i in intents if type(i) in ROLLED]
        if not rolled:
            return None
        base, skill = min(action_pool(f, i) for i in rolled)
        penalty = 0
        target = None
        attacks = 0
        for i in rolled:
            if type(i) is Attack:
                penalty += self._penalty(enc, f, i)
                attacks += 1
                target = i.target if target is None or target is i.target else False
        log = enc.log
        if log is not None:
            what = " and ".join(_intent_text(i) for i in intents)
            enc.emit("declare", who=f.name, text=f"{f.name} declares {what} ({f.why}).")
        dice = max(0, base - penalty)
        bonus = 0
        if attacks and f.bonus:
            bonus, f.bonus = f.bonus, 0
            dice += bonus
        card = None
        sides = 10
        if attacks and f.ai not in FRUGAL:
            if f.hand:
                card = choose_card(f.hand, dice, CARD_SMALL_POOL)
                extra = self.deck.play(f.hand, card)
                dice += extra
                if log is not None:
                    enc.emit("card", who=f.name, card=card_name(card), dice=extra,
                             text=f"{f.name} plays the {card_name(card)} (+{extra}d) and "
                                  f"draws a replacement ({len(f.hand)} cards in hand).")
            if f.points and dice <= POINT_MAX_DICE and self._point_pays(enc, rolled):
                f.points -= 1
                sides = 6
                if log is not None:
                    enc.emit("point", who=f.name, points=f.points,
                             text=f"{f.name} spends a possibility point: d6s instead of "
                                  f"d10s ({f.points} left).")
        faces = roll_action_pool(enc.rng, dice, expert=skill in f.expert,
                                 master=skill in f.master, needed=len(rolled), sides=sides)
        team = target if attacks == len(rolled) and target else None
        return Roll(f, intents, rolled, faces, team, lethal(f), base, skill,
                    (base, skill, penalty, bonus, card, sides))

    def _point_pays(self, enc: Encounter, rolled: list[Intent]) -> bool:
        if self.options.difficulty > POINT_MAX_DIFFICULTY:
            return False
        for i in rolled:
            if type(i) is Attack:
                foe = enc.declared.get(i.target)
                if foe and any(type(x) is Defend for x in foe):
                    return False
        return True

    def _work_together(self, enc: Encounter, rolls: list[Roll],
                       actions: list[TimedAction]) -> list[Roll]:
        """Commit the teams' pooled sets (``bgrade_team``); returns the rolls left alone."""
        teams = find_teams(rolls)
        if not teams:
            return rolls
        pooled = set()
        for team in teams:
            combined = pool_hands(team)
            if combined is None:
                continue
            helpers, best, pairs = combined
            if enc.log is not None:
                self._log_team(enc, helpers, best, pairs)
            for r, given in zip(helpers, pairs, strict=True):
                pooled.add(id(r))
                self._commit(r.f, given, actions)
        return [r for r in rolls if id(r) not in pooled]

    # ------------------------------------------------------------ resolving
    def _miss_reason(self, width: int, s: RolledSet) -> str:
        d = self.options.difficulty
        if d and not beats_difficulty(width, s.height, d):
            return f"a width-2 set must beat Difficulty {d}"
        return ""

    def _damage(self, enc: Encounter, f: BGradeFighter, target: BGradeFighter, width: int,
                s: RolledSet, gobbled: int) -> None:
        ar = armor_soak(target.armor[TORSO], f.weapon.ap)
        wounds, shock, soak_left = hit_damage(width, lethal(f), ar)
        track = target.wounds
        track.take(wounds, shock)
        benefit = choose_benefit(
            width, foe_out=track.dead or track.unconscious,
            foe_armed=not target.weapon.unarmed, shock_lands=not soak_left,
            shock_fills=track.shock_fills())
        if benefit is Benefit.BONUS_DIE:
            f.bonus += 1
        elif benefit is Benefit.SHOCK:
            track.take(0, 1)
        elif benefit is Benefit.DISARM:
            disarm(target)
        f.damage += wounds + shock + (benefit is Benefit.SHOCK)
        lost = lose_die(target.sets, s.key)  # hit before acting, even a minimal success
        if enc.log is not None:
            self._log_hit(enc, f, target, width, s, gobbled, wounds, shock, ar, benefit, lost)
        if track.dead:
            enc.take_out(target, Status.DEAD, "the 5th wound")
        elif benefit is Benefit.KNOCK_OUT:
            enc.take_out(target, Status.UNCONSCIOUS, "knocked out")
        elif track.unconscious:
            enc.take_out(target, Status.UNCONSCIOUS, "Shock track full")

    # ------------------------------------------------------------ log text
    def _log_roll_b(self, enc: Encounter, r: Roll, pairs) -> None:
        base, skill, penalty, bonus, card, sides = r.info
        f = r.f
        notes = [f"{skill} pool {base}"]
        if penalty:
            notes.append(f"-{penalty}d")
        if bonus:
            notes.append(f"+{bonus}d from earlier hits")
        if card is not None:
            notes.append(f"card {card_name(card)}")
        if skill in f.expert or skill in f.master:
            notes.append(("expert" if skill in f.expert else "master") + " die")
        shown = " ".join(map(str, sorted(r.faces, reverse=True)))
        text = (f"{f.name} rolls {len(r.faces)}d{sides} ({', '.join(notes)}): {shown} -> "
                f"{', '.join(map(str, r.sets)) or 'no set'}")
        if pairs is not None:
            text += "; " + "; ".join(f"{s if s else 'no set'} -> {_intent_text(i)}"
                                     for i, s in pairs)
        enc.emit("roll", who=f.name, dice=sorted(r.faces, reverse=True), sides=sides,
                 sets=[str(s) for s in r.sets], text=text + ".")

    def _log_team(self, enc: Encounter, helpers: list[Roll], best, pairs) -> None:
        for r in helpers:
            self._log_roll_b(enc, r, None)
        lead = helpers[0]
        others = ", ".join(r.f.name for r in helpers[1:])
        rest = "; ".join(f"{s if s else 'no set'} -> {r.f.name}'s {_intent_text(i)}"
                         for r, got in zip(helpers, pairs, strict=True)
                         for i, s in got[1 if r is lead else 0:])
        enc.emit("team", who=[r.f.name for r in helpers], target=lead.team.name, set=str(best),
                 text=f"{lead.f.name} works together with {others} on {lead.team.name}: "
                      f"pooled set {best} -> {lead.f.name}'s attack ({others} "
                      f"merge{'s' if len(helpers) == 2 else ''} into it)"
                      + (f"; {rest}" if rest else "") + ".")

    def _log_hit(self, enc, f, target, width, s, gobbled, wounds, shock, ar, benefit, lost):
        degree = degree_name(width)
        after = f" after {gobbled} gobbled" if gobbled else ""
        harm = f"{wounds} wound{'s' if wounds != 1 else ''}, {shock} Shock"
        if ar:
            harm += f" (armor {ar})"
        text = (f"{s} {f.name} hits {target.name}: {degree} success (width {width}{after}), "
                f"{harm}; {benefit.value} -> {target.wounds.summary()}.")
        if lost is not None:
            text += (f" {target.name} loses a die from its {_intent_text(lost.intent)} "
                     f"set (now {lost.data}).")
        enc.emit("hit", who=f.name, target=target.name, set=str(s), width=width,
                 degree=degree, wounds=wounds, shock=shock, armor=ar, benefit=benefit.name,
                 text=text)


def disarm(f: OreFighter) -> None:
    """Ruling: a disarmed fighter fights with its fists (Body + Fight, Shock, reach 2 m)."""
    f.weapon = WEAPONS["unarmed"]
    f.ranged = False
    f.reach = 2.0
    f.loaded = True

