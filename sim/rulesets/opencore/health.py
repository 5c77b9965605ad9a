"""OpenCore d100: hit points into a status, and the bleed clock.

``health_status`` names the status of a number of hit points, ``hp_loss_per_round`` a bleed
tick's loss (pure rules, as in ``rules.py``). ``check_health`` turns hit points into a status
and starts bleeding below 0 HP. A fighter's bleed clock ticks once a round from its start
(``bleed_once``: ``hp_loss_per_round`` off its HP) while it lives, in the fight and after it,
until a tick below 0 HP brings the roll that stabilises it by chance (``stable_in``).

Without a log, the fallen bleed without a SimPy process each: a fighter out of the fight at
0 HP or less never comes back (HP only falls in a fight, and a knockout wakes only above 0),
and nothing in a fight reads its HP or its status until the fight is over. Such a fighter's
ticks are noted on the encounter's ``Fallen`` list and taken when they can matter: once the
fight may end (``Fallen.catch_up``, before the aftermath counts the dead), the quiet ticks
(those that change nothing but HP) at once. Where the end of the fight cannot be told in
advance, the list turns its fighters back into SimPy processes at their own instants
(``Fallen.keep_time``). ``test_fallen_bleed_as_processes_do`` holds both ways equal.
"""

from __future__ import annotations

import math
import random
from collections.abc import Generator
from enum import StrEnum
from typing import TYPE_CHECKING, Any, cast

from sim.core.combatant import Status
from sim.rulesets.opencore.rules import ticks_to_stabilise

if TYPE_CHECKING:
    import simpy

    from sim.core.engine import Encounter
    from sim.rulesets.opencore.fighter import OpenCoreFighter
    from sim.rulesets.opencore.ruleset import OpenCoreRuleset


class HealthStatus(StrEnum):
    """Status from hit points. BLEEDING is also unconscious."""

    ACTIVE = "active"
    UNCONSCIOUS = "unconscious"  # HP exactly 0
    BLEEDING = "bleeding"  # below 0: unconscious and losing 1 HP a round
    DEAD = "dead"  # HP <= -CON

    @property
    def in_fight(self) -> bool:
        """Only an active combatant can still act."""
        return self is HealthStatus.ACTIVE


# enum members through module aliases: read on every hit and tick (see rules.py)
_HP_ACTIVE, _HP_UNCONSCIOUS, _HP_BLEEDING, _HP_DEAD = (
    HealthStatus.ACTIVE, HealthStatus.UNCONSCIOUS, HealthStatus.BLEEDING, HealthStatus.DEAD)


def health_status(hp: int, con: int) -> HealthStatus:
    """Status for ``hp`` hit points and Constitution ``con``."""
    if hp <= -con:
        return _HP_DEAD
    if hp < 0:
        return _HP_BLEEDING
    if hp == 0:
        return _HP_UNCONSCIOUS
    return _HP_ACTIVE


def hp_loss_per_round(hp: int, bloodloss: int) -> int:
    """HP lost at the end of a round: 1 per bloodloss stack, +1 while below 0 HP.

    The two stack (ruling): bloodloss from criticals runs whatever the HP, and the seed's
    bleeding below 0 HP comes on top of it.
    """
    return bloodloss + (1 if hp < 0 else 0)


_DEAD, _UNCONSCIOUS = Status.DEAD, Status.UNCONSCIOUS  # the engine's, read the same way


def rules_of(enc: Encounter) -> OpenCoreRuleset:
    """The encounter's ruleset: OpenCore's, where an OpenCore fighter's health is checked."""
    rules = enc.ruleset
    if TYPE_CHECKING:  # narrowed for the checker alone: a cast is a call at run time
        rules = cast("OpenCoreRuleset", rules)
    return rules


def check_health(enc: Encounter, f: OpenCoreFighter, why: str) -> None:
    """Take ``f`` out when its hit points say so; start bleeding below 0 HP.

    ``why``: the cause, for the log only (callers pass "" when no log is kept).
    """
    status = health_status(f.hp, f.con)
    if status is _HP_ACTIVE:
        return
    logged = enc.log is not None
    if status is _HP_DEAD:
        me = enc.env.active_process
        if me in f.effects:  # bled to death: a process may not interrupt itself
            f.effects.remove(me)
        enc.take_out(f, _DEAD, f"{why}, HP {f.hp} <= -CON" if logged else "")
        return
    if f.status is not _UNCONSCIOUS:  # not on every tick of a bleed: the why is text
        enc.take_out(f, _UNCONSCIOUS, f"{why}, HP {f.hp}" if logged else "")
    if f.hp < 0:
        if f.stable_in is None:  # its first fall below 0: when chance will stabilise it
            f.stable_in = stable_in(enc, f)
        if not f.bleeding and f.stable_in > 0:
            ensure_bleeding(enc, f)


def stable_in(enc: Encounter, f: OpenCoreFighter) -> float:
    """The bleed tick below 0 HP on which ``f`` is stabilised by chance (``math.inf``: never).

    Ruling "stabilised by chance" (``rules.ticks_to_stabilise``; option ``stabilise``). The
    rolls come from the fighter's own generator, seeded by the encounter's seed and its
    name, not the encounter's: a fallen fighter's ticks may be taken early or late
    (``Fallen``), and its rolls must not move anyone else's dice.
    """
    if not rules_of(enc).options.stabilise:
        return math.inf
    return ticks_to_stabilise(random.Random(f"stabilise:{enc.seed}:{f.name}"), f.con)


def ensure_bleeding(enc: Encounter, f: OpenCoreFighter) -> None:
    """Start ``f``'s bleed clock if it is not running.

    One persistent process per fighter ticks once a round from its start and takes
    ``hp_loss_per_round`` (1 per bloodloss stack, +1 below 0 HP); it runs on while ``f`` is
    unconscious and stops at death. Ruling: a stack gained between two ticks bleeds from the
    next tick. The fallen tick on the encounter's ``Fallen`` list instead, when it keeps one.
    """
    if f.bleeding or f.status is _DEAD:
        return
    f.bleeding = True
    rules = rules_of(enc)
    fallen = rules.fallen
    if fallen is not None and fallen.takes(f):
        fallen.add(f, enc.env.now + rules.seconds_per_round)
    else:
        start_bleeder(enc, f, rules.seconds_per_round)


def start_bleeder(enc: Encounter, f: OpenCoreFighter, first: float) -> None:
    """Run ``f``'s bleed clock as a SimPy process, its first tick ``first`` seconds from now."""
    rules = rules_of(enc)
    env, spr = enc.env, rules.seconds_per_round

    def bleed() -> Generator[simpy.Event, Any, None]:
        wait = first
        while True:
            yield env.timeout(wait)
            wait = spr
            alive = bleed_once(enc, f)
            fallen = rules.fallen
            if fallen is not None and fallen.after_tick(enc, f, alive):
                return  # its next ticks are on the list
            if not alive or not f.bleeding:
                return  # the dead do not bleed on, nor the stabilised

    f.bleeder = enc.start_effect(f, bleed, persistent=True)


def bleed_once(enc: Encounter, f: OpenCoreFighter) -> bool:
    """One tick of ``f``'s bleed clock: ``hp_loss_per_round`` off its HP; False once dead.

    Below 0 HP and alive after it, the round's roll for "stabilised by chance"
    (``stable_in``): the tick it falls on stops the bleeding.
    """
    loss = hp_loss_per_round(f.hp, f.bloodloss)
    if loss:
        f.hp -= loss
        if enc.log is not None and not enc.fight_over:  # the aftermath sums it up
            enc.emit("bleed", who=f.name, loss=loss, hp=f.hp,
                     text=f"{f.name} bleeds {loss} HP ({f.state()}).")
        check_health(enc, f, "bleeding")
        if f.hp < 0 and f.status is not _DEAD:
            if f.stable_in is None:  # (``check_health`` draws it on a fall)
                f.stable_in = stable_in(enc, f)
            f.stable_in -= 1
            if f.stable_in <= 0:
                stop_bleeding(enc, f)
                if enc.log is not None:
                    enc.emit("stabilised", who=f.name, text=f"{f.name} is stabilised by "
                             f"chance: the bleeding stops ({f.state()}).")
    return f.status is not _DEAD


def bleed_for(enc: Encounter, f: OpenCoreFighter, ticks: float) -> None:
    """``ticks`` of ``bleed_once`` (``math.inf``: until dead), with no log kept.

    The quiet ticks (``quiet_ticks``) are taken at once, the others through ``bleed_once``;
    ``test_bleeding_out_at_once_is_tick_by_tick`` holds the two ways equal.
    """
    while ticks > 0 and not stabilised(f):
        if f.hp < 0 and f.stable_in is None and quiet_ticks(f):
            f.stable_in = stable_in(enc, f)  # (``check_health`` draws it on a fall)
        quiet = quiet_ticks(f)
        if quiet > ticks:  # (then ``ticks`` is a whole number, not ``math.inf``)
            quiet = int(ticks)
        if quiet:
            if f.hp < 0 and f.stable_in is not None:  # (drawn above when None)
                # each of them rolled, in vain, for "stabilised by chance"
                f.stable_in -= quiet
            f.hp -= quiet * hp_loss_per_round(f.hp, f.bloodloss)
            ticks -= quiet
        if ticks > 0:
            ticks -= 1
            if not bleed_once(enc, f):
                return


def stabilised(f: OpenCoreFighter) -> bool:
    """Stabilised by chance: its roll came up (``stable_in``), and it bleeds no more."""
    return f.stable_in is not None and f.stable_in <= 0


def quiet_ticks(f: OpenCoreFighter) -> int:
    """How many of ``f``'s next bleed ticks change nothing but its HP (no log kept).

    A tick's loss (``hp_loss_per_round``) stays the same while HP stays on one side of 0, and
    ``check_health`` has nothing to do while HP stays above 0, or while an unconscious fighter
    that already bleeds stays above -CON and is not stabilised by chance (``stable_in``).
    The tick that leaves that stretch is not quiet.
    """
    hp = f.hp
    loss = hp_loss_per_round(hp, f.bloodloss)
    if not loss:
        return 0
    if hp > 0:
        return (hp - 1) // loss
    if hp < 0 and f.status is _UNCONSCIOUS and f.bleeding:
        rolls = math.inf if f.stable_in is None else f.stable_in - 1
        return int(min((hp + f.con - 1) // loss, rolls))
    return 0


def stop_bleeding(enc: Encounter, f: OpenCoreFighter) -> None:
    """Tended or stabilised by chance: bleeding and bloodloss stop.

    The seed: the fallen bleed "unless they are stabilized by chance or healing". From
    within its own bleed clock (a tick's roll) the process ends itself: a process may not
    interrupt itself.
    """
    f.bloodloss = 0
    if f.bleeding:
        f.bleeding = False
        fallen = rules_of(enc).fallen
        if f.bleed_at is not None and fallen is not None:  # (it is on the list)
            fallen.drop(f)
        elif f.bleeder is not None:
            if f.bleeder.is_alive and f.bleeder is not enc.env.active_process:
                f.bleeder.interrupt("tended")
            f.effects = [p for p in f.effects if p is not f.bleeder]


def losing_blood(f: OpenCoreFighter) -> bool:
    """Alive and losing hit points each round (bleeding below 0 HP, or bloodloss)."""
    return f.status is not _DEAD and f.bleeding and hp_loss_per_round(f.hp, f.bloodloss) > 0


class Fallen:
    """The bleeding fallen of one encounter, ticking without a SimPy process each (no log).

    Each fighter on it keeps the instant of its next tick (``bleed_at``), reached by adding
    a round's seconds as SimPy's timeouts do, so that every tick falls where its process's
    would have.
    """

    __slots__ = ("fighters", "spr")

    def __init__(self, seconds_per_round: float):
        self.fighters: list[OpenCoreFighter] = []
        self.spr = seconds_per_round

    @staticmethod
    def takes(f: OpenCoreFighter) -> bool:
        """Out of the fight for good: out, at 0 HP or less (it can never wake up)."""
        return not f.in_fight and f.hp <= 0

    def add(self, f: OpenCoreFighter, at: float) -> None:
        """Put ``f`` on the list, its next tick at ``at``."""
        f.bleed_at = at
        self.fighters.append(f)

    def drop(self, f: OpenCoreFighter) -> None:
        """Take ``f`` off the list (tended, or bled to death)."""
        f.bleed_at = None
        self.fighters.remove(f)

    def after_tick(self, enc: Encounter, f: OpenCoreFighter, alive: bool) -> bool:
        """After a tick of ``f``'s process: whether the list takes its next ticks over.

        A tick may end the fight (the last of a side bleeds out) at a moment the list cannot
        foresee the end from: the list then goes back to processes (``keep_time``).
        """
        if enc.sides_left <= 1:
            self.keep_time(enc)
            return False
        if alive and f.bleeding and self.takes(f):
            self.add(f, enc.env.now + self.spr)
            return True
        return False

    def catch_up(self, enc: Encounter) -> None:
        """Take every tick due by now (its instant at or before now).

        Ticks taken early change nothing (nobody reads the fallen's HP in a fight), so any
        moment at or before the end of the fight will do; the fight may end now.
        """
        now, spr = enc.env.now, self.spr
        for f in list(self.fighters):
            ticks, at = 0, f.bleed_at
            assert at is not None  # every fighter on the list has its next tick's instant
            while at <= now:
                ticks += 1
                at += spr
            if ticks:
                f.bleed_at = at
                bleed_for(enc, f, ticks)
                if f.status is _DEAD:
                    self.drop(f)  # (a fighter stabilised by chance has dropped off itself)

    def keep_time(self, enc: Encounter) -> None:
        """Take the ticks due, then give each fighter left a process ticking at its instants.

        The encounter keeps no list from then on.
        """
        self.catch_up(enc)
        rules_of(enc).fallen = None
        env = enc.env
        for f in self.fighters:
            at, f.bleed_at = f.bleed_at, None
            assert at is not None  # every fighter on the list has its next tick's instant
            start_bleeder(enc, f, delay_to(env, at))


def delay_to(env: simpy.Environment, at: float) -> float:
    """The delay whose timeout SimPy schedules at exactly ``at`` (it adds it to now)."""
    delay = at - env.now
    while env.now + delay < at:
        delay = math.nextafter(delay, math.inf)
    while env.now + delay > at:
        delay = math.nextafter(delay, -math.inf)
    return delay
