"""The regression guard: every bundled scenario under every ruleset gives, for a fixed seed,
exactly the stored ``summary.json``, ``encounters.csv`` and event logs (``tests/regression.py``
makes the copies and digests). An optimisation that changes a result or a word of a log fails
here; update the copies only with a stated reason.
"""

from __future__ import annotations

import json

import pytest
from regression import DIGESTS, case_name, cases, digests, stored, summary


@pytest.mark.parametrize("path, ruleset", cases(), ids=lambda x: getattr(x, "stem", x))
def test_results_are_unchanged(path, ruleset):
    copy = stored(path, ruleset)
    assert copy.exists(), f"no stored copy: run python tests/regression.py ({copy})"
    assert summary(path, ruleset) == copy.read_text()


@pytest.mark.parametrize("path, ruleset", cases(), ids=lambda x: getattr(x, "stem", x))
def test_rows_and_logs_are_unchanged(path, ruleset):
    stored_digests = json.loads(DIGESTS.read_text())
    assert digests(path, ruleset) == stored_digests[case_name(path, ruleset)]
