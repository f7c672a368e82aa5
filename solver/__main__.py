"""``python -m solver``: the same as the ``clue-notebook`` command."""

import sys

from .cli import main

sys.exit(main())
