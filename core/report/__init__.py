"""Reports: CSV/JSON tables, the HTML report, the per-essay page, report language."""
