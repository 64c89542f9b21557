"""Frozen entry point of `simsift-gui`: the desktop app."""

import multiprocessing

# First, before any other import: a scan's spawned reader processes start this same
# executable, and must run the worker and exit, never open a second window.
multiprocessing.freeze_support()

import sys  # noqa: E402

from simsift.app.main import main  # noqa: E402

sys.exit(main())
