"""The Knowledge Gateway contract (``contracts/knowledge-gateway.openapi.json``): loading, tools, manifest.

The OpenAPI file is the single source: the router validates requests against its closed
schemas, and the capability manifest (tools, toolsets, approvals, concurrency) is generated
from its ``x-knowledge-*`` extensions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

CONTRACT_PATH = Path(__file__).with_name("knowledge-gateway.openapi.json")
PREFIX = "/internal/v1/knowledge"
TOOLSETS = ("read", "write", "admin")
_METHODS = ("get", "put", "post", "patch", "delete")


@dataclass(frozen=True, slots=True)
class Tool:
    """One contract operation and its tool policy."""

    name: str
    method: str
    path: str
    toolset: str
    action: str
    approval: str
    concurrency: str
    request_schema: str | None
    query: tuple[str, ...] = ()  # the query parameters the operation declares
    keyed: bool = False  # takes an Idempotency-Key (a mutation; issuing a download link is a read)


def _parameters(spec: dict[str, Any], operation: dict[str, Any]) -> list[dict[str, Any]]:
    """The operation's parameters with their ``$ref``s resolved."""
    found = []
    for parameter in operation.get("parameters", []):
        ref = parameter.get("$ref", "")
        found.append(spec["components"]["parameters"][ref.rsplit("/", 1)[-1]] if ref else parameter)
    return found


@lru_cache(maxsize=1)
def load_contract() -> dict[str, Any]:
    """The parsed contract (read once per process)."""
    return json.loads(CONTRACT_PATH.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def tools(contract: dict[str, Any] | None = None) -> list[Tool]:
    """Every operation of the contract, in file order."""
    spec = contract or load_contract()
    found: list[Tool] = []
    for path, item in spec["paths"].items():
        for method in _METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            body = (operation.get("requestBody") or {}).get("content", {}).get("application/json", {})
            schema_ref = (body.get("schema") or {}).get("$ref", "")
            parameters = _parameters(spec, operation)
            found.append(Tool(
                name=operation["x-knowledge-tool"], method=method.upper(), path=path,
                toolset=operation["x-knowledge-toolset"], action=operation["x-knowledge-action"],
                approval=operation["x-knowledge-approval"], concurrency=operation["x-knowledge-concurrency"],
                request_schema=schema_ref.rsplit("/", 1)[-1] or None,
                query=tuple(p["name"] for p in parameters if p["in"] == "query"),
                keyed=any(p["in"] == "header" and p["name"].lower() == "idempotency-key" for p in parameters)))
    return found


def tool(name: str) -> Tool:
    """The contract operation named ``name`` (a programming error when unknown)."""
    for candidate in tools():
        if candidate.name == name:
            return candidate
    raise KeyError(name)


def manifest(contract: dict[str, Any] | None = None) -> dict[str, Any]:
    """The capability manifest: each tool's policy, and which tools each toolset installs.

    A toolset includes the tools of the toolsets before it (read ⊂ write ⊂ admin), as in seed 003.
    """
    spec = contract or load_contract()
    listed = [t for t in tools(spec) if t.name.startswith("knowledge_")]
    rank = {name: i for i, name in enumerate(TOOLSETS)}
    return {
        "contract": spec["info"]["title"],
        "contractVersion": spec["info"]["version"],
        "tools": [{"name": t.name, "method": t.method, "path": t.path, "toolset": t.toolset, "action": t.action,
                   "approval": t.approval, "concurrency": t.concurrency} for t in listed],
        "toolsets": {name: [t.name for t in listed if rank[t.toolset] <= rank[name]] for name in TOOLSETS},
        "approvals": {t.name: t.approval for t in listed},
        "concurrency": {t.name: t.concurrency for t in listed},
        "supportingOperations": [{"name": t.name, "method": t.method, "path": t.path}
                                 for t in tools(spec) if not t.name.startswith("knowledge_")],
    }


def manifest_text(contract: dict[str, Any] | None = None) -> str:
    """The manifest as the committed file holds it (sorted nothing, 2-space indent, final newline)."""
    return json.dumps(manifest(contract), ensure_ascii=False, indent=2) + "\n"


@lru_cache(maxsize=64)
def schema_validator(name: str) -> Any:
    """A Draft 2020-12 validator of ``components.schemas[name]``, resolving the contract's ``$ref``s."""
    import jsonschema
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    registry: Registry[Any] = Registry().with_resource(
        "urn:knowledge-contract", Resource.from_contents(load_contract(), default_specification=DRAFT202012))
    return jsonschema.Draft202012Validator({"$ref": f"urn:knowledge-contract#/components/schemas/{name}"},
                                           registry=registry,
                                           format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
