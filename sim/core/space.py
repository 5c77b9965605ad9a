"""Space as at a table: reach, threat, room at a narrow place, running, rate of fire, flight.

The one home of the rules of space that the rulesets and the AI both ask (DESIGN.md,
RULES.md "Space, movement and morale"): which foes a fighter can strike from where it
stands, who threatens whom, who is engaged, who could reach a place in one move, how many
of a side stand at a narrow place, how far a run goes, how many shots a weapon looses in a
round, where a flight goes and when it has got away. Pure queries over an encounter; the
walk itself, with its stops and free attacks, is ``sim.core.moving``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from sim.core.actions import Attack
from sim.core.along import first_close
from sim.core.battlefield import MELEE_REACH, Battlefield, Position
from sim.core.draws import best, draw
from sim.scenario.vocabulary import THROWN_WEAPONS

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

LONG_REACH = 3.0
"""Metres of reach of a spear or pole-arm (RULES.md; every other melee weapon 2 m)."""
LONG_WEAPONS = frozenset({"spear", "pole-arm", "pole_arm"})
"""Weapons with ``LONG_REACH``, by neutral name (the rulesets' tables use the same names)."""
FRONT = LONG_REACH
"""Metres from a narrow place within which a fighter is in its front: it fights there, or
fights someone there (the longest melee reach)."""
ESCAPE_METRES = 30.0
"""RULES.md: a flight ends a round beyond this of every foe not fleeing (``escape:``)."""
RATE_OF_FIRE: dict[str, int] = {"bow": 2, "shortbow": 2, "longbow": 2, "crossbow": 1,
                                 **dict.fromkeys(THROWN_WEAPONS, 1)}
"""Shots a round at most, by neutral weapon (RULES.md "Rate of fire"), whatever the rules
of several actions allow; a weapon not named has no such limit (guns). A thrown weapon: one
a round, the one in hand."""


def melee_reach(weapon: str) -> float:
    """Metres of reach of a melee weapon by name: 3 with a spear or pole-arm, else 2."""
    return LONG_REACH if weapon in LONG_WEAPONS else MELEE_REACH


def is_beast(c: Combatant) -> bool:
    """``c`` is a beast (RULES.md "Kinds"): it never surrenders, and nobody surrenders to it."""
    return c.spec.kind == "beast"


def takes_surrender(c: Combatant, foes: list[Combatant]) -> Combatant | None:
    """The foe among ``foes`` that ``c`` could surrender to, or None (then it flees).

    RULES.md "Kinds": beasts never surrender and nobody surrenders to a beast; a person
    surrenders to a person.
    """
    if is_beast(c):
        return None
    return next((e for e in foes if not is_beast(e)), None)


def stands(m: Combatant) -> bool:
    """``m`` stands in the fight: not out, not helpless (knocked out), not fleeing.

    Who takes up room at a narrow place, holds it, or corners a flight (RULES.md: helpless,
    fled and fleeing fighters threaten no one). ``can_threaten`` and
    ``threatened_in_melee`` ask the same, written out: they are asked at every step.
    """
    return m.in_fight and not m.fleeing and not m.helpless()


def can_threaten(e: Combatant) -> bool:
    """``e`` threatens foes in its reach: standing, armed for melee, not helpless or fleeing.

    RULES.md: a standing fighter with a melee weapon (or natural weapons, or its fists)
    threatens every foe within its reach; helpless, fled, surrendered and fleeing
    fighters threaten no one.
    """
    return e.in_fight and not e.ranged and not e.fleeing and not e.helpless()


def threatens(enc: Encounter, e: Combatant, c: Combatant) -> bool:
    """``e`` threatens ``c``: it can threaten and ``c`` is within its reach."""
    return can_threaten(e) and enc.field.distance(e.pos, c.pos) <= e.reach


def threatened_in_melee(enc: Encounter, c: Combatant, at: Position) -> list[Combatant]:
    """Foes of ``c`` that would threaten it at ``at``."""
    field = enc.field
    known = field.known
    out = []
    for e in enc.foes_of(c.side):  # (asked after every shot: cheap tests first)
        if e.ranged:
            continue
        d = known.get((at, e.pos))
        if d is None:
            d = field.distance(at, e.pos)
        if d <= e.reach and not e.fleeing and not e.helpless():
            out.append(e)
    return out


def pressed(enc: Encounter, c: Combatant) -> bool:
    """A foe threatens ``c`` in melee where it stands (a shooter shoots at a penalty).

    RULES.md "Shooting in melee": each ruleset takes its own penalty off a shot made so,
    and the foe strikes once (``moving.shot_in_melee``).
    """
    if c is not enc.deciding:
        return bool(threatened_in_melee(enc, c, c.pos))
    kept = enc.deciding_pressed  # asked by each of its AI's questions about a shot
    if kept is None:
        kept = enc.deciding_pressed = bool(threatened_in_melee(enc, c, c.pos))
    return kept


def runs(enc: Encounter, c: Combatant) -> bool:
    """``c`` declared a run this round (RULES.md "Running": it makes no attack that round).

    Its free attacks included (``moving._free_attacks``). Where each fighter declares at
    its own turn (OpenD6), from that turn on.
    """
    return any(getattr(i, "run", False) for i in enc.declared.get(c, ()))


def front_count(enc: Encounter, node: Position, side: str,
                but: Combatant | None = None) -> int:
    """Fighters of ``side`` standing in the front of ``node`` (``FRONT``), ``but`` one.

    Those who can fight there (RULES.md "Room at a place": "at most N fighters of a side
    can fight there at once"): in the fight, not helpless, not fleeing. A knocked-out
    fighter lying at a one-man door leaves its place to the next; a fleeing one is
    leaving it.
    """
    distance = enc.field.distance
    return sum(1 for m in enc.sides[side]
               if m is not but and stands(m) and distance(m.pos, node) <= FRONT)


def holders(enc: Encounter, node: Position, side: str) -> list[Combatant]:
    """The foes of ``side`` standing in the front of ``node`` (as ``front_count`` counts)."""
    distance = enc.field.distance
    return [e for e in enc.foes_of(side)
            if stands(e) and distance(e.pos, node) <= FRONT]


def captors(enc: Encounter, c: Combatant, foes: list[Combatant]) -> list[Combatant]:
    """The foes among ``foes`` that ``c`` could yield to: those that threaten it now.

    A surrender needs someone to take it: a standing foe with ``c`` in its melee reach
    (``threatens``). Not a knocked-out or fleeing foe, not a shooter, whatever the distance
    (RULES.md: helpless, fled, surrendered and fleeing fighters threaten no one).
    """
    return [e for e in foes if threatens(enc, e, c)]


def run_metres(c: Combatant) -> float:
    """Metres a run covers: twice a move (RULES.md "Running"; OpenCore's own, its ruleset)."""
    return 2 * c.speed


def shots_allowed(c: Combatant) -> int | None:
    """Shots ``c``'s weapon in hand looses in a round at most (None: no limit).

    ``Combatant.fire_rate``: its main weapon's, the only ranged one it may hold (a sidearm
    is a hand weapon), named by a native block where one sets it.
    """
    return c.fire_rate if c.ranged else None


def within_rate(c: Combatant, intents: list[Intent]) -> list[Intent]:
    """``intents`` with the attacks past its weapon's rate of fire dropped."""
    most = shots_allowed(c)
    if most is None or sum(1 for i in intents if type(i) is Attack) <= most:
        return intents
    kept: list[Intent] = []
    shots = 0
    for i in intents:
        if type(i) is Attack:
            shots += 1
            if shots > most:
                continue
        kept.append(i)
    return kept


def way_out(enc: Encounter, c: Combatant) -> tuple[Position, bool]:
    """Where a flight runs: the nearest open exit (True), else the place farthest from its foes.

    An exit with a foe on the way (``_barred``) is not open: a raider does not flee past
    the spearmen holding the bridge to the exit behind them.

    Ties are drawn (``best``). Farthest: the node whose nearest foe in the fight is
    farthest, its own starting node winning a tie (its side's edge).
    """
    distance, here = enc.field.distance, c.pos
    reachable = open_exits(enc, c)
    if reachable:
        exit_ = best(enc, reachable, lambda x: -distance(here, x))
        assert exit_ is not None
        return exit_, True
    foes = enc.foes_of(c.side)
    if not foes:
        return enc.field.node(c.spec.at), False
    return farthest(enc, c, foes), False


def open_exits(enc: Encounter, c: Combatant) -> list[Position]:
    """The map's exits that ``c`` can reach with no foe on the way (``_barred``)."""
    field = enc.field
    if not field.exits:
        return []
    distance, here = field.distance, c.pos  # (an exit is a node: ``distance`` is a table's)
    return [x for x in field.exits
            if distance(here, x) < float("inf") and not _barred(enc, c, x)]


def _barred(enc: Encounter, c: Combatant, exit_: Position) -> bool:
    """A foe stands on the way to ``exit_`` (an exit, or any node a flight might run for).

    The route enters the reach of one that threatens (a walk would stop there: RULES.md
    "Stopping"), or comes to arm's length of one of the foes holding a narrow place as many
    as it is wide (``holders``: foes of ``c``, of one side or several, fill it; a walk
    would stop there, ``moving.first_stop``); or, from within that reach or arm's length
    already, comes any nearer to that foe (nobody walks past a foe). A way that leads away
    from a foe at its throat is open: the foe only strikes as it goes.
    """
    field = enc.field
    way = field.route(c.pos, exit_)
    metres = field.distance(c.pos, exit_)
    if any(can_threaten(e) and _passes(field, way, metres, c, e, e.reach)
           for e in enc.combatants if e.side != c.side):
        return True
    for node, width in field.narrow:
        held = holders(enc, node, c.side)
        if len(held) >= width and any(
                not can_threaten(e) and _passes(field, way, metres, c, e, MELEE_REACH)
                for e in held):
            return True
    return False


def _passes(field: Battlefield, way: list[Position], metres: float, c: Combatant,
            e: Combatant, near: float) -> bool:
    """``way`` comes within ``near`` of ``e``, or, already that near, any nearer to it.

    Where a walk would stop (``moving.first_stop``): at a threatening foe's reach, at
    arm's length of a holder; a fighter already that near only moves away from it.
    """
    return first_close(field, way, metres, e.pos, near,
                       field.distance(c.pos, e.pos)) is not None


def farthest(enc: Encounter, c: Combatant, foes: list[Combatant]) -> Position:
    """The node whose nearest foe is farthest from it, of those ``c`` can get to (``open_nodes``).

    ``c``'s starting node (its side's edge) wins a tie, other ties a random draw.
    """
    distance = enc.field.distance
    home = enc.field.node(c.spec.at)

    def room(node: Position) -> tuple[float, bool]:
        return _room(distance, node, foes), node == home

    far = best(enc, open_nodes(enc, c), room)
    assert far is not None  # where it stands, at the least
    return far


def open_nodes(enc: Encounter, c: Combatant) -> list[Position]:
    """The map's nodes ``c`` can get to with no foe on the way (``_barred``), and its own.

    A flight runs for the farthest of them, never for a place beyond the foes that hold
    the way (it would stop at them round after round, neither there nor cornered). With
    none (between foes on an edge), where it stands: it is cornered there.
    """
    here = c.pos
    return [node for node in nodes(enc.field)
            if node == here or enc.field.distance(here, node) < float("inf")
            and not _barred(enc, c, node)] or [here]


def _room(distance: Callable[[Position, Position], float], at: Position,
          foes: list[Combatant]) -> float:
    """Metres from ``at`` to the nearest of ``foes`` (rounded: equal ways tie)."""
    return round(min(distance(at, e.pos) for e in foes), 9)


def escape_metres(enc: Encounter) -> float:
    """The scenario's ``escape`` distance, or ``ESCAPE_METRES``."""
    escape = enc.scenario.escape
    return ESCAPE_METRES if escape is None else escape


def got_away(enc: Encounter, c: Combatant) -> bool:
    """A fleeing ``c`` is beyond the escape distance of every foe in the fight not fleeing."""
    far = escape_metres(enc)
    distance = enc.field.distance
    return all(distance(c.pos, e.pos) > far for e in enc.combatants
               if e.in_fight and e.side != c.side and not e.fleeing)


def off_the_edge(enc: Encounter, c: Combatant) -> bool:
    """A fleeing ``c`` stands at the map's edge, its way out, with no foe that could stop it.

    Ruling (RULES.md is silent on a map smaller than the escape distance): with no open exit,
    the place farthest from its foes is the edge of the map, not a wall. A fighter that ends
    a round there, no foe standing (not fleeing, not helpless) within one move of it
    (``can_charge``), runs on past the edge and gets away; a foe that near would run it
    down, and the flight goes on (``sim.ai.moves.flee`` yields to one at the end).
    """
    here, field = c.pos, enc.field
    if not here.at_node or open_exits(enc, c):
        return False
    foes = enc.foes_of(c.side)
    if not foes or cornering(enc, c):
        return False
    distance = field.distance
    room = _room(distance, here, foes)
    return all(_room(distance, node, foes) <= room for node in open_nodes(enc, c))


def cornering(enc: Encounter, c: Combatant) -> list[Combatant]:
    """The foes that could be on ``c`` with one move and would not let it get away.

    Standing (not knocked out), not fleeing themselves (``can_charge``): at the map's edge,
    one of them corners a flight (``off_the_edge``), and a person among them takes its
    surrender (``sim.ai.moves.flee``).
    """
    here = c.pos
    return [e for e in enc.foes_of(c.side)
            if stands(e) and can_charge(enc, e, here)]


@lru_cache(maxsize=64)
def nodes(field: Battlefield) -> tuple[Position, ...]:
    """The positions of every node of a map (computed once per map)."""
    return tuple(Position(i, i, 0.0) for i in range(field.size))


def in_reach(enc: Encounter, c: Combatant, target: Combatant) -> bool:
    """``target`` within ``c``'s reach now (melee reach, or its weapon's longest range).

    Kept on ``c`` per target with the two places and the reach it was for
    (``Combatant.reach_kept``): a fighter's AI asks as it declares and its attack asks
    again as it resolves, round after round from the same places. A place is a value that
    a move replaces, never changes, so the same objects give the same answer.
    """
    here, there, reach = c.pos, target.pos, c.reach
    kept = c.reach_kept.get(target)
    if kept is not None and kept[0] is here and kept[1] is there and kept[2] is reach:
        return kept[3]
    answer = enc.field.distance(here, there) <= reach
    c.reach_kept[target] = (here, there, reach, answer)
    return answer


def can_charge(enc: Encounter, e: Combatant, spot: Position) -> bool:
    """``e`` could strike someone at ``spot`` after one move (its speed plus melee reach)."""
    return enc.field.distance(spot, e.pos) <= e.speed + MELEE_REACH


def shooters_on(enc: Encounter, c: Combatant, foes: Sequence[Combatant]) -> list[Combatant]:
    """Ranged foes that have ``c`` within their range now."""
    return [e for e in foes if e.ranged and in_reach(enc, e, c)]


def nearest_enemy(enc: Encounter, c: Combatant) -> Combatant | None:
    """The closest enemy still in the fight (ties: a random draw, see ``best``).

    Fighters of a side standing at one place share the search, kept until someone moves,
    falls or gets up (``Encounter.nearest_kept``); each still draws among the tied itself.
    """
    here, side = c.pos, c.side
    kept = enc.nearest_kept
    top = kept.get((here, side))
    if top is None:
        top = kept[(here, side)] = _nearest_foes(enc, here, side)
    return top[0] if len(top) == 1 else draw(enc, top)  # one nearest: nothing to draw


def _nearest_foes(enc: Encounter, here: Position, side: str) -> list[Combatant]:
    """The foes of ``side`` in the fight nearest to ``here`` (all of them on a tie)."""
    # ``best`` written out: every basic fighter asks this every round
    distance = enc.field.distance
    top: list[Combatant] = []
    near = 0.0
    for e in enc.foes_of(side):
        d = distance(here, e.pos)
        if not top or d < near:
            top, near = [e], d
        elif d == near:
            top.append(e)
    return top


def engaged(enc: Encounter, c: Combatant, foes: list[Combatant]) -> list[Combatant]:
    """Foes within melee reach of ``c`` (any of them could strike it in melee now)."""
    distance = enc.field.distance
    return [e for e in foes if distance(c.pos, e.pos) <= MELEE_REACH]


def threatened_by(enc: Encounter, c: Combatant, foes: list[Combatant]) -> list[Combatant]:
    """Foes that could attack ``c`` from where they stand (melee reach or weapon range)."""
    return [e for e in foes if in_reach(enc, e, c)]


def can_leave(enc: Encounter, c: Combatant, foes: list[Combatant]) -> bool:
    """No foe could reach ``c`` with one move (a fighter at the edge is not cornered)."""
    return not any(can_charge(enc, e, c.pos) for e in foes)
