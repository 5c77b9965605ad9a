"""A walk as at a table: stopped by a foe's reach, held up at a narrow place, struck on leaving.

RULES.md, "Space, movement and morale". Every move of every ruleset is walked here
(``Ruleset.walk_toward`` and ``Ruleset.move_to`` call ``walk``):

- **Stopped by a foe.** The walk ends where it first enters the reach of a standing foe
  that threatens the walker (``space.threatens``), the foe it goes for included (a
  spearman's 3 m stops a swordsman a step short of his own 2 m: he steps in next round).
  A walker already in a foe's reach never comes nearer to it on the way elsewhere: nobody
  walks past or through a foe (closing on a foe's neighbour, within melee reach of it, is
  closing on both).
- **Room at a place.** At most ``width`` fighters of a side stand in the front of a narrow
  place (within ``space.FRONT`` of it, the longest melee reach: whoever fights there, or
  fights someone there): a walker that would end its walk there while its side already
  has that many waits behind it, where the walk would have entered. Passing through is
  not ending there; a place held by as many standing foes as it is wide cannot be passed:
  a holder that threatens stops the walk at its reach, one that does not at arm's length.
- **Leaving melee.** A walker that ends out of the reach of a foe that threatened it where
  it started gives that foe a free attack at once (``Ruleset.free_attack``), before it
  goes; unless it withdraws (a careful step of at most ``WITHDRAW_METRES`` that ends out of
  every reach, its whole action).

The walk is measured along its route's legs (``Battlefield.route``): the distance to a
point is piecewise straight along a leg, so each leg is tried at ``STEP`` metres and the
first point that meets a stop is found by halving the last step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from sim.core import space
from sim.core.along import first_close, first_nearer, first_within
from sim.core.battlefield import EDGE_EPSILON, MELEE_REACH, Position
from sim.core.draws import shuffle

if TYPE_CHECKING:

    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

NUDGE = 0.01
"""Metres short of a narrow place's front where a walker with no room there waits."""
WITHDRAW_METRES = 2.0
"""RULES.md: a withdraw is a move of at most 2 m that ends out of every foe's reach."""


class Stop(NamedTuple):
    """Where a walk ends and why: ``metres`` along the route; ``why`` the log's words."""

    metres: float
    why: str
    kind: str  # "engaged" (a foe's reach), "room" (a narrow place), "held" (a narrow place's
    # holders); "" walked in full
    place: str = ""  # the narrow place's name, for a stop for room


def walk(enc: Encounter, f: Combatant, dest: Position, metres: float, *,
         stop_at: float = 0.0, target: Combatant | None = None,
         withdraw: bool = False) -> Position:
    """Walk ``f`` up to ``metres`` toward ``dest``, obeying the rules of space; its new place.

    ``stop_at``: end that many metres short of ``dest`` (a foe's reach). ``target``: the
    foe it goes for, which does not stop it. ``withdraw``: a careful step, no free attacks
    (the caller has checked it ends out of reach). Free attacks are resolved here, before
    ``f`` moves; one that takes ``f`` out leaves it where it stood.
    """
    field = enc.field
    start = f.pos
    goal = min(metres, field.distance(start, dest) - stop_at)
    if goal <= EDGE_EPSILON:
        return start
    way = field.route(start, dest, enc.rng, goal)
    stop = first_stop(enc, f, way, goal, target)
    end = field.along(way, stop.metres) if stop.metres > EDGE_EPSILON else start
    if end == start:
        if stop.kind and enc.log is not None:
            enc.emit("stopped", who=f.name, text=f"{f.name} cannot move on: {stop.why}.")
        return start
    if not withdraw:
        leave_melee(enc, f, start, end)
        if not f.in_fight or f.helpless():  # (struck down or knocked out: it goes nowhere)
            return start
    if stop.kind and enc.log is not None:
        enc.emit("stopped", who=f.name, to=field.describe(end),
                 text=f"{f.name} is stopped at {field.describe(end)}: {stop.why}.")
    return end


def first_stop(enc: Encounter, f: Combatant, way: list[Position], goal: float,
               target: Combatant | None) -> Stop:
    """The nearest stop along ``way`` within ``goal`` metres (``Stop``; none: the goal)."""
    field = enc.field
    distance = field.distance  # (kept: the walker's and its foes' places recur)
    start = way[0]
    stop = Stop(goal, "", "")
    for e in enc.foes_of(f.side):
        if not space.can_threaten(e):
            continue
        reach = e.reach
        d0 = distance(start, e.pos)
        if d0 > goal + reach:  # the walk cannot come within its reach
            continue
        there = e.pos
        if d0 > reach:  # entering its reach stops the walk (a spear's 3 m stops a club's
            # wielder short of its own 2 m)
            found = first_within(field, way, stop.metres, there, reach)
            if found is not None:
                stop = Stop(found, f"in {e.name}'s reach", "engaged")
        elif e is not target and (target is None or target.side == f.side
                                  or distance(there, target.pos) > MELEE_REACH):
            # in its reach already: never nearer to it on the way elsewhere (toward the foe
            # it goes for, or one at that foe's side, the walk ends at its own reach; an
            # ally it goes to guard is no such foe: it does not pass the one at its side)
            found = first_nearer(field, way, stop.metres, there, d0)
            if found is not None:
                stop = Stop(found, f"{e.name} stands in the way", "engaged")
    # the narrow places, until none cuts the walk shorter: a stop at one (its holders, or
    # no room) can leave the walker in the front of another it had passed, whatever the
    # order of the map's places (each pass only shortens the walk)
    for _ in range(len(field.narrow) + 1):
        before = stop.metres
        for node, width in field.narrow:
            stop = _held(enc, f, way, stop, node, width, target)
        for node, width in field.narrow:
            stop = _room(enc, f, way, stop, node, width)
        if stop.metres == before:
            break
    return stop


def _held(enc: Encounter, f: Combatant, way: list[Position], stop: Stop, node: Position,
          width: int, target: Combatant | None) -> Stop:
    """``stop``, or an earlier one where ``f`` would pass the foes holding a narrow place.

    RULES.md "Room at a place": a place held by standing foes as wide as it cannot be
    passed (``space.holders``). A holder that threatens ``f`` has stopped the walk at its
    reach already (``first_stop``); one that does not (a shooter, say) stops it at arm's
    length (``MELEE_REACH``), close enough to strike it, never past it; already that near,
    ``f`` comes no nearer to it. The holder ``f`` goes for stops it where it meant to stop.
    """
    holders = space.holders(enc, node, f.side)
    if len(holders) < width:
        return stop
    field = enc.field
    name = field.names[node.a]
    for e in holders:
        if e is target or space.can_threaten(e):
            continue
        found = first_close(field, way, stop.metres, e.pos, MELEE_REACH,
                            field.distance(way[0], e.pos))
        if found is not None:
            stop = Stop(found, f"{e.name} holds {name}", "held", name)
    return stop


def _room(enc: Encounter, f: Combatant, way: list[Position], stop: Stop, node: Position,
          width: int) -> Stop:
    """``stop``, or an earlier one where ``f`` would enter a narrow place with no room."""
    field = enc.field
    front = space.FRONT
    d0 = field.distance(way[0], node)
    if d0 <= front:  # in its front already: it has its place
        return stop
    # the walk stays out: too short to come within the front (no point of it is nearer
    # than d0 less the metres walked; with a margin for the sums' rounding and for ``along``
    # taking a point that near a node for the node), or it ends out of it
    if (d0 - stop.metres > front + 2 * EDGE_EPSILON
            or field.measure(field.along(way, stop.metres), node) > front):
        return stop
    if space.front_count(enc, node, f.side, f) < width:
        return stop
    found = first_within(field, way, stop.metres, node, front)
    if found is None:
        return stop
    name = field.names[node.a]
    return Stop(max(0.0, found - NUDGE), f"no room at {name} (room for {width} of a side)",
                "room", name)


def walk_ends(enc: Encounter, f: Combatant, target: Combatant, stop_at: float,
              metres: float) -> Position:
    """Where a walk of ``f`` toward ``target`` would end now, all stops included.

    The AI's question before it declares a charge that a spear's reach would stop short
    (``profiles``); tied routes are drawn as a walk draws them.
    """
    field = enc.field
    goal = min(metres, field.distance(f.pos, target.pos) - stop_at)
    if goal <= EDGE_EPSILON:
        return f.pos
    way = field.route(f.pos, target.pos, enc.rng, goal)
    return field.along(way, first_stop(enc, f, way, goal, target).metres)


def no_room_ahead(enc: Encounter, f: Combatant, target: Combatant, stop_at: float,
                  metres: float) -> Stop | None:
    """The stop at a narrow place that leaves ``f`` no room to step toward ``target``, or None.

    The AI's question before it declares a move that would not happen: it waits its
    turn instead. Tied routes are drawn as a walk draws them.
    """
    field = enc.field
    if not field.narrow:  # (most maps: nothing to ask)
        return None
    goal = min(metres, field.distance(f.pos, target.pos) - stop_at)
    if goal <= EDGE_EPSILON:
        return None
    way = field.route(f.pos, target.pos, enc.rng, goal)
    stop = first_stop(enc, f, way, goal, target)
    if stop.kind == "room" and stop.metres <= NUDGE + EDGE_EPSILON:
        return stop
    return None


def leave_melee(enc: Encounter, f: Combatant, start: Position, end: Position) -> None:
    """Free attacks on ``f`` from every foe whose reach it leaves going ``start`` to ``end``.

    RULES.md "Leaving melee": each foe that threatened ``f`` where it stood and does not
    where it ends strikes once, at once (its ordinary melee attack through
    ``Ruleset.free_attack``). A foe whose doctrine never reacts (a ``passive`` dummy) lets
    it go.
    """
    measure = enc.field.measure
    strikers = [e for e in enc.foes_of(f.side)
                if space.can_threaten(e)
                and measure(start, e.pos) <= e.reach < measure(end, e.pos)]
    _free_attacks(enc, f, strikers, "leaves {e}'s reach: {e} strikes at it as it goes")


def shot_in_melee(enc: Encounter, f: Combatant,
                  threats: list[Combatant] | None = None) -> None:
    """Free attacks on a shooter that shot with foes threatening it (RULES.md).

    "Shooting in melee": each standing foe that threatens ``f`` strikes (once a round), as
    leaving its reach would give it; the shot's own penalty is each ruleset's. ``threats``:
    ``space.threatened_in_melee`` of ``f`` where it stands, when the shot found them
    already (nobody moves during a shot; who still threatens is asked again).
    """
    if not f.in_fight:
        return
    if threats is None:
        threats = space.threatened_in_melee(enc, f, f.pos)
    _free_attacks(enc, f, threats, "shoots with {e} in reach: {e} strikes at it")


def _free_attacks(enc: Encounter, f: Combatant, strikers: list[Combatant],
                  words: str) -> None:
    """Each of ``strikers`` that reacts strikes ``f`` once (``Ruleset.free_attack``).

    Not one that runs this round (RULES.md "Running": a runner makes no attack that
    round, ``space.runs``), and once a round on the same foe (ruling: RULES.md gives a free
    attack for each leaving and each shot in reach, and says nothing of several in a round;
    at a table a swordsman among three archers does not swing six times while they loose
    their six arrows, ``Encounter.struck_free``). In an order drawn by the encounter's
    generator; a striker that no longer threatens
    (taken out, or helpless, by an earlier strike's aftermath) does not, and none strikes
    once ``f`` is out. ``words``: the log's why, ``{e}`` standing for the striker.
    """
    struck = enc.struck_free
    strikers = [e for e in strikers if e.policy.reacts and space.can_threaten(e)
                and not space.runs(enc, e) and (e, f) not in struck]
    if len(strikers) > 1:
        shuffle(enc.rng, strikers)
    for e in strikers:
        if not f.in_fight:
            return
        if not space.can_threaten(e):
            continue
        if enc.log is not None:
            enc.emit("free_attack", who=e.name, target=f.name,
                     text=f"{f.name} {words.format(e=e.name)} (a free attack).")
        struck.add((e, f))
        enc.ruleset.free_attack(enc, e, f)


def withdraw_spots(enc: Encounter, f: Combatant) -> list[Position]:
    """Every place a withdraw of ``f`` can end, out of every reach.

    ``WITHDRAW_METRES`` along each way out of where it stands (an edge's two ways, or each
    edge of its node), walked in full: a step that a foe's reach or a narrow place with no
    room would stop short (``first_stop``) ends in reach, and is no withdraw. None unless
    a foe threatens ``f``. The same set whatever the order of the map's places (the AI
    draws among them, ``draws.best``); the play menu offers them all.
    """
    if not space.threatened_in_melee(enc, f, f.pos):
        return []
    field, here = enc.field, f.pos
    if here.at_node:
        ends = [Position(u, u, 0.0) for u, _ in field.neighbours(here.a)]
    else:
        ends = [Position(here.a, here.a, 0.0), Position(here.b, here.b, 0.0)]
    found: list[Position] = []
    for end in ends:
        spot = field.between(here, end, WITHDRAW_METRES)
        if spot != here and spot not in found and not space.threatened_in_melee(enc, f, spot):
            step = field.distance(here, spot)  # (one leg: no route to draw)
            if first_stop(enc, f, [here, spot], step, None).metres >= step - EDGE_EPSILON:
                found.append(spot)
    return found


def withdraw_spot(enc: Encounter, f: Combatant, dest: Position) -> Position | None:
    """``dest`` if a withdraw of ``f`` may end there now (``withdraw_spots``), else None."""
    return dest if dest in withdraw_spots(enc, f) else None
