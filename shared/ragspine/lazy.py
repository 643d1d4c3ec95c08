"""A module loaded on its first use: the lazy face of an adapter or a heavy library.

A module that must wait (an adapter the settings may not pick, numpy that no Lambda layer ships)
is named once at the top of the module that uses it, the type checker reading the real import::

    if TYPE_CHECKING:
        import numpy as np
    else:
        np = LazyModule("numpy")

and the code below reads ``np.frombuffer(...)`` as if it were imported. The import runs on the
first attribute read, so importing the module that names it costs nothing, and a process that
never reaches that code never needs the library installed. The architecture tests read each
``LazyModule("...")`` as an import of that module.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    """Stands for the module ``name``; the first attribute read imports it, every read is the module's own."""

    __slots__ = ("_lazy_module", "_lazy_name")

    def __init__(self, name: str) -> None:
        self._lazy_name = name
        self._lazy_module: ModuleType | None = None

    # No method of its own but dunders: a module's names (``yaml.load``) must not meet one. Each
    # read goes to the module itself, never a copy, so a name the module rebinds later (or a test
    # patches) reads the same through the face as through an import.
    def __getattr__(self, attribute: str) -> Any:
        return getattr(loaded(self), attribute)

    def __repr__(self) -> str:
        return f"LazyModule({self._lazy_name!r})"


def loaded(face: LazyModule) -> ModuleType:
    """The module ``face`` stands for, imported now if it was not already."""
    if face._lazy_module is None:
        face._lazy_module = importlib.import_module(face._lazy_name)
    return face._lazy_module
