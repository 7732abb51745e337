"""Issue 20, target 5: what the one-shot commands (verify, submit, status, form) import stays
cheap. A dataclass with generated methods costs 2-4 M instructions to build at import, so the
classes on that path are plain :class:`pbem.core.values.Value` classes, and the few that
``dataclasses.replace`` needs generate nothing; ``tomli_w`` is imported only to write (and
by ``pbem form``, which writes the form's TOML); the standard library's ``tomllib`` is not
imported at all (``tomli``, compiled, parses everything: a second parser cost 2-3 ms)."""

from __future__ import annotations

import json
import subprocess
import sys

# In a fresh interpreter: this test process has imported much more.
PROBE = """
import dataclasses, json, sys
import pbem.cli.app, pbem.core.engine, pbem.core.deadlines, pbem.core.receipts
writer = "tomli_w" in sys.modules
import pbem.core.forms  # pbem form writes TOML
from pbem.games import conformance
conformance.omens()  # a game's data file read (the cache may answer: tomllib was imported anyway)
second = "tomllib" in sys.modules
costly = sorted(
    f"{name}.{obj.__qualname__}"
    for name, module in list(sys.modules.items()) if name.startswith("pbem.")
    for obj in list(vars(module).values())
    if isinstance(obj, type) and obj.__module__ == name and dataclasses.is_dataclass(obj)
    and any(getattr(obj.__dataclass_params__, p) for p in ("init", "repr", "eq", "frozen")))
print(json.dumps({"costly": costly, "tomli_w": writer, "tomllib": second}))
"""


def test_the_commands_import_no_dataclass_that_generates_methods() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], check=True, capture_output=True,
                         text=True).stdout
    found = json.loads(out)
    assert found["costly"] == []
    assert not found["tomli_w"]
    assert not found["tomllib"]
