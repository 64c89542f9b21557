"""Partial copying: passages, verbatim runs, alignment of two documents, evidence."""
