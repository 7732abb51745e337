"""Cyclades (Matagot) with Hades, Titans, Monuments and the seed's variants, played by email.

Issue 5. Built from ``../shared/rules/003_820e897e23d69f12.txt`` (the cycle order, victory,
battle, forgotten rules, setup, team play, miscellaneous); where the seed relies on the base
game without restating it, the base rules are used and ``docs/games/cyclades.md`` says so.
The game is not registered yet: the pure parts (components, boards, bidding, battle) come first.
"""
