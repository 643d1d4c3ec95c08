"""The reuse safety analysis: may a given Dify workflow be handed back as-is?

A workflow is safe to reuse when nothing in it runs arbitrary code, reaches the network
outside the allowlist, or needs something from the workspace or marketplace it came from:

- no ``code`` node (it runs arbitrary code);
- no ``http-request`` node whose host is templated or not on the allowlist;
- no ``tool``, ``agent``, ``datasource``, ``knowledge-index`` or plugin/webhook trigger node
  (each needs credentials, a plugin from the marketplace or workspace state);
- no ``dependencies`` entry (marketplace, GitHub or package plugins);
- no ``knowledge-retrieval`` node bound to workspace ``dataset_ids``;
- no embedded secret (an API key in http-request auth or headers, a ``secret`` environment variable);
- no node type we do not know.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

from ragspine.workflows.dsl import KNOWN_NODE_TYPES, DifyNode, DifyWorkflow, NodeType
from ragspine.workflows.run import host_allowed

CREDENTIALED_TYPES = frozenset({NodeType.TOOL.value, NodeType.AGENT.value, NodeType.DATASOURCE.value,
                                NodeType.KNOWLEDGE_INDEX.value, NodeType.TRIGGER_PLUGIN.value,
                                NodeType.TRIGGER_WEBHOOK.value})
_SECRET_HEADER = re.compile(r"^\s*(authorization|proxy-authorization|cookie|[\w-]*(api[-_]?key|token|secret))\s*:"
                            r"\s*(?!\{\{#)\S", re.IGNORECASE | re.MULTILINE)


class SafetyRule(enum.StrEnum):
    """Why a workflow may not be reused."""

    CODE_NODE = "code_node"
    HTTP_NOT_ALLOWLISTED = "http_not_allowlisted"
    CREDENTIALED_NODE = "credentialed_node"
    MARKETPLACE_DEPENDENCY = "marketplace_dependency"
    WORKSPACE_DATASET = "workspace_dataset"
    EMBEDDED_SECRET = "embedded_secret"
    UNKNOWN_NODE = "unknown_node"


@dataclass(frozen=True, slots=True)
class SafetyFinding:
    """One reason against reuse, with the node and JSON pointer concerned."""

    rule: SafetyRule
    message: str
    node_id: str | None
    pointer: str


@dataclass(frozen=True, slots=True)
class SafetyReport:
    """All reasons against reuse; ``safe`` when there are none."""

    findings: tuple[SafetyFinding, ...]

    @property
    def safe(self) -> bool:
        """True when the workflow passed every rule."""
        return not self.findings

    def messages(self) -> tuple[str, ...]:
        """One line per finding, for preview warnings."""
        return tuple(f"{f.rule.value}: {f.message}" for f in self.findings)


def _http_findings(node: DifyNode, allowlist: Collection[str]) -> Iterator[SafetyFinding]:
    url = node.data.get("url")
    url = url if isinstance(url, str) else ""
    authority = url.split("//", 1)[-1].split("/", 1)[0]
    host = urlsplit(url).hostname or ""
    if "{{" in authority or not host:
        yield SafetyFinding(SafetyRule.HTTP_NOT_ALLOWLISTED, f"http-request {node.title!r} has no fixed host",
                            node.id, f"{node.pointer}/data/url")
    elif not host_allowed(host, allowlist):
        yield SafetyFinding(SafetyRule.HTTP_NOT_ALLOWLISTED, f"http-request host {host!r} is not on the allowlist",
                            node.id, f"{node.pointer}/data/url")
    auth = node.data.get("authorization")
    if isinstance(auth, dict) and auth.get("type") not in (None, "no-auth"):
        yield SafetyFinding(SafetyRule.EMBEDDED_SECRET, f"http-request {node.title!r} carries an API key",
                            node.id, f"{node.pointer}/data/authorization")
    headers = node.data.get("headers")
    if isinstance(headers, str) and _SECRET_HEADER.search(headers):
        yield SafetyFinding(SafetyRule.EMBEDDED_SECRET, f"http-request {node.title!r} has a literal credential header",
                            node.id, f"{node.pointer}/data/headers")


def _node_findings(node: DifyNode, allowlist: Collection[str]) -> Iterator[SafetyFinding]:
    where = f"{node.pointer}/data/type"
    if node.type not in KNOWN_NODE_TYPES:
        yield SafetyFinding(SafetyRule.UNKNOWN_NODE, f"unknown node type {node.type!r}", node.id, where)
    elif node.type == NodeType.CODE.value:
        yield SafetyFinding(SafetyRule.CODE_NODE, f"code node {node.title!r} runs arbitrary code", node.id, where)
    elif node.type in CREDENTIALED_TYPES:
        yield SafetyFinding(SafetyRule.CREDENTIALED_NODE, f"{node.type} node {node.title!r} needs credentials "
                            "or a marketplace plugin", node.id, where)
    elif node.type == NodeType.HTTP_REQUEST.value:
        yield from _http_findings(node, allowlist)
    elif node.type == NodeType.KNOWLEDGE_RETRIEVAL.value and node.data.get("dataset_ids"):
        yield SafetyFinding(SafetyRule.WORKSPACE_DATASET, f"knowledge-retrieval {node.title!r} is bound to "
                            "workspace datasets", node.id, f"{node.pointer}/data/dataset_ids")


def assess_reuse(workflow: DifyWorkflow, *, http_allowlist: Collection[str] = ()) -> SafetyReport:
    """Apply every rule in the module docstring; an empty report means safe to reuse."""
    found: list[SafetyFinding] = []
    for i, dep in enumerate(workflow.dependencies):
        found.append(SafetyFinding(SafetyRule.MARKETPLACE_DEPENDENCY,
                                   f"depends on a {dep.get('type', 'plugin')} package", None, f"/dependencies/{i}"))
    for i, var in enumerate(workflow.environment_variables):
        if var.get("value_type") == "secret":
            found.append(SafetyFinding(SafetyRule.EMBEDDED_SECRET, f"secret environment variable {var.get('name')!r}",
                                       None, f"/workflow/environment_variables/{i}"))
    for node in workflow.nodes:
        found.extend(_node_findings(node, http_allowlist))
    return SafetyReport(tuple(found))
