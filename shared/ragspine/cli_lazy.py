"""A command group whose subcommands are imported when they run, from a table of module names.

``ragspine ask`` imports the question path and nothing of the workflow engine, the Gateway or
the document parsers; ``ragspine --help`` lists every subcommand and so imports them all.
Each entry names a module and a ``typer.Typer`` in it: a *group* entry is that Typer as a
subcommand group (``ragspine operations list``), a *command* entry is the command of that
name the Typer holds (``ragspine ask``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any, ClassVar

import typer
from typer.core import TyperGroup
from typer.main import get_group

Command = Any  # typer's vendored click.Command (typer._click is private)


class LazyCommands(MutableMapping[str, Command]):
    """The subcommands by name: those the group was built with, then the table's, each loaded on first read."""

    def __init__(self, built: MutableMapping[str, Command], commands: Mapping[str, tuple[str, str]],
                 groups: Mapping[str, tuple[str, str]]) -> None:
        self._loaded = dict(built)
        self._commands = commands
        self._groups = groups

    def __getitem__(self, name: str) -> Command:
        if name not in self._loaded:
            if name in self._groups:
                group = get_group(_typer_app(*self._groups[name]))
                group.name = name
                self._loaded[name] = group
            elif name in self._commands:
                self._loaded[name] = get_group(_typer_app(*self._commands[name])).commands[name]
            else:
                raise KeyError(name)
        return self._loaded[name]

    def __setitem__(self, name: str, command: Command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(self._loaded), **dict.fromkeys(self._commands), **dict.fromkeys(self._groups)})

    def __len__(self) -> int:
        return len({*self._loaded, *self._commands, *self._groups})

    def __contains__(self, name: object) -> bool:
        return name in self._loaded or name in self._commands or name in self._groups


def _typer_app(module: str, attribute: str) -> typer.Typer:
    found = getattr(importlib.import_module(module), attribute)
    if not isinstance(found, typer.Typer):
        raise TypeError(f"{module}.{attribute} is not a typer.Typer")
    return found


class LazyTyperGroup(TyperGroup):
    """A ``TyperGroup`` whose subclass names its lazy subcommands in ``COMMANDS`` and ``GROUPS``."""

    COMMANDS: ClassVar[Mapping[str, tuple[str, str]]] = {}  # name -> (module, Typer holding that command)
    GROUPS: ClassVar[Mapping[str, tuple[str, str]]] = {}  # name -> (module, Typer of the group)

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = LazyCommands(self.commands, self.COMMANDS, self.GROUPS)
