"""AI profiles: each turns what a combatant can see into a list of intents for the round.

- ``passive``: does nothing (a target dummy; it still rolls what a ruleset makes every
  defender roll).
- ``basic``: one plain attack per round on the nearest enemy, moving toward it when out of
  reach; never spends points, splits its pool, defends or makes called shots.
- ``aggressive``: closes in, moving and attacking in one round when the ruleset allows it;
  the declaration with the best expectation without a defense, and one attack more where
  that is a plain attack that can spare the die (``_pressing``).
- ``cautious``: values its life. Defends when two foes are in reach or when hurt (with an
  attack too when the pool allows both); a shooter takes cover and shoots from range; badly
  hurt (``retreat_at``) or losing the exchange (``standoff.losing``), it falls back toward
  its side's edge of the map and leaves there, or yields when a foe is in reach.
- ``tactical``: chooses by expected value under its ruleset. Focus fire on the foe nearest
  to going down, the attack declaration with the best expectation (extra attacks, called
  shots, points) and a defense beside it when both pay, shooters in cover and out of melee,
  melee fighters holding between their shooters and the foes while the shooters are at
  work; outshot in a lost exchange (``standoff.outgunned``), it withdraws.

A stand-off (``sim.ai.standoff``): a side that has done no harm for its profile's patience
turns on the foe it harms most, its shooters with poor odds close in, its tactical melee
fighters stop screening and cross (docs/ai.md).

A doctrine (``sim.scenario.loader.Doctrine``) tunes a profile: ``focus`` (which foe), ``prefers``
(a shooter with ``melee`` does not keep its distance), ``retreat_at`` and ``morale``. A
setting left out takes the profile's default (``PROFILE_DEFAULTS``); combatants carry the
filled-in doctrine (``effective``).

Each ruleset's ``Advisor`` (:mod:`sim.core.advisor`) answers the questions that depend on
its dice (``can_attack``, ``extra_attacks``, ``called_shot``, ``threat``, ``danger``,
``defense_kind``, ``attack_and_defend``, ``tactical_attack``, ``wait_intents``); the profiles
hold no dice logic, and the places on the map come from :mod:`sim.ai.tactics`. Each
decision stores a short reason in ``Combatant.why`` for the solo log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.ai import detour, holding, moves, screening, sidearm, standoff, tactics
from sim.ai.moves import NO_FOE
from sim.ai.pressing import pressing
from sim.ai.striking import can_strike, reaches, runs, stop_at, within_strike
from sim.core import draws, moving, space, targets
from sim.core.actions import (
    DEFENDS,
    Attack,
    Defend,
    Intent,
    Move,
    Reload,
    Yield,
)

if TYPE_CHECKING:
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

def _target(enc: Encounter, c: Combatant) -> Combatant | None:
    """The foe the doctrine's focus picks, when it is not the nearest."""
    foes = foes_to_fight(enc, c)
    return targets.pick_target(enc, c, foes, c.doctrine.focus) if foes else None


def pursues(c: Combatant) -> bool:
    """``c`` chases a fleeing foe: aggressive fighters and beasts do (RULES.md "Flight")."""
    return c.ai == "aggressive" or space.is_beast(c)


def foes_to_fight(enc: Encounter, c: Combatant) -> list[Combatant]:
    """``c``'s foes in the fight, less those in flight it would not chase.

    RULES.md "Flight takes time": a fleeing foe can be struck, shot and chased; beasts and
    aggressive fighters pursue it, the others strike or shoot it only from where they
    stand (``within_strike``) and let it go otherwise.
    """
    foes = enc.foes_of(c.side)
    if not enc.flights or pursues(c) or not any(e.fleeing for e in foes):
        return list(foes)
    return [e for e in foes if not e.fleeing or within_strike(enc, c, e)]


def approach(enc: Encounter, c: Combatant, target: Combatant,
             why: str | None = None) -> list[Intent]:
    """``c`` cannot strike ``target``: close in, or, in reach but hopeless, what then.

    An attack that cannot succeed is never declared (it would count as a miss): the
    advisor says what to do instead (``Advisor.hopeless``: step closer, aim, hold).
    """
    if within_strike(enc, c, target) or enc.field.distance(c.pos, target.pos) <= stop_at(c):
        # close enough already, yet no attack: never "closes on" a foe at its side
        intents, c.why = enc.advisor.hopeless(enc, c, target)
        return intents
    going = detour.follow(enc, c)
    if going is not None:  # on its way round a narrow place
        return going
    held = moving.no_room_ahead(enc, c, target, stop_at(c), c.speed)
    if held is not None:  # RULES.md "Room at a place": it waits behind, or goes round
        going = detour.plan(enc, c, target, held.place)
        if going is not None:
            return going
        intents, why_wait = enc.advisor.wait_intents(enc, c, enc.enemies(c))
        c.why = f"waits its turn: {held.why}; {why_wait}"
        return intents
    run = runs(enc, c, target)
    c.why = (why or f"closing on {target.name}") + (", at a run" if run else "")
    return [Move(target, stop_at=stop_at(c), run=run)]


def passive(enc: Encounter, c: Combatant) -> list[Intent]:
    """Never acts."""
    c.why = "passive"
    return []


def _simple_start(enc: Encounter, c: Combatant) -> tuple[Combatant | None, list[Intent] | None]:
    """The foe of a basic or aggressive fighter, and a reload that must come first (or None).

    The foe is the nearest, or the one the doctrine's ``focus`` picks.
    """
    target = (space.nearest_enemy(enc, c) if c.doctrine.focus == "nearest"
              else _target(enc, c))
    if target is not None and target.fleeing and not pursues(c) and not within_strike(
            enc, c, target):  # it lets a fleeing foe go: the nearest of the others
        distance, here = enc.field.distance, c.pos
        target = draws.best(enc, foes_to_fight(enc, c), lambda e: -distance(here, e.pos))
    if target is None:
        c.why = NO_FOE
    elif enc.advisor.needs_reload(c):
        c.why = "weapon unloaded"
        return target, [Reload()]
    return target, None


def _in_reach(c: Combatant, target: Combatant) -> str:
    """The log's reason for a plain attack: the foe in range (shooters) or in reach."""
    return f"{target.name} in {'range' if c.ranged else 'reach'}"


def basic(enc: Encounter, c: Combatant) -> list[Intent]:
    """One plain attack on the nearest enemy (or the doctrine's focus), or a move toward it."""
    target, first = _simple_start(enc, c)
    if target is None:
        return []
    if first is not None:
        return first
    if c.ranged:  # (``harmless`` asks of shooters only: no foes' list for the others)
        target, instead = standoff.harmless(enc, c, target, foes_to_fight(enc, c))
        if instead is not None:
            return instead
    if can_strike(enc, c, target):
        if standoff.closes_in(enc, c, target):
            return standoff.close_in(enc, c, target)
        c.why = _in_reach(c, target)
        return [target.plain_attack]
    return approach(enc, c, target)


def aggressive(enc: Encounter, c: Combatant) -> list[Intent]:
    """Close in and hit as often and as hard as the ruleset allows."""
    target, first = _simple_start(enc, c)
    if target is None:
        return []
    if first is not None:
        return first
    advisor = enc.advisor
    if standoff.going_nowhere(enc, c):
        target = standoff.most_harmed(enc, c, enc.enemies(c)) or target
    if c.ranged:  # (``harmless`` asks of shooters only: no foes' list for the others)
        target, instead = standoff.harmless(enc, c, target, foes_to_fight(enc, c))
        if instead is not None:
            return instead
    if can_strike(enc, c, target):
        if standoff.closes_in(enc, c, target):
            return standoff.close_in(enc, c, target)
        intents, why = pressing(enc, c, target)
        c.why = _in_reach(c, target) + (f", {why}" if why else "")
        return intents
    gap = enc.field.distance(c.pos, target.pos) - stop_at(c)
    if 0 < gap <= c.speed and advisor.can_move_and_attack(enc, c) and reaches(enc, c, target):
        c.why = f"charges {target.name}"
        return [Move(target, stop_at=stop_at(c)), target.plain_attack]
    return approach(enc, c, target)


# ---------------------------------------------------------------------------- cautious
def cautious(enc: Encounter, c: Combatant) -> list[Intent]:
    """Fight, but not to the death: defend, take cover, keep range, fall back when hurt."""
    foes = foes_to_fight(enc, c)
    first = moves.first_concerns(enc, c, foes)
    if first is not None:
        return first
    advisor = enc.advisor
    if standoff.losing(enc, c):
        hurt = standoff.unanswered(enc, c)
        return moves.fall_back(enc, c, foes,
                               f"losing the exchange ({hurt} rounds hurt without hurting back)")
    target = targets.pick_target(enc, c, foes, c.doctrine.focus)
    target, instead = standoff.harmless(enc, c, target, foes)
    if instead is not None:
        return instead
    close = space.engaged(enc, c, foes)
    shooter = c.ranged and c.doctrine.prefers != "melee"
    if shooter:
        plan = (moves.step_back(enc, c, foes, target) if close
                else moves.take_cover(enc, c, foes, target))
        if plan:
            return plan
    hurt = advisor.threat(c) > 0
    aimed = targets.declared_on(enc, c)
    if len(close) >= 2 or aimed >= 2 or (hurt and space.threatened_by(enc, c, foes)):
        reason = (f"{len(close)} foes in reach" if len(close) >= 2
                  else f"{aimed} attacks declared on it" if aimed >= 2 else "hurt")
        kind = advisor.defense_kind(enc, c, ranged=not close)
        if kind:
            plan = _defend_or_strike(enc, c, target, kind,
                                     targets.attacks_expected(enc, c, foes), reason)
            if plan is not None:
                return plan
    if can_strike(enc, c, target):
        c.why = _in_reach(c, target)
        return [target.plain_attack]
    return approach(enc, c, target,
                    f"closing to {'range' if shooter else 'reach'} of {target.name}")


def _defend_or_strike(enc: Encounter, c: Combatant, target: Combatant, kind: str,
                      threats: dict[Combatant, float], reason: str) -> list[Intent] | None:
    """Cautious under pressure: defend and strike when both pay, else the better of the two.

    Better by expected value: the harm the defense would spare it from ``threats``
    (``Advisor.defense_worth``) against the harm one attack would do (``attack_worth``), in
    the ruleset's own unit. None: strike (or close in) as usual.
    """
    advisor = enc.advisor
    if not can_strike(enc, c, target):
        c.why = f"{DEFENDS[kind]}: {reason}"
        return [Defend(kind)]
    if advisor.attack_and_defend(enc, c, target, kind):
        c.why = f"{DEFENDS[kind]} and strikes at {target.name}: {reason}"
        return [target.plain_attack, Defend(kind)]
    spared = advisor.defense_worth(enc, c, threats, kind)
    dealt = advisor.attack_worth(enc, c, target)
    if spared > dealt:
        c.why = f"{DEFENDS[kind]}: {reason}, defending spares more ({spared:.2f} v {dealt:.2f})"
        return [Defend(kind)]
    c.why = (f"strikes at {target.name} though {reason}: striking does more "
             f"({dealt:.2f} v {spared:.2f})")
    return [target.plain_attack]


# ---------------------------------------------------------------------------- tactical
def _focus_why(enc: Encounter, c: Combatant, target: Combatant) -> str:
    threat = enc.advisor.threat(target) if c.doctrine.focus == "weakest" else 0.0
    if threat > 0:
        return (f"focus fire: {target.name} "
                f"{'nearly down' if threat >= 0.5 else 'already hurt'}")
    return _in_reach(c, target)


def tactical(enc: Encounter, c: Combatant) -> list[Intent]:
    """Choose by expected value: focus fire, the best declaration, position for the team."""
    foes = foes_to_fight(enc, c)
    first = moves.first_concerns(enc, c, foes)
    if first is not None:
        return first
    advisor = enc.advisor
    if standoff.outgunned(enc, c):
        hurt = standoff.unanswered(enc, c)
        return moves.fall_back(enc, c, foes,
                               f"outshot in a stand-off ({hurt} rounds hurt without hurting "
                               "back)")
    target = targets.pick_target(enc, c, foes, c.doctrine.focus)
    stalled = standoff.going_nowhere(enc, c)
    if stalled:  # the focus has gone nowhere: the foe it would harm most
        target = standoff.most_harmed(enc, c, foes) or target
    elif not c.ranged and not can_strike(enc, c, target):  # outshot: after the shooters
        target = tactics.quarry(enc, c, foes) or target
    target, instead = standoff.harmless(enc, c, target, foes)
    if instead is not None:
        return instead
    shooter = c.ranged and c.doctrine.prefers != "melee"
    if shooter:
        close = space.engaged(enc, c, foes)
        if close:
            plan = moves.step_back(enc, c, foes, target)
        elif stalled and target.ranged:  # a stand-off: cover is what it leaves to end it
            plan = None
        else:
            plan = moves.take_cover(enc, c, foes, target)
        if plan:
            return plan
    if can_strike(enc, c, target):
        if standoff.closes_in(enc, c, target):
            return standoff.close_in(enc, c, target)
        guarded = _guard(enc, c, foes, target)
        if guarded is not None:
            return guarded
        intents, why = advisor.tactical_attack(enc, c, target)
        c.why = _focus_why(enc, c, target) + (f", {why}" if why else "")
        return intents
    crossing = standoff.crosses(enc, c) if not c.ranged else None
    if not c.ranged and crossing is None:
        ward = tactics.post(enc, c, foes)
        if ward is not None:
            return screening.hold_by(enc, c, foes, ward)
    if crossing is None and advisor.waits_for(enc, c, target):
        crossing = standoff.waited_out(enc, c)
        if crossing is None:
            intents, why = advisor.wait_intents(enc, c, foes)
            c.why = f"{why}: lets {target.name} come to it"
            return intents
    gap = enc.field.distance(c.pos, target.pos) - stop_at(c)
    if within_strike(enc, c, target) or gap <= 0:
        # in reach, but no chance to hit (or no attack at all: an archer with a useless
        # arm at a swordsman's side): never "closes on" a foe at its side (``approach``)
        return approach(enc, c, target)
    if gap <= c.speed and advisor.can_move_and_attack(enc, c) and reaches(enc, c, target):
        c.why = f"charges {target.name}"
        return [Move(target, stop_at=stop_at(c)), target.plain_attack]
    if moving.no_room_ahead(enc, c, target, stop_at(c), c.speed) is not None:
        return approach(enc, c, target)  # it waits its turn
    if runs(enc, c, target):
        c.why = (f"{crossing} to {target.name}" if crossing
                 else f"closing on {target.name}") + ", at a run"
        return [Move(target, stop_at=stop_at(c), run=True)]
    extra = advisor.while_closing(enc, c, target)
    c.why = (f"{crossing} to {target.name}" if crossing else f"closing on {target.name}") + (
        ", aiming as it comes" if extra else "")
    return [Move(target, stop_at=stop_at(c)), *extra]


def _guard(enc: Encounter, c: Combatant, foes: list[Combatant],
           target: Combatant) -> list[Intent] | None:
    """Tactical under attack: one attack and a defense, when the ruleset says both pay.

    With foes expected to attack it (``targets.attacks_expected``) and not ahead in the
    exchange (no less hurt than its target, ``Advisor.threat``), the first attack of its
    best declaration and a defense in one round when the roll can carry both
    (``Advisor.attack_and_defend``). None: attack as usual; ahead, it presses on. Never
    the defense alone: a defense that stands in for the attack (weighed by
    ``defense_worth`` against ``attack_worth``) lost more fights than it saved, drawn out
    to the round limit.
    """
    advisor = enc.advisor
    most = enc.ruleset.max_actions
    threats = targets.attacks_expected(enc, c, foes)
    if not threats or (most is not None and most < 2):
        return None
    if advisor.threat(c) < advisor.threat(target):  # ahead in the exchange: press on
        return None
    kind = advisor.defense_kind(enc, c, ranged=not space.engaged(enc, c, foes))
    if not kind or not advisor.attack_and_defend(enc, c, target, kind):
        return None
    intents, why = advisor.tactical_attack(enc, c, target)
    if any(type(i) is Defend for i in intents):
        return None  # the best declaration carries its defense already
    if sum(type(i) is Attack for i in intents) > 1:
        return None  # several attacks pay more than one and a defense (docs/ai.md)
    first = next(i for i in intents if type(i) is Attack)
    c.why = f"{_focus_why(enc, c, target)}, {DEFENDS[kind]} too: both pay"
    return [first, Defend(kind)]


PROFILES = {"passive": passive, "basic": basic, "aggressive": aggressive,
            "cautious": cautious, "tactical": tactical}
# ``lookahead`` (sim.ai.lookahead) adds itself here. Its choices come from fights played
# on with fresh dice, which a replay cannot remake: the engine records them (``Encounter.made``)
RECORDED = frozenset({"lookahead"})


def decide(enc: Encounter, c: Combatant) -> list[Intent]:
    """The intents of ``c`` for this round, by its AI profile.

    Only what the ruleset supports, and no more actions than it allows: a profile asks the
    advisor first, so this trims nothing in practice; it is the guarantee that no intent is
    declared for a ruleset to ignore.
    """
    if c.fleeing:  # in flight, whatever its profile (RULES.md "Flight takes time")
        return moves.flee(enc, c)
    # (a lookahead weighs its menu's lines, its draws among them, on the fight's record:
    # it never asks with the weapons changed for it)
    if c.other_arms is not None and c.ai not in RECORDED and sidearm.wants_other(enc, c):
        return sidearm.decide_with(enc, c, _by_profile)
    return _by_profile(enc, c)


def _by_profile(enc: Encounter, c: Combatant) -> list[Intent]:
    """``decide`` with the weapon in hand."""
    intents = PROFILES[c.ai](enc, c)
    if intents and type(intents[0]) is Yield:  # the engine takes it out (no ruleset acts)
        return intents
    if c.doctrine.hold is not None or enc.field.narrow:  # (no place to hold: not asked)
        hold = holding.place_of(enc, c)
        if hold is not None:
            intents = holding.keep(enc, c, intents, hold)
    if c.ranged and len(intents) > 1:  # RULES.md "Rate of fire", whatever the advisor offered
        shots = space.within_rate(c, intents)
        if len(shots) < len(intents):
            c.why = f"{c.why}; {space.shots_allowed(c)} shots a round at most"
            intents = shots
    rules = enc.ruleset
    supports, most = rules.supports, rules.max_actions
    if len(intents) == 1 and type(intents[0]) in supports:  # most declarations: one action
        return intents
    for i in intents:
        if type(i) not in supports:
            break
    else:  # the usual case: every intent fits, nothing to trim
        if most is None or len(intents) <= most:
            return intents
    kept = [i for i in intents if type(i) in supports]
    if rules.max_actions is not None:
        kept = kept[:rules.max_actions]
    return kept if len(kept) == len(intents) else _trimmed(c, intents, kept)


def _trimmed(c: Combatant, intents: list[Intent], kept: list[Intent]) -> list[Intent]:
    dropped = ", ".join(type(i).__name__.lower() for i in intents if i not in kept)
    c.why = f"{c.why}; not declared under these rules: {dropped}"
    return kept
