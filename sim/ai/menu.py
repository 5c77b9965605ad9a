"""The declarations a fighter may make now, as a menu: what ``fray play`` offers a player.

Built from the ruleset's own answers (``Advisor``: reach, hopeless attacks, defenses, extra
attacks, called shots, reloads, odds) and the intents it ``supports``, never a fixed list:
the same questions the AI profiles ask before they choose. Each option carries its intents
and, for an attack, the exact chance that its first attack hits (``Advisor.attack_odds``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sim.ai import profiles, tactics
from sim.core.actions import Aim, Attack, Bide, Defend, Move, Reload, Retreat

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter


@dataclass(frozen=True)
class Option:
    """One declaration on the menu.

    Attributes:
        key: the keyword answer that picks it (``attack Bandit 1``, ``defend parry``, ``hold``).
        label: what the menu shows.
        intents: what is declared.
        odds: the chance the first attack hits, or None.
        surrender: the fighter yields instead of declaring (out of the fight, alive).
    """

    key: str
    label: str
    intents: tuple[Intent, ...]
    odds: float | None = None
    surrender: bool = False


def options(enc: Encounter, c: Combatant) -> list[Option]:
    """Every declaration ``c`` may make now under the encounter's ruleset, in menu order."""
    rules, advisor = enc.ruleset, enc.advisor
    supports, most = rules.supports, rules.max_actions or 99
    foes = enc.enemies(c)
    out: list[Option] = []
    if Reload in supports and advisor.needs_reload(c):
        out.append(Option("reload", "reload (or pick up) the weapon", (Reload(),)))
    kinds = advisor.defense_kinds(enc, c) if Defend in supports else ()
    for foe in foes:
        if not profiles.can_strike(enc, c, foe) or advisor.needs_reload(c):
            continue
        out += _attacks(enc, c, foe, kinds, most)
    for kind in kinds:
        out.append(Option(f"defend {kind}", f"{kind} (until its next turn)", (Defend(kind),)))
    out += _moves(enc, c, foes, supports)
    if Bide in supports:
        out.append(Option("bide", "bide (act later, first next round)", (Bide(),)))
    out.append(Option("hold", "hold: declare nothing", ()))
    out.append(Option("yield", "yield (surrender: out of the fight, alive)", (),
                      surrender=True))
    return out


def _attacks(enc: Encounter, c: Combatant, foe: Combatant, kinds: tuple[str, ...],
             most: int) -> list[Option]:
    """Attacks on ``foe``: plain, called, twice, with a defense, as the ruleset allows.

    A declaration is offered when it could succeed: the advisor gives its first attack a
    chance above 0 (or does not say).
    """
    advisor, supports = enc.advisor, enc.ruleset.supports
    out = []

    def offer(key: str, label: str, intents: tuple[Intent, ...]) -> None:
        chance = advisor.attack_odds(enc, c, list(intents))
        if chance is None or chance > 0:
            out.append(Option(key, label, intents, chance))

    offer(f"attack {foe.name}", f"attack {foe.name}", (Attack(foe),))
    for where in advisor.called_locations(enc, c, foe):
        offer(f"called {where} {foe.name}", f"called shot at {foe.name}'s {where}",
              (Attack(foe, where),))
    if most >= 2 and not advisor.single_shot(c):
        offer(f"twice {foe.name}", f"attack {foe.name} twice", (Attack(foe), Attack(foe)))
    for kind in kinds if most >= 2 else ():
        offer(f"attack {foe.name} and {kind}", f"attack {foe.name} and {kind}",
              (Attack(foe), Defend(kind)))
    if Aim in supports and c.ranged and most >= 1:
        out.append(Option(f"aim {foe.name}", f"aim at {foe.name} (a better shot later)",
                          (Aim(foe),)))
    return out


def _moves(enc: Encounter, c: Combatant, foes: list[Combatant],
           supports: frozenset[type]) -> list[Option]:
    """Moving: toward each foe out of reach, to cover, back to the edge and off the field."""
    field = enc.field
    out = []
    if Move in supports:
        for foe in foes:
            if not profiles.within_strike(enc, c, foe):
                gap = field.distance(c.pos, foe.pos)
                out.append(Option(f"move {foe.name}", f"move toward {foe.name} ({gap:.0f} m "
                                  f"away)", (Move(foe, stop_at=profiles.stop_at(c)),)))
    if Retreat in supports and foes:
        target = tactics.nearest_enemy(enc, c)
        spot = tactics.cover_spot(enc, c, foes, target, c.speed * 2) if c.ranged else None
        if spot is not None:
            place = field.describe(spot)
            out.append(Option("cover", f"take cover at {place} ({field.cover(spot).label})",
                              (Retreat(spot),)))
        edge = tactics.edge(enc, c, foes)
        out.append(Option("flee", f"fall back to {field.describe(edge)} and leave the field "
                          f"there", (Retreat(edge, leave=True),)))
    return out


def find(menu: list[Option], answer: str) -> Option | None:
    """The option an answer names: its number on the menu, or its key (any case)."""
    text = answer.strip()
    if text.isdigit():
        k = int(text)
        return menu[k - 1] if 1 <= k <= len(menu) else None
    wanted = " ".join(text.lower().split())
    return next((o for o in menu if o.key.lower() == wanted), None)
