"""The bait for "a trace never runs code": modules that leave a marker when imported, and traces whose header names them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.helpers.paths import ROSE

MARKER = ".imported"  # <module>.imported appears beside a bait module the moment it is imported

# Writes its marker at import, then builds the rose-pricing scenario: once trusted, its traces verify OK.
BAIT = """from pathlib import Path
Path(__file__).with_name(__name__.rpartition(".")[2] + "{marker}").write_text("imported")


def build(model):
    from tutorials import get_scenario

    return get_scenario("rose-pricing").executor(model)
"""

# Bait modules written into a folder: a module beside the trace, and a package whose __init__ is bait too
# (importlib.util.find_spec("pkg.sub") would run pkg/__init__.py).
BAIT_FILES = ("evil.py", "pkg/__init__.py", "pkg/sub.py")
# Modules whose import a broken implementation would cause; "this" is the standard library's.
BAIT_MODULES = ("evil", "pkg", "pkg.sub", "this")


def write_bait(folder: Path) -> None:
    for name in BAIT_FILES:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(BAIT.format(marker=MARKER), encoding="utf-8")


def forget_bait() -> None:
    """Drop the bait modules from sys.modules, so a later import would run them again (and leave a marker)."""
    for name in BAIT_MODULES:
        sys.modules.pop(name, None)


def markers(folder: Path) -> list[str]:
    """The marker files bait modules under `folder` left: [] when nothing was imported."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob(f"*{MARKER}"))


def imported_bait() -> list[str]:
    return [name for name in BAIT_MODULES if name in sys.modules]


def hostile_trace(folder: Path, name: str, *, agent: str | None = None, scenario: str | None = None) -> Path:
    """The rose-pricing recording with its header's scenario and agent replaced (None: left out)."""
    header, *events = ROSE.read_text(encoding="utf-8").splitlines()
    fields = json.loads(header)
    fields.pop("scenario", None)
    fields.update({key: value for key, value in (("scenario", scenario), ("agent", agent)) if value is not None})
    if agent is not None:
        fields["agent_hash"] = "0" * 64  # not the bait's hash: a "changed since recorded" check must not import it
    path = folder / name
    path.write_text("\n".join([json.dumps(fields), *events]) + "\n", encoding="utf-8")
    return path
