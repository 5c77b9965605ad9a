"""The questions an AI asks a ruleset, with safe defaults.

Every ruleset has an ``Advisor`` (its ``advisor.py``) that answers from its own dice; the
profiles in :mod:`sim.ai.profiles` ask it and hold no dice logic. A default is the answer
that changes nothing: no defense, no extra attack, no called shot, no waiting. ``threat``
has no default: focus fire and falling back depend on it, so each ruleset must say how
hurt its fighters are.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Generic, TypeVar

from sim.core import space
from sim.core.actions import Move, attack_on
from sim.core.battlefield import MELEE_REACH

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter
    from sim.rulesets.base import Ruleset


F = TypeVar("F", bound="Combatant")  # the ruleset's own fighter class


class Advisor(ABC, Generic[F]):
    """Answers the AI profiles' questions for one ruleset.

    Args:
        rules: the ruleset instance of the encounter (its options included).
    """

    def __init__(self, rules: Ruleset[F]) -> None:
        self.rules = rules

    # ---------------------------------------------------------------- every profile
    def can_attack(self, enc: Encounter, actor: F, target: F) -> bool:
        """Whether ``actor`` could attack ``target`` from where both stand (its reach)."""
        return space.in_reach(enc, actor, target)

    def single_shot(self, actor: F) -> bool:
        """Whether the weapon holds one shot (a crossbow): never two attacks a round."""
        return False

    def needs_reload(self, actor: F) -> bool:
        """Whether the actor's weapon must be reloaded (or picked up) before it can attack."""
        return False

    @abstractmethod
    def threat(self, actor: F) -> float:
        """How hurt a combatant is, 0 (fresh) to 1 (about to go down)."""

    def peril(self, actor: F) -> float:
        """How near to death a combatant is, 0 to 1: what a fighter valuing its life fears.

        Default: ``threat``. A ruleset where going down is not dying (B-Grade's Shock)
        says so here.
        """
        return self.threat(actor)

    def can_hit(self, enc: Encounter, actor: F, target: F) -> bool:
        """Whether an attack declared now could succeed at all (no hopeless attacks)."""
        return True

    def can_harm(self, enc: Encounter, actor: F, target: F) -> bool:
        """Whether a hit of ``actor`` on ``target`` now could do harm that lasts.

        Harm that lasts as the ruleset says (``Ruleset.harm_lasts``): a shooter whose every
        hit would wear off changes its exchange (``sim.ai.standoff.harmless``). Default:
        yes (every hit that gets through lasts).
        """
        return True

    def attack_odds(self, enc: Encounter, actor: F,
                    intents: list[Intent]) -> float | None:
        """Chance that the first attack of the declaration ``intents`` hits, as rolled now.

        Exact under each ruleset (against no active defense for ORE and B-Grade, whose gobble
        dice come after the roll). None: the ruleset does not say.
        """
        return None

    def move_attack_odds(self, enc: Encounter, actor: F,
                         intents: list[Intent]) -> float | None:
        """Chance a declaration that moves, then attacks, gets its attack off, as rolled now.

        Only where the rules roll the whole declaration now (ORE, B-Grade: one roll, a set
        for the move and a set for the attack); 0 is a declaration that cannot work. None
        where the attack is rolled after the move, from where it ends (a player's menu then
        shows no odds for it).
        """
        return None

    def harm_odds(self, enc: Encounter, actor: F,
                  intents: list[Intent]) -> tuple[tuple[str, float], ...]:
        """What the first attack of ``intents`` may do beyond hitting, and each chance.

        Exact from the ruleset's own dice, as rolled now, each counting the chance to hit
        too: ORE a head hit, or a called shot's location; OpenD6 a wound and a takedown;
        OpenCore damage past armor to hit points, and a takedown. () where the ruleset says
        nothing more than ``attack_odds``.
        """
        return ()

    def wounded(self, actor: F) -> bool:
        """Whether ``actor`` carries any harm at all (a player's "looks": not unhurt).

        Default: a ``threat`` above 0. A ruleset whose ``threat`` reads only the harm that
        brings a fighter down (ORE: the torso and head) says more here.
        """
        return self.threat(actor) > 0

    def hopeless(self, enc: Encounter, actor: F,
                 target: F) -> tuple[list[Intent], str]:
        """In reach of ``target`` but with no chance to hit: what to do instead, and why.

        Default: a shooter standing off steps a move closer (range penalties shrink); anyone
        else holds its ground.
        """
        gap = enc.field.distance(actor.pos, target.pos)
        if actor.ranged and gap > MELEE_REACH:
            closer = max(MELEE_REACH, gap - actor.speed)
            return ([Move(target, stop_at=closer)],
                    f"no chance to hit {target.name} from here: closes in")
        return [], f"no chance to hit {target.name}: holds its ground"

    def pools(self, enc: Encounter, actor: F) -> str:
        """The fighter's rolls now, in the ruleset's terms, for a player's panel ("" if none)."""
        return ""

    def called_locations(self, enc: Encounter, actor: F,
                         target: F) -> tuple[str, ...]:
        """Where a called shot may aim under this ruleset (a player's menu); () for none."""
        return ()

    def defense_kinds(self, enc: Encounter, actor: F) -> tuple[str, ...]:
        """Every defense ``actor`` may declare now (a player's menu, not only the best)."""
        kind = self.defense_kind(enc, actor, ranged=False)
        return (kind,) if kind else ()

    def called_shot(self, enc: Encounter, actor: F, target: F) -> str | None:
        """The location an aggressive AI should call, or None (no called shot)."""
        return None

    def extra_attacks(self, enc: Encounter, actor: F, target: F) -> int:
        """How many extra attacks an aggressive AI should declare this round (0: one)."""
        return 0

    def can_move_and_attack(self, enc: Encounter, actor: F) -> bool:
        """Whether moving and attacking in one round is worth declaring."""
        return False

    # ---------------------------------------------------------------- cautious and tactical
    def danger(self, enc: Encounter, actor: F) -> float:
        """Expected damage ``actor`` deals in a round, in the ruleset's unit (compared only)."""
        return 1.0

    def defense_kind(self, enc: Encounter, actor: F, ranged: bool) -> str | None:
        """The defense to declare against ``ranged`` (else melee) attacks, or None."""
        return None

    def attack_and_defend(self, enc: Encounter, actor: F, target: F,
                          kind: str) -> bool:
        """Whether attacking ``target`` and defending (``kind``) in one round both pay."""
        return False

    def attack_worth(self, enc: Encounter, actor: F, target: F) -> float:
        """Expected harm one attack of ``actor`` does to ``target`` now, in the ruleset's unit.

        Default: ``danger`` (what ``actor`` deals in a round).
        """
        return self.danger(enc, actor)

    def defense_worth(self, enc: Encounter, actor: F,
                      threats: dict[F, float], kind: str) -> float:
        """Expected harm a defense (``kind``) spares ``actor`` from ``threats`` this round.

        ``threats``: each foe and the attacks it is expected to make on ``actor``
        (``targets.attacks_expected``). Same unit as ``attack_worth``. Default 0: a cautious
        fighter then strikes rather than only defend (never a fighter that stops fighting).
        """
        return 0.0

    def tactical_attack(self, enc: Encounter, actor: F,
                        target: F) -> tuple[list[Intent], str]:
        """The attack declaration with the best expectation on ``target``, and why.

        Default: the aggressive choices (a called shot, extra attacks); "" for one plain
        attack.
        """
        called = self.called_shot(enc, actor, target)
        extra = self.extra_attacks(enc, actor, target)
        why = ", ".join(x for x in (f"{extra + 1} attacks" if extra else "",
                                    f"called shot at the {called}" if called else "") if x)
        intents: list[Intent] = [attack_on(target, called)]
        return intents + [target.plain_attack] * extra, why

    def wait_intents(self, enc: Encounter, actor: F,
                     foes: list[F]) -> tuple[list[Intent], str]:
        """What a fighter holding its ground with no foe in reach does, and why."""
        return [], "holds its ground"

    def while_closing(self, enc: Encounter, actor: F,
                      target: F) -> list[Intent]:
        """What to declare with a move that does not bring ``target`` into reach."""
        return []

    def waits_for(self, enc: Encounter, actor: F, target: F) -> bool:
        """Whether letting ``target`` come into reach beats closing the last gap."""
        return False

    def can_step_back_and_attack(self, enc: Encounter, actor: F) -> bool:
        """Whether a ranged fighter can step out of melee and still shoot this round."""
        return self.can_move_and_attack(enc, actor)
