"""What a ruleset models: the one source of its coverage table (``summary.json`` ``coverage``).

Each ruleset lists its rules as ``Rule``s (``Ruleset.coverage``, in its own folder's
``coverage.py``): ``modelled``, an ``option`` (the key of ``options.<ruleset>`` that turns
it on or off; a batch reports its setting) or ``not modelled`` (with which way it would
move the numbers). The rules every ruleset shares (space, surprise, ...) are here. The
"What was modelled" table of each page in ``docs/rules/`` is written from the same list
(``sim.report.coverage``; a test fails when the page and the list differ).

``when`` says which scenarios a rule concerns (``FEATURES``): a batch lists only the rules
its fighters, weapons and map touch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Status = Literal["modelled", "option", "not modelled"]
# what in a scenario makes a rule matter to it (``sim.batch.coverage.features``)
FEATURES = ("always", "melee", "ranged", "narrow", "exit", "shield", "armor", "beast",
            "unarmed", "cover", "several")


@dataclass(frozen=True, slots=True)
class Rule:
    """One line of a coverage table.

    Attributes:
        rule: the rule, in a few words.
        status: ``modelled``, ``option`` or ``not modelled``.
        note: where it lives or what it does (modelled, option), or which way it would move
            the numbers if it were modelled (not modelled).
        option: for an option, its key in ``options.<ruleset>``.
        when: the scenario feature that makes it matter (one of ``FEATURES``).
    """

    rule: str
    status: Status
    note: str
    option: str | None = None
    when: str = "always"


# RULES.md "Space, movement and morale": one home, sim/core/space.py and moving.py
SPACE: tuple[Rule, ...] = (
    Rule("Reach and being stopped by a foe", "modelled",
         "2 m in melee, 3 m with a spear; a walk stops where it enters a threatening foe's "
         "reach (sim/core/space.py, moving.py)", when="melee"),
    Rule("Room at a narrow place", "modelled",
         "a node's width caps the fighters of a side in its front; the rest wait their turn",
         when="narrow"),
    Rule("Leaving melee", "modelled",
         "walking out of a foe's reach gives it one free attack; a withdraw step does not",
         when="melee"),
    Rule("Running", "modelled", "a whole round, twice a move, no attack"),
    Rule("Rate of fire", "modelled", "a bow at most 2 shots a round, a crossbow 1, a thrown "
         "weapon 1 (the one in hand)", when="ranged"),
    Rule("Shooting in melee", "modelled",
         "a penalty, and each threatening foe strikes once a round", when="ranged"),
    Rule("Going round a narrow place", "modelled",
         "a fighter that would wait for room runs another way to its foe when that is "
         "sooner (sim/ai/detour.py)", when="narrow"),
    Rule("Holding a narrow place", "modelled",
         "a doctrine's hold, or a tactical or cautious side outnumbered by melee foes "
         "holds one between them (sim/ai/holding.py)", when="narrow"),
    Rule("Sidearms", "modelled",
         "a shooter's sidearm is taken up as part of a move when a foe closes in "
         "(sidearm: in a scenario; sim/ai/sidearm.py)", when="ranged"),
    Rule("Thrown weapons", "modelled",
         "javelins and throwing knives, carry: of them (each ruleset's table); each throw "
         "spends one, hit or miss, and none is picked up, nor after the fight; out of them "
         "the sidearm, else bare hands (sim/core/arms.py)", when="ranged"),
    Rule("Flight takes time", "modelled",
         "a fleeing fighter runs for the way out and can be struck, shot and chased until it "
         "reaches an exit, gets clear, or runs off the map's edge with no foe near"),
    Rule("Morale", "modelled", "a side that lost its doctrine's share breaks: surrender or "
         "flee; of two sides breaking together, the one with fewer down holds "
         "(sim/ai/morale.py)"),
)

# what no ruleset models today, and which way it would move the numbers
GAPS: tuple[Rule, ...] = (
    Rule("Surprise rounds", "not modelled",
         "everyone acts from round 1; an ambusher's free round would raise the ambushers' "
         "win rate and the ambushed side's deaths"),
    Rule("Throwing a melee weapon", "not modelled",
         "a knife, spear or sword stays in the hand; only weapons made to be thrown are "
         "(javelin, throwing knife): a thrown sidearm would add damage at the start of a "
         "melee"),
    Rule("Healing within the scene (first aid)", "not modelled",
         "nobody is patched up during the fight; first aid would lower deaths, above all "
         "deaths after the fight"),
)


def page_of(module: str) -> str:
    """The rules page of the ruleset defined in ``module`` (``docs/rules/<folder>.md``).

    A variant (two rulesets in one folder) shares its family's page.
    """
    return f"docs/rules/{module.split('.')[2]}.md"
