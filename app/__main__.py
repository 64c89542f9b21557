"""`python -m simsift.app` starts the desktop app."""

import sys

from simsift.app.main import main

sys.exit(main())
