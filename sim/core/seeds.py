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


def stage_seed(run_seed: int, stage: int) -> int:
    """The seed of stage ``stage`` (1-based) of a campaign run seeded ``run_seed``.

    Stage 1 is the run's own seed, so a one-stage campaign fights ``fray batch``'s
    encounters; later stages hash the run's seed with their number.
    """
    if stage == 1:
        return run_seed
    digest = hashlib.blake2b(f"fray-stage:{run_seed}:{stage}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def rest_seed(run_seed: int, stage: int, name: str) -> int:
    """The seed of ``name``'s recovery after stage ``stage``: one generator per fighter.

    So one fighter's rest rolls never shift another's, whatever the order of the party.
    """
    digest = hashlib.blake2b(f"fray-rest:{run_seed}:{stage}:{name}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1
