"""template-transform <-> n8n Set values: plain ``{{ var }}`` substitutions only, both ways."""

from __future__ import annotations

import re
from collections.abc import Callable

from ragspine.workflows.convert.expr import parse_path
from ragspine.workflows.dsl import REFERENCE, VARIABLE_NAME, DifyNode
from ragspine.workflows.shapes import maps

_SEGMENT = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
_JINJA_SPECIAL = ("{{", "{%", "{#")
_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)")


def jinja_to_n8n(node: DifyNode, resolve: Callable[[tuple[str, ...]], str | None]) -> str | None:
    """The node's template as an n8n expression string, or None when it needs real Jinja2."""
    template = str(node.data.get("template", ""))
    if "{%" in template or "{#" in template:
        return None
    variables = {str(v.get("variable")): tuple(str(s) for s in v.get("value_selector") or ())
                 for v in maps(node.data.get("variables"))}
    failed = False
    found = False

    def swap(match: re.Match[str]) -> str:
        nonlocal failed, found
        head = _NAME.match(match.group(1))
        path = parse_path(match.group(1)[head.end():]) if head else None
        selector = variables.get(head.group(1)) if head else None
        expression = resolve(selector + path) if selector and path is not None else None
        if expression is None:
            failed = True
            return match.group(0)
        found = True
        return "{{ " + expression + " }}"

    converted = _SEGMENT.sub(swap, template)
    if failed:
        return None
    return "=" + converted if found else converted


def _literal(chunk: str) -> str:
    # Untranslated n8n expressions must not be read as Jinja2 by Dify.
    return "{% raw %}" + chunk + "{% endraw %}" if any(s in chunk for s in _JINJA_SPECIAL) else chunk


def dify_text_to_jinja(text: str) -> tuple[str, list[dict[str, object]]]:
    """Turn Dify text with ``{{#node.var#}}`` references into a Jinja2 template plus its variables."""
    parts: list[str] = []
    variables: list[dict[str, object]] = []
    names: dict[tuple[str, ...], str] = {}
    position = 0
    for match in REFERENCE.finditer(text):
        parts.append(_literal(text[position:match.start()]))
        selector = tuple(match.group(1).split("."))
        if selector not in names:
            name = selector[-1]
            if not VARIABLE_NAME.fullmatch(name) or name in names.values():
                name = f"var_{len(names) + 1}"
            names[selector] = name
            variables.append({"variable": name, "value_selector": list(selector)})
        parts.append("{{ " + names[selector] + " }}")
        position = match.end()
    parts.append(_literal(text[position:]))
    return "".join(parts), variables
