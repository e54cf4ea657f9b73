"""``python -m bench.loadtest``, as ``python3 dev.py loadtest`` runs it."""

import sys

from bench.loadtest.command import main

sys.exit(main())
