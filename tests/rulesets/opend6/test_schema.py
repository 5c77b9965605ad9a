"""OpenD6 blocks the loader accepts, ``fray schema`` accepts too: an option's old name."""

from __future__ import annotations

import pytest
from helpers import accepted_by_both, ambush_with


@pytest.mark.parametrize("change", [
    lambda d: d.update(options={"opend6": {"pinning": True}}),
], ids=["old-option-name"])
def test_schema_accepts_what_the_loader_accepts(capsys, tmp_path, change):
    accepted_by_both(capsys, tmp_path, ambush_with(change))
