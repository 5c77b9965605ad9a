"""Deterministic per-encounter seeds.

Encounter ``i`` of a batch with seed ``S`` runs with ``encounter_seed(S, i)``: a stable hash
(BLAKE2b, not Python's salted ``hash()``), so the same batch gives the same fights on any
machine, with any number of workers, and ``fray run --seed`` replays one of them.
"""

from __future__ import annotations

import hashlib


def encounter_seed(batch_seed: int, index: int) -> int:
    """The seed of encounter ``index`` in a batch seeded ``batch_seed`` (a 63-bit integer)."""
    digest = hashlib.blake2b(f"fray:{batch_seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1
