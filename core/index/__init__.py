"""Hamming indexes over 64-bit fingerprints: plans, in-memory and packed tables, the pair graph."""
