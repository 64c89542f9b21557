"""Frozen entry point of `simsift`: the command line."""

import multiprocessing

# First, before any other import: `scan --workers N` spawns reader processes that start
# this same executable, and must run the worker and exit, not parse scan arguments.
multiprocessing.freeze_support()

import sys  # noqa: E402

from simsift.core.cli import main  # noqa: E402

sys.exit(main())
