"""The ``pbem`` command. This module stays tiny: ``pbem --version`` must start in 150 ms, so
typer and the library are imported only when a real command runs."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args in (["--version"], ["-V"]):
        from pbem import __version__

        print(f"pbem {__version__}")
        return 0
    from pbem.cli.app import run

    return run(args)
