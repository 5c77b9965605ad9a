"""ORE's native block and options in ``fray schema``: a broken one is refused by the schema,
pointing at the field, and by the loader."""

from __future__ import annotations

import pytest
import yaml
from helpers import ambush_with, fray, schema_errors, schema_paths


@pytest.mark.parametrize("change, where", [
    (lambda d: d["sides"]["heroes"][0].update(ore={"stats": {"bdy": 3}}),
     ["sides", "heroes", 0, "ore", "stats"]),
    (lambda d: d.update(options={"ore": {"difficulty": "hard"}}), ["options", "ore",
                                                                   "difficulty"]),
], ids=["native-key", "option-type"])
def test_schema_rejects_a_broken_scenario(capsys, tmp_path, change, where):
    data = ambush_with(change)
    errors = schema_errors(data)
    assert errors and where in list(schema_paths(errors))  # the error points at the field
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(data))
    result = fray(capsys, "validate", str(path))  # the loader refuses it too
    assert result.code == 2, result.out + result.err
    assert "Traceback" not in result.out + result.err
