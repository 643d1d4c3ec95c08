"""Deterministic Dify DSL output: the same document always gives byte-identical YAML or JSON.

Keys follow Dify's export order (``version``, ``kind``, ``app``, ``workflow``/``model_config``,
``dependencies``; node and edge wrappers as Dify writes them); any other key is sorted. The
``version`` is always a quoted string, ``kind`` is ``app``, ``dependencies`` exists, and every
edge's ``sourceType``/``targetType`` equals its nodes' types. Nothing depends on the clock.
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from ragspine.workflows.dsl.model import VERSION_WHEN_MISSING
from ragspine.workflows.shapes import as_map, maps

DEFAULT_DSL_VERSION = "0.6.0"
TOP_ORDER = ("version", "kind", "app", "workflow", "model_config", "dependencies")
APP_ORDER = ("name", "mode", "icon", "icon_type", "icon_background", "description", "use_icon_as_answer_icon")
WORKFLOW_ORDER = ("graph", "features", "environment_variables", "conversation_variables")
GRAPH_ORDER = ("nodes", "edges", "viewport")
NODE_ORDER = ("id", "type", "data", "position", "positionAbsolute", "width", "height", "sourcePosition",
              "targetPosition", "selected")
NODE_DATA_ORDER = ("type", "title", "desc")
EDGE_ORDER = ("id", "source", "sourceHandle", "target", "targetHandle", "type", "zIndex", "data")
EDGE_DATA_ORDER = ("sourceType", "targetType", "isInIteration", "isInLoop")


class OutputFormat(enum.StrEnum):
    """Serialisations the emitter writes."""

    YAML = "yaml"
    JSON = "json"


class _Quoted(str):
    """A string the YAML emitter always single-quotes (Dify requires ``version`` to be a string)."""


def stable_id(*parts: str) -> str:
    """A 13-digit node id derived from content, shaped like Dify's millisecond ids but never a time."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return str(1_000_000_000_000 + int(digest[:15], 16) % 9_000_000_000_000)


def edge_id(source: str, handle: str, target: str) -> str:
    """Dify's edge id convention ``<source>-<sourceHandle>-<target>-target``."""
    return f"{source}-{handle}-{target}-target"


def _ordered(value: Mapping[str, Any], first: Sequence[str], child: Any = None) -> dict[str, Any]:
    keys = [k for k in first if k in value] + sorted(k for k in value if k not in first)
    return {k: (child(k, value[k]) if child else _sorted(value[k])) for k in keys}


def _sorted(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _sorted(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list | tuple):
        return [_sorted(v) for v in value]
    return value


def _node(node: Any) -> Any:
    if not isinstance(node, Mapping):
        return _sorted(node)
    return _ordered(node, NODE_ORDER, lambda k, v: _ordered(v, NODE_DATA_ORDER) if k == "data"
                    and isinstance(v, Mapping) else _sorted(v))


def _edge(edge: Any, types: Mapping[str, str]) -> Any:
    if not isinstance(edge, Mapping):
        return _sorted(edge)
    data = dict(as_map(edge.get("data")))
    for end, key in (("source", "sourceType"), ("target", "targetType")):
        if str(edge.get(end)) in types:
            data[key] = types[str(edge.get(end))]
    return _ordered({**edge, "data": data}, EDGE_ORDER,
                    lambda k, v: _ordered(v, EDGE_DATA_ORDER) if k == "data" else _sorted(v))


def _graph(graph: Mapping[str, Any]) -> dict[str, Any]:
    types = {str(n.get("id")): str(as_map(n.get("data")).get("type")) for n in maps(graph.get("nodes"))
             if isinstance(n.get("data"), Mapping)}

    def child(key: str, value: Any) -> Any:
        if key == "nodes" and isinstance(value, list):
            return [_node(n) for n in value]
        if key == "edges" and isinstance(value, list):
            return [_edge(e, types) for e in value]
        return _sorted(value)

    return _ordered(graph, GRAPH_ORDER, child)


def canonical_dsl(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``doc`` in canonical key order with Dify's import invariants enforced.

    A missing ``version`` becomes "0.1.0", as Dify's importer reads it; claiming a newer
    version would skip the migrations Dify applies to old documents.
    """
    version = doc.get("version")
    full = {**doc, "version": str(version) if version is not None else VERSION_WHEN_MISSING, "kind": "app"}
    full.setdefault("dependencies", [])

    def child(key: str, value: Any) -> Any:
        if key == "app" and isinstance(value, Mapping):
            return _ordered(value, APP_ORDER)
        if key == "workflow" and isinstance(value, Mapping):
            return _ordered(value, WORKFLOW_ORDER, lambda k, v: _graph(v) if k == "graph"
                            and isinstance(v, Mapping) else _sorted(v))
        return _sorted(value)

    return _ordered(full, TOP_ORDER, child)


def _yaml_dumper() -> Any:
    import yaml

    class _Dumper(yaml.SafeDumper):
        def ignore_aliases(self, data: Any) -> bool:
            return True

    def quoted(dumper: Any, data: str) -> Any:
        return dumper.represent_scalar("tag:yaml.org,2002:str", str(data), style="'")

    def text(dumper: Any, data: str) -> Any:
        # Literal blocks keep prompts and code readable; the emitter falls back to quotes when needed.
        style = "|" if "\n" in data else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)

    _Dumper.add_representer(_Quoted, quoted)
    _Dumper.add_representer(str, text)
    return _Dumper


def emit_yaml(doc: Mapping[str, Any]) -> str:
    """Canonical YAML of a DSL document (UTF-8 text, unicode kept, ``version`` quoted)."""
    import yaml

    canonical = canonical_dsl(doc)
    canonical["version"] = _Quoted(canonical["version"])
    text: str = yaml.dump(canonical, Dumper=_yaml_dumper(), allow_unicode=True, sort_keys=False,
                          default_flow_style=False, width=4096)
    return text


def emit_json(doc: Mapping[str, Any]) -> str:
    """Canonical, indented JSON of a DSL document, ending in a newline."""
    return json.dumps(canonical_dsl(doc), ensure_ascii=False, indent=2) + "\n"


def emit(doc: Mapping[str, Any], fmt: OutputFormat = OutputFormat.YAML) -> str:
    """Canonical YAML or JSON."""
    return emit_yaml(doc) if fmt is OutputFormat.YAML else emit_json(doc)


def canonical_json_bytes(value: Any) -> bytes:
    """Compact, key-sorted JSON bytes: the input of every content hash."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def content_hash(value: Any) -> str:
    """``sha256:<hex>`` of the canonical JSON of ``value``."""
    return "sha256:" + hashlib.sha256(canonical_json_bytes(value)).hexdigest()
