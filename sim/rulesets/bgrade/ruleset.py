"""B-Grade (a converted One Roll Engine): ruleset ``bgrade``.

B-Grade is ORE with the changes of RULES.md ``bgrade``; everything else (declaration by
Sense, gobble dice, the die lost when hit before acting,
movement, weapons and armor by neutral name) is ``sim.rulesets.ore``'s code, inherited.

Where each change lives:
- no 10-dice cap, no multiple-action penalty (``cap``, ``per_extra_action`` for ORE's
  ``plan_roll``), +1d bonuses, drama cards and possibility points (d6 rolls):
  ``BGradeRuleset._roll``; the deck itself: ``deck``;
- working together (allies on one foe pool their hands, at most 10 dice):
  ``BGradeRuleset._work_together``, ``team``;
- difficulty: ``BGradeRuleset.set_succeeds`` and ``_miss_reason``; degrees of success,
  benefits, armor and the wound/Shock track: ``rules``, applied in ``BGradeRuleset._damage``;
- speed by area (sets and defenses in order of width x height): ``rules.area_speed``,
  ``area_in_time``, as ``BGradeRuleset.speed`` and ``in_time``;
- the block, options and fighter: ``fighter``; the AI's questions: ``advisor``; the log's
  lines (a roll, working together, a hit): ``log``.

Rulings not in the seed or RULES.md are marked "Ruling:" where they are applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from sim.core import arms
from sim.core.actions import Attack, Intent, TimedAction
from sim.core.combatant import Status
from sim.core.draws import shuffle
from sim.core.harm import Harm
from sim.registry import register
from sim.rulesets.bgrade.advisor import BGradeAdvisor
from sim.rulesets.bgrade.coverage import COVERAGE
from sim.rulesets.bgrade.deck import DramaDeck, card_dice, card_name
from sim.rulesets.bgrade.fighter import (
    BGradeBlock,
    BGradeFighter,
    BGradeOptions,
    disarm,
    fighter_for,
    lethal,
)
from sim.rulesets.bgrade.log import log_hit, log_roll, log_team
from sim.rulesets.bgrade.rules import (
    BONUS_DIE,
    DISARM,
    KNOCK_OUT,
    SHOCK,
    Track,
    allowed_benefits,
    area_in_time,
    area_speed,
    armor_soak,
    beats_difficulty,
    choose_benefit,
    degree_name,
    hit_damage,
    small_bonus,
)
from sim.rulesets.bgrade.team import Roll, find_teams, pool_hands
from sim.rulesets.ore import choices
from sim.rulesets.ore.catalog import TORSO
from sim.rulesets.ore.fighter import OreFighter
from sim.rulesets.ore.rules import RolledSet, assign_sets, hit_costs_a_die
from sim.rulesets.ore.ruleset import UNROLLED, OreRuleset

if TYPE_CHECKING:
    import random
    from collections.abc import Callable, Sequence

    from sim.core.battlefield import Position
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter
    from sim.rulesets.ore.sets import Set
    from sim.scenario.specs import MemberSpec


def _attacks_and_foe(rolled: Sequence[Intent]) -> tuple[int, Combatant | None]:
    """How many of the rolled intents are attacks, and their foe if all attack one foe.

    The foe (else None) is the roll's ``team``: allies on it may work together.
    """
    attacks = 0
    target: Combatant | None = None
    one_foe = True  # no two attacks on different foes so far
    for i in rolled:
        if type(i) is Attack:
            attacks += 1
            if target is None:
                target = i.target
            elif target is not i.target:
                one_foe = False
    return attacks, (target if attacks == len(rolled) and one_foe else None)


# ---------------------------------------------------------------------------- the ruleset
@register
class BGradeRuleset(OreRuleset[BGradeFighter]):
    """B-Grade: ORE without the cap, with degrees of success, points and a drama deck."""

    name = "bgrade"
    coverage = COVERAGE
    summary = ("B-Grade (converted ORE): uncapped d10 pools, degrees of success by width, "
               "possibility points, drama deck")
    native_key = "bgrade"
    NativeBlock = BGradeBlock
    Options = BGradeOptions
    Advisor = BGradeAdvisor
    cap = None  # no 10-dice cap
    glossary = ("Words: gobble dice are a defense set's dice, each taking one die off an "
                "attack set it beats.")
    legend = ("Reading the log: 6d10 is six d10s (d6 with a possibility point); a set 2x8 is "
              "two dice showing 8 (width x height); the larger area (width times height) "
              "acts first, a 2x9 (18) before a 3x5 (15). Width 2 is a minimal success (+1d "
              "next attack and +1 Shock), width 3 and more deal width - 2 wounds and a "
              "benefit (disarm and knock out only on a hit that marked a wound). Armor 1: "
              "1 off the hit (leather on heights 3, 6, 9, chain on six heights, plate on "
              "all), and what is left of it stops the hit's +1 Shock. The track: "
              "wounds of 5 (the 5th kills), Shock of Body + 2 (full: unconscious). -1d: a "
              "die taken off, and why; +1d: a card, a point or an earlier hit.")
    per_extra_action = 0  # several actions carry no penalty
    fighter_class: ClassVar[type[OreFighter[Any]]] = BGradeFighter
    deck: DramaDeck | None = None  # the fight's deck, made in ``start``
    options: BGradeOptions
    advisor: BGradeAdvisor
    # speed by area (``rules.area_speed``), for the order of sets and for defenses
    speed = staticmethod(area_speed)
    in_time = staticmethod(area_in_time)

    # ------------------------------------------------------------ building
    def build(self, member: MemberSpec, pos: Position,
              rng: random.Random | None) -> BGradeFighter:
        """A copy of the member's fighter (``_build``, once per member), with its points."""
        f = fighter_for(member, pos, type(self), self._build)
        f.points = self.options.possibility_points
        return f

    def _build(self, member: MemberSpec, pos: Position) -> BGradeFighter:
        """ORE's build (conversion or native block), then B-Grade's stats and track.

        Reads the member and the class's constants alone (``fighter_for`` keys on both):
        no option, no draw.
        """
        f = super().build(member, pos, None)
        block = member.native_block(self.native_key)
        stats = block.stats if block is not None else None
        f.intelligence = (stats and stats.intelligence) or 2
        f.command = (stats and stats.command) or 2
        f.charm = (stats and stats.charm) or 2
        f.wounds = Track(f.body)
        f.bonus = 0
        f.points = 0  # this fight's, set by ``build``
        f.spent = 0  # possibility points spent, over a whole campaign
        f.hand = []
        f.dropped_loaded = None
        return f

    def native_block_of(self, f: BGradeFighter) -> dict[str, Any]:
        """ORE's block with B-Grade's six stats."""
        block = super().native_block_of(f)
        block["stats"].update({k: getattr(f, k) for k in ("intelligence", "command", "charm")})
        return block

    def carry(self, old: BGradeFighter, new: BGradeFighter) -> None:
        """ORE's (the track, a fired crossbow), plus the points and the cards still held.

        Ruling: possibility points spent stay spent through a campaign (this fight gives
        what its options give, less every point spent so far); the hand is kept when this
        fight has a deck; a weapon knocked away is picked up as it was dropped.
        """
        super().carry(old, new)
        new.spent = old.spent
        new.points = max(0, new.points - old.spent)
        new.hand = list(old.hand) if self.options.drama_deck else []
        if old.dropped_loaded is not None:
            new.loaded = old.dropped_loaded

    def sit_out(self, f: BGradeFighter) -> None:
        """Ruling: a fighter who sits a fight out gives its cards back (no card in two hands)."""
        f.hand = []

    def start(self, enc: Encounter) -> None:
        """Shuffle the fight's deck with the encounter's RNG and deal every hand.

        Cards a fighter carried from the last fight of a campaign stay in its hand and out
        of the new deck.
        """
        self.deck = None
        if self.options.drama_deck:
            if TYPE_CHECKING:  # built by ``build`` (a cast is a call at run time)
                fighters = cast("list[BGradeFighter]", enc.combatants)
            else:
                fighters = enc.combatants
            held = frozenset(card for c in fighters for card in c.hand)
            self.deck = DramaDeck(enc.rng, held)
            self.deck.deal_round([c.hand for c in fighters])

    def redraw_hidden(self, enc: Encounter) -> None:
        """Shuffle the draw pile again: a rollout does not know the fight's next cards."""
        if self.deck is not None:
            shuffle(enc.rng, self.deck.pile)

    # ------------------------------------------------------------ planning
    def plan_round(self, enc: Encounter, declared: list[tuple[BGradeFighter, list[Intent]]]
                   ) -> list[TimedAction[RolledSet]]:
        """Roll every pool, pool the teams' hands, give sets to actions, time them as ORE."""
        actions: list[TimedAction[RolledSet]] = []
        rolls: list[Roll] = []
        for f, intents in declared:
            if f.defenses:  # a new list only when the last round left something in it
                f.defenses = []
            if f.sets:
                f.sets = []
            if not intents:
                continue
            if len(intents) == 1 and type(intents[0]) in UNROLLED:
                self._plan_fighter(enc, f, intents, actions)  # ORE: no roll
            else:
                r = self._roll(enc, f, intents)
                if r is not None:
                    rolls.append(r)
        if self.options.working_together and len(rolls) > 1:
            rolls = self._work_together(enc, rolls, actions)
        succeeds = self.set_succeeds()
        log = enc.log
        # no log, no player, no difficulty: a lone action that is not a called shot takes
        # the widest set (what assign_sets gives it) and is committed in one step
        plain = log is None and succeeds is None and not enc.minds
        for r in rolls:
            rolled = r.rolled
            if plain and len(rolled) == 1 and not (type(rolled[0]) is Attack
                                                   and rolled[0].called):
                self._commit_one(enc, r.f, rolled[0], r.sets[0] if r.sets else None, actions)
                continue
            # a move with an attack takes the fastest set: by area (``area_speed``)
            pairs = assign_sets(rolled, r.sets, succeeds, speed=self.speed)
            if r.sets and enc.asks(r.f):
                pairs = choices.ask_sets(enc, r.f, r.faces, pairs, r.sets, self.speed)
            if log is not None:
                log_roll(enc, self, r, pairs)
            self._commit(enc, r.f, pairs, actions)
        self._schedule(actions)
        return actions

    def _roll(self, enc: Encounter, f: BGradeFighter, intents: list[Intent]) -> Roll | None:
        """Roll one fighter's pool for all its declared actions.

        The smallest of the actions' pools, as in ORE, but with no cap and no penalty for
        several actions; on a roll with an attack, the pending bonus dice, and for a spending
        AI a card and a possibility point.
        """
        p = self.planner.plan(enc, f, intents)
        rolled = p.rolled
        if not rolled:
            return None
        attacks: int
        team: Combatant | None
        if len(rolled) == 1:  # nearly every roll: one action, an attack or not
            first = rolled[0]
            team = first.target if type(first) is Attack else None
            attacks = team is not None
        else:
            attacks, team = _attacks_and_foe(rolled)
        log = enc.log
        dice = p.dice
        bonus = 0
        if attacks and f.bonus:
            bonus, f.bonus = f.bonus, 0
            dice += bonus
        card = None
        sides = 10
        if attacks and f.policy.spends:
            if f.hand:  # which card: the fighter's choice, asked of the advisor (or a player)
                card = self.advisor.card_to_play(f, dice)
                if enc.asks(f):
                    options = [("no card", None)] + [
                        (f"the {card_name(c)} (+{card_dice(c)}d)", c) for c in f.hand]
                    card = enc.choose(f, f"{f.name} rolls {dice}d for its attack: play a "
                                      f"drama card?",
                                      options, [c for _, c in options].index(card))
            if f.hand and card is not None:
                assert self.deck is not None, "a hand is dealt from the fight's deck"
                extra = self.deck.play(f.hand, card)
                dice += extra
                if log is not None:
                    enc.emit("card", who=f.name, card=card_name(card), dice=extra,
                             text=f"{f.name} plays the {card_name(card)} (+{extra}d) and "
                                  f"draws a replacement ({len(f.hand)} cards in hand).")
            if f.points and self._spends_point(enc, f, rolled, dice):
                f.points -= 1
                f.spent += 1
                sides = 6
                if log is not None:
                    enc.emit("point", who=f.name, points=f.points,
                             text=f"{f.name} spends a possibility point: d6s instead of "
                                  f"d10s ({f.points} left).")
        faces = choices.roll_special(enc, f, dice, p.skill, None, len(rolled), sides)
        return Roll(f, intents, rolled, faces, team, lethal(f), p.base, p.skill,
                    None if log is None else (p.penalty, bonus, card, sides))

    def _spends_point(self, enc: Encounter, f: BGradeFighter, rolled: Sequence[Intent],
                      dice: int) -> bool:
        """A possibility point on this roll: the advisor's choice, or a player's."""
        return enc.yes_or_no(f, self.advisor.spends_point(enc, f, rolled, dice),
                             _point_question, f, dice)

    def _work_together(self, enc: Encounter, rolls: list[Roll],
                       actions: list[TimedAction[RolledSet]]) -> list[Roll]:
        """Commit the teams' pooled sets (``team``); returns the rolls left alone.

        A contributor whose first attack merged into the lead's loosed its bolt with it: a
        reload weapon is empty, as after any shot.
        """
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
                log_team(enc, self, helpers, best, pairs)
            for k, (r, given) in enumerate(zip(helpers, pairs, strict=True)):
                pooled.add(id(r))
                if k and r.f.weapon.reload:  # merged into the lead's attack: shot together
                    r.f.loaded = False
                if k and r.f.throws_left is not None:  # thrown together: spent
                    arms.thrown(r.f)
                self._commit(enc, r.f, given, actions)
        return [r for r in rolls if id(r) not in pooled]

    def set_worth(self, f: BGradeFighter) -> None:
        """No table: B-Grade's harm is the width, so an attack keeps the widest set."""
        return None

    # ------------------------------------------------------------ resolving
    def set_succeeds(self) -> Callable[[Set], bool] | None:
        """B-Grade's difficulty: a width-2 set must beat it, a wider one always does."""
        d = self.options.difficulty
        return (lambda s: beats_difficulty(s.width, s.height, d)) if d else None

    def _miss_reason(self, width: int, s: RolledSet) -> str:
        d = self.options.difficulty
        if d and not beats_difficulty(width, s.height, d):
            return f"a width-2 set must beat Difficulty {d}"
        return ""

    def _disarm(self, f: BGradeFighter) -> None:
        """The weapon in hand knocked away (``fighter.disarm``: fists, ruling).

        A shooter whose bow is knocked away with a sidearm at its side has the sidearm in
        hand instead (the bow lies where it fell until the fight's end).
        """
        disarm(f)
        if f.other_arms is not None and not f.drawn:
            self.switch_arms(f)
            f.other_arms = None  # its fists are not a weapon to put away and take up

    def _damage(self, enc: Encounter, f: BGradeFighter, target: BGradeFighter, width: int,
                s: RolledSet, gobbled: int) -> Harm:
        """Wounds and Shock on the track, then a benefit; returns the wounds and Shock dealt.

        A minimal success (width 2) also gives its attacker the small bonus (``small_bonus``:
        +1d on its next attack) beside its benefit (+1 Shock).
        """
        ar = armor_soak(target.armor[TORSO], f.weapon.ap, s.height)
        wounds, shock, soak_left = hit_damage(width, lethal(f), ar)
        track = target.wounds
        track.take(wounds, shock)
        # benefits ride on harm: disarm and knock out only when a wound was marked
        benefit = choose_benefit(
            width, foe_out=track.dead or track.unconscious,
            foe_armed=not target.weapon.unarmed, shock_lands=not soak_left,
            shock_fills=track.shock_fills(), wounded=wounds > 0)
        allowed = allowed_benefits(width, wounds > 0)
        if len(allowed) > 1 and enc.asks(f):
            # the labels stay the rule's words (answers and records name them)
            stopped = " (its armor would stop +1 Shock)" if soak_left else ""
            benefit = enc.choose(f, f"{f.name}'s {degree_name(width)} success on "
                                 f"{target.name}: which benefit?{stopped}",
                                 [(b.value, b) for b in allowed], allowed.index(benefit))
        f.bonus += small_bonus(width)
        # the armor left after the hit's own harm stops the benefit's Shock (``hit_damage``);
        # the AI never picks it then (``choose_benefit``), a player may
        extra_shock = benefit is SHOCK and not soak_left
        if benefit is BONUS_DIE:
            f.bonus += 1
        elif extra_shock:
            track.take(0, 1)
        elif benefit is DISARM:
            self._disarm(target)
        marked = wounds + shock + extra_shock
        # hit before acting: only a hit that marked a box (``hit_costs_a_die``)
        lost = choices.lose_die(enc, target, s.key) if hit_costs_a_die(marked) else None
        if enc.log is not None:
            log_hit(enc, f, target, width, s, gobbled, wounds, shock, ar, benefit, lost,
                          benefit is SHOCK and not extra_shock)
        if track.dead:
            enc.take_out(target, Status.DEAD, "the 5th wound")
        elif benefit is KNOCK_OUT:
            # a knock-out has no set time: out of the fight, not "down for a while"
            # (RULES.md, "Out of the fight"; docs/rules/bgrade.md)
            enc.take_out(target, Status.UNCONSCIOUS, "knocked out")
        elif track.unconscious:
            enc.take_out(target, Status.UNCONSCIOUS, "Shock track full")
        return Harm(wounds, marked - wounds)

    def harm_lasts(self, target: BGradeFighter, harm: Harm) -> bool:
        """Every wound and every box of Shock: a full Shock track knocks a fighter out.

        B-Grade has no hit locations (RULES.md ``bgrade``, "Wound track"): Shock anywhere
        fills the one track that takes a fighter out.
        """
        return harm.damage > 0 or not target.in_fight


def _point_question(f: BGradeFighter, dice: int) -> str:
    """A player's question (``Encounter.yes_or_no``): a plain function, no closure a roll."""
    return (f"{f.name} rolls {dice}d: spend a possibility point (d6s instead of d10s, "
            f"{f.points} to spend)?")
