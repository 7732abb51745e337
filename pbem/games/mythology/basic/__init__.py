"""The Mythology Basic Game (the first part of the rulebook, "MYTHOLOGY BASIC GAME RULES").

A ruleset of its own that shares the Advanced Game's components (map, Areas, Hero, Monster
and Prize counters, gods: :mod:`pbem.games.mythology.components`) and none of its phase code.
Clause ids are ``Basic <section> <n>``; ``docs/games/mythology-basic.md`` maps each to its code
and tests.
"""
