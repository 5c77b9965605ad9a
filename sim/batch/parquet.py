"""``encounters.parquet``: a finished batch's rows as Parquet (``fray batch --parquet``)."""

from __future__ import annotations

import csv
from pathlib import Path

from sim.batch import files
from sim.scenario.errors import FrayInputError


def csv_header(path: Path) -> list[str]:
    """The first row of a CSV file."""
    with files.read_rows_file(path) as handle:
        return next(csv.reader(handle))


def write_parquet(out_dir: Path) -> Path:
    """Write ``encounters.parquet`` from a finished ``encounters.csv``.

    Streamed in blocks (pyarrow's incremental CSV reader, one row group per block), so memory
    stays flat for any batch size; written atomically.

    Raises:
        FrayInputError: pyarrow is not installed.
    """
    try:  # imported here, not at the top: pyarrow is an optional extra and slow to import
        import pyarrow.csv as pa_csv  # type: ignore[import-untyped]  # pyarrow has no stubs
        import pyarrow.parquet as pq  # type: ignore[import-untyped]  # pyarrow has no stubs
    except ImportError as exc:
        raise FrayInputError("--parquet", [("", "pyarrow is not installed; install the extra "
                                            "with: pip install -e '.[parquet]'")]) from exc
    source = out_dir / "encounters.csv"
    # out_rounds lists rounds ("3 5"): keep it text, whatever the first block looks like
    convert = pa_csv.ConvertOptions(column_types={
        name: "string" for name in csv_header(source)
        if name.endswith("_out_rounds") or name == "winner"})
    reader = pa_csv.open_csv(source, convert_options=convert)
    final = out_dir / "encounters.parquet"
    with files.atomic_path(final) as tmp, pq.ParquetWriter(tmp, reader.schema) as writer:
        for block in reader:
            writer.write_batch(block)
    return final
