"""pbem: a play-by-email and forum adjudicator for Greek-myth board games."""

from __future__ import annotations

__version__ = "0.1.0"
