"""The regression guard: every bundled scenario under every ruleset gives, for a fixed seed,
exactly the stored ``summary.json`` (``tests/regression.py`` makes the copies). An
optimisation that changes a result fails here; update the copies only with a stated reason.
"""

from __future__ import annotations

import pytest
from regression import cases, stored, summary


@pytest.mark.parametrize("path, ruleset", cases(), ids=lambda x: getattr(x, "stem", x))
def test_results_are_unchanged(path, ruleset):
    copy = stored(path, ruleset)
    assert copy.exists(), f"no stored copy: run python tests/regression.py ({copy})"
    assert summary(path, ruleset) == copy.read_text()
