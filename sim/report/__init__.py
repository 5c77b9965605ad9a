"""What people read: solo logs, batch and comparison tables, report.md, charts, conversions."""
