"""Campaign files: a party through a chain of scenarios, validated like scenarios.

```yaml
name: Road to the keep
ruleset: ore              # optional: default the first stage's ruleset
party: heroes             # the side that carries on from stage to stage
fled_rejoin: false        # optional: members who fled the field rejoin at the next stage
stages:
  - scenario: ambush.yaml # relative to the campaign file, or an inline scenario mapping
    rest: short           # none | short | long: recovery after this stage
  - scenario: keep.yaml
```

Each stage is a whole scenario (it also runs alone with ``fray batch``) holding the party
side. A party member is one character throughout: matched by name, defined where it first
appears; a later stage may move it (``at``) and give it another AI, nothing else. A
member may join at a later stage; one who was in the party may not go missing from a later
stage's file (the dead, fled and surrendered are left out when the campaign runs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from sim import registry
from sim.scenario.errors import ScenarioError, pydantic_problems, suggest, unknown
from sim.scenario.loader import load, parse
from sim.scenario.models import Strict
from sim.scenario.names import unseen
from sim.scenario.reading import read_yaml
from sim.scenario.specs import MemberSpec, Scenario
from sim.scenario.vocabulary import RESTS

# what a later stage may change about a party member: where it starts and how it fights
PLACEMENT = frozenset({"at", "ai", "doctrine"})


class StageModel(Strict):
    """One stage: a scenario (a path, or the scenario itself) and the rest after it."""

    scenario: str | dict[str, Any]
    rest: Literal[RESTS] = "none"  # type: ignore[valid-type]  # a Literal of a run-time tuple (vocabulary.py)


class CampaignModel(Strict):
    """The whole campaign file."""

    name: str = Field(min_length=1)
    ruleset: str | None = None
    party: str = Field(min_length=1)
    fled_rejoin: bool = False
    stages: list[StageModel] = Field(min_length=1)


@dataclass(frozen=True, slots=True)
class StageSpec:
    """A stage: its scenario, the rest after it and a label for tables (the file's stem)."""

    scenario: Scenario
    rest: str
    label: str


@dataclass(frozen=True, slots=True)
class Campaign:
    """A validated campaign, ready for ``sim.core.campaign.run_campaign``."""

    name: str
    source: str
    ruleset: str
    party: str
    stages: tuple[StageSpec, ...]
    fled_rejoin: bool = False

    @property
    def slug(self) -> str:
        """The file's stem, used to name outputs."""
        return Path(self.source).stem

    def roster(self) -> list[str]:
        """Every party member's name, in order of first appearance."""
        names: dict[str, None] = {}
        for stage in self.stages:
            names.update(dict.fromkeys(m.name for m in self.party_side(stage.scenario)))
        return list(names)

    def party_side(self, scenario: Scenario) -> tuple[MemberSpec, ...]:
        """The party's members as ``scenario`` lists them."""
        return next(s.members for s in scenario.sides if s.name == self.party)


# keys only a campaign file has: one of them without ``sides`` marks a campaign whose
# ``stages`` is missing or misspelt, to be told so in a campaign's words
CAMPAIGN_ONLY = frozenset({"party", "fled_rejoin"})


def is_campaign(data: Any) -> bool:
    """Whether parsed YAML looks like a campaign.

    A mapping with ``stages``; or, with no ``sides``, with a key only campaigns have
    (``party``): validated as a campaign, a misspelt ``stage:`` is named as such.
    """
    if not isinstance(data, dict):
        return False
    return "stages" in data or ("sides" not in data and bool(CAMPAIGN_ONLY & data.keys()))


def load_campaign(path: str | Path) -> Campaign:
    """Read, validate and freeze a campaign file and every scenario it names.

    Raises:
        ScenarioError: with every problem found, each naming the file and the field.
    """
    source = str(path)
    return parse_campaign(read_yaml(source), source)


def parse_campaign(data: Any, source: str = "<campaign>") -> Campaign:
    """Validate parsed YAML (a mapping) into a ``Campaign``."""
    if not isinstance(data, dict):
        raise ScenarioError(source, [("", "the top level must be a mapping with keys "
                                      f"{', '.join(CampaignModel.model_fields)}")])
    if "sides" in data and "stages" not in data:
        raise ScenarioError(source, [("", "this is a scenario file (it has sides, no stages): "
                                      "run it with fray run, batch or play; a campaign file "
                                      "lists stages (docs/campaigns.md)")])
    try:
        model = CampaignModel.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(source, pydantic_problems(exc, CampaignModel)) from None
    problems: list[tuple[str, str]] = []
    if why := unseen(model.name):  # printed as the scenarios' names are (``names``)
        problems.append(("name", why))
    read: dict[Path, Scenario | ScenarioError] = {}  # each stage file read once
    stages = [_stage(stage, i, source, read) for i, stage in enumerate(model.stages)]
    ruleset = model.ruleset or stages[0].scenario.ruleset
    if ruleset not in registry.names():
        problems.append(("ruleset", unknown("ruleset", ruleset, registry.names())))
    _check_party(model.party, stages, problems)
    if problems:
        raise ScenarioError(source, problems)
    return Campaign(name=model.name, source=source, ruleset=ruleset, party=model.party,
                    stages=tuple(stages), fled_rejoin=model.fled_rejoin)


def _stage(stage: StageModel, i: int, source: str,
           read: dict[Path, Scenario | ScenarioError]) -> StageSpec:
    """Load one stage's scenario: a file next to the campaign, or the inline mapping.

    ``read``: the stage files read so far, each with its scenario or its error (a campaign
    of 20,000 stages naming one file reads it once).
    """
    if isinstance(stage.scenario, str):
        path = Path(source).parent / stage.scenario
        if path not in read:
            try:
                read[path] = load(path)
            except ScenarioError as exc:
                read[path] = exc
        scenario = read[path]
        if isinstance(scenario, ScenarioError):  # name the campaign's field, then the file's
            raise ScenarioError(source, [
                (f"stages[{i}].scenario",
                 f"{scenario.source}: {field + ': ' if field else ''}{msg}")
                for field, msg in scenario.problems])
        return StageSpec(scenario, stage.rest, scenario.slug)
    where = f"{source}: stages[{i}].scenario"
    scenario = parse(stage.scenario, where)
    label = re.sub(r"[^a-z0-9]+", "_", scenario.name.lower()).strip("_") or f"stage{i + 1}"
    return StageSpec(replace(scenario, source=label), stage.rest, label)


def _check_party(party: str, stages: list[StageSpec], problems: list[tuple[str, str]]) -> None:
    """Every stage holds the party side; a member stays the same character throughout."""
    first: dict[str, tuple[int, MemberSpec]] = {}
    for i, stage in enumerate(stages):
        where = f"stages[{i}].scenario"
        here = f"stage {i + 1} ({stage.label})"
        names = stage.scenario.side_names
        if party not in names:
            problems.append((where, f"{here} has no side '{party}' (the party)"
                             + suggest(party, names) + f"; its sides: {', '.join(names)}"))
            continue
        members = {m.name: m for side in stage.scenario.sides if side.name == party
                   for m in side.members}
        for name, (k, was) in first.items():
            there = f"stage {k + 1} ({stages[k].label})"
            if name not in members:
                problems.append((where, f"party member '{name}' (from {there}) is missing "
                                 f"from side '{party}' of {here}; every stage lists the whole "
                                 "party (the fallen are left out as it runs)"))
                continue
            differ = _differences(was, members[name], there)
            if differ:
                problems.append((where, f"'{name}' in {here} is not the character of "
                                 f"{there}: {'; '.join(differ)}. A party member is the same "
                                 "character in every stage: only 'at' and 'ai' may change"))
        for name, member in members.items():
            first.setdefault(name, (i, member))


def _differences(was: MemberSpec, now: MemberSpec, there: str) -> list[str]:
    """How a member's description differs from an earlier one, field by field.

    Placement aside; ``weapon bow here, crossbow in stage 1 (ambush)``.
    """
    out = []
    for f in MemberSpec.__slots__:
        a, b = getattr(was, f), getattr(now, f)
        if f in PLACEMENT or a == b:
            continue
        if is_dataclass(a):  # traits, skills: name the values that differ
            out += [f"{f}.{k.name} {getattr(b, k.name)} here, {getattr(a, k.name)} in {there}"
                    for k in fields(a) if getattr(a, k.name) != getattr(b, k.name)]
        elif f == "native":
            out.append(f"its native blocks differ from {there}")
        else:
            out.append(f"{f} {b} here, {a} in {there}")
    return out
