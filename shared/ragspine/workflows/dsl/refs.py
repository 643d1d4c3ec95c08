"""Variable references inside node data: ``{{#node.var#}}`` templates and ``*_selector`` lists."""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

# Dify's own selector pattern (node id up to 50 word characters, then 1..10 dotted names).
REFERENCE = re.compile(r"\{\{#([A-Za-z0-9_]{1,50}(?:\.[A-Za-z_][A-Za-z0-9_]{0,29}){1,10})#\}\}")
ANY_REFERENCE = re.compile(r"\{\{#([^#{}]{1,200})#\}\}")
# Prefixes that are not node ids: system, environment and conversation variables.
SYSTEM, ENVIRONMENT, CONVERSATION = "sys", "env", "conversation"
SCOPES = frozenset({SYSTEM, ENVIRONMENT, CONVERSATION})
# ``{{#context#}}`` is the llm node's retrieved-context slot, not a variable reference.
SPECIAL_TEMPLATES = frozenset({"context", "histories"})


class RefKind(enum.StrEnum):
    """Where a reference was found."""

    TEMPLATE = "template"
    SELECTOR = "selector"
    MALFORMED = "malformed"


@dataclass(frozen=True, slots=True)
class Reference:
    """A reference to another node's output (or a sys/env/conversation variable)."""

    selector: tuple[str, ...]
    kind: RefKind
    pointer: str

    @property
    def node_id(self) -> str:
        """The first selector element: a node id or a scope such as ``sys``."""
        return self.selector[0] if self.selector else ""

    @property
    def variable(self) -> str:
        """The output variable name (the second element)."""
        return self.selector[1] if len(self.selector) > 1 else ""


def template_references(text: str, pointer: str = "") -> Iterator[Reference]:
    """References in one template string, plus malformed ``{{#...#}}`` spans."""
    for match in ANY_REFERENCE.finditer(text):
        body = match.group(1)
        if body in SPECIAL_TEMPLATES:
            continue
        if REFERENCE.fullmatch(match.group(0)):
            yield Reference(tuple(body.split(".")), RefKind.TEMPLATE, pointer)
        else:
            yield Reference((body,), RefKind.MALFORMED, pointer)


def _is_selector(value: Any) -> bool:
    return (isinstance(value, list) and len(value) >= 2
            and all(isinstance(v, str | int) and not isinstance(v, bool) for v in value))


def iter_references(data: Any, pointer: str = "") -> Iterator[Reference]:
    """Every reference in a node's data, depth first, with the JSON pointer where it sits.

    Parts switched off with ``enabled: false`` (vision, context, memory) are skipped: Dify
    keeps their stale selectors but never reads them.
    """
    if isinstance(data, str):
        yield from template_references(data, pointer)
    elif isinstance(data, Mapping):
        if data.get("enabled") is False:
            return
        for key, value in data.items():
            child = f"{pointer}/{key}"
            is_selector_key = str(key).endswith("selector") or (key == "value" and data.get("type") == "variable")
            if is_selector_key and _is_selector(value):
                yield Reference(tuple(str(v) for v in value), RefKind.SELECTOR, child)
            else:
                yield from iter_references(value, child)
    elif isinstance(data, list):
        for i, item in enumerate(data):
            yield from iter_references(item, f"{pointer}/{i}")


def render_references(text: str, lookup: Any) -> str:
    """Replace each ``{{#a.b#}}`` in ``text`` with ``lookup(("a", "b"))`` as text."""

    def _sub(match: re.Match[str]) -> str:
        value = lookup(tuple(match.group(1).split(".")))
        return value if isinstance(value, str) else ("" if value is None else str(value))

    return REFERENCE.sub(_sub, text)
