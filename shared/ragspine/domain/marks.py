"""YAML read with its node tree kept, so a problem can name the line of the field it is about."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    import yaml
else:
    yaml = LazyModule("yaml")  # a sealed folder is read from its parsed copies (ragspine.parsed_yaml)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong in a domain folder: the file, the 1-based line, the field path, what is wrong."""

    file: str
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.field or '(file)'}: {self.message}"


@dataclass(frozen=True)
class MarkedYaml:
    """A parsed YAML document and its node tree (``node`` is None for an empty file)."""

    data: Any
    node: Any

    def line_of(self, loc: Sequence[str | int]) -> int | None:
        """The line of the deepest node of ``loc`` that exists (a missing key: its parent's line)."""
        node = self.node
        if node is None:
            return None
        line: int = node.start_mark.line + 1
        for part in loc:
            child = None
            if isinstance(node, yaml.MappingNode):
                for key, value in node.value:
                    if str(key.value) == str(part):
                        line, child = key.start_mark.line + 1, value
                        break
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
                child = node.value[part]
                line = child.start_mark.line + 1
            if child is None:
                break
            node = child
        return line


def read_marked(path: Path) -> MarkedYaml:
    """Parse a YAML file once into data and nodes.

    Raises:
        OSError: the file cannot be read.
        yaml.YAMLError: the text is not YAML (its ``problem_mark`` has the line).
    """
    text = path.read_text(encoding="utf-8")
    # libyaml when built in (a tenth of the time, the same nodes and marks); the data is built from the nodes,
    # so the text is parsed once.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return MarkedYaml(data, node)


def field_path(loc: Sequence[str | int]) -> str:
    """``metrics.REVENUE.unit`` / ``entries[2].source.doc`` from a pydantic error location."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text
