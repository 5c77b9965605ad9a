"""Batch results: one tally of encounter rows (``tally``), its statistics (``stats``), lethality."""
