"""Small Dify DSL documents built in code, one feature at a time, for the workflow tests."""

from __future__ import annotations

from typing import Any


def node(node_id: str, node_type: str, title: str | None = None, x: float = 0, **data: Any) -> dict[str, Any]:
    """A Dify node wrapper."""
    return {"id": node_id, "type": "custom", "position": {"x": x, "y": 0},
            "data": {"type": node_type, "title": title or node_id, "desc": "", **data}}


def edge(source: str, target: str, handle: str = "source", types: tuple[str, str] | None = None) -> dict[str, Any]:
    """A Dify edge; ``types`` sets the declared sourceType/targetType."""
    data = {"sourceType": types[0], "targetType": types[1]} if types else {}
    return {"id": f"{source}-{handle}-{target}-target", "source": source, "sourceHandle": handle,
            "target": target, "targetHandle": "target", "type": "custom", "data": data}


def dsl(nodes: list[dict[str, Any]], edges: list[dict[str, Any]], *, mode: str = "workflow",
        version: Any = "0.6.0", **extra: Any) -> dict[str, Any]:
    """A complete document around a graph."""
    doc = {"version": version, "kind": "app", "app": {"name": "sample", "mode": mode, "description": "a sample"},
           "workflow": {"graph": {"nodes": nodes, "edges": edges}, **extra}, "dependencies": []}
    if version is None:
        del doc["version"]
    return doc


def start(*names: str, node_id: str = "start") -> dict[str, Any]:
    """A start node with paragraph inputs."""
    variables = [{"variable": n, "label": n, "type": "paragraph", "required": True, "max_length": 1000,
                  "options": []} for n in names]
    return node(node_id, "start", "Start", variables=variables)


def llm(node_id: str, prompt: str, system: str = "You help.") -> dict[str, Any]:
    """An llm node with a system and a user message."""
    return node(node_id, "llm", node_id.upper(), model={"provider": "openai", "name": "gpt-4o-mini", "mode": "chat",
                                                         "completion_params": {"temperature": 0.3}},
                prompt_template=[{"role": "system", "text": system}, {"role": "user", "text": prompt}],
                context={"enabled": False, "variable_selector": []}, vision={"enabled": False}, variables=[])


def end(*outputs: tuple[str, list[str]], node_id: str = "end") -> dict[str, Any]:
    """An end node with (variable, selector) outputs."""
    return node(node_id, "end", "End", outputs=[{"variable": v, "value_selector": s} for v, s in outputs])


def template(node_id: str, text: str, **variables: list[str]) -> dict[str, Any]:
    """A template-transform node."""
    return node(node_id, "template-transform", node_id.upper(), template=text,
                variables=[{"variable": k, "value_selector": v} for k, v in variables.items()])


def if_else(node_id: str, selector: list[str], operator: str, value: str) -> dict[str, Any]:
    """A one-case if-else node; the case id is 'true'."""
    condition = {"id": f"{node_id}c1", "variable_selector": selector, "comparison_operator": operator,
                 "value": value, "varType": "string"}
    return node(node_id, "if-else", node_id.upper(),
                cases=[{"case_id": "true", "logical_operator": "and", "conditions": [condition]}])


def code(node_id: str, source: str, outputs: dict[str, str], **variables: list[str]) -> dict[str, Any]:
    """A python3 code node."""
    return node(node_id, "code", node_id.upper(), code_language="python3", code=source,
                variables=[{"variable": k, "value_selector": v} for k, v in variables.items()],
                outputs={k: {"type": t, "children": None} for k, t in outputs.items()})


def http(node_id: str, url: str, method: str = "get") -> dict[str, Any]:
    """An http-request node without auth."""
    return node(node_id, "http-request", node_id.upper(), method=method, url=url,
                authorization={"type": "no-auth", "config": None}, headers="Accept:application/json",
                params="q:{{#start.query#}}", body={"type": "none", "data": []},
                timeout={"max_connect_timeout": 0, "max_read_timeout": 0, "max_write_timeout": 0}, variables=[])


def full_subset() -> dict[str, Any]:
    """start -> template -> if-else -> (llm -> http -> code -> end | end2): every convertible type."""
    nodes = [
        start("query", "tone"),
        template("tpl", "Q: {{ q }} ({{ t }})", q=["start", "query"], t=["start", "tone"]),
        if_else("cond", ["start", "tone"], "is", "formal"),
        llm("llm", "Answer {{#tpl.output#}} formally"),
        http("api", "https://api.example.com/search"),
        code("calc", "def main(text: str, status: int) -> dict:\n    return {'size': len(text), 'ok': status == 200}",
             {"size": "number", "ok": "boolean"}, text=["llm", "text"], status=["api", "status_code"]),
        end(("answer", ["llm", "text"]), ("size", ["calc", "size"])),
        end(("echo", ["tpl", "output"]), node_id="end2"),
    ]
    edges = [edge("start", "tpl"), edge("tpl", "cond"), edge("cond", "llm", "true"), edge("cond", "end2", "false"),
             edge("llm", "api"), edge("api", "calc"), edge("calc", "end")]
    return dsl(nodes, edges)
