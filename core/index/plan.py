"""How far pairs are searched: the index's distance limits and the defaults a scan uses."""

DEFAULT_K = 8  # chosen from docs/quality.md: recall 0.70 -> 0.99 at k=3 -> 8, precision 0.996
DEFAULT_K_MAX = 10  # the k slider reaches past the default without a rescan
MAX_K = 16
