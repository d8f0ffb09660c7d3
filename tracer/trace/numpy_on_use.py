"""numpy as `np`, imported the first time a name of it is used: a small trace's first frame uses none."""

from __future__ import annotations

import importlib
from typing import Any


class _NumpyOnUse:
    """Stands in for the numpy module. Why: `import numpy` is slow to start, and the modules
    that filter, step and search with it are imported before the debugger's first frame."""

    def __getattr__(self, name: str) -> Any:
        value = getattr(importlib.import_module("numpy"), name)
        setattr(self, name, value)  # found here directly from now on: no __getattr__ per use
        return value


np: Any = _NumpyOnUse()
