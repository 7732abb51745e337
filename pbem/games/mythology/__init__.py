"""Mythology (Yaquinto, 1980): the Advanced Game, played by email.

Only the component data exists so far: the map, the counters, the God Cards and the Playing
Cards, loaded and checked by :mod:`pbem.games.mythology.components` from the TOML files in
``data/``. The ruleset comes later (issue 3); ``docs/games/mythology.md`` says what is done.
"""
