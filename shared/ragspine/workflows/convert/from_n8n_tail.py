"""n8n -> Dify for the code node (marker-wrapped Dify code) and the terminal nodes."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ragspine.workflows.convert import node_types as t
from ragspine.workflows.convert.expr import parse_n8n_ref
from ragspine.workflows.convert.import_state import Built, ImportContext, dify_data, single_ref
from ragspine.workflows.convert.report import SkipNode
from ragspine.workflows.n8n import N8nNode

_HEADER = re.compile(r"^(?:#|//) " + re.escape(t.CODE_MARK) + r" outputs=(?P<outputs>.*)$")
_PY_INPUT = re.compile(r"^(?P<name>\w+) = _(?P<node>\(.+?\))\.first\(\)\.json(?P<path>.*)$")
_JS_INPUT = re.compile(r"^const (?P<name>\w+) = \$(?P<node>\(.+?\))\.first\(\)\.json(?P<path>.*);$")
_ENTRY_KEY = re.compile(r"""^\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z_$][\w$]*))\s*:\s*(.+)$""", re.DOTALL)


def _split_code(code: str, python: bool) -> tuple[dict[str, Any], list[tuple[str, str]], str] | None:
    lines = code.splitlines()
    header = _HEADER.match(lines[0]) if lines else None
    mark = "#" if python else "//"
    try:
        begin, end = lines.index(f"{mark} {t.CODE_BEGIN}"), len(lines) - 1 - lines[::-1].index(f"{mark} {t.CODE_END}")
        outputs = json.loads(header.group("outputs")) if header else None
    except ValueError:
        return None
    if header is None or not isinstance(outputs, dict) or begin >= end:
        return None
    pattern = _PY_INPUT if python else _JS_INPUT
    inputs = []
    for line in lines[1:begin]:
        found = pattern.match(line)
        if found is None:
            return None
        inputs.append((found.group("name"), f"${found.group('node')}.item.json{found.group('path')}"))
    return outputs, inputs, "\n".join(lines[begin + 1:end])


def code_node(node: N8nNode, ctx: ImportContext) -> Built:
    """A code node written by our Dify -> n8n converter becomes the original Dify code node again."""
    python = node.parameters.get("language") in ("python", "pythonNative")
    code = node.parameters.get("pythonCode" if python else "jsCode")
    parts = _split_code(code, python) if isinstance(code, str) else None
    if parts is None:
        raise SkipNode("n8n code works on item lists, not Dify's main(); only code exported by RAGSpine converts")
    outputs, inputs, body = parts
    variables = []
    for name, expression in inputs:
        ref = parse_n8n_ref(expression)
        selector = ctx.resolve(node.name, ref.node, ref.path) if ref else None
        if selector is None:
            raise SkipNode(f"code input {name} reads a node that was not converted")
        variables.append({"variable": name, "value_selector": list(selector)})
    return [(ctx.ids[node.name], dify_data("code", node.name, code_language="python3" if python else "javascript",
                                           code=body, variables=variables, outputs=outputs))]


def _split_entries(text: str) -> list[str]:
    entries: list[str] = []
    current: list[str] = []
    depth, quote = 0, ""
    for char in text:
        if quote:
            quote = "" if char == quote and (not current or current[-1] != "\\") else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            entries.append("".join(current))
            current = []
            continue
        current.append(char)
    if "".join(current).strip():
        entries.append("".join(current))
    return entries


def _json_outputs(body: Any, node: N8nNode, ctx: ImportContext) -> list[dict[str, Any]] | None:
    text = body.strip() if isinstance(body, str) else ""
    if not (text.startswith("={{") and text.endswith("}}")):
        return None
    inner = text[3:-2].strip()
    if not (inner.startswith("{") and inner.endswith("}")):
        return None
    outputs = []
    for entry in _split_entries(inner[1:-1]):
        found = _ENTRY_KEY.match(entry)
        ref = parse_n8n_ref(found.group(4)) if found else None
        selector = ctx.resolve(node.name, ref.node, ref.path) if ref and found else None
        if selector is None or found is None:
            return None
        key = found.group(1) if found.group(1) is not None else (found.group(2) or found.group(3))
        outputs.append({"variable": json.loads(f'"{key}"') if found.group(1) is not None else key,
                        "value_selector": list(selector)})
    return outputs


def respond_node(node: N8nNode, ctx: ImportContext) -> Built:
    """respondToWebhook / NoOp -> end (workflow) or answer (advanced-chat)."""
    params: Mapping[str, Any] = node.parameters
    respond_with = params.get("respondWith", "firstIncomingItem") if node.type == t.RESPOND else "noData"
    body = params.get("responseBody", "")
    outputs = _json_outputs(body, node, ctx) if respond_with == "json" else None
    if ctx.chat:
        if outputs is not None:
            text = "\n".join(f"{o['variable']}: {{{{#{'.'.join(o['value_selector'])}#}}}}" for o in outputs)
        elif respond_with == "text":
            text = ctx.text(body, node.name)
        else:
            text = ""
            ctx.notes.append(f"{node.name}: responds with {respond_with}; the Dify answer is empty")
        return [(ctx.ids[node.name], dify_data("answer", node.name, answer=text, variables=[]))]
    if outputs is None and respond_with == "text":
        selector = single_ref(body, node, ctx)
        outputs = [{"variable": "text", "value_selector": list(selector)}] if selector else None
    if outputs is None and respond_with != "noData":
        ctx.notes.append(f"{node.name}: the {respond_with} response is not a plain mapping; the end has no outputs")
    return [(ctx.ids[node.name], dify_data("end", node.name, outputs=outputs or []))]
