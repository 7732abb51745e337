"""The Great Myths (THE GREAT MYTHS (Co-Op), Myth 0-6): co-op scenarios with goals of their
own, the players starting together on a bridge over the Styx (Myth 0)."""

from __future__ import annotations
