"""Once the fight is over: the fallen are settled, and counted to the end of the scene.

RULES.md, aftermath: ongoing effects run on (OpenCore's bleeding), the side holding the
field tends its own fallen by default (scenario ``aftermath: {tend: own | all | none}``),
a draw tends nobody. Each ruleset says what becomes of its fallen in ``Ruleset.aftermath``;
this module decides who is tended, runs the ruleset's aftermath, and ends the log with a
roll call of every combatant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core.combatant import Status

if TYPE_CHECKING:
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

# Ruling: the longest an aftermath runs on (rounds); bleeding settles long before (OpenCore
# loses at least 1 HP a round below 0 and dies at -CON, at most 100 rounds).
MAX_AFTERMATH_ROUNDS = 500


def tended(enc: Encounter, winner: str | None) -> frozenset[Combatant]:
    """Who is tended after the fight: by the scenario's ``aftermath.tend``.

    ``own``: the winning side's members; ``all``: everyone; ``none``, or a draw: nobody
    (RULES.md: nobody holds the field after a draw).
    """
    how = enc.scenario.aftermath.tend
    if how == "none" or winner is None:
        return frozenset()
    if how == "all":
        return frozenset(enc.combatants)
    return frozenset(enc.sides[winner])


def settle(enc: Encounter, winner: str | None) -> None:
    """Run the ruleset's aftermath and note who died after the fight."""
    dead = {c for c in enc.combatants if c.status is Status.DEAD}
    # the fight's survival curve ends here: who the aftermath wakes or kills does not move it
    enc.out_when_fight_ended = {c: c.out_round for c in enc.combatants if not c.in_fight}
    care = tended(enc, winner)
    enc.tended = care
    if enc.log is not None:
        how = ("nobody tends the fallen" if not care
               else "everyone's fallen are tended" if len(care) == len(enc.combatants)
               else f"the {winner} side, holding the field, tends its own")
        enc.emit("aftermath", tended=sorted(c.name for c in care), text=f"Aftermath: {how}.")
    enc.ruleset.aftermath(enc, care)
    enc.died_after = frozenset(c for c in enc.combatants
                               if c.status is Status.DEAD and c not in dead)
    if enc.log is not None:
        for c, state in roll_call(enc):
            enc.emit("rollcall", who=c.name, side=c.side, state=state,
                     text=f"  {c.name} ({c.side}): {state}"
                          f"{' after the fight' if c in enc.died_after else ''}"
                          f" - {c.state()}")


def roll_call(enc: Encounter) -> list[tuple[Combatant, str]]:
    """Every combatant and where it stands: standing, wounded, unconscious, fled, ..., dead.

    The status is the one the fight left (what the results count), with the one change
    the aftermath's own rounds make: a death (OpenCore's bleeding; a knocked-out fighter
    is helpless, never out, so waking changes no status). Healing alone (ORE/B-Grade: half
    the Shock) stands nobody up, so one listed unconscious may no longer be down by its
    wounds; a campaign tells who comes to (``StageOutcome.came_to``).
    ``docs/rules/README.md``: the roll call's status.
    """
    out = []
    for c in enc.combatants:
        if c.in_fight:
            state = "wounded" if enc.advisor.threat(c) > 0 else "standing"
        else:
            state = c.status.value
        out.append((c, state))
    return out
