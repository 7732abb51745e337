"""The presentation hooks of a :class:`~pbem.core.ruleset.Ruleset` whose game keeps them in
modules of its own package: ``forms.form``, ``report.event_text``, ``report.public``,
``report.context``, ``board.svg`` and ``bot.orders``, each given the game's components
(``self.c``) first. A game names its package (:attr:`GameModules.package`) and puts this class
before ``Ruleset`` among its bases; the modules are imported when first asked for, so a
command that only checks orders never loads the reports, the board or the bot.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar, cast

from pbem.core.dice import Stream
from pbem.core.resources import order_form_text
from pbem.core.ruleset import Orders, PhaseSpec


class GameModules:
    """Ruleset hooks delegated to the modules of :attr:`package`."""

    #: The game's package, e.g. ``"pbem.games.grecos"``.
    package: ClassVar[str]
    #: The game's components, passed to every module function.
    c: Any
    name: str

    def _module(self, part: str) -> ModuleType:
        return importlib.import_module(f"{self.package}.{part}")

    def order_form(self, view: Mapping[str, Any], phase: PhaseSpec, player: str) -> str:
        """The annotated form with the player's situation and examples legal now."""
        return cast(str, self._module("forms").form(
            self.c, order_form_text(self.name, phase.kind), view, phase, player))

    def event_text(self, view: Mapping[str, Any], event: Mapping[str, Any]) -> str:
        return cast(str, self._module("report").event_text(self.c, view, event))

    def report_public(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return cast(dict[str, Any], self._module("report").public(self.c, view))

    def report_context(self, view: Mapping[str, Any], player: str | None) -> dict[str, Any]:
        return cast(dict[str, Any], self._module("report").context(self.c, view, player))

    def board_svg(self, view: Mapping[str, Any], player: str | None) -> str:
        return cast(str, self._module("board").svg(self.c, view, player))

    def bot_orders(self, view: Mapping[str, Any], phase: PhaseSpec, player: str,
                   rng: Stream) -> Orders:
        return cast(Orders, self._module("bot").orders(self.c, view, phase, player, rng))
