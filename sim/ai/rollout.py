"""Playing the rest of a fight again from one moment: what each choice there leads to.

A fight cannot be copied in the middle of a round (its rounds are SimPy processes, Python
generators, which do not copy), but it is deterministic from its seed and what was decided
otherwise than by a plain AI profile (``Encounter.made``: a player's declarations and its
answers after a roll, a ``lookahead`` fighter's choices). So a rollout builds the fight
again from the same seed and replays those decisions up to the moment (the fighter's
declaration being weighed), declares the choice being weighed, then reseeds the encounter's
generator (fresh dice, a seed of its own per rollout) and lets every fighter's AI profile
play on, the player's fighters too; ``lookahead`` fighters play as ``tactical`` inside a
rollout (no rollouts inside a rollout). The fight being weighed is never touched: its
generator is not drawn from, so its record replays the same whether or not it was weighed.

Rollout ``i`` of every choice uses the same fresh dice (common random numbers): the
choices are compared on the same luck, which narrows the spread of their differences.
"""

from __future__ import annotations

import hashlib
import random
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, cast

from sim.ai import menu as menus
from sim.ai import profiles
from sim.core.actions import Attack, attack_on
from sim.core.combatant import Status
from sim.core.seeds import encounter_seed

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.doctrine import Policy
    from sim.core.engine import Encounter
    from sim.core.outcome import EncounterResult
    from sim.scenario.specs import Scenario

PROFILE = "ai"  # the key of "what the fighter's own profile does", when no menu line is it

# an intent that names combatants by name: it crosses processes and rebuilds in another
# encounter of the same scenario (``portable``, ``rebuild``)
Portable = tuple[type, str | None, Any]


def portable(intent: Intent) -> Portable:
    """``intent`` with its target by name."""
    target = getattr(intent, "target", None)
    if target is None:
        return (type(intent), None, intent)
    rest = tuple((f.name, getattr(intent, f.name)) for f in fields(intent) if f.name != "target")
    return (type(intent), target.name, rest)


def rebuild(by_name: dict[str, Combatant], p: Portable) -> Intent:
    """The intent ``p`` in the encounter whose combatants are ``by_name``."""
    cls, name, rest = p
    if name is None:
        return cast("Intent", rest)
    target = by_name[name]
    if cls is Attack:
        return attack_on(target, dict(rest)["called"])
    return cast("Intent", cls(target, **dict(rest)))


@dataclass(frozen=True)
class Choice:
    """One declaration weighed at a moment.

    Attributes:
        key: its menu keyword (``attack Bandit 1``), or ``PROFILE``.
        label: what a player reads.
        ai: the fighter's own profile would declare this.
        intents: the declaration, by names (None: found again by ``key`` in each rollout,
            when the rollouts do not all reach the same moment, as ``fray advise``'s).
    """

    key: str
    label: str
    ai: bool
    intents: tuple[Portable, ...] | None


@dataclass(frozen=True)
class Moment:
    """A fighter about to declare, and all it takes to reach that moment again.

    Attributes:
        engine: the encounter class (the engine is not imported here: it imports the AI).
        scenario, ruleset, seed: the fight's.
        name: who declares.
        before: its declarations before this one.
        round: the round of the moment (for a horizon).
        made: ``Encounter.made`` by names: each recorded fighter's decisions, in order.
        askers: the fighters whose minds answered the questions after a roll (a player's).
        policies: what the rules could spend for each recorded fighter (a player's own).
        varied: each rollout fights its own prefix, seeded as ``fray batch`` seeds its
            fights (``fray advise``: a fighter's first decision over many fights); else
            every rollout replays the one fight up to the moment.
        carried: a campaign's party as the fight was built with it (``Encounter``).
    """

    engine: type
    scenario: Scenario
    ruleset: str
    seed: int
    name: str
    before: int
    round: int
    made: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    askers: frozenset[str] = frozenset()
    policies: tuple[tuple[str, Policy], ...] = ()
    varied: bool = False
    carried: Any = None


@dataclass(frozen=True)
class Outcome:
    """How one rollout ended, for the deciding fighter.

    Attributes:
        won: its side won.
        standing: it was still in the fight at the end.
        rounds: rounds played after the moment (the moment's round counts).
        value: 1 won, 0 lost; a draw, or a fight cut at the horizon, is scored between by
            the harm each side took (``score``).
        alive: it was alive at the end (still in the fight, fled, yielded, or down but
            not dead).
        balance: the harm each side took, for its side (``score``), whoever won: of two
            lines that both win, the one whose foes took more harm than its side did is
            ahead at the what-if's screen.
    """

    won: bool
    standing: bool
    rounds: int
    value: float
    alive: bool = True
    balance: float = 0.5


def moment(enc: Encounter, c: Combatant) -> Moment:
    """The moment ``c`` declares in ``enc``: the fight so far, by names."""
    made = tuple((name, tuple((kind, tuple(portable(i) for i in value) if kind == "declare"
                               else value) for kind, value in entries))
                 for name, entries in enc.made.items())
    askers = frozenset(name for name, mind in enc.minds.items()
                       if getattr(mind, "choose", None) is not None)
    policies = tuple((f.name, f.policy) for f in enc.combatants if f.name in enc.made)
    before = sum(1 for kind, _ in enc.made.get(c.name, ()) if kind == "declare")
    return Moment(type(enc), enc.scenario, enc.ruleset.name, enc.seed, c.name, before,
                  enc.round, made, askers, policies, carried=enc.carried)


@contextmanager
def aside(enc: Encounter, c: Combatant) -> Iterator[None]:
    """Look at ``c``'s moment without touching the fight: nothing draws from its generator.

    Inside, the encounter's generator is a copy of the fight's (a tie broken while a menu is
    read draws from the copy); on the way out, however it is left, the fight's generator is
    back as it was (with its state, for anything that kept it, such as a deck), and so are
    ``c.why`` (a profile asked what it would do sets it) and what the AI keeps on the
    encounter (``Encounter.ai_kept``: a way round it would take, a place it would hold).
    """
    fight, why, kept = enc.rng, c.why, dict(enc.ai_kept)
    state = fight.getstate()
    scratch = random.Random()
    scratch.setstate(state)
    enc.rng = scratch
    try:
        yield
    finally:
        enc.rng = fight
        fight.setstate(state)
        c.why = why
        enc.ai_kept = kept


def choices(enc: Encounter, c: Combatant,
            profile: Callable[[Encounter, Combatant], list[Intent]] | None = None,
            by_key: bool = False) -> list[Choice]:
    """Every declaration on ``c``'s menu now, the one its profile takes marked ``ai``.

    ``profile``: whose choice is marked (default: ``c``'s own profile). Asking it draws
    nothing from the fight's generator and leaves ``c.why`` as it was. A profile's choice
    that is no line of the menu is added as ``PROFILE``. ``by_key``: each rollout finds the
    declaration again by its keyword (``Choice.intents`` None).
    """
    # the profile first, on a copy of the fight's dice as they stand (what it declares
    # unplayed, and what ``fray play`` takes for Enter), then the menu, whose own ties draw
    with aside(enc, c):
        chosen = (profile or profiles.decide)(enc, c)
    with aside(enc, c):
        menu = menus.options(enc, c)
    out = []
    marked = False
    for option in menu:
        mine = not marked and list(option.intents) == list(chosen)
        marked = marked or mine
        # found again by keyword, the profile's line is the profile's choice in each fight
        key = PROFILE if by_key and mine else option.key
        out.append(Choice(key, option.label, mine,
                          None if by_key else tuple(portable(i) for i in option.intents)))
    if not marked:
        words = " and ".join(type(i).__name__.lower() for i in chosen) or "hold"
        out.insert(0, Choice(PROFILE, f"{c.ai}'s choice: {words}", True,
                             None if by_key else tuple(portable(i) for i in chosen)))
    return out


def dice_seed(main: int, name: str, before: int, index: int) -> int:
    """The fresh dice of rollout ``index`` after ``name``'s declaration ``before``."""
    digest = hashlib.blake2b(f"fray-rollout:{main}:{name}:{before}:{index}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def play_out(m: Moment, choice: Choice, index: int, horizon: int | None = None,
             ) -> Outcome | None:
    """Rollout ``index`` of ``choice`` at ``m``, cut ``horizon`` rounds after the moment.

    None if the moment never came, or the choice was not on the menu then (a ``fray
    advise`` fight that went otherwise).
    """
    enc, script = begin(m, choice, index, horizon)
    return outcome(m, enc, script, enc.run())


def begin(m: Moment, choice: Choice, index: int, horizon: int | None = None,
          ) -> tuple[Encounter, Script]:
    """Rollout ``index`` of ``choice`` at ``m`` before it is fought: its encounter, its script."""
    scenario = m.scenario
    if horizon is not None and m.round + horizon < scenario.max_rounds:
        scenario = replace(scenario, max_rounds=m.round + horizon)
    main = encounter_seed(m.seed, index) if m.varied else m.seed
    script = Script(m, choice, dice_seed(main, m.name, m.before, index))
    minds: dict[str, Any] = {name: script.mind(name) for name, _ in m.made}
    minds[m.name] = script.mind(m.name)
    enc = m.engine(scenario, m.ruleset, main, minds=minds, carried=m.carried)
    enc.rollout = True
    script.policies = {f.name: f.policy for f in enc.combatants}
    return enc, script


def outcome(m: Moment, enc: Encounter, script: Script, result: EncounterResult,
            ) -> Outcome | None:
    """How a rollout's fight, ended with ``result``, ended for ``m``'s fighter (``play_out``)."""
    if not script.taken or script.missed:
        return None
    me = next(f for f in enc.combatants if f.name == m.name)
    won = result.winner == me.side
    balance = score(enc, me.side)
    value = 1.0 if won else 0.0 if result.winner is not None else balance
    return Outcome(won, me.status is Status.OK, result.rounds - script.round + 1, value,
                   me.status is not Status.DEAD, balance)


def score(enc: Encounter, side: str) -> float:
    """A fight scored for ``side`` between 0 and 1 by the harm taken (a draw's value).

    0.5 plus half the difference of the harm the foes took and the side took, each the mean
    over its members of 1 (out of the fight) or the advisor's ``threat`` (how hurt).
    """
    def harm(members: list[Combatant]) -> float:
        return sum(1.0 if not f.in_fight else enc.advisor.threat(f)
                   for f in members) / max(1, len(members))

    mine = harm(enc.sides[side])
    theirs = [harm(members) for name, members in enc.sides.items() if name != side]
    return 0.5 + 0.5 * (sum(theirs) / max(1, len(theirs)) - mine)


class Script:
    """The minds of a rollout: the recorded decisions up to the moment, then the choice.

    After the moment every fighter declares by its AI profile and takes the AI's answer
    after a roll (a fighter that answered them keeps being asked, so the rules draw the
    same dice as in the fight itself; the answer is the default).
    """

    def __init__(self, m: Moment, choice: Choice, seed: int):
        self.m, self.choice, self.seed = m, choice, seed
        self.entries = {name: list(entries) for name, entries in m.made}
        self.played = dict(m.policies)
        self.policies: dict[str, Policy] = {}
        self.taken = False
        self.missed = False
        self.round = 0
        self.count = 0  # the deciding fighter's declarations so far

    def mind(self, name: str) -> _Mind:
        """The mind of ``name``: it answers after a roll only where the fight's did."""
        return _Mind(self, name in self.m.askers)

    def declare(self, enc: Encounter, c: Combatant) -> list[Intent]:
        """``c``'s declaration: as recorded before the moment, the choice at it, then its AI."""
        if self.taken:
            return profiles.decide(enc, c)
        if c.name == self.m.name:
            if self.count == self.m.before:
                return self._branch(enc, c)
            self.count += 1
        entries = self.entries.get(c.name)
        while entries:
            kind, value = entries.pop(0)
            if kind == "declare":
                if c.name in self.played:
                    c.policy = self.played[c.name]
                by_name = {f.name: f for f in enc.combatants}
                return [rebuild(by_name, p) for p in value]
        return profiles.decide(enc, c)  # (a record shorter than the fight: cannot happen)

    def answer(self, enc: Encounter, c: Combatant, question: str, labels: list[str],
               default: int) -> int:
        """``c``'s answer after a roll: as recorded before the moment, then the default."""
        entries = self.entries.get(c.name)
        if not self.taken and entries and entries[0][0] == "choose":
            return int(entries.pop(0)[1])
        return default

    def _branch(self, enc: Encounter, c: Combatant) -> list[Intent]:
        self.taken, self.round = True, enc.round
        for f in enc.combatants:  # the profiles decide and spend from here on
            f.policy = self.policies.get(f.name, f.policy)
        if self.choice.intents is not None:
            by_name = {f.name: f for f in enc.combatants}
            intents = [rebuild(by_name, p) for p in self.choice.intents]
        elif self.choice.key == PROFILE:
            intents = profiles.decide(enc, c)
        else:
            found = next((o for o in menus.options(enc, c) if o.key == self.choice.key), None)
            if found is None:  # not on this fight's menu: no outcome, the AI plays on
                self.missed = True
                return profiles.decide(enc, c)
            intents = list(found.intents)
        enc.rng.seed(self.seed)  # fresh dice from here, and no knowledge of hidden draws
        enc.ruleset.redraw_hidden(enc)
        c.why = f"rollout: {self.choice.label}"
        return intents


class _Mind:
    """One fighter's mind in a rollout (``Script``); ``choose`` only if it answered."""

    def __init__(self, script: Script, asks: bool):
        self.script = script
        if asks:
            self.choose = script.answer

    def __call__(self, enc: Encounter, c: Combatant) -> list[Intent]:
        return self.script.declare(enc, c)
