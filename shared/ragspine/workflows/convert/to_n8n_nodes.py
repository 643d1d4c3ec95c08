"""Dify node -> n8n node parameters, one builder per node type of the shared subset."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ragspine.workflows.convert import node_types as t
from ragspine.workflows.convert.expr import node_expression, parse_path, to_n8n
from ragspine.workflows.convert.jinja_refs import jinja_to_n8n
from ragspine.workflows.convert.report import SkipNode
from ragspine.workflows.dsl import DifyNode, DifyWorkflow, stable_id
from ragspine.workflows.run import body_text, normalized_cases
from ragspine.workflows.shapes import as_map, get_in, maps


@dataclass
class ExportContext:
    """State of one Dify -> n8n conversion: node names, start flavour, lossy notes."""

    workflow: DifyWorkflow
    names: dict[str, str] = field(default_factory=dict)
    chat: bool = False
    notes: list[str] = field(default_factory=list)

    def expression(self, selector: tuple[str, ...]) -> str | None:
        """The n8n expression for a Dify selector, or None when it has no n8n counterpart."""
        node_id, rest = selector[0], tuple(selector[1:])
        start = next((i for i, n in self.names.items() if self._type(i) == "start"), None)
        if node_id == "sys":
            return node_expression(self.names[start], ("chatInput",)) if rest == ("query",) and start else None
        if node_id not in self.names or not rest:
            return None
        return node_expression(self.names[node_id], self._path(self._type(node_id), rest))

    def _type(self, node_id: str) -> str:
        node = self.workflow.node(node_id)
        return node.type if node else ""

    def _path(self, node_type: str, rest: tuple[str, ...]) -> tuple[str, ...]:
        if node_type == "start":
            return rest if self.chat else ("body", *rest)
        if node_type == "llm" and rest[0] == "text":
            return ("message", "content", *rest[1:])
        if node_type == "http-request" and rest[0] == "status_code":
            return ("statusCode", *rest[1:])
        return rest

    def text(self, value: Any, node: DifyNode) -> str:
        """A Dify template string as an n8n parameter; untranslatable references are noted."""
        converted, problems = to_n8n("" if value is None else str(value), self.expression)
        self.notes.extend(f"{node.title}: reference {p} has no n8n counterpart" for p in problems)
        return converted


Built = tuple[str, int | float, dict[str, Any]]


def _start(node: DifyNode, ctx: ExportContext) -> Built:
    if ctx.chat:
        return t.CHAT_TRIGGER, 1.1, {"options": {}}
    responds = any(n.type == "end" and n.data.get("outputs") for n in ctx.workflow.nodes)
    return t.WEBHOOK, 2, {"httpMethod": "POST", "path": stable_id("webhook", ctx.workflow.name, node.id),
                            "responseMode": "responseNode" if responds else "onReceived", "options": {}}


def _llm(node: DifyNode, ctx: ExportContext) -> Built:
    model = as_map(node.data.get("model"))
    if model.get("provider") not in (None, "openai", "langgenius/openai/openai"):
        ctx.notes.append(f"{node.title}: provider {model.get('provider')} is mapped to n8n's OpenAI node")
    template = node.data.get("prompt_template")
    items = [template] if isinstance(template, Mapping) else maps(template)
    if any(i.get("edition_type") == "jinja2" for i in items):
        raise SkipNode("Jinja2 prompt templates have no n8n counterpart")
    if get_in(node.data, "context", "enabled"):
        ctx.notes.append(f"{node.title}: the retrieval context slot is not carried over")
    messages = [{"content": ctx.text(i.get("text", ""), node), "role": str(i.get("role", "user"))} for i in items]
    params = as_map(model.get("completion_params"))
    options = {"temperature": params["temperature"]} if isinstance(params.get("temperature"), int | float) else {}
    return t.OPENAI, 1.8, {"resource": "text", "operation": "message",
                           "modelId": {"__rl": True, "mode": "list", "value": str(model.get("name", "gpt-4o-mini"))},
                           "messages": {"values": messages}, "options": options}


def _pairs(text: Any, node: DifyNode, ctx: ExportContext) -> list[dict[str, str]]:
    found = []
    for line in str(text or "").splitlines():
        if ":" in line and line.split(":", 1)[0].strip():
            key, value = line.split(":", 1)
            found.append({"name": key.strip(), "value": ctx.text(value.strip(), node)})
    return found


def _http_body(body: Mapping[str, Any], node: DifyNode, ctx: ExportContext) -> dict[str, Any]:
    kind, data = body.get("type", "none"), body.get("data")
    if kind in (None, "none"):
        return {}
    if kind == "json":
        return {"sendBody": True, "contentType": "json", "specifyBody": "json",
                "jsonBody": ctx.text(body_text(data), node)}
    if kind == "raw-text":
        return {"sendBody": True, "contentType": "raw", "rawContentType": "text/plain",
                "body": ctx.text(body_text(data), node)}
    if kind in ("x-www-form-urlencoded", "form-data"):
        items = data if isinstance(data, list) else []
        pairs = ([{"name": str(i.get("key")), "value": ctx.text(i.get("value", ""), node)} for i in items
                  if isinstance(i, Mapping) and i.get("key")] if items else _pairs(data, node, ctx))
        content = "form-urlencoded" if kind == "x-www-form-urlencoded" else "multipart-form-data"
        return {"sendBody": True, "contentType": content, "specifyBody": "keypair",
                "bodyParameters": {"parameters": pairs}}
    raise SkipNode(f"body type {kind} has no n8n counterpart")


def _http(node: DifyNode, ctx: ExportContext) -> Built:
    data = node.data
    if isinstance(data.get("authorization"), Mapping) and data["authorization"].get("type") not in (None, "no-auth"):
        ctx.notes.append(f"{node.title}: API-key authorization is not exported (credentials are never copied)")
    headers, query = _pairs(data.get("headers"), node, ctx), _pairs(data.get("params"), node, ctx)
    params: dict[str, Any] = {"method": str(data.get("method", "get")).upper(), "url": ctx.text(data.get("url"), node)}
    if query:
        params.update(sendQuery=True, queryParameters={"parameters": query})
    if headers:
        params.update(sendHeaders=True, headerParameters={"parameters": headers})
    params.update(_http_body(as_map(data.get("body")), node, ctx))
    options: dict[str, Any] = {"response": {"response": {"fullResponse": True}}}
    timeout = as_map(data.get("timeout"))
    read = timeout.get("max_read_timeout", timeout.get("read"))
    if isinstance(read, int | float) and read > 0:
        options["timeout"] = int(read * 1000)
    params["options"] = options
    return t.HTTP_REQUEST, 4.2, params


def _condition(cond: Mapping[str, Any], node: DifyNode, ctx: ExportContext, index: int) -> dict[str, Any]:
    operator = str(cond.get("comparison_operator", ""))
    if operator not in t.TO_N8N_OPERATORS:
        raise SkipNode(f"comparison {operator!r} has no n8n counterpart")
    left = ctx.expression(tuple(str(s) for s in cond.get("variable_selector") or ()))
    if left is None:
        raise SkipNode("a condition reads a variable with no n8n counterpart")
    kind, operation = t.TO_N8N_OPERATORS[operator]
    op: dict[str, Any] = {"type": kind, "operation": operation}
    if operation in t.UNARY:
        op["singleValue"] = True
    right = cond.get("value", "")
    return {"id": str(cond.get("id") or stable_id(node.id, str(index))), "leftValue": "={{ " + left + " }}",
            "rightValue": ctx.text(right, node) if isinstance(right, str) else right, "operator": op}


def _if_else(node: DifyNode, ctx: ExportContext) -> Built:
    cases = normalized_cases(node.data)
    if len(cases) != 1:
        raise SkipNode("if-else with several cases (elif) has no single n8n If counterpart")
    conditions = [_condition(c, node, ctx, i) for i, c in enumerate(maps(cases[0].get("conditions")))]
    combinator = "or" if cases[0].get("logical_operator") == "or" else "and"
    return t.IF, 2, {"conditions": {"options": {"caseSensitive": True, "leftValue": "", "typeValidation": "loose"},
                                      "combinator": combinator, "conditions": conditions}, "options": {}}


def _code(node: DifyNode, ctx: ExportContext) -> Built:
    python = node.data.get("code_language", "python3") == "python3"
    mark, outputs = ("#" if python else "//"), json.dumps(as_map(node.data.get("outputs")), ensure_ascii=False,
                                                           sort_keys=True)
    lines = [f"{mark} {t.CODE_MARK} outputs={outputs}"]
    names = []
    for var in maps(node.data.get("variables")):
        selector = tuple(str(s) for s in var.get("value_selector") or ())
        expression = ctx.expression(selector) if len(selector) > 1 else None
        if expression is None:
            raise SkipNode(f"code input {var.get('variable')} reads a variable with no n8n counterpart")
        name = str(var.get("variable"))
        names.append(name)
        if python:
            head, path = expression.split(".item.json", 1)
            lines.append(f"{name} = _{head[1:]}.first().json{_python_path(path)}")
        else:
            lines.append(f"const {name} = {expression.replace('.item.json', '.first().json', 1)};")
    call = ", ".join(f"{n}={n}" for n in names) if python else "{" + ", ".join(names) + "}"
    tail = f"return [{{'json': main({call})}}]" if python else f"return [{{ json: main({call}) }}];"
    code = "\n".join([*lines, f"{mark} {t.CODE_BEGIN}", str(node.data.get("code", "")), f"{mark} {t.CODE_END}", tail])
    return t.CODE, 2, ({"language": "python", "pythonCode": code} if python else {"jsCode": code})


def _python_path(path: str) -> str:
    return "".join(f"[{json.dumps(k, ensure_ascii=False)}]" for k in parse_path(path) or ())


def _template(node: DifyNode, ctx: ExportContext) -> Built:
    value = jinja_to_n8n(node, ctx.expression)
    if value is None:
        raise SkipNode("the Jinja2 template uses more than plain {{ variable }} substitutions")
    assignment = {"id": stable_id(node.id, "output"), "name": "output", "type": "string", "value": value}
    return t.SET, 3.4, {"mode": "manual", "assignments": {"assignments": [assignment]}, "options": {}}


def _end(node: DifyNode, ctx: ExportContext) -> Built:
    outputs = maps(node.data.get("outputs"))
    if not outputs:
        return t.NO_OP, 1, {}
    entries = []
    for out in outputs:
        expression = ctx.expression(tuple(str(s) for s in out.get("value_selector") or ()))
        if expression is None:
            raise SkipNode(f"output {out.get('variable')} reads a variable with no n8n counterpart")
        entries.append(f"{json.dumps(str(out.get('variable')), ensure_ascii=False)}: {expression}")
    return t.RESPOND, 1.1, {"respondWith": "json", "responseBody": "={{ { " + ", ".join(entries) + " } }}",
                            "options": {}}


def _answer(node: DifyNode, ctx: ExportContext) -> Built:
    return t.RESPOND, 1.1, {"respondWith": "text", "responseBody": ctx.text(node.data.get("answer", ""), node),
                            "options": {}}


BUILDERS: dict[str, Callable[[DifyNode, ExportContext], Built]] = {
    "start": _start, "llm": _llm, "http-request": _http, "if-else": _if_else, "code": _code,
    "template-transform": _template, "end": _end, "answer": _answer,
}
