"""The lifecycle every ruleset implements, and the steps they share.

A ruleset is one sub-package with one ``Ruleset`` subclass, registered by name
(``sim.registry``). The engine calls, per encounter:

1. ``build(member, pos, rng)`` for every combatant (neutral traits or a native block);
2. ``start(enc)`` once (initiative, decks, ...);
3. per round: ``declaration_order(enc, fighters)``; ``plan_round(enc, declared)`` turns the
   declared intents into timed actions, each later passed to ``resolve(enc, action)`` at its
   moment; ``end_round(enc)`` closes the round (a ruleset whose fighters declare at their
   own turn, ``declares_at_turn``, gets no declarations at the round's start);
4. ``aftermath(enc, tended)`` once the fight is over (``sim.core.aftermath`` decides who
   is tended).

Rules live in plain functions in the sub-package's ``rules.py``. The AI's questions go to the
ruleset's ``Advisor`` (``advisor.py``), never to the ruleset itself; what a fighter may spend
is its ``policy``. A ruleset reports what happened through the engine (``record_attack``,
``record_hit``, ``take_out``), which keeps the books.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel

from sim.core import moving, space
from sim.core.actions import Attack, Move, Retreat, Withdraw
from sim.core.combatant import Status
from sim.core.coverage import Rule
from sim.core.draws import shuffle
from sim.scenario.models import Strict

if TYPE_CHECKING:
    from sim.core.actions import Intent, TimedAction
    from sim.core.advisor import Advisor
    from sim.core.battlefield import Position
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter
    from sim.core.harm import Harm
    from sim.scenario.specs import MemberSpec, Scenario


class NoOptions(Strict):
    """A ruleset without options: an empty mapping is all that validates."""


@cache
def default_options(model: type[BaseModel]) -> BaseModel:
    """The options a scenario that sets none gets: one frozen value per model, shared.

    A ruleset is made for every encounter; validating the same defaults each time is waste.
    """
    return model()


F = TypeVar("F", bound="Combatant")  # the ruleset's own fighter class


class Ruleset(ABC, Generic[F]):
    """Base class of the rulesets.

    Class attributes:
        name: registry name (``ore``); ``aliases``: other names it answers to.
        summary: one line for ``fray rulesets``.
        seconds_per_round: length of a round in seconds (RULES.md, shared vocabulary).
        native_key: the scenario block it reads (``ore``), or None.
        NativeBlock: pydantic model of that block.
        Options: pydantic model of ``options.<name>`` in a scenario.
        Advisor: the class answering the AI's questions for this ruleset.
        supports: the intent types it resolves; the AI never declares any other.
        max_actions: actions a fighter may declare in a round (None: no limit).
        declares_at_turn: each fighter declares at its own turn (``resolve`` asks
            ``enc.declare``), seeing what the faster ones did, instead of everyone at the
            round's start; ``plan_round`` then gets every fighter in the fight with no
            intents, in the order of the round's fighters.
        legend: how to read its notation in the solo log (told once, after the roster).
        glossary: the words a player meets on its menus and in its log that the legend
            leaves out, told under a play's first menu (``fray play``; not in the log, so
            an AI-only fight's log is unchanged).
    """

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str]
    seconds_per_round: ClassVar[float]
    native_key: ClassVar[str | None] = None
    NativeBlock: ClassVar[type[BaseModel] | None] = None
    Options: ClassVar[type[BaseModel]] = NoOptions
    Advisor: ClassVar[type[Advisor[Any]]]
    supports: ClassVar[frozenset[type]] = frozenset({Attack, Move, Retreat})
    max_actions: ClassVar[int | None] = None
    declares_at_turn: ClassVar[bool] = False
    legend: ClassVar[str] = ""  # how to read the ruleset's notation, at the top of a log
    # the fighter's slots that come with the weapon in hand: what drawing a sidearm changes
    # (``switch_arms``); a ruleset without them keeps a fighter to its one weapon
    ARMS: ClassVar[tuple[str, ...]] = ()
    glossary: ClassVar[str] = ""  # words a player meets that the legend leaves out
    # what it models, an option or leaves out (``sim.core.coverage``; its docs page)
    coverage: ClassVar[tuple[Rule, ...]] = ()

    def __init__(self, options: BaseModel | None = None):
        self.options = options if options is not None else default_options(self.Options)
        self.advisor = self.Advisor(self)

    @classmethod
    def options_for(cls, scenario: Scenario) -> BaseModel | None:
        """The scenario's ``options.<name>`` block for this ruleset (None: defaults)."""
        block: BaseModel | None = scenario.ruleset_options(cls.name)
        return block

    # ---------------------------------------------------------------- building
    @abstractmethod
    def build(self, member: MemberSpec, pos: Position, rng: random.Random) -> F:
        """Make a combatant from its scenario description."""

    def native_block_of(self, f: F) -> dict[str, Any] | None:
        """The native block (as a scenario file would hold it) that builds ``f`` as it is.

        The inverse of the conversion: loading a member with this block must build the same
        fighter. None for a ruleset without a native block.
        """
        return None

    def start(self, enc: Encounter) -> None:  # noqa: B027 - an optional hook
        """Called once before the first round."""

    def redraw_hidden(self, enc: Encounter) -> None:  # noqa: B027 - an optional hook
        """Draw again, with the encounter's generator, what no fighter can know yet.

        A rollout (``sim.ai.rollout``) calls it as its fresh dice begin, so that it plays
        on without knowing what the fight itself will draw (B-Grade: the deck's order).
        """

    # ---------------------------------------------------------------- a round
    def declaration_order(self, enc: Encounter, fighters: list[F]) -> list[F]:
        """The order in which combatants declare (later ones see earlier intents).

        Default: drawn by the encounter's generator each round, so that no side declares
        last, knowing the other's intents, because the file lists it second.
        """
        order = list(fighters)
        shuffle(enc.rng, order)
        return order

    def declaration(self, enc: Encounter, f: F, intents: list[Intent]) -> str | None:
        """What ``f`` declares, in the ruleset's words, for the log (``attack on X``).

        Told as each fighter declares, in declaration order, before any roll
        (``events.tell_declared``). None: the ruleset tells it itself (OpenD6, whose
        fighters declare at their own turn, with their initiative).
        """
        return None

    @abstractmethod
    def plan_round(
        self, enc: Encounter, declared: list[tuple[F, list[Intent]]]
    ) -> list[TimedAction[Any]]:
        """Turn the round's declarations into timed actions (offsets in seconds)."""

    @abstractmethod
    def resolve(self, enc: Encounter, action: TimedAction[Any]) -> None:
        """Carry out one timed action against the state at this moment."""

    @abstractmethod
    def harm_lasts(self, target: F, harm: Harm) -> bool:
        """Whether a hit's ``harm`` on ``target`` lasts: the one home of that question.

        Lasting: a wound, Killing or hit points; passing harm (Shock) only where it can take
        ``target`` out of the fight. Only harm that lasts moves the stand-off and morale
        counters (``Encounter.record_hit``; RULES.md "A hopeless exchange"; docs/ai.md).
        Asked after the hit is marked: a hit that took ``target`` out lasts.
        """

    def end_round(self, enc: Encounter) -> None:  # noqa: B027 - an optional hook
        """Called after the last action of a round."""

    def aftermath(self, enc: Encounter, tended: frozenset[F]) -> None:  # noqa: B027
        """Settle the fallen once the fight is over (RULES.md, aftermath); optional.

        ``tended``: the combatants someone looks after (``sim.core.aftermath.tended``).
        Ongoing effects that outlive the fight run on (``Encounter.play_on``); deaths they
        cause are counted as deaths after the fight. Default: nothing happens after.
        """

    # ---------------------------------------------------------------- between fights
    # A campaign (``sim.core.campaign``) chains fights: each stage builds its fighters
    # afresh from the scenario, then the ruleset hands them what lasts from the last fight.
    def carry(self, old: F, new: F) -> None:  # noqa: B027 - optional
        """Give ``new`` (just built for the next fight) what ``old`` carries out of the last.

        Damage, points and cards spent, an empty weapon: whatever the ruleset says lasts.
        Default: nothing lasts (a ruleset without lasting harm).
        """

    def recover(self, f: F, rest: str, rng: random.Random) -> list[str]:
        """Recovery between two fights; ``rest`` is ``none``, ``short`` or ``long``.

        Runs after the aftermath, on the fighter as the last fight left it, with a
        generator of its own (so one fighter's rolls never shift another's). Returns what
        happened, for the solo log. Default: nothing.
        """
        return []

    def sit_out(self, f: F) -> None:  # noqa: B027 - optional
        """``f`` is not fit and sits the next fight out (it stays with the party).

        Default: nothing changes. A ruleset whose fight shares something among those present
        (B-Grade's deck) takes it back here.
        """

    def fit(self, f: F) -> bool:
        """Whether ``f``, as its wounds now stand, can fight the next stage.

        Default: anyone alive (a fighter out only for the fight, fled or surrendered, is
        the campaign's business, not the ruleset's).
        """
        return f.status is not Status.DEAD

    # ---------------------------------------------------------------- weapons
    def arm_sidearm(self, f: F, pos: Position) -> None:
        """Give ``f`` its member's sidearm as the weapon not in hand (``other_arms``).

        A thrower without a sidearm gets its bare hands (``MemberSpec.other_weapon``),
        taken up once its last thrown weapon is gone (``arms.out_of_throws``).

        Its ``ARMS`` slots are read from a build of the member with the sidearm in hand
        (``MemberSpec.with_sidearm``), made with a generator of its own so that the fight's
        draws are the same with a sidearm or without.
        """
        if f.spec.other_weapon is None or not self.ARMS:
            return
        drawn = self.build(_with_sidearm(f.spec), pos, random.Random(0))
        f.other_arms = tuple(getattr(drawn, slot) for slot in self.ARMS)

    def switch_arms(self, f: F) -> None:
        """``f`` puts away the weapon in hand and takes up the other (``actions.Draw``)."""
        other = f.other_arms
        if other is None:
            return
        f.other_arms = tuple(getattr(f, slot) for slot in self.ARMS)
        for slot, value in zip(self.ARMS, other, strict=True):
            setattr(f, slot, value)
        f.drawn = not f.drawn

    def main_weapon_back(self, f: F) -> None:
        """``f`` puts its sidearm away at the fight's end: what lasts is its main weapon's.

        A crossbow left empty stays empty into a campaign's next fight, and reloads at rest.
        """
        if f.drawn and f.other_arms is not None:
            self.switch_arms(f)

    # ---------------------------------------------------------------- space
    def free_attack(self, enc: Encounter, f: F, target: F) -> None:
        """``f`` strikes ``target`` once, at once: its ordinary melee attack, not an action.

        RULES.md "Leaving melee": a foe that leaves ``f``'s reach (``moving.leave_melee``).
        No penalty for other actions, and nothing ``f`` declared this round is spent. Each
        ruleset resolves it with its own attack; the default has none, so a ruleset
        without it says so (the contract test asks every registered one).
        """
        raise NotImplementedError(f"{self.name} has no free attack (RULES.md: leaving melee)")

    def run_metres(self, f: F) -> float:
        """Metres a run covers (RULES.md "Running"): twice a move, ``space.run_metres``.

        A ruleset whose moves are shortened (ORE's crippled legs) or whose runs differ
        (OpenCore's 12 m) says so here.
        """
        return space.run_metres(f)

    # ---------------------------------------------------------------- shared resolution
    def walk_toward(self, enc: Encounter, f: Combatant, intent: Move, metres: float) -> None:
        """Resolve a ``Move``: walk up to ``metres`` toward its foe, stopping in reach.

        The walk obeys the rules of space (``moving.walk``: stopped by a foe's reach, no
        room at a narrow place, free attacks on leaving melee). A foe already out of the
        fight is not followed. The log tells where the walk ended, or why there was none:
        already close enough, or no metres to walk (``metres`` 0: a ruleset's crippled legs).
        """
        target = intent.target
        if not target.in_fight:
            if enc.log is not None:
                enc.emit("move", who=f.name, text=f"{f.name} stays: {target.name} "
                         f"{target.status.phrase(already=True)}.")
            return
        field = enc.field
        before = f.pos
        if intent.run and enc.log is not None:
            enc.emit("run", who=f.name, text=f"{f.name} runs ({metres:.0f} m at most).")
        enc.place(f, moving.walk(enc, f, target.pos, metres, stop_at=intent.stop_at,
                                 target=target))
        if enc.log is None:
            return
        gap = field.distance(f.pos, target.pos)
        if f.pos != before:
            to = field.describe(f.pos)
            enc.emit("move", who=f.name, to=to,
                     text=f"{f.name} moves to {to} ({gap:.1f} m from {target.name}).")
            if enc.instant_told is not None:  # others move in this instant too: the
                # distance told is the one at its end, not one the foe's own move made stale
                event, at = enc.log[-1], f.pos

                def tell_again() -> None:
                    gap = field.distance(at, target.pos)
                    event["text"] = f"{f.name} moves to {to} ({gap:.1f} m from {target.name})."

                enc.instant_told.append(tell_again)
        elif gap <= intent.stop_at:
            enc.emit("move", who=f.name, text=f"{f.name} stays where it is: already "
                     f"{gap:.1f} m from {target.name}.")
        elif f.in_fight and enc.log[-1]["type"] != "stopped":  # (a stop says why itself)
            enc.emit("move", who=f.name, text=f"{f.name} cannot move toward {target.name}.")

    def move_to(self, enc: Encounter, f: Combatant, intent: Retreat, metres: float) -> None:
        """Resolve a ``Retreat``: walk up to ``metres`` toward its place; a flight may end.

        The walk obeys the rules of space (``moving.walk``). With ``leave`` (a flight), a
        fighter that reaches an exit leaves the field by it (``Status.FLED``); one that got
        far enough from its foes leaves at the round's end (``escapes``).
        """
        field = enc.field
        before = f.pos
        if intent.run and enc.log is not None:
            enc.emit("run", who=f.name, text=f"{f.name} runs ({metres:.0f} m at most).")
        enc.place(f, moving.walk(enc, f, intent.dest, metres))
        if enc.log is not None and f.pos != before:
            enc.emit("move", who=f.name, to=field.describe(f.pos),
                     text=f"{f.name} moves to {field.describe(f.pos)} ({f.why}).")
        if intent.leave and f.in_fight and f.pos in field.exits:
            enc.take_out(f, Status.FLED, f"leaves the field by {field.describe(f.pos)}")

    def withdraw(self, enc: Encounter, f: Combatant, intent: Withdraw) -> None:
        """Resolve a ``Withdraw``: a careful step out of melee, giving no free attack.

        RULES.md "Leaving melee": at most 2 m, and it must end out of every foe's reach:
        a withdraw that would not (a foe moved since it was declared) is not made.
        """
        spot = moving.withdraw_spot(enc, f, intent.dest)
        if spot is None:
            if enc.log is not None:
                enc.emit("withdraw", who=f.name, text=f"{f.name} cannot withdraw: no step "
                         "of 2 m takes it out of every foe's reach.")
            return
        enc.place(f, moving.walk(enc, f, spot, moving.WITHDRAW_METRES, withdraw=True))
        if enc.log is not None:
            enc.emit("withdraw", who=f.name, to=enc.field.describe(f.pos),
                     text=f"{f.name} withdraws to {enc.field.describe(f.pos)}, out of reach "
                          "(no free attack).")


@lru_cache(maxsize=1024)
def _with_sidearm(member: MemberSpec) -> MemberSpec:
    """``member.with_sidearm()``, one per member: the build caches key on the member."""
    return member.with_sidearm()


def offsets_by_rank(keys: list[Any], seconds: float, *, reverse: bool = True,
                    leave_end: bool = True) -> dict[Any, float]:
    """Offsets in a round for distinct speed keys: the fastest at 0, evenly spaced.

    Equal keys share an offset (simultaneous). ``leave_end`` keeps a step free before the
    round's end; without it the slowest key acts one step before the end.
    """
    ranked = sorted(set(keys), reverse=reverse)
    step = seconds / (len(ranked) + (1 if leave_end else 0))
    return {k: i * step for i, k in enumerate(ranked)}
