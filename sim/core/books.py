"""The encounter's books and who is in the fight: what rulesets report as it happens.

The encounter's part that keeps them (``Encounter`` is a ``Books``): an attack made, a
hit and the harm that lasts (``record_attack``, ``record_hit``, an attack that finds its
foe already down, ``finds_down``), and a fighter taken out of the fight or brought back
(``take_out``, ``bring_back``), with the counts and kept answers that follow from it.
Rulesets report through these calls; nothing else changes the counters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.core.combatant import Status

if TYPE_CHECKING:
    from sim.core.battlefield import Position
    from sim.core.combatant import Combatant
    from sim.core.harm import Harm
    from sim.rulesets.base import Ruleset


class Books:
    """The books and the changes to who is in the fight (``Encounter`` sets these)."""

    log: list[dict[str, Any]] | None
    ruleset: Ruleset[Any]
    round: int
    first_casualty_round: int
    fight_over: bool
    standing: dict[str, int]
    sides_left: int
    harmed_in: dict[str, int]
    hurt_in: dict[str, int]
    nearest_kept: dict[tuple[Position, str], list[Combatant]]
    _foes: dict[str, list[Combatant]]

    if TYPE_CHECKING:
        def emit(self, kind: str, **fields: Any) -> None:
            """The encounter's log (``Encounter.emit``)."""

    # ---------------------------------------------------------------- the books
    def finds_down(self, actor: Combatant, target: Combatant, lead: object = None) -> bool:
        """Whether ``actor``'s attack finds ``target`` already down, said in the log if so.

        Such an attack is not made (``record_attack``): it fizzles. ``lead``: what the log
        line starts with (ORE's set), put in words only for the log. OpenD6 turns the
        attack on another foe instead.
        """
        if target.in_fight:
            return False
        if self.log is not None:
            first = "" if lead is None else f"{lead} "
            self.emit("fizzle", who=actor.name,
                      text=f"{first}{actor.name}'s attack finds {target.name} already down.")
        return True

    def record_attack(self, actor: Combatant) -> None:
        """An attack of ``actor`` was made: resolved against a foe still in the fight.

        Every ruleset counts an attack here once it is resolved, whether it hits, misses
        (ORE's attack given no set included) or finds its foe out of reach; not one that
        finds its foe already down (``finds_down``), nor one a stun forbids (OpenCore).
        """
        actor.attacks += 1

    def record_hit(self, actor: Combatant, target: Combatant, harm: Harm) -> None:
        """One of ``actor``'s attacks on ``target`` succeeded, doing ``harm`` (marked already).

        A hit that armor (or Toughness, or resistance) stopped whole is a hit, not a
        damaging hit. Harm that lasts (``Ruleset.harm_lasts``) is what the stand-off and
        morale count: the round ``actor``'s side did harm and ``target``'s side took it.
        """
        actor.hits += 1
        damage = harm.damage
        if damage > 0:
            actor.damaging_hits += 1
            actor.damage += damage
        if (damage > 0 or harm.worn > 0) and self.ruleset.harm_lasts(target, harm):
            self.harmed_in[actor.side] = self.round
            self.hurt_in[target.side] = self.round

    # ---------------------------------------------------------------- changes
    def take_out(self, c: Combatant, status: Status, why: str = "") -> None:
        """Mark ``c`` out of the fight (or change how it is out, e.g. unconscious -> dead)."""
        if status is Status.OK or c.status is status:
            return
        was_in = c.in_fight
        c.status = status
        c.in_fight = False
        self._foes.clear()
        if self.nearest_kept:  # one fewer foe to be nearest
            self.nearest_kept.clear()
        if was_in:
            self.standing[c.side] -= 1
            if not self.standing[c.side]:
                self.sides_left -= 1
            c.out_round = self.round
            if not self.first_casualty_round and not self.fight_over:
                self.first_casualty_round = self.round
        if self.log is not None:
            self.emit("status", who=c.name, status=status.value,
                      text=f"{c.name} {status.phrase()}{': ' + why if why else ''}.")
        if c.effects:
            keep = []
            for proc in c.effects:
                if proc.persistent and status is not Status.DEAD:
                    keep.append(proc)
                elif proc.is_alive:
                    proc.interrupt(status.value)
            c.effects = keep

    def bring_back(self, c: Combatant, why: str = "") -> None:
        """Return an out-of-the-fight combatant to it.

        No built-in ruleset calls it (a knockout leaves its fighter in the fight, helpless:
        RULES.md, down for a while is not out); kept for a ruleset whose fighters come back.
        """
        if c.in_fight or c.status is Status.DEAD:
            return
        c.status = Status.OK
        c.in_fight = True
        self._foes.clear()
        c.out_round = 0
        if self.nearest_kept:
            self.nearest_kept.clear()
        self.standing[c.side] += 1
        if self.standing[c.side] == 1:
            self.sides_left += 1
        if self.log is not None:
            back = "is on its feet again" if self.fight_over else "is back in the fight"
            self.emit("status", who=c.name, status="ok",
                      text=f"{c.name} {back}{': ' + why if why else ''}.")
