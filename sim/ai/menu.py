"""The declarations a fighter may make now, as a menu: what ``fray play`` offers a player.

Built from the ruleset's own answers (``Advisor``: reach, hopeless attacks, defenses, extra
attacks, called shots, reloads, odds) and the intents it ``supports``, never a fixed list:
the same questions the AI profiles ask before they choose. Each option carries its intents
and, for an attack, the exact chance that its first attack hits (``Advisor.attack_odds``),
and what it may do beyond hitting (``Advisor.harm_odds``: a location, a wound, a takedown),
and the group it is listed in on ``fray play``'s short first menu (``top``): the details of
a group (how many attacks, which location, which defense, where to move) are its second menu.
A charge carries the odds of its roll too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sim.ai import screening, standoff, striking, tactics
from sim.core import arms, moving, space, targets
from sim.core.actions import Aim, Attack, Bide, Defend, Draw, Move, Reload, Retreat, Withdraw, Yield
from sim.core.doctrine import COVER_MOVES
from sim.scenario.vocabulary import Cover

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

MAX_ATTACKS = 4  # attacks on one foe a menu offers in a round (the AIs declare at most 4)
TIMES = {2: "twice", 3: "3 times", 4: "4 times"}


@dataclass(frozen=True)
class Option:
    """One declaration on the menu.

    Attributes:
        key: the keyword answer that picks it (``attack Bandit 1``, ``defend parry``, ``hold``).
        label: what the menu shows.
        intents: what is declared.
        odds: the chance the first attack hits, or None.
        harm: what the first attack may do beyond hitting, and each chance
            (``Advisor.harm_odds``): ``(("to the head", 0.11),)``.
        group, heading: the key and the words of the group it is listed in on the first
            menu of ``fray play`` (``top``); "" for an option listed there on its own.
        blocked: why it cannot be taken now ("": it can); the menu says so, and a
            what-if does not weigh it.
    """

    key: str
    label: str
    intents: tuple[Intent, ...]
    odds: float | None = None
    harm: tuple[tuple[str, float], ...] = ()
    group: str = ""
    heading: str = ""
    blocked: str = ""


@dataclass(frozen=True)
class Group:
    """Options listed under one line of the first menu, picked from a second one.

    Attributes:
        key: the keyword answer that opens it (``called Ser Benedek``, ``defend``, ``move``).
        label: what the first menu shows.
        options: its options, in menu order.
    """

    key: str
    label: str
    options: tuple[Option, ...]


# the groups' keys and words: the several attacks (and an attack with a defense) on a foe,
# the called shots at a foe, the defenses, the moves, a shooter's cover and steps back
# (``Any``: unpacked into ``Option``, whose other fields are not strings)
MOVES: dict[str, Any] = {"group": "move", "heading": "move toward a foe, charge, or go to an ally"}
PLACES: dict[str, Any] = {"group": "cover", "heading": "take cover (and shoot)"}
STEP_BACK: dict[str, Any] = {"group": "step back", "heading": "step back out of melee and shoot"}


def _several(foe: Combatant) -> dict[str, Any]:
    return {"group": f"more {foe.name}",
            "heading": f"attack {foe.name} twice or more, or with a defense"}


def _called(foe: Combatant) -> dict[str, Any]:
    return {"group": f"called {foe.name}",
            "heading": f"called shot at {foe.name}"}


def top(menu: list[Option]) -> list[Option | Group]:
    """The first menu: each option without a group, and one line per group, in menu order.

    A group of one option is listed as that option. The second step (``Group.options``)
    holds the details: how many attacks, which location, which defense, where to move.
    """
    members: dict[str, list[Option]] = {}
    order: list[Option | str] = []
    for option in menu:
        if not option.group:
            order.append(option)
        elif option.group in members:
            members[option.group].append(option)
        else:
            members[option.group] = [option]
            order.append(option.group)
    out: list[Option | Group] = []
    for entry in order:
        if isinstance(entry, Option):
            out.append(entry)
            continue
        inside = members[entry]
        out.append(inside[0] if len(inside) == 1
                   else Group(entry, inside[0].heading, tuple(inside)))
    return out


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
        if not striking.can_strike(enc, c, foe) or advisor.needs_reload(c):
            continue
        out += _attacks(enc, c, foe, kinds, most)
    if not c.fleeing and arms.may_change(c):
        out += _other_weapon(enc, c, foes)
    for kind in kinds:
        out.append(Option(f"defend {kind}", f"{kind} (until its next turn)", (Defend(kind),),
                          group="defend", heading=f"defend ({' or '.join(kinds)})"))
    out += _moves(enc, c, foes, supports)
    if Bide in supports:
        out.append(Option("bide", "bide (act later, first next round)", (Bide(),)))
    out.append(Option("hold", "hold: declare nothing", ()))
    # the engine takes a fighter that yields out as it declares (``Encounter.declare``)
    if space.takes_surrender(c, foes) is not None:  # RULES.md "Kinds": not to beasts
        out.append(Option("yield", "yield (surrender: out of the fight, alive)", (Yield(),)))
    return out


def _other_weapon(enc: Encounter, c: Combatant, foes: list[Combatant]) -> list[Option]:
    """Take up the other weapon (a sidearm, or the bow again) and attack a foe with it.

    RULES.md "Shooting in melee": the draw is part of the move. One plain attack a foe,
    asked with that weapon in hand, and the weapons changed back before this returns.
    """
    weapon = arms.other_weapon(c)
    heading = f"take up the {weapon} and attack"
    rules, advisor = enc.ruleset, enc.advisor
    out = []
    rules.switch_arms(c)
    try:
        for foe in foes:
            if not striking.can_strike(enc, c, foe) or advisor.needs_reload(c):
                continue
            intents = (Attack(foe),)
            chance = advisor.attack_odds(enc, c, list(intents))
            if chance is None or chance > 0:
                out.append(Option(f"draw attack {foe.name}",
                                  f"take up the {weapon} and attack {foe.name}",
                                  (Draw(), *intents), chance,
                                  harm=advisor.harm_odds(enc, c, list(intents)),
                                  group="draw", heading=heading))
    finally:
        rules.switch_arms(c)
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
            first = intents[0]
            called = isinstance(first, Attack) and first.called
            group = {} if len(intents) == 1 and not called else (
                _called(foe) if called else _several(foe))
            out.append(Option(key, label, intents, chance,
                              harm=advisor.harm_odds(enc, c, list(intents)), **group))

    rate = space.shots_allowed(c)  # RULES.md "Rate of fire"
    shots = 1 if advisor.single_shot(c) else min(most, MAX_ATTACKS, rate or MAX_ATTACKS)
    for n in range(1, shots + 1):
        times = "" if n == 1 else f" {TIMES[n]}"
        offer(f"attack {foe.name}{times}", f"attack {foe.name}{times}", (Attack(foe),) * n)
        for kind in kinds if n < most else ():
            offer(f"attack {foe.name}{times} and {kind}",
                  f"attack {foe.name}{times} and {kind}", (Attack(foe),) * n + (Defend(kind),))
    for where in advisor.called_locations(enc, c, foe):
        offer(f"called {where} {foe.name}", f"called shot at {foe.name}'s {where}",
              (Attack(foe, where),))
        if shots >= 2:
            offer(f"called {where} {foe.name} and again",
                  f"called shot at {foe.name}'s {where}, then attack again",
                  (Attack(foe, where), Attack(foe)))
    if Aim in supports and c.ranged and most >= 1:
        out.append(Option(f"aim {foe.name}", f"aim at {foe.name} (a better shot later)",
                          (Aim(foe),)))
    return out


def _moves(enc: Encounter, c: Combatant, foes: list[Combatant],
           supports: frozenset[type]) -> list[Option]:
    """Moving: toward a foe, at a walk or a run; a withdraw; cover; falling back; flight.

    Toward each foe out of reach, a careful withdraw out of melee, a shooter's cover, back
    toward the edge, and fleeing for the way out.
    """
    field = enc.field
    out = []
    advisor, most = enc.advisor, enc.ruleset.max_actions or 99
    if Move in supports:
        for foe in foes:
            if (striking.within_strike(enc, c, foe)
                    or field.distance(c.pos, foe.pos) <= striking.stop_at(c)):
                # close enough, yet no attack (no chance, or no arm to strike with): the
                # ruleset's answer, as the profiles ask it (``profiles.approach``)
                if not striking.can_strike(enc, c, foe):
                    instead, why = advisor.hopeless(enc, c, foe)
                    out.append(Option(f"instead {foe.name}", why, tuple(instead)))
                elif (c.ranged and foe.ranged
                      and field.distance(c.pos, foe.pos) > standoff.CLOSEST):
                    closer = tuple(standoff.closing(enc, c, foe))
                    gap = field.distance(c.pos, foe.pos)
                    ends = max(standoff.CLOSEST, gap - c.speed)
                    cover = "" if field.cover(c.pos) is Cover.NONE else ", out of your cover"
                    out.append(Option(
                        f"close in {foe.name}",
                        f"close in on {foe.name} ({gap:.1f} m away; you end {ends:.1f} m from "
                        f"it{cover})" + (", shooting as you come" if len(closer) > 1 else ""),
                        closer, **MOVES))
                continue
            gap = field.distance(c.pos, foe.pos)
            move = Move(foe, stop_at=striking.stop_at(c))
            ends = min(gap, max(gap - c.speed, striking.stop_at(c)))
            out.append(Option(f"move {foe.name}", f"move toward {foe.name} ({gap:.1f} m away; "
                              f"you end {ends:.1f} m from it if it stays)", (move,), **MOVES))
            run = enc.ruleset.run_metres(c)
            if run > c.speed and gap - striking.stop_at(c) > c.speed:
                ends = min(gap, max(gap - run, striking.stop_at(c)))
                out.append(Option(f"run {foe.name}", f"run at {foe.name} (up to {run:.0f} m, "
                                  f"no attack this round; you end {ends:.1f} m from it if it "
                                  "stays and no foe's reach stops you)",
                                  (Move(foe, stop_at=striking.stop_at(c), run=True),),
                                  **MOVES))
            if most >= 2 and gap - striking.stop_at(c) <= c.speed:
                charge = (move, Attack(foe))
                # the roll's odds (ORE, B-Grade: two sets, one to move, one to strike)
                out.append(Option(f"charge {foe.name}", f"charge {foe.name}", charge,
                                  advisor.attack_odds(enc, c, list(charge)), **MOVES))
            if most >= 2 and Aim in supports and c.ranged:
                out.append(Option(f"move {foe.name} and aim", f"move toward {foe.name} and "
                                  f"aim", (move, Aim(foe)), **MOVES))
        for ally in enc.allies(c):
            gap = field.distance(c.pos, ally.pos)
            if ally.ranged and gap > 0:
                out.append(Option(f"guard {ally.name}", f"go to {ally.name}'s side",
                                  (Move(ally, stop_at=0.0),), **MOVES))
                if gap > c.speed:
                    out.append(Option(f"run guard {ally.name}", f"run to {ally.name}'s side",
                                      (Move(ally, stop_at=0.0, run=True),), **MOVES))
            bound = targets.bound_for(enc, ally)
            if Retreat in supports and ally.ranged and not c.ranged:
                # the cover in front of a shooter, as a tactical screen holds it
                spot = screening.front(enc, c, ally.pos if bound is None else bound, foes)
                if spot is not None and spot != c.pos:
                    far = field.distance(c.pos, spot) > c.speed
                    out.append(Option(f"front {ally.name}", f"hold {field.describe(spot)} in "
                                      f"front of {ally.name}" + (" at a run" if far else ""),
                                      (Retreat(spot, run=far),), **MOVES))
            if Retreat in supports and bound is not None and bound != c.pos:
                place = field.describe(bound)
                far = field.distance(c.pos, bound) > c.speed
                out.append(Option(f"with {ally.name}", f"go with {ally.name} to {place}"
                                  + (" at a run" if far else ""), (Retreat(bound, run=far),),
                                  **MOVES))
    if Withdraw in supports and foes:
        for spot in moving.withdraw_spots(enc, c):
            place = field.describe(spot)
            out.append(Option(f"withdraw {place}", f"withdraw to {place}: a careful step out "
                              "of reach, no free attack, nothing else this round",
                              (Withdraw(spot),), **MOVES))
    if Retreat in supports and foes:
        if c.ranged:
            out += _shooter_places(enc, c, foes, most)
        dest, is_exit = space.way_out(enc, c)
        where = field.describe(dest)
        # RULES.md "Flight takes time": it runs for the way out until it gets there (an
        # exit) or beyond every foe's reach of it; leaving a foe's reach gives a free attack
        if is_exit:
            label = f"flee by the way out at {where} (it takes rounds"
        elif dest != c.pos:
            label = f"flee toward {where}, away from your foes (it takes rounds"
        else:  # at the edge already (``space.off_the_edge``): away, or cornered
            near = space.cornering(enc, c)
            takes = None if space.is_beast(c) else next(
                (e for e in near if not space.is_beast(e)), None)
            label = (f"flee off the map's edge at {where} (away at the round's end"
                     if not near else f"flee off the map's edge at {where} ({near[0].name} "
                     "could be on you in one move: cornered"
                     + (", you would yield" if takes is not None else ""))
        out.append(Option("flee", f"{label}; foes in reach strike as you go)",
                          (Retreat(dest, leave=True, run=True),)))
        edge = tactics.edge(enc, c, foes)
        if edge != c.pos:  # moving away without leaving: room to shoot, or to wait for help
            out.append(Option("fall back", f"fall back toward {field.describe(edge)} and stay "
                              "on the field", (Retreat(edge),)))
    return out


def _shooter_places(enc: Encounter, c: Combatant, foes: list[Combatant],
                    most: int) -> list[Option]:
    """A shooter's places, for each foe it would shoot: better cover, a step out of melee.

    The same spots the cautious and tactical profiles find (``tactics.cover_spot`` within
    ``COVER_MOVES`` moves, ``tactics.step_back_spot``), alone or with the shot.
    """
    field = enc.field
    out: list[Option] = []
    seen = set()
    # stepping back is out of melee: offered, as the profiles do it, only with a foe in
    # melee reach, and never to where it stands (it read "step back to west_camp" there)
    steps = most >= 2 and bool(space.engaged(enc, c, foes))
    for foe in foes:
        for spot in tactics.cover_spots(enc, c, foes, foe, c.speed * COVER_MOVES):
            place = field.describe(spot)
            if spot not in seen:
                seen.add(spot)
                out.append(Option(f"cover {place}", f"take cover at {place} "
                                  f"({field.cover(spot).label})", (Retreat(spot),), **PLACES))
                if c.speed < field.distance(c.pos, spot) <= enc.ruleset.run_metres(c):
                    out.append(Option(f"run cover {place}", f"run to cover at {place} "
                                      f"({field.cover(spot).label}; no shot this round)",
                                      (Retreat(spot, run=True),), **PLACES))
            if most >= 2:
                _offer(enc, c, out, f"cover {place} and shoot {foe.name}",
                       f"take cover at {place} and shoot {foe.name}",
                       (Retreat(spot), Attack(foe)), PLACES)
        for back in tactics.step_back_spots(enc, c, foes, foe) if steps else ():
            if back == c.pos:
                continue
            place = field.describe(back)
            _offer(enc, c, out, f"step back {place} and shoot {foe.name}",
                   f"step back to {place} and shoot {foe.name}", (Retreat(back), Attack(foe)),
                   STEP_BACK)
    return out


def _offer(enc: Encounter, c: Combatant, out: list[Option], key: str, label: str,
           intents: tuple[Intent, ...], group: dict[str, Any]) -> None:
    """Add a declaration that moves, then attacks, listed in ``group`` (``MOVES``, ...).

    With the odds where the rules roll it all now (``Advisor.move_attack_odds``: ORE's
    and B-Grade's one roll, a set each), and not at all when that roll cannot carry both;
    elsewhere the attack is rolled from where the move ends, and no odds are shown.
    """
    odds = enc.advisor.move_attack_odds(enc, c, list(intents))
    if odds == 0:  # one die cannot hold two sets: a line certain to fail
        return
    out.append(Option(key, label, intents, odds, **group))


def number(answer: str) -> int | None:
    """The number an answer gives (``12``), or None: the one reading of a numbered answer.

    ASCII digits only: ``str.isdigit`` holds for ``²`` too, which ``int`` refuses. A number
    of more than ``MAX_DIGITS`` digits (leading zeros aside) reads as ``10 ** MAX_DIGITS``,
    past every menu and every bound, so its answer is refused as out of range: it is never
    converted (Python refuses to past 4,300 digits).
    """
    text = answer.strip()
    if not (text.isascii() and text.isdigit()):
        return None
    return int(text) if len(text.lstrip("0")) <= MAX_DIGITS else 10 ** MAX_DIGITS


MAX_DIGITS = 18  # no menu, no bound of a number answered at one, comes near


def find(menu: list[Option], answer: str) -> Option | None:
    """The option an answer names: its number on the menu, or its key (any case)."""
    text = answer.strip()
    k = number(text)
    if k is not None:
        return menu[k - 1] if 1 <= k <= len(menu) else None
    wanted = " ".join(text.lower().split())
    return next((o for o in menu if o.key.lower() == wanted), None)


def find_top(entries: list[Option | Group], menu: list[Option],
             answer: str) -> Option | Group | None:
    """What an answer to the first menu names.

    Its number there, any option's key (a detail can be named at once: ``called head Ser
    Benedek``), or a group's key (``called Ser Benedek``: its second menu).
    """
    text = answer.strip()
    k = number(text)
    if k is not None:
        return entries[k - 1] if 1 <= k <= len(entries) else None
    wanted = " ".join(text.lower().split())
    found: Option | Group | None = next((o for o in menu if o.key.lower() == wanted), None)
    if found is None:
        found = next((o for o in menu if o.group and o.group.lower() == wanted), None)
        if found is not None:  # the group's line (or its one option, listed as itself)
            found = next((e for e in entries if isinstance(e, Group)
                          and e.key == found.group), found)
    return found
