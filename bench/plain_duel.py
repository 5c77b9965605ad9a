"""The ORE sword duel in plain Python: the yardstick of ``bench/throughput.py``.

The same rules as ``scenarios/duel.yaml`` under ``ore`` (two swordsmen: Body 3 + Fight 3,
sword W+1 Killing, leather AR 1 except the head), with no engine, no AI, no map and no
log: each round both roll 6d10 and attack with their best set (widest, then highest); the
faster set (width, then height) lands first and costs the slower one a die; a set below width
2 misses; the height picks the location (1-2 legs, 3-6 arms, 7-9 torso, 10 head); Killing
fills the location's boxes, a full limb passes the rest to the torso; head or torso full of
Killing kills, a full torso dazes (-1d). Equal sets strike together. At most 20 rounds.
"""

from __future__ import annotations

import random

BOXES = (5, 5, 5, 5, 10, 4)  # left leg, right leg, left arm, right arm, torso, head
LOCATION = (0, 0, 1, 2, 2, 3, 3, 4, 4, 4, 5)  # by height 1..10 (index 0 unused)
AR = (1, 1, 1, 1, 1, 0)
TORSO, HEAD = 4, 5


def best_set(faces: list[int]) -> tuple[int, int]:
    """The widest, then highest, set as ``(width, height)``; ``(0, 0)`` without one."""
    counts = [0] * 11
    for f in faces:
        counts[f] += 1
    best = (0, 0)
    for h in range(10, 0, -1):
        if counts[h] >= 2 and counts[h] > best[0]:
            best = (counts[h], h)
    return best


def hit(killing: list[int], width: int, height: int) -> bool:
    """Mark a sword hit (W+1 Killing less armor); True when it kills."""
    loc = LOCATION[height]
    if loc < TORSO and killing[loc] >= BOXES[loc]:
        loc = TORSO
    amount = max(0, width + 1 - AR[loc])
    room = BOXES[loc] - killing[loc]
    killing[loc] += min(amount, room)
    if amount > room and loc < TORSO:
        killing[TORSO] = min(BOXES[TORSO], killing[TORSO] + amount - room)
    return killing[TORSO] >= BOXES[TORSO] or killing[HEAD] >= BOXES[HEAD]


def duel(rng: random.Random) -> int:
    """One duel; returns the winner (0 or 1), or -1 for a draw."""
    wounds = ([0] * 6, [0] * 6)
    for _ in range(20):
        sets = []
        for k in (0, 1):
            dice = 6 - (wounds[k][TORSO] >= BOXES[TORSO])
            sets.append(best_set([int(rng.random() * 10) + 1 for _ in range(dice)]))
        order = sorted((0, 1), key=lambda k: sets[k], reverse=True)
        if sets[0] == sets[1]:  # simultaneous
            kills = [k for k in (0, 1) if sets[k][0] >= 2 and hit(wounds[1 - k], *sets[k])]
            if kills:
                return kills[0] if len(kills) == 1 else -1  # both fall: nobody wins
            continue
        fast, slow = order
        if sets[fast][0] >= 2:
            if hit(wounds[slow], *sets[fast]):
                return fast
            sets[slow] = (sets[slow][0] - 1, sets[slow][1])  # hit before it acts
        if sets[slow][0] >= 2 and hit(wounds[fast], *sets[slow]):
            return slow
    return -1


def rate(n: int, seed: int = 1) -> float:
    """Duels per CPU-second."""
    import time

    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(n):
        duel(rng)
    return n / (time.process_time() - start)


if __name__ == "__main__":
    print(f"{rate(20000):.0f} plain duels per CPU-second")
