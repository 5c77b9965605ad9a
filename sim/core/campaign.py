"""One campaign run: a party through a chain of fights, carrying its wounds, resting between.

Per stage (``docs/campaigns.md``):
1. The party's members named in the stage's file fight, less those out of the campaign (dead,
   fled, surrendered; the fled rejoin with ``fled_rejoin``) and those not fit to fight
   (``Ruleset.fit``: still unconscious after the last rest), who sit it out with the party.
   No fit member left: the stage is reached and not won (``unable``).
2. ``Encounter(..., carried=party)`` builds every fighter from the file, then hands each
   party member what lasts from its last fight (``Ruleset.carry``), fights, settles the
   aftermath.
3. Won: the run goes on. Every living member recovers by the stage's ``rest``
   (``Ruleset.recover``), each with a generator of its own. Lost or drawn: the run ends.

Seeds: stage 1 runs with the run's seed (a one-stage campaign fights ``fray batch``'s
encounters), later stages and every rest with seeds hashed from it (``sim.core.seeds``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from sim.core.combatant import Combatant, Status
from sim.core.engine import Encounter, ruleset_for
from sim.core.outcome import EncounterResult
from sim.core.seeds import rest_seed, stage_seed

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.rulesets.base import Ruleset
    from sim.scenario.campaign import Campaign, StageSpec
    from sim.scenario.specs import MemberSpec, Scenario

OUTCOMES = ("won", "lost", "draw", "unable")  # of a stage, for the party


@dataclass(frozen=True, slots=True)
class StageOutcome:
    """How the party fared in one stage.

    Attributes:
        stage: 1-based; ``label``: the stage's scenario (file stem).
        outcome: ``won``, ``lost``, ``draw`` or ``unable`` (no member fit to fight).
        seed: the encounter's seed (``fray run STAGE --seed`` replays it without carry-over
            only for stage 1).
        fighters: the members who fought; ``sat_out``: those not fit, kept with the party.
        deaths: party members who died in it, in the fight or after; ``fled``,
            ``surrendered``: those who broke (out of the campaign unless ``fled_rejoin``).
        rounds: the fight's rounds (0 when unable).
        result: the encounter's result (None when unable); ``events``: its log, if kept.
        recovery: after a won stage, per living member, what its rest did.
        entering: when logging, each fighting member's state as the fight begins (what
            it carried in).
        came_to: when logging, each fighting member out cold when the fight ended (the
            roll call's ``unconscious``) whose wounds, once the aftermath settled them, no
            longer keep it down (``Ruleset.fit``: ORE's head no longer full once half its
            Shock went, a B-Grade knockout), with its state then: it comes to after the
            fight, and fights the next stage.
    """

    stage: int
    label: str
    outcome: str
    seed: int
    fighters: tuple[str, ...]
    sat_out: tuple[str, ...]
    deaths: int
    rounds: int
    result: EncounterResult | None = None
    events: list[dict[str, Any]] | None = None
    recovery: tuple[tuple[str, tuple[str, ...]], ...] = ()
    entering: tuple[tuple[str, str], ...] = ()
    fled: int = 0
    surrendered: int = 0
    came_to: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class CampaignResult:
    """One run: its stages (up to the first not won) and each member's fate at the end.

    ``fates``: per party member who joined, ``dead``, ``fled``, ``surrendered`` (out of the
    campaign) or how it stands with the party (``standing``, ``unconscious``, ``unconscious,
    then comes to`` (a ``came_to`` of its last fight), or ``fled`` with ``fled_rejoin``);
    ``survivors``: members alive and still with the party.
    """

    seed: int
    stages: tuple[StageOutcome, ...]
    fates: tuple[tuple[str, str], ...]
    total_stages: int
    survivors: int  # members alive and still with the party at the end

    @property
    def reached(self) -> int:
        """The last stage the party came to (1-based)."""
        return len(self.stages)

    @property
    def cleared(self) -> bool:
        """Whether the party won every stage."""
        return self.reached == self.total_stages and self.stages[-1].outcome == "won"



Mind = Callable[[Encounter, Combatant], list["Intent"]]


StageHook = Callable[[StageOutcome, "Encounter | None"], None]


def run_campaign(campaign: Campaign, ruleset: str | None, seed: int, *, log: bool = False,
                 minds: Mapping[str, Mind] | None = None,
                 before_stage: StageHook | None = None, after_stage: StageHook | None = None
                 ) -> CampaignResult:
    """Run the campaign once.

    For solo play, ``before_stage`` is told each stage as its fight is about to begin (an
    outcome still ``pending``, with who fights, who sits out and what they carry in) and
    ``after_stage`` as it ends.
    """
    name = ruleset or campaign.ruleset
    party: dict[str, Combatant] = {}  # each member as its last fight (and rest) left it
    gone: dict[str, Status] = {}  # out of the campaign
    judged: dict[str, Ruleset[Any]] = {}  # the rules of each member's last stage, fought or sat out
    stages: list[StageOutcome] = []
    for k, stage in enumerate(campaign.stages, start=1):
        enc, outcome = _fight(campaign, stage, k, name, seed, party, gone, judged, log, minds,
                              before_stage)
        if outcome.outcome == "won" and k < len(campaign.stages):
            assert enc is not None  # a stage won was fought
            outcome = replace(outcome, recovery=_rest(enc, stage, k, seed, party, gone))
        stages.append(outcome)
        if after_stage is not None:
            after_stage(outcome, enc)
        if outcome.outcome != "won":
            break
    fates = _fates(campaign, party, gone, judged)
    return CampaignResult(seed, tuple(stages), fates, len(campaign.stages),
                          sum(n not in gone for n in party))


def _fight(campaign: Campaign, stage: StageSpec, k: int, ruleset: str, seed: int,
           party: dict[str, Combatant], gone: dict[str, Status], judged: dict[str, Ruleset[Any]],
           log: bool, minds: Mapping[str, Mind] | None, before: StageHook | None
           ) -> tuple[Encounter | None, StageOutcome]:
    """Fight stage ``k`` with the members able to; note who is out of the campaign after."""
    rules = ruleset_for(stage.scenario, ruleset)  # the ruleset with this stage's options
    members = campaign.party_side(stage.scenario)
    present = [m for m in members if m.name not in gone]
    judged.update((m.name, rules) for m in present)
    fighting = [m for m in present if m.name not in party or rules.fit(party[m.name])]
    sat_out = tuple(m.name for m in present if m not in fighting)
    for name in sat_out:
        rules.sit_out(party[name])
    the_seed = stage_seed(seed, k)
    if not fighting:
        return None, StageOutcome(k, stage.label, "unable", the_seed, (), sat_out, 0, 0)
    scenario = _with_party(stage.scenario, campaign.party, tuple(fighting))
    carried = {m.name: party[m.name] for m in fighting if m.name in party}
    enc = Encounter(scenario, ruleset, the_seed, log=log, minds=minds, carried=carried)
    entering = tuple((c.name, c.state()) for c in enc.sides[campaign.party]) if log else ()
    if before is not None:
        before(StageOutcome(k, stage.label, "pending", the_seed,
                            tuple(m.name for m in fighting), sat_out, 0, 0,
                            entering=entering), enc)
    result = enc.run()
    for c in enc.sides[campaign.party]:
        party[c.name] = c
        if c.status is Status.DEAD or c.status is Status.SURRENDERED or (
                c.status is Status.FLED and not campaign.fled_rejoin):
            gone[c.name] = c.status
    side = next(s for s in result.sides if s.name == campaign.party)
    outcome = ("won" if result.winner == campaign.party
               else "draw" if result.winner is None else "lost")
    came_to = tuple((c.name, c.state()) for c in enc.sides[campaign.party]
                    if _comes_to(c, rules)) if log else ()
    return enc, StageOutcome(k, stage.label, outcome, the_seed,
                             tuple(m.name for m in fighting), sat_out, side.deaths,
                             result.rounds, result, enc.log, entering=entering,
                             fled=side.fled, surrendered=side.surrendered, came_to=came_to)


def _comes_to(c: Combatant, rules: Ruleset[Any]) -> bool:
    """Whether ``c`` comes to after its fight: out cold when it ended, and fit by its wounds.

    Fit as the aftermath left the wounds (ORE: half the Shock gone, the head no longer full);
    its status stays the fight's, as the fight's results and its roll call count it.
    """
    return c.status in (Status.UNCONSCIOUS, Status.INCAPACITATED) and rules.fit(c)


def _with_party(scenario: Scenario, party: str, members: tuple[MemberSpec, ...]) -> Scenario:
    """``scenario`` with the party side reduced to ``members``."""
    sides = tuple(replace(s, members=members) if s.name == party else s
                  for s in scenario.sides)
    return replace(scenario, sides=sides)


def _rest(enc: Encounter, stage: StageSpec, k: int, seed: int, party: dict[str, Combatant],
          gone: dict[str, Status]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every living member's recovery after stage ``k``, each with its own generator."""
    done = []
    for name, c in party.items():
        if name in gone:
            continue
        said = enc.ruleset.recover(c, stage.rest, random.Random(rest_seed(seed, k, name)))
        done.append((name, tuple(said)))
    return tuple(done)


def _fates(campaign: Campaign, party: dict[str, Combatant], gone: dict[str, Status],
           judged: dict[str, Ruleset[Any]]) -> tuple[tuple[str, str], ...]:
    """Each member who joined: out of the campaign, or how it stands with the party.

    Out: ``dead``, ``fled``, ``surrendered``. With the party, judged by the rules of the last
    stage it fought or sat out (those that said whether it was fit): ``unconscious`` (down
    by its wounds, ``Ruleset.fit``); ``standing``; ``unconscious, then comes to`` (out cold
    when its last fight ended, as that fight's roll call says, and fit once the aftermath
    settled its wounds: that stage's ``came_to``); ``fled`` for one who fled and may rejoin.
    """
    fates = []
    for name in campaign.roster():
        if name in gone:
            fates.append((name, gone[name].value))
        elif name in party:
            c, rules = party[name], judged[name]
            fates.append((name, "fled" if c.status is Status.FLED
                          else "unconscious" if not rules.fit(c)
                          else "standing" if c.status is Status.OK
                          else "unconscious, then comes to" if _comes_to(c, rules)
                          else c.status.value))
    return tuple(fates)
