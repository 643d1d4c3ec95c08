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

_NAME = "__lazy_module_name__"


class LazyModule:
    """Stands for the module ``name``; the first attribute read imports it and keeps its names."""

    def __init__(self, name: str) -> None:
        self.__dict__[_NAME] = name

    # No method of its own but dunders: a module's names (``yaml.load``) must not meet one.
    def __getattr__(self, attribute: str) -> Any:
        # Only called for a name not yet copied: the first read loads the module and copies its
        # namespace, so later reads are plain attribute lookups on this object.
        module = loaded(self)
        self.__dict__.update(module.__dict__)
        return getattr(module, attribute)

    def __repr__(self) -> str:
        return f"LazyModule({self.__dict__[_NAME]!r})"


def loaded(face: LazyModule) -> ModuleType:
    """The module ``face`` stands for, imported now if it was not already."""
    return importlib.import_module(face.__dict__[_NAME])
