"""Deukalion (Parker/Hasbro 2007): the rules engine (docs/games/deukalion.md)."""
