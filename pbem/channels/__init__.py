"""The ways reports go out and orders come in: mail (out and in), forum text, a static site.

Nothing here decides anything about a game: channels render what :mod:`pbem.core.report`
renders and hand what they receive to :func:`pbem.core.engine.submit`.
"""
