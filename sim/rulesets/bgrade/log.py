"""B-Grade's log lines: a roll (pool, card, points), allies working together, a hit.

The ruleset (``sim.rulesets.bgrade.ruleset``) calls these only with a log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.rulesets.bgrade.deck import card_name
from sim.rulesets.bgrade.rules import DISARM, degree_name, degree_wounds, small_bonus
from sim.rulesets.ore.log import WORDS, given_text
from sim.rulesets.ore.rules import penalty_text

if TYPE_CHECKING:
    from sim.core.actions import Intent, TimedAction
    from sim.core.engine import Encounter
    from sim.rulesets.bgrade.fighter import BGradeFighter
    from sim.rulesets.bgrade.rules import Benefit
    from sim.rulesets.bgrade.ruleset import BGradeRuleset
    from sim.rulesets.bgrade.team import Roll
    from sim.rulesets.ore.rules import RolledSet
    from sim.rulesets.ore.sets import Set


def log_roll(enc: Encounter, rules: BGradeRuleset, r: Roll,
             pairs: list[tuple[Intent, Set | None]] | None) -> None:
    """A fighter's roll: its pool and why, the faces, the sets and what each set went to."""
    penalty, bonus, card, sides = r.info
    f, base, skill = r.f, r.base, r.skill
    notes = [f"{skill} pool {base}"]
    if penalty:
        notes.append(penalty_text(rules.penalties(enc, f, r.rolled)))
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
        text += "; " + "; ".join(given_text(s, i, field=enc.field) for i, s in pairs)
    enc.emit("roll", who=f.name, dice=sorted(r.faces, reverse=True), sides=sides,
             sets=[str(s) for s in r.sets], text=text + ".")


def log_team(enc: Encounter, rules: BGradeRuleset, helpers: list[Roll], best: Set,
             pairs: list[list[tuple[Intent, Set | None]]]) -> None:
    """Allies working together: each one's roll, then the pooled set and where it went."""
    for r in helpers:
        log_roll(enc, rules, r, None)
    lead = helpers[0]
    assert lead.team is not None, "a team attacks one foe"
    others = ", ".join(r.f.name for r in helpers[1:])
    rest = "; ".join(given_text(s, i, f"{r.f.name}'s ", enc.field)
                     for r, got in zip(helpers, pairs, strict=True)
                     for i, s in got[1 if r is lead else 0:])
    enc.emit("team", who=lead.f.name, target=lead.team.name, set=str(best),
             helpers=[r.f.name for r in helpers[1:]],
             text=f"{lead.f.name} works together with {others} on {lead.team.name}: "
                  f"pooled set {best} -> {lead.f.name}'s attack ({others} "
                  f"merge{'s' if len(helpers) == 2 else ''} into it)"
                  + (f"; {rest}" if rest else "") + ".")


def log_hit(enc: Encounter, f: BGradeFighter, target: BGradeFighter, width: int,
            s: RolledSet, gobbled: int, wounds: int, shock: int, ar: int,
            benefit: Benefit, lost: TimedAction[RolledSet] | None,
            shock_stopped: bool) -> None:
    """A hit: its degree, wounds and Shock through armor, its benefit, a die lost."""
    degree = degree_name(width)
    after = f" after {gobbled} gobbled" if gobbled else ""
    harm = f"{wounds} wound{'s' if wounds != 1 else ''}, {shock} Shock"
    if ar:  # a minimal success deals no wound, armor or not: only its benefit
        stopped = not (wounds or shock) and degree_wounds(width)
        harm = f"stopped by armor ({ar})" if stopped else f"{harm} (armor {ar})"
    bonus = small_bonus(width)
    text = (f"{s} {f.name} hits {target.name}: {degree} success (width {width}{after}), "
            f"{harm}; {f'+{bonus}d on the next attack and ' if bonus else ''}"
            f"{benefit.value}{' (stopped by armor)' if shock_stopped else ''} -> "
            f"{target.wounds.summary()}.")
    track = target.wounds
    if benefit is DISARM and not (track.dead or track.unconscious):  # (``disarm``)
        text += f" {target.name} fights on with its fists."
    if lost is not None:
        text += (f" {target.name} loses a die from the set of its "
                 f"{WORDS.text(lost.intent)} (now {lost.payload}).")
    enc.emit("hit", who=f.name, target=target.name, set=str(s), width=width,
             degree=degree, wounds=wounds, shock=shock, armor=ar,
             benefit=benefit.name,
             **({"benefit_stopped": True} if shock_stopped else {}), text=text)
