"""Cyclades (Matagot) with Hades, Titans, Monuments and the seed's variants, played by email.

The ruleset is :data:`pbem.games.cyclades.game.RULESET`. Built from
``../shared/rules/003_820e897e23d69f12.txt`` (the cycle order, victory, battle, forgotten
rules, setup, team play, miscellaneous); where the seed relies on the base game without
restating it, the base rules are used, and ``docs/games/cyclades.md`` says so and maps every
section and bullet to its module, tests and PBEM adaptation.
"""
