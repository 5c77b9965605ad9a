"""The SimPy engine: rounds, timed actions, ongoing effects, the end of a fight.

The engine knows nothing of dice. Each round every combatant in the fight declares intents
through its AI (in the ruleset's declaration order, so later declarers see earlier intents;
or at its own turn, under a ruleset that declares so, ``Ruleset.declares_at_turn``);
the ruleset turns them into timed actions; the engine fires each at ``round start + offset``
as a SimPy timeout and asks the ruleset to resolve it against the state at that moment.
Actions with equal offsets are simultaneous: everyone in the group who was still in the
fight when the group began gets to act. Ongoing effects (bleeding, stun) are SimPy
processes; being taken out interrupts them unless they persist (bleeding while unconscious).
The round loop itself is ``sim.core.rounds.fight``.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import simpy

from sim import registry
from sim.core import aftermath, arms, events, exchange, space
from sim.core.actions import Draw, Move, Retreat, Yield
from sim.core.asking import Asking
from sim.core.battlefield import Battlefield, Position
from sim.core.books import Books
from sim.core.combatant import Combatant, Effect, Status
from sim.core.outcome import EncounterResult, encounter_result
from sim.core.rounds import fight
from sim.core.words import count

if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Mapping

    from sim.core.actions import Intent
    from sim.rulesets.base import Ruleset
    from sim.scenario.specs import MapSpec, Scenario


# The nearest foes of a side from a place (``space.nearest_enemy``), shared while everyone
# declares.
Nearest = dict[tuple["Position", str], list[Combatant]]


@lru_cache(maxsize=32)
def battlefield_for(spec: MapSpec) -> Battlefield:
    """One ``Battlefield`` per map: distances are computed once per scenario, not per fight."""
    return Battlefield(spec)


def ruleset_for(scenario: Scenario, name: str | None = None) -> Ruleset[Any]:
    """The ruleset ``name`` (default: the scenario's own) with the scenario's options."""
    cls = registry.get(name or scenario.ruleset)
    return cls(cls.options_for(scenario))


class Encounter(Books, Asking):
    """One fight: a seeded RNG, the battlefield, the combatants and a SimPy environment.

    Args:
        scenario: a loaded scenario.
        ruleset: registry name; defaults to the scenario's own.
        seed: the encounter's seed; the same seed replays the same fight.
        log: keep an event log (a list of dicts) for ``fray run``; off in batches.
        minds: who decides for a combatant, by name, instead of its AI profile (``fray play``:
            the player). A mind takes the encounter and the combatant and returns its intents.
            Every other combatant asks the default mind (``sim.registry.mind``: the AI
            profiles, and morale at each round's end).
        carried: fighters of an earlier fight, by name (a campaign's party): each member of
            that name is built as usual, then takes what lasts from it (``Ruleset.carry``).
    """

    def __init__(self, scenario: Scenario, ruleset: str | None = None, seed: int = 0,
                 log: bool = False,
                 minds: Mapping[str, Callable[[Encounter, Combatant], list[Intent]]]
                 | None = None, carried: Mapping[str, Combatant] | None = None):
        self.scenario = scenario
        self.seed = seed
        self.rng = random.Random(seed)
        self.ruleset = ruleset_for(scenario, ruleset)
        self.advisor = self.ruleset.advisor  # what the AI asks the ruleset
        self.field = battlefield_for(scenario.map)
        self.env = simpy.Environment()
        self.log: list[dict[str, Any]] | None = [] if log else None
        self._told = events.Told()  # what the log last said of each fighter's place and state
        self.round = 0
        self.round_start = 0.0
        self.first_casualty_round = 0
        self.minds: Mapping[str, Callable[[Encounter, Combatant], list[Intent]]] = minds or {}
        self.ai = registry.mind()  # the AI profiles and morale, for everyone else
        # who answers the questions asked after a roll (a player): ``asks`` runs every roll
        self._askers = frozenset(name for name, mind in self.minds.items()
                                 if getattr(mind, "choose", None) is not None)
        self.fight_over = False  # set when the fight ends and the aftermath begins
        self.died_after: frozenset[Combatant] = frozenset()
        self.tended: frozenset[Combatant] = frozenset()  # looked after once the fight ended
        # the round each one out of the fight when it ended went out in (``aftermath.settle``)
        self.out_when_fight_ended: dict[Combatant, int] = {}
        self.declared: dict[Combatant, list[Intent]] = {}
        # who has struck whom a free attack this round: once a round (``moving._free_attacks``)
        self.struck_free: set[tuple[Combatant, Combatant]] = set()
        # what was decided otherwise than by a plain AI profile, by fighter: a mind's
        # declarations and its answers after a roll, and a profile's that rolls fights out
        # (``ai.RECORDED``): with the seed, what replays the fight to this moment
        # (``sim.ai.rollout``)
        self.made: dict[str, list[tuple[str, Any]]] = {}
        self.rollout = False  # a fight played on from another's moment: no rollouts inside it
        # called at each round's start, before anything of the round (``rounds.fight``):
        # an event to wait for there, or None (``fight_on``); None: nobody asks
        self.at_round: Callable[[Encounter], simpy.Event | None] | None = None
        self._rounds: simpy.Process | None = None  # the rounds' process, once begun
        # answers the AI keeps while nothing changes, by (question, round, ...): a side's
        # expected harm a round is asked by each of its members (``sim.ai.standoff``)
        self.ai_kept: dict[tuple[Any, ...], Any] = {}
        # ``nearest_kept`` while everyone declares (``rounds.fight``), None the rest of the
        # time: what the AI reads as "nobody moves until all have declared"
        self.nearest: Nearest | None = None
        # with a log, during a group of simultaneous actions: what to tell again once the
        # whole instant is done (a move's distance to a foe who moves in it too); None else
        self.instant_told: list[Callable[[], None]] | None = None
        # the nearest foes by (place, side) (``space.nearest_enemy``), kept while nobody
        # moves, falls or gets up (``place``, ``take_out``, ``bring_back`` drop them): two
        # thirds of an ORE skirmish's searches were repeats, and an OpenD6 fight's turns
        # ask again between moves
        self.nearest_kept: Nearest = {}
        # each side's foes in the fight, in the file's order (``foes_of``): dropped whenever
        # someone goes out or comes back, the only changes to ``in_fight``
        self._foes: dict[str, list[Combatant]] = {}
        # the fighter whose AI decides now (``declare``), and whether a foe presses it
        # (``space.pressed``: each question about a shot asks; nothing moves meanwhile)
        self.deciding: Combatant | None = None
        self.deciding_pressed: bool | None = None
        self.flights = 0  # fighters that took flight in this fight (``flee``): 0, none to ask
        self.carried = carried  # (a rollout builds the fight again with them)
        self.combatants: list[Combatant] = []
        self.sides: dict[str, list[Combatant]] = {}
        for side in scenario.sides:
            members = [self.ruleset.build(m, self.field.node(m.at), self.rng)
                       for m in side.members]
            for f in members:
                if f.spec.other_weapon is not None:
                    self.ruleset.arm_sidearm(f, f.pos)
            if carried:  # a campaign's party: what lasts from its last fight
                for f in members:
                    if f.name in carried:
                        self.ruleset.carry(carried[f.name], f)
                        arms.carry(carried[f.name], f)
            self.sides[side.name] = members
            self.combatants.extend(members)
        # members still in the fight per side, kept up to date by take_out (checked after
        # every action, so it must be cheap)
        self.standing = {name: len(members) for name, members in self.sides.items()}
        self.sides_left = sum(1 for n in self.standing.values() if n)
        # the round each side last did harm that lasts, and last took it (0: not yet): how
        # long an exchange has gone nowhere (``sim.ai.standoff``)
        self.harmed_in: dict[str, int] = dict.fromkeys(self.sides, 0)
        self.hurt_in: dict[str, int] = dict.fromkeys(self.sides, 0)
        # rounds each fighter's side has been hurt without hurting back while the fighter
        # could have struck back, since its side last did harm (``sim.core.exchange``)
        self.unanswered: dict[Combatant, int] = {}

    # ---------------------------------------------------------------- queries
    def enemies(self, c: Combatant) -> list[Combatant]:
        """Enemies of ``c`` still in the fight (a list of the caller's own)."""
        return list(self.foes_of(c.side))

    def foes_of(self, side: str) -> list[Combatant]:
        """Fighters of the other sides still in the fight, in the file's order.

        Shared, so read only (``enemies`` gives a copy); kept until someone goes out or
        comes back (``take_out``, ``bring_back``: the only changes to ``in_fight``).
        """
        foes = self._foes.get(side)
        if foes is None:
            foes = self._foes[side] = [o for o in self.combatants
                                       if o.in_fight and o.side != side]
        return foes

    def allies(self, c: Combatant) -> list[Combatant]:
        """Allies of ``c`` still in the fight (``c`` excluded)."""
        return [o for o in self.sides[c.side] if o.in_fight and o is not c]

    def sides_standing(self) -> list[str]:
        """Names of the sides with at least one member in the fight."""
        return [name for name, n in self.standing.items() if n]

    @property
    def now(self) -> float:
        """Seconds since the start of the current round."""
        return self.env.now - self.round_start

    def declare(self, c: Combatant) -> list[Intent]:
        """Ask ``c``'s AI for its intents now and note them as declared this round.

        A ruleset whose fighters declare at their own turn (``Ruleset.declares_at_turn``:
        OpenD6) calls this as each turn comes, rather than the AI.
        """
        # a fighter in flight runs for the way out whoever plays it (RULES.md "Flight
        # takes time"): its AI declares the flight
        if c.throws_left == 0:  # its last javelin thrown: its sidearm, or its fists
            arms.out_of_throws(self, c)
        mind = self.minds.get(c.name) if self.minds and not c.fleeing else None
        shooter = c.ranged  # (only a shot asks who presses its shooter)
        if shooter:
            self.deciding, self.deciding_pressed = c, None
        intents: list[Intent]
        if mind is None:
            intents = self.ai.decide(self, c)
            if c.ai in self.ai.RECORDED:
                self.made.setdefault(c.name, []).append(("declare", list(intents)))
        else:
            intents = mind(self, c)
            self.made.setdefault(c.name, []).append(("declare", list(intents)))
        if shooter:
            self.deciding = None
        if intents:
            first: Intent | None = intents[0]
            if type(first) is Draw:
                intents = intents[1:]
                arms.draw(self, c)
                first = intents[0] if intents else None
            if type(first) is Yield:  # surrenders instead of acting
                self.take_out(c, Status.SURRENDERED, c.why)
                intents = []
            elif len(intents) > 1 or (type(first) is Retreat and first.leave):
                intents = self._within_the_rules(c, intents)
        self.declared[c] = intents
        return intents

    def _within_the_rules(self, c: Combatant, intents: list[Intent]) -> list[Intent]:
        """``intents`` as the rules of space let them stand; a flight starts here.

        A run is the whole round (RULES.md "Running": nothing else is declared with it);
        a weapon looses no more shots a round than its rate of fire
        (``space.within_rate``). A retreat off the field is a flight: from now on ``c``
        runs for the way out each round (``Combatant.fleeing``).
        """
        for i in intents:
            if (type(i) is Move or type(i) is Retreat) and i.run:
                intents = [i]
                break
        shots = space.within_rate(c, intents)
        if len(shots) < len(intents):
            c.why = f"{c.why}; {space.shots_allowed(c)} shots a round at most (rate of fire)"
            intents = shots
        first = intents[0]
        if type(first) is Retreat and first.leave and not c.fleeing:
            self.flee(c, f"it runs for the way out ({c.why})")
        return intents

    def flee(self, c: Combatant, why: str) -> None:
        """``c`` takes flight: it runs for the way out each round from now on.

        RULES.md "Flight takes time". Counted in ``flights``; the log says ``why``.
        """
        c.fleeing = True
        self.flights += 1
        if self.log is not None:
            self.emit("flee", who=c.name, text=f"{c.name} flees: {why}.")

    # ---------------------------------------------------------------- effects
    def start_effect(self, c: Combatant, effect: Callable[[], Generator[simpy.Event, Any, Any]],
                     *, persistent: bool = False) -> Effect:
        """Run an ongoing effect as a SimPy process tied to ``c``.

        ``effect`` is a generator function yielding SimPy events; it is interrupted when ``c``
        is taken out (only on death when ``persistent``), which ends it quietly.
        """

        def guarded() -> Generator[simpy.Event, Any, None]:
            try:
                yield from effect()
            except simpy.Interrupt:
                return

        proc = Effect(self.env, guarded(), persistent)
        c.effects.append(proc)
        return proc

    def emit(self, kind: str, **fields: Any) -> None:
        """Append an event to the log (``docs/log-format.md``).

        The fields every ruleset shares (``events.COMMON_FIELDS``) stay at the top; anything
        else a ruleset tells (dice, sets, totals, locations) goes under one key, ``rules``. Callers
        check ``self.log is not None`` first, so that batches (log off) build no dicts at all.
        """
        event = events.event(self.round, self.now, kind, fields)
        self._told.note(event, self.combatants, self.field)
        assert self.log is not None, "emit is called only with a log"
        self.log.append(event)

    # ---------------------------------------------------------------- running
    def run(self) -> EncounterResult:
        """Fight to the end, settle the aftermath, and return the result."""
        self.fight_on()
        return self.ended()

    def fight_on(self, halt: simpy.Event | None = None) -> bool:
        """Fight on, to the end or until ``halt`` is triggered; whether the fight is over.

        ``at_round`` halts a fight at a round's start by triggering ``halt`` and handing
        the rounds an event to wait for (``sim.ai.together``: nothing else is waiting
        then, so the fight goes on as it would have, once that event is triggered).
        """
        if self._rounds is None:
            self._rounds = self.env.process(fight(self))
        if halt is None:
            self.env.run(until=self._rounds)
            return True
        self.env.run(until=self.env.any_of([self._rounds, halt]))
        return not self._rounds.is_alive

    def ended(self) -> EncounterResult:
        """Once the fight is over (``fight_on``): settle the aftermath, and the result."""
        rounds = self.round
        standing = self.sides_standing()
        winner = standing[0] if len(standing) == 1 else None
        if self.log is not None:
            self.emit("end", winner=winner or "draw", rounds=rounds,  # as encounters.csv
                      text=f"Victory to {winner} after {count(rounds, 'round')}." if winner
                      else f"Draw after {count(rounds, 'round')}: " + (
                          "the round limit, with more than one side still in the fight."
                          if standing else "nobody is left in the fight."))
        self.fight_over = True
        arms.put_away(self)
        aftermath.settle(self, winner)
        return self._result(winner, rounds)

    def play_on(self, more: Callable[[], bool]) -> None:
        """After the fight: let ongoing effects run, a round at a time, while ``more()``.

        At most ``aftermath.MAX_AFTERMATH_ROUNDS`` rounds; the log's rounds count on.
        """
        spr = self.ruleset.seconds_per_round
        for _ in range(aftermath.MAX_AFTERMATH_ROUNDS):
            if not more():
                return
            self.round += 1
            self.round_start = self.env.now
            self.env.run(until=self.env.now + spr)

    def place(self, c: Combatant, pos: Position) -> None:
        """``c`` now stands at ``pos`` (where a walk ended): the one way a fighter moves.

        The nearest-foe searches kept (``nearest_kept``) are dropped when it moved.
        """
        if pos != c.pos:
            c.pos = pos
            if self.nearest_kept:
                self.nearest_kept.clear()

    def escapes(self) -> None:
        """At a round's end, fighters in flight beyond every foe's reach of them get away.

        RULES.md "Flight takes time": out of the fight (fled) when a round ends with it
        beyond the escape distance of every foe that is not fleeing itself
        (``space.got_away``), or at the map's edge with no foe within a move of it
        (``space.off_the_edge``). All are judged on the same state.
        """
        if not self.flights:
            return
        gone = [(c, space.got_away(self, c)) for c in self.combatants
                if c.in_fight and c.fleeing]
        gone = [(c, far) for c, far in gone if far or space.off_the_edge(self, c)]
        for c, far in gone:
            self.take_out(c, Status.FLED,
                          f"gets away, beyond {space.escape_metres(self):.0f} m of every foe"
                          if far else f"gets away past the edge at {self.field.describe(c.pos)},"
                          " no foe within a move")

    def tally_exchange(self) -> None:
        """At a round's end: the hopeless exchange's counts (``sim.core.exchange.tally``)."""
        exchange.tally(self)

    def check_morale(self) -> None:
        """Combatants whose side's losses reach their morale threshold break (``sim.ai.morale``)."""
        self.ai.check_morale(self)

    def _result(self, winner: str | None, rounds: int) -> EncounterResult:
        return encounter_result(self.seed, winner, rounds, self.sides, self.died_after,
                                self.out_when_fight_ended, self.first_casualty_round,
                                self.tended)

def run_encounter(scenario: Scenario, ruleset: str | None, seed: int,
                  log: bool = False) -> tuple[EncounterResult, list[dict[str, Any]] | None]:
    """Run one encounter; returns the result and the event log (None when not logging)."""
    enc = Encounter(scenario, ruleset, seed, log=log)
    result = enc.run()
    return result, enc.log
