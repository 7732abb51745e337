"""The game-independent core: order files, signatures, dice, ledger, campaigns, audit.

Nothing in ``pbem.core`` imports ``pbem.games``.
"""
