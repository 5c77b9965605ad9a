"""OpenCore blocks the loader accepts, ``fray schema`` accepts too: ability names in any case."""

from __future__ import annotations

import pytest
from helpers import accepted_by_both, ambush_with


@pytest.mark.parametrize("change", [
    lambda d: d["sides"]["heroes"][0].update(opencore={"abilities": {"CON": 60, "str": 50}}),
], ids=["opencore-capitals"])
def test_schema_accepts_what_the_loader_accepts(capsys, tmp_path, change):
    accepted_by_both(capsys, tmp_path, ambush_with(change))
