"""OpenD6 blocks the loader accepts, ``fray schema`` accepts too: an option's old name."""

from __future__ import annotations

import pytest
import yaml
from helpers import ambush_with, fray, schema_errors


@pytest.mark.parametrize("change", [
    lambda d: d.update(options={"opend6": {"pinning": True}}),
], ids=["old-option-name"])
def test_schema_accepts_what_the_loader_accepts(capsys, tmp_path, change):
    data = ambush_with(change)
    path = tmp_path / "ok.yaml"
    path.write_text(yaml.safe_dump(data))
    assert fray(capsys, "validate", str(path)).code == 0
    assert not [e.message for e in schema_errors(data)]
