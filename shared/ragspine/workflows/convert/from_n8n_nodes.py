"""n8n node -> Dify node data, one builder per node type of the shared subset."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ragspine.workflows.convert import node_types as t
from ragspine.workflows.convert.from_n8n_tail import code_node, respond_node
from ragspine.workflows.convert.import_state import Built, ImportContext, dify_data, single_ref
from ragspine.workflows.convert.jinja_refs import dify_text_to_jinja
from ragspine.workflows.convert.report import SkipNode
from ragspine.workflows.dsl import stable_id
from ragspine.workflows.n8n import N8nNode
from ragspine.workflows.shapes import as_list, as_map, get_in, maps


def _start(node: N8nNode, ctx: ImportContext) -> Built:
    return [(ctx.ids[node.name], dify_data("start", node.name, variables=[]))]


def _llm(node: N8nNode, ctx: ImportContext) -> Built:
    params = node.parameters
    if params.get("resource", "text") != "text" or params.get("operation", "message") != "message":
        raise SkipNode(f"OpenAI {params.get('resource')}/{params.get('operation')} has no Dify llm counterpart")
    model = params.get("modelId")
    name = model.get("value") if isinstance(model, Mapping) else model
    values = as_list(get_in(params, "messages", "values"))
    prompts = [{"role": str(v.get("role", "user")), "text": ctx.text(v.get("content", ""), node.name)}
               for v in values if isinstance(v, Mapping)]
    if not prompts:
        raise SkipNode("the OpenAI node has no messages")
    options = as_map(params.get("options"))
    completion = {"temperature": options["temperature"]} if isinstance(options.get("temperature"), int | float) else {}
    return [(ctx.ids[node.name], dify_data(
        "llm", node.name, model={"provider": "openai", "name": str(name or "gpt-4o-mini"), "mode": "chat",
                                 "completion_params": completion},
        prompt_template=prompts, context={"enabled": False, "variable_selector": []}, vision={"enabled": False},
        variables=[]))]


def _lines(items: Any, node: N8nNode, ctx: ImportContext) -> str:
    return "\n".join(f"{p.get('name')}:{ctx.text(p.get('value', ''), node.name)}"
                     for p in maps(get_in(items, "parameters")) if p.get("name"))


def _http_body(params: Mapping[str, Any], node: N8nNode, ctx: ImportContext) -> dict[str, Any]:
    if not params.get("sendBody"):
        return {"type": "none", "data": []}
    content = params.get("contentType", "json")
    pairs = maps(get_in(params, "bodyParameters", "parameters"))
    if content == "raw":
        raw = ctx.text(params.get("body"), node.name)
        return {"type": "raw-text", "data": [{"type": "text", "key": "", "value": raw}]}
    if content in ("form-urlencoded", "multipart-form-data"):
        kind = "x-www-form-urlencoded" if content == "form-urlencoded" else "form-data"
        return {"type": kind, "data": [{"type": "text", "key": str(p.get("name")),
                                        "value": ctx.text(p.get("value", ""), node.name)} for p in pairs]}
    if params.get("specifyBody") == "keypair" or pairs:
        text = json.dumps({str(p.get("name")): ctx.text(p.get("value", ""), node.name) for p in pairs},
                          ensure_ascii=False)
    else:
        text = ctx.text(params.get("jsonBody", ""), node.name)
    return {"type": "json", "data": [{"type": "text", "key": "", "value": text}]}


def _http(node: N8nNode, ctx: ImportContext) -> Built:
    params = node.parameters
    if params.get("authentication") not in (None, "none") or node.has_credentials:
        ctx.notes.append(f"{node.name}: credentials are not carried over; the request is sent without auth")
    options = as_map(params.get("options"))
    if get_in(options, "response", "response", "fullResponse"):
        ctx.full_response.add(node.name)
    timeout = options.get("timeout")
    read = int(timeout / 1000) if isinstance(timeout, int | float) and timeout >= 1000 else 0
    method = str(params.get("method", params.get("requestMethod", "GET"))).lower()
    return [(ctx.ids[node.name], dify_data(
        "http-request", node.name, method=method, url=ctx.text(params.get("url", ""), node.name),
        authorization={"type": "no-auth", "config": None}, headers=_lines(params.get("headerParameters"), node, ctx),
        params=_lines(params.get("queryParameters"), node, ctx), body=_http_body(params, node, ctx),
        timeout={"max_connect_timeout": 0, "max_read_timeout": read, "max_write_timeout": 0}, variables=[]))]


def _condition(cond: Mapping[str, Any], node: N8nNode, ctx: ImportContext, legacy: str | None) -> dict[str, Any]:
    if legacy is None:
        op = as_map(cond.get("operator"))
        kind, operation = str(op.get("type", "string")), str(op.get("operation", ""))
        left, right = cond.get("leftValue"), cond.get("rightValue", "")
    else:
        kind, operation = legacy, str(cond.get("operation", "equal"))
        left, right = cond.get("value1"), cond.get("value2")
    if kind == "boolean":
        expected = operation if operation in ("true", "false") else str(right).lower()
        operator, right = "is", "true" if expected in ("true", "equal") else "false"
    elif legacy is not None:
        operator = t.LEGACY_OPERATORS.get(operation) or ""
    else:
        operator = t.FROM_N8N_OPERATORS.get(("number" if kind == "number" else "string", operation), "")
    selector = single_ref(left, node, ctx)
    if not operator or selector is None:
        raise SkipNode(f"condition {operation!r} on {str(left)[:80]!r} has no Dify counterpart")
    value = ctx.text(right, node.name) if isinstance(right, str) else ("" if right is None else str(right))
    return {"id": str(cond.get("id") or stable_id(node.id, str(left), operation)), "variable_selector": list(selector),
            "comparison_operator": operator, "value": value, "varType": "number" if kind == "number" else "string"}


def _if(node: N8nNode, ctx: ImportContext) -> Built:
    raw = as_map(node.parameters.get("conditions"))
    if isinstance(raw.get("conditions"), list):
        conditions = [_condition(c, node, ctx, None) for c in raw["conditions"] if isinstance(c, Mapping)]
        logical = "or" if raw.get("combinator") == "or" else "and"
    else:
        conditions = [_condition(c, node, ctx, kind) for kind in ("string", "number", "boolean")
                      for c in maps(raw.get(kind))]
        logical = "or" if node.parameters.get("combineOperation") == "any" else "and"
    if not conditions:
        raise SkipNode("the If node has no conditions")
    case = {"case_id": "true", "logical_operator": logical, "conditions": conditions}
    return [(ctx.ids[node.name], dify_data("if-else", node.name, cases=[case]))]


def _set(node: N8nNode, ctx: ImportContext) -> Built:
    params = node.parameters
    assignments = [(str(a.get("name")), a.get("value")) for a in maps(get_in(params, "assignments", "assignments"))
                   if a.get("name")]
    if not assignments and isinstance(params.get("values"), Mapping):
        assignments = [(str(v.get("name")), v.get("value")) for group in params["values"].values()
                       if isinstance(group, list) for v in group if isinstance(v, Mapping) and v.get("name")]
    if not assignments:
        raise SkipNode("the Set node assigns nothing")
    base = ctx.ids[node.name]
    chain = ctx.chains[node.name]
    built: Built = []
    for name, value in assignments:
        template, variables = dify_text_to_jinja(ctx.text(value, node.name))
        title = node.name if len(assignments) == 1 else f"{node.name} · {name}"
        built.append((chain.get(name, base),
                      dify_data("template-transform", title, template=template, variables=variables)))
    return built


def set_chain(node: N8nNode, base: str) -> dict[str, str]:
    """Dify ids of the template-transform chain a Set node becomes, by assignment name."""
    params = node.parameters
    names = [str(a.get("name")) for a in maps(get_in(params, "assignments", "assignments")) if a.get("name")]
    if not names and isinstance(params.get("values"), Mapping):
        names = [str(v.get("name")) for g in params["values"].values() if isinstance(g, list) for v in g
                 if isinstance(v, Mapping) and v.get("name")]
    return {name: base if i == 0 else stable_id(base, name) for i, name in enumerate(dict.fromkeys(names))}


BUILDERS: dict[str, Callable[[N8nNode, ImportContext], Built]] = {
    t.WEBHOOK: _start, t.MANUAL_TRIGGER: _start, t.CHAT_TRIGGER: _start, t.OPENAI: _llm, t.HTTP_REQUEST: _http,
    t.IF: _if, t.SET: _set, t.CODE: code_node, t.RESPOND: respond_node, t.NO_OP: respond_node,
}
