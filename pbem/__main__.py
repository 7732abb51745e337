"""``python -m pbem``."""

from __future__ import annotations

import sys

from pbem.cli import main

sys.exit(main())
