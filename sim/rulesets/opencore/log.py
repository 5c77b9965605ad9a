"""OpenCore d100: the solo log's lines (declarations, rolls, fumbles, damage, criticals).

Only called with ``enc.log`` not None: batches build no strings. Each function emits one
event through ``Encounter.emit`` with its numbers as fields and a ``text`` the log prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core.actions import Reload
from sim.core.words import IntentWords
from sim.rulesets.opencore.rules import strike_shift
from sim.rulesets.opencore.tables import Fumble, Role

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.battlefield import Battlefield
    from sim.core.engine import Encounter
    from sim.rulesets.opencore.fighter import OpenCoreFighter
    from sim.rulesets.opencore.rules import AttackOutcome, CriticalRoll, DamageResult
    from sim.rulesets.opencore.tables import FireMode, Weapon


def weapon_name(weapon: Weapon) -> str:
    """The weapon in running text: ``crossbow``, ``small club``."""
    return weapon.key.replace("_", " ")


WORDS = IntentWords(attack="an attack on {target}", called="", move="a move toward {target}",
                    leave="a retreat off the field", relocate="a move to {place}",
                    defend="a defense action", others={"bide": "to bide", "aim": "to aim"})
"""How OpenCore's log names a declared intent: ``f declares an attack on X``."""


def intent_text(intent: Intent, f: OpenCoreFighter, field: Battlefield | None = None) -> str:
    """A declaration in words (``WORDS``); a reload says what ``f``'s weapon needs."""
    if type(intent) is Reload:
        if not f.held:
            return f"to pick up its {weapon_name(f.weapon)}"
        return f"to reload its {weapon_name(f.weapon)}" if not f.loaded else "to ready its weapon"
    return WORDS.text(intent, field)


def log_roll(enc: Encounter, f: OpenCoreFighter, target: OpenCoreFighter, out: AttackOutcome,
             def_roll: int, chart: int | None, fumble: Fumble | None, depth: int,
             terms: tuple[int, int, int, int, int] | None = None,
             defense: tuple[int, int, int, int, int] | None = None) -> None:
    """Both d100 rolls with their totals and the verdict, and a fumble's chart roll.

    ``terms`` (``attack_terms``: the skill, then its injuries, cover, visibility and
    shooting-in-melee penalties) explain a lowered attack bonus: ``+ 35 (45 - 10 poor visibility)``;
    ``defense`` (``defense_terms``) the defense's: ``- 35 (45 - 30 injuries - 50 stunned)``.
    """
    why = ""
    if terms is not None and any(terms[1:]):
        base, injuries, cover, visibility, pressed = terms
        field = enc.field
        named = ((injuries, "injuries"), (cover, f"{field.cover(target.pos).label} cover"),
                 (visibility, f"{field.visibility(target.pos).label} visibility"),
                 (pressed, "a foe in reach"))
        why = f" ({base}{''.join(f' - {p} {name}' for p, name in named if p)})"
    against = (f"no defense (knocked out: counts as {out.defense_total})" if target.knocked_out
               else f"d100 {def_roll}{signed(out.defense_total - def_roll)}"
                    f"{defense_words(target, defense)} = {out.defense_total}")
    text = (f"{'extra attack: ' if depth else ''}{f.name} attacks {target.name}: "
            f"d100 {out.attack_roll}{signed(out.attack_total - out.attack_roll)}"
            f"{why} = "
            f"{out.attack_total} vs {against} -> {'hit' if out.hit else 'miss'}")
    role = out.fumbled_by  # set with ``fumble``
    if fumble is not None and role is not None:
        who = f.name if role is Role.ATTACKER else target.name
        text += f"; {who} fumbles as {role.value}, chart {chart}: {fumble_text(fumble)}"
    enc.emit("attack", who=f.name, target=target.name, attack_roll=out.attack_roll,
             attack_total=out.attack_total, defense_roll=def_roll,
             defense_total=out.defense_total, hit=out.hit, extra=bool(depth),
             fumble=None if fumble is None or role is None else role.value, fumble_roll=chart,
             text=text + ".")


def defense_words(target: OpenCoreFighter,
                  defense: tuple[int, int, int, int, int] | None) -> str:
    """`` (90 evade doubled - 30 injuries)``: where a defense bonus other than Evade comes from."""
    if defense is None:
        return ""
    evade, injuries, stumble, stun, shield = defense
    # the defense action doubles Evade, a run halves it (RULES.md amended): say which
    changed = ("" if evade == target.evade else " doubled" if evade > target.evade
               else " halved (ran)")
    if not (changed or injuries or stumble or stun or shield):
        return ""
    named = ((-injuries, "injuries"), (-stumble, "stumbling"), (-stun, "stunned"),
             (shield, "shield"))
    return (f" ({evade} evade{changed}"
            f"{''.join(f'{signed(n)} {name}' for n, name in named if n)})")


def fumble_text(fumble: Fumble) -> str:
    """A fumble chart result in words."""
    if fumble.defense_penalty:
        return f"stumbles, -{fumble.defense_penalty} defense until next turn"
    if fumble.foe_extra_attack:
        return "falls over, the opponent gets an immediate extra attack if it can"
    if fumble.self_damage_multiplier:
        return ("drops the weapon and injures himself with it"
                + (f" (x{fumble.self_damage_multiplier} damage)"
                   if fumble.self_damage_multiplier > 1 else ""))
    if fumble.damage_multiplier > 1:
        return f"zigs when he should have zagged: x{fumble.damage_multiplier} damage"
    return "recovers (no harm done)"


def stopped_by(res: DamageResult) -> str:
    """What stopped a hit that reached no HP: the armor, Toughness, or both."""
    if res.to_armor and res.to_toughness:
        return "the armor and Toughness"
    return "Toughness" if res.to_toughness else "the armor"


def log_damage(enc: Encounter, source: str, target: OpenCoreFighter, weapon: Weapon,
               fire: FireMode, damage: int, mult: int, res: DamageResult) -> None:
    """Where a hit's damage went, and a hit that reached no HP as stopped.

    The armor's share (and what is left of it), Toughness's share, then what reached HP.
    """
    parts = []
    if res.to_armor or target.armor.damage_rating:
        parts.append(f"armor takes {res.to_armor} ({res.armor_left} left)")
    if res.to_toughness or res.toughness_left:
        parts.append(f"Toughness takes {res.to_toughness} ({res.toughness_left} left)")
    hp = f"HP {target.hp}/{target.max_hp}"
    parts.append(f"{res.hp_damage} to HP ({hp})" if res.hp_damage
                 else f"stopped by {stopped_by(res)} ({hp})")
    times = f", x{mult}" if mult > 1 else ""
    enc.emit("damage", who=source, target=target.name, damage=damage, to_armor=res.to_armor,
             armor_left=res.armor_left, to_toughness=res.to_toughness,
             toughness_left=res.toughness_left, hp_damage=res.hp_damage, hp=target.hp,
             stopped=not res.hp_damage,
             text=f"{source}'s {weapon.label} ({fire.damage}{times}) deals {damage} to "
                  f"{target.name}: {', '.join(parts)}.")


def log_critical(enc: Encounter, target: OpenCoreFighter, fire: FireMode,
                 crit: CriticalRoll, attack_roll: int) -> None:
    """The critical roll, its shift and where the shift comes from, and every effect it has.

    ``attack_roll``: the unmodified attack roll, the strike's part of the shift
    (``rules.strike_shift``); the rest is the Toughness left (0 whenever the damage reached
    HP, Toughness being spent first, so it seldom shows).
    """
    e = crit.effect
    bits = [f"+{e.extra_damage} damage"] if e.extra_damage else []
    if e.stun_rounds:
        bits.append(f"stun {e.stun_rounds} round(s)")
    if e.bloodloss:
        bits.append(f"bloodloss x{e.bloodloss}")
    if e.unconscious_rounds:
        bits.append(f"unconscious {e.unconscious_rounds} round(s)")
    if e.injury is not None:
        bits.append(f"location {e.injury.value.replace('_', ' ')}, -{e.skill_penalty} "
                    f"to attack and defense")
    shift = crit.modified_roll - crit.roll
    strike = strike_shift(attack_roll)
    named = ((strike, f"{'weak' if strike < 0 else 'strong'} strike"),
             (shift - strike, "Toughness left"))
    why = f" ({', '.join(f'{name} {n:+d}' for n, name in named if n)})" if shift else ""
    enc.emit("critical", target=target.name, table=fire.crit_table.value, roll=crit.roll,
             modified=crit.modified_roll, hp=target.hp,
             text=f"Critical on {target.name} ({fire.crit_table.value}): d100 {crit.roll}"
                  f"{signed(shift) + why if shift else ''} = {crit.modified_roll}: "
                  f"{', '.join(bits) or 'no extra damage'} -> HP {target.hp}/{target.max_hp}.")


def signed(n: int) -> str:
    """`` + n`` or `` - n``, for totals in the log."""
    return f" + {n}" if n >= 0 else f" - {-n}"
