"""Mythology (Yaquinto, 1980): the Advanced Game and the Optional Rules, played by email.

The ruleset is :data:`pbem.games.mythology.game.RULESET`; the component data is loaded and
checked by :mod:`pbem.games.mythology.components`. ``docs/games/mythology.md`` maps every rule
to its module, its tests and its PBEM adaptation.
"""
