"""``fray convert``: what each combatant of a scenario becomes under each ruleset.

Each combatant's neutral description (traits, skills, gear), then the stats, skills and gear
it is built with under each ruleset (a native block, where given, overrides the conversion),
so the conversion can be checked and argued with.
"""

from __future__ import annotations

from sim import registry
from sim.core.engine import Encounter
from sim.scenario.specs import MemberSpec, Scenario

TRAITS = ("strength", "endurance", "agility", "dexterity", "perception")
SKILLS = ("melee", "brawl", "ranged", "dodge", "parry")


def neutral(member: MemberSpec) -> str:
    """A member's neutral traits, skills and gear on one line."""
    t, s = member.traits, member.skills
    traits = ", ".join(f"{k} {getattr(t, k)}" for k in TRAITS)
    skills = ", ".join(f"{k} {getattr(s, k)}" for k in SKILLS if getattr(s, k))
    gear = f"{member.weapon}, armor {member.armor}" + (", shield" if member.shield else "")
    return f"{traits}; {skills or 'no skills'}; {gear}"


def conversion_text(scenario: Scenario, names: list[str]) -> str:
    """Every combatant of ``scenario`` as built under each ruleset of ``names``."""
    built = {name: Encounter(scenario, name, seed=0).combatants for name in names}
    # built again from other seeds: a ruleset whose fighters differ rolls dice as it builds
    # them (the hit points of opend6-hp), so two identical members may show different numbers
    rolls = {name: any(a.describe() != b.describe()
                       for seed in (1, 2, 3)
                       for a, b in zip(built[name], Encounter(scenario, name, seed).combatants,
                                       strict=True))
             for name in names}
    width = max(len(n) for n in names)
    lines = [f"{scenario.name} ({scenario.source}): combatants under {', '.join(names)}"]
    for i, member in enumerate(m for side in scenario.sides for m in side.members):
        lines += ["", f"{member.name} ({member.side}): {neutral(member)}"]
        for name in names:
            cls = registry.get(name)
            native = (f" [native '{cls.native_key}' block]"
                      if cls.native_key and member.native_block(cls.native_key) else "")
            mark = " *" if rolls[name] else ""
            lines.append(f"  {name:<{width}}  {built[name][i].describe()}{native}{mark}")
    lines.append("")
    if any(rolls.values()):
        lines.append("* rolled as the fighter is built (hit points): new for every fight, "
                     "shown for seed 0")
    for name in names:
        build = registry.get(name).build
        lines.append(f"{name:<{width}}  built by {build.__module__}.{build.__qualname__}")
    return "\n".join(lines)
