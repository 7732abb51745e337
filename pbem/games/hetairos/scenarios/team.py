"""The team list (TEAM SCENARIOS, Team 0-6): the players split into teams, each starting on a
bridge of its own, 4 squares at least between two (Team 0)."""

from __future__ import annotations
