"""A module loaded on its first use: the lazy face of an adapter or a heavy library; and a regex
compiled on its first use (``LazyPattern``, below).

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
import re
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any


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


class LazyPattern:
    """A regex compiled on its first use: a service builds many patterns that most questions never
    reach (a refusal rule is only tried once its trigger word occurs), and compiling them all at a
    cold start costs tens of milliseconds. Whoever builds them from configuration checks them with
    ``compiled`` where the configuration is checked (``ragspine domain check``, the tests).
    Two threads compiling at once both get an equal pattern.

    The first read (``search``, ``finditer`` …) compiles the pattern and keeps the compiled
    pattern's own methods in the instance, so every later read is the compiled pattern's call
    with no Python frame of this class between (the readers of a question call these dozens of
    times an ask).
    """

    __slots__ = ("_compiled", "findall", "finditer", "flags", "fullmatch", "match", "pattern", "search", "split", "sub")

    # The compiled pattern's methods, set on the first read (``__getattr__`` below): until then unset.
    search: Callable[..., re.Match[str] | None]  # (text, pos=0)
    match: Callable[..., re.Match[str] | None]  # (text, pos=0)
    fullmatch: Callable[..., re.Match[str] | None]  # (text)
    finditer: Callable[..., Iterator[re.Match[str]]]  # (text)
    findall: Callable[..., list[Any]]  # (text)
    split: Callable[..., list[str | Any]]  # (text)
    sub: Callable[..., str]  # (replacement, text)

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (``re.error`` when it is no regex)."""
        found = self._compiled
        if found is None:
            found = self._compiled = re.compile(self.pattern, self.flags)
        return found

    if not TYPE_CHECKING:  # the type checker reads the methods above; any other name stays an error to it
        def __getattr__(self, name: str) -> Any:
            """Only for a read not yet bound: compile, keep every read of the compiled pattern, give this one."""
            if name not in _READS:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            compiled = self.compiled
            for read in _READS:
                setattr(self, read, getattr(compiled, read))
            return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern[:40]!r}{'...' if len(self.pattern) > 40 else ''})"


class SourcedOnUse(LazyPattern):
    """A ``LazyPattern`` whose source is built on its first use too (a read of ``pattern`` included): a source that
    costs time to build and few processes need (screening's ASCII forms) is never built at a cold start."""

    __slots__ = ("_source", "_built")

    def __init__(self, source: Callable[[], str]) -> None:
        self._source = source
        self._built: str | None = None
        super().__init__("")

    @property  # the base's plain attribute, read here through the source
    def pattern(self) -> str:
        """The pattern's source, built on the first read."""
        built = self._built
        if built is None:
            built = self._built = self._source()
        return built

    @pattern.setter
    def pattern(self, value: str) -> None:
        if value:  # the base's __init__ sets "": the source stands until a real pattern is set
            self._built = value


_READS = ("search", "match", "fullmatch", "finditer", "findall", "split", "sub")
