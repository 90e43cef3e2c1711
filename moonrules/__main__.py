"""``python -m moonrules`` runs the command line."""

import sys

from moonrules.cli.main import main

sys.exit(main())
