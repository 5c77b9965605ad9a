"""Stand-offs: when an exchange is going nowhere, and what a fighter does to change it.

Two camps in cover can trade shots that rarely land for the whole scene; at a table the
fighters would change the exchange long before that. The exchange begins when a side first
has a foe it could attack (``contact``); it is *going nowhere* for a side that has done no
harm that lasts since (``Encounter.harmed_in``, ``Ruleset.harm_lasts``: Shock that will
wear off is no harm here) for its profile's ``PATIENCE`` rounds. Then, by the advisor's own odds:

- a shooter whose plain shot at another shooter lands less than ``CLOSE_ODDS`` of the time
  closes in, a move at a time, shooting as it comes where the ruleset lets it move and
  shoot, never into a sword's reach;
- a tactical melee fighter screening its shooters (``tactics.post``) or waiting for the foe
  to come stops waiting and crosses the open ground; so does one that no foe comes on to
  be held off (``held_off``), every foe swordsman screening its own shooters;
- an aggressive or tactical fighter turns to the foe its attack would harm most
  (``Advisor.attack_worth``), rather than the one its focus picked.

Two swordsmen may also each wait, a step apart, for the other to come into reach and give
up the first blow (``Advisor.waits_for``): no foe can attack yet, so no exchange has begun.
A tactical fighter that has waited its profile's patience for a foe who could have come
and did not steps in itself (``waited_out``); at a table the stare-down ends.

A fighter *losing the exchange* has seen its side hurt while doing no harm, for so many
rounds in which it could have struck back (``losing``, RULES.md "A hopeless exchange"): a
``cautious`` fighter falls back after ``CAUTIOUS_LOSING`` rounds, and a
tactical side no further down than its foe withdraws when also clearly outshot
(``outgunned``). Two cautious camps may still stand off to the round limit: a draw there
means neither side would risk the open ground.

Pure queries, but for the round a side's contact began, kept on the encounter: the
profiles in :mod:`sim.ai.profiles` turn them into intents.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.ai import moves
from sim.core import draws, space
from sim.core.actions import Intent, Move
from sim.core.battlefield import MELEE_REACH

if TYPE_CHECKING:
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

# Rounds without harm a profile lets its side go before it changes the exchange (None:
# never; ``cautious`` holds its cover and waits for the foe to come, and falls back when
# losing instead). Ruling: the seeds say nothing of how fighters choose.
PATIENCE: dict[str, int | None] = {
    "passive": None,
    "basic": 3,
    "aggressive": 1,
    "cautious": None,
    "tactical": 2,
}

# Rounds a cautious fighter's side may be hurt without hurting back before it falls back.
CAUTIOUS_LOSING = 3

# A shooter in a stand-off closes in while its best shot lands less often than this.
CLOSE_ODDS = 0.4

# A side withdraws from a stand-off it is losing when a foe side's expected harm a round is
# more than this many times its own: outshot clearly, not by the noise of one round's odds.
OUTGUNNED = 1.5

# How near a shooter closing in comes to its target, in metres: out of a sword's reach.
CLOSEST = MELEE_REACH + 2.0


def contact(enc: Encounter, side: str) -> int | None:
    """The round ``side`` first had a foe one of its members could attack (None: not yet).

    Kept on the encounter (``Encounter.ai_kept``) once found: the exchange began then.
    """
    key = ("contact", side)
    kept = enc.ai_kept
    found: int | None = kept.get(key)
    if found is not None:
        return found
    # While everyone declares (``Encounter.nearest`` set) nobody moves: a "not yet" found
    # then holds for the other members' declarations of the round.
    declaring = enc.nearest is not None
    none_yet = ("no contact", side, enc.round)
    if declaring and none_yet in kept:
        return None
    foes = enc.foes_of(side)
    if any(c.in_fight and any(enc.advisor.can_attack(enc, c, e) for e in foes)
           for c in enc.sides[side]):
        found = kept[key] = enc.round
    elif declaring:
        kept[none_yet] = True
    return found


def quiet(enc: Encounter, side: str) -> int:
    """Rounds finished since ``side`` last did harm that lasts, counted from its ``contact``.

    0 before any contact (walking up to the foe is no stand-off).
    """
    began = contact(enc, side)
    if began is None:
        return 0
    since = max(enc.harmed_in[side], began - 1)
    return max(0, enc.round - 1 - since)


def going_nowhere(enc: Encounter, c: Combatant) -> bool:
    """``c``'s side has done no harm for its profile's ``PATIENCE`` rounds."""
    patience = PATIENCE.get(c.ai)
    return patience is not None and quiet(enc, c.side) >= patience


def losing(enc: Encounter, c: Combatant, rounds: int = CAUTIOUS_LOSING) -> bool:
    """``c`` has been hurt without hurting back for ``rounds`` rounds (``unanswered``)."""
    return unanswered(enc, c) >= rounds


def unanswered(enc: Encounter, c: Combatant) -> int:
    """Rounds ``c``'s side was hurt without hurting back while ``c`` could strike back.

    RULES.md "A hopeless exchange" (``Encounter.tally_exchange``): since its side last did
    harm that lasts, the rounds finished in which the side took harm that lasts and did
    none, with a foe within ``c``'s reach or its weapon's range as the round ended. Rounds
    spent walking up to the foe never count.
    """
    return enc.unanswered.get(c, 0)


def firepower(enc: Encounter, side: str) -> float:
    """Expected harm ``side`` deals in a round from where it stands, in the ruleset's unit.

    Each fighter of the side still in the fight counts its best attack on a foe it can
    attack now (``Advisor.attack_worth``); a foe out of reach counts nothing. Kept for the
    round's declarations (``Encounter.ai_kept``): every member of a side asks the same.
    """
    key = ("firepower", enc.round, side)
    kept: float | None = enc.ai_kept.get(key)
    if kept is not None:
        return kept
    advisor = enc.advisor
    total = 0.0
    for c in enc.sides[side]:
        if not c.in_fight:
            continue
        worths = [advisor.attack_worth(enc, c, e) for e in enc.enemies(c)
                  if advisor.can_attack(enc, c, e)]
        total += max(worths, default=0.0)
    enc.ai_kept[key] = total
    return total


def in_melee(enc: Encounter, side: str) -> bool:
    """A member of ``side`` in the fight has a foe within melee reach: no stand-off."""
    return any(c.in_fight and space.engaged(enc, c, enc.foes_of(side)) for c in enc.sides[side])


def outgunned(enc: Encounter, c: Combatant) -> bool:
    """``c``'s side is losing the exchange, and the odds say it would go on losing it.

    Losing: hurt without hurting back for twice ``c``'s patience (``losing``),
    with nobody of its side in melee; and a foe side no more of whose members are down
    has an expected harm a round (``firepower``) over ``OUTGUNNED`` times its own. A side
    that cannot end the exchange and would lose it withdraws; one that is ahead does not.
    """
    patience = PATIENCE.get(c.ai)
    if patience is None or not losing(enc, c, 2 * patience) or in_melee(enc, c.side):
        return False
    ours, down = firepower(enc, c.side), _down(enc, c.side)
    return any(side != c.side and enc.standing[side] and _down(enc, side) <= down
               and firepower(enc, side) > OUTGUNNED * ours for side in enc.sides)


def _down(enc: Encounter, side: str) -> int:
    """Members of ``side`` out of the fight now."""
    return len(enc.sides[side]) - enc.standing[side]


def shot_odds(enc: Encounter, c: Combatant, target: Combatant) -> float:
    """The advisor's chance that a plain attack of ``c`` on ``target`` lands (1: unknown)."""
    odds = enc.advisor.attack_odds(enc, c, [target.plain_attack])
    return 1.0 if odds is None else odds


def most_harmed(enc: Encounter, c: Combatant, foes: list[Combatant]) -> Combatant | None:
    """The foe in reach that one attack of ``c`` would harm most (ties drawn), or None."""
    advisor = enc.advisor
    able = [e for e in foes if advisor.can_attack(enc, c, e) and advisor.can_hit(enc, c, e)]
    return draws.best(enc, able, lambda e: advisor.attack_worth(enc, c, e))


def harmless(enc: Encounter, c: Combatant, target: Combatant, foes: list[Combatant]
             ) -> tuple[Combatant, list[Intent] | None]:
    """A shooter whose hits on ``target`` could do no harm that lasts: what it does instead.

    Returns the foe to shoot and None (shoot as usual, or walk into range first), or
    intents that replace the attack. ``Advisor.can_harm`` (through ``Ruleset.harm_lasts``):
    Shock that will wear off, or arrows that cannot pass a knight's plate, change nothing
    at a table. The shooter turns to the nearest foe it can harm (ties drawn); with none,
    it closes in (nearer, fewer dice are lost to range), no nearer than ``CLOSEST``; there
    already, it stops wasting rounds: with a foe that could be on it in one move
    (``space.cornering``), it gives the fight up (``moves.fall_back``: it yields to a foe
    that threatens it, else it runs), as a poacher does whose arrows glance off a knight's
    plate while he cuts them down; with none, it holds (``Advisor.wait_intents``).
    """
    advisor = enc.advisor
    if (not c.ranged or advisor.can_harm(enc, c, target)  # (the cheapest question first)
            or not advisor.can_attack(enc, c, target) or not advisor.can_hit(enc, c, target)):
        return target, None  # (a shot with no chance at all: ``Advisor.hopeless`` says)
    distance, here = enc.field.distance, c.pos
    other = draws.best(enc, [e for e in foes if e is not target and advisor.can_harm(enc, c, e)],
                       lambda e: -distance(here, e.pos))
    if other is not None:
        c.why = f"its shots cannot harm {target.name}: turns to {other.name}"
        return other, None
    gap = distance(here, target.pos)
    if gap > CLOSEST:
        c.why = f"its shots cannot harm {target.name} from here: closes in"
        return target, [Move(target, stop_at=max(CLOSEST, gap - c.speed))]
    if space.cornering(enc, c):
        return target, moves.fall_back(enc, c, foes, f"its shots cannot harm {target.name}, "
                                       "nor any foe")
    intents, why = advisor.wait_intents(enc, c, foes)
    c.why = f"its shots cannot harm {target.name}: {why}"
    return target, intents


def closes_in(enc: Encounter, c: Combatant, target: Combatant) -> bool:
    """A shooter in a stand-off whose shot on ``target``, a shooter, lands too seldom.

    Never toward a melee fighter, and never into melee: it stops short of the foe's reach
    (``CLOSEST``).
    """
    return (c.ranged and target.ranged and going_nowhere(enc, c)
            and enc.field.distance(c.pos, target.pos) > CLOSEST
            and shot_odds(enc, c, target) < CLOSE_ODDS)


def close_in(enc: Encounter, c: Combatant, target: Combatant) -> list[Intent]:
    """``closing`` on ``target``, with the reason for the log."""
    intents = closing(enc, c, target)
    odds = shot_odds(enc, c, target)
    c.why = (f"{quiet(enc, c.side)} rounds without harm, {odds:.0%} to hit "
             f"{target.name} from here: closes in" + (" shooting" if len(intents) > 1 else ""))
    return intents


def closing(enc: Encounter, c: Combatant, target: Combatant) -> list[Intent]:
    """A move toward ``target`` (no nearer than ``CLOSEST``), and a shot where it pays.

    The shot rides along where the ruleset lets ``c`` move and attack in one round and its
    weapon is loaded. A player's menu offers the same declaration.
    """
    gap = enc.field.distance(c.pos, target.pos)
    move: list[Intent] = [Move(target, stop_at=max(CLOSEST, gap - c.speed))]
    if enc.advisor.can_move_and_attack(enc, c) and not enc.advisor.needs_reload(c):
        return move + [target.plain_attack]
    return move


def crosses(enc: Encounter, c: Combatant) -> str | None:
    """Why a melee fighter stops holding and crosses to the foe now, or None (hold on).

    Two reasons: the exchange goes nowhere (it holds again once harm is done), or no foe
    comes on to be held off (``held_off``). A crossing for the second goes on once begun
    (kept on the encounter): the foe's swordsman setting out too would otherwise send it
    back to its shooters, and both would walk to and fro all fight.
    """
    if going_nowhere(enc, c):
        return f"the exchange goes nowhere ({quiet(enc, c.side)} rounds without harm): crosses"
    key = ("crossing", c.name)
    begun = enc.ai_kept.get(key)
    if begun is not None:
        return f"the crossing begun in round {begun} goes on: crosses"
    waited = held_off(enc, c)
    patience = PATIENCE.get(c.ai)
    if patience is None or waited < patience:
        return None
    enc.ai_kept[key] = enc.round
    return f"no foe comes on to be held off ({waited} rounds): crosses"


def waited_out(enc: Encounter, c: Combatant) -> str | None:
    """Why ``c``, about to wait again for a foe to step into its reach, steps in now instead.

    Counts the rounds in a row ``c`` has waited (this one too), kept on the encounter
    (``Encounter.ai_kept``); a round it did anything else starts the count again. After
    its profile's ``PATIENCE`` rounds of waiting nobody came: it goes itself. None: wait on.
    """
    patience = PATIENCE.get(c.ai)
    if patience is None:
        return None
    key = ("waiting", c.name)
    began, last = enc.ai_kept.get(key, (enc.round, enc.round))
    if last < enc.round - 1:  # it did something else in between: a new wait
        began = enc.round
    enc.ai_kept[key] = (began, enc.round)
    waited = enc.round - began
    if waited < patience:
        return None
    return f"waited {waited} rounds for a foe who waits too: steps in"


def held_off(enc: Encounter, c: Combatant) -> int:
    """Rounds finished in which no foe of ``c`` who must walk up to strike has come on.

    Every such foe still in the fight stands at one of its own shooters' side, screening
    it as ``c`` screens its own: two swordsmen each waiting for the other while the arrows
    fly. Screening pays only while a foe may come; when none has for the profile's
    patience, the tactical fighter crosses instead. Counted from the side's ``contact``, the
    round the wait began kept on the encounter (``Encounter.ai_kept``); 0 when some foe
    comes on, or has no shooter to stand by.
    """
    began = contact(enc, c.side)
    key = ("held off", c.side)
    if began is None or not _all_holding(enc, c):
        enc.ai_kept.pop(key, None)
        return 0
    since: int = enc.ai_kept.setdefault(key, max(began, enc.round))
    return enc.round - since


def _all_holding(enc: Encounter, c: Combatant) -> bool:
    """Every foe of ``c`` who strikes in melee stands in reach of a shooter of its own."""
    distance = enc.field.distance
    walkers = [e for e in enc.enemies(c) if not e.ranged]
    return bool(walkers) and all(
        any(a.ranged and distance(e.pos, a.pos) <= MELEE_REACH for a in enc.allies(e))
        for e in walkers)
