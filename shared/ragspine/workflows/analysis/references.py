"""Reference checks for analyze: every ``{{#node.var#}}`` and selector must name something that exists."""

from __future__ import annotations

from collections.abc import Mapping

from ragspine.workflows.analysis.findings import Finding, FindingCode, Severity
from ragspine.workflows.dsl import (
    CONVERSATION,
    ENVIRONMENT,
    SYSTEM,
    DifyNode,
    DifyWorkflow,
    Graph,
    NodeType,
    Reference,
    RefKind,
    iter_references,
)
from ragspine.workflows.shapes import maps

# Outputs fixed by node type (Dify node docs); types missing here have outputs we cannot know.
FIXED_OUTPUTS: Mapping[str, frozenset[str]] = {
    NodeType.LLM.value: frozenset({"text", "reasoning_content", "usage", "structured_output", "files"}),
    NodeType.TEMPLATE_TRANSFORM.value: frozenset({"output"}),
    NodeType.KNOWLEDGE_RETRIEVAL.value: frozenset({"result"}),
    NodeType.HTTP_REQUEST.value: frozenset({"body", "status_code", "headers", "files"}),
    NodeType.QUESTION_CLASSIFIER.value: frozenset({"class_name", "class_id", "usage"}),
    NodeType.DOCUMENT_EXTRACTOR.value: frozenset({"text"}),
    NodeType.LIST_OPERATOR.value: frozenset({"result", "first_record", "last_record"}),
    NodeType.ITERATION.value: frozenset({"output", "item", "index"}),
}
# Nodes with an error strategy also expose these two.
ERROR_OUTPUTS = frozenset({"error_message", "error_type"})
_PARAMETER_EXTRACTOR_EXTRA = frozenset({"__is_success", "__reason", "__usage"})


def known_outputs(node: DifyNode) -> frozenset[str] | None:
    """Output names a node offers, or None when they depend on things we cannot see."""
    data = node.data
    if node.type == NodeType.START.value:
        return frozenset(str(v.get("variable")) for v in maps(data.get("variables")))
    if node.type == NodeType.CODE.value:
        outputs = data.get("outputs")
        return frozenset(map(str, outputs)) | ERROR_OUTPUTS if isinstance(outputs, Mapping) else None
    if node.type == NodeType.PARAMETER_EXTRACTOR.value:
        names = {str(p.get("name")) for p in maps(data.get("parameters"))}
        return frozenset(names) | _PARAMETER_EXTRACTOR_EXTRA | ERROR_OUTPUTS
    fixed = FIXED_OUTPUTS.get(node.type)
    return fixed | ERROR_OUTPUTS if fixed is not None else None


def _scope_finding(workflow: DifyWorkflow, node: DifyNode, ref: Reference) -> Finding | None:
    if ref.node_id == SYSTEM:
        return None
    pool = workflow.environment_variables if ref.node_id == ENVIRONMENT else workflow.conversation_variables
    names = {str(v.get("name")) for v in pool}
    if ref.variable in names:
        return None
    return Finding(FindingCode.UNRESOLVED_REFERENCE, Severity.WARNING,
                   f"{'.'.join(ref.selector)} is not a declared {ref.node_id} variable", node.id,
                   node.pointer + "/data" + ref.pointer)


def _ref_finding(workflow: DifyWorkflow, graph: Graph, node: DifyNode, ref: Reference,
                 by_id: Mapping[str, DifyNode]) -> Finding | None:
    where = node.pointer + "/data" + ref.pointer
    if ref.kind is RefKind.MALFORMED:
        return Finding(FindingCode.MALFORMED_REFERENCE, Severity.WARNING,
                       f"{{{{#{ref.selector[0]}#}}}} is not a valid variable reference", node.id, where)
    if ref.node_id in (SYSTEM, ENVIRONMENT, CONVERSATION):
        return _scope_finding(workflow, node, ref)
    target = by_id.get(ref.node_id)
    if target is None:
        return Finding(FindingCode.UNRESOLVED_REFERENCE, Severity.ERROR,
                       f"{'.'.join(ref.selector)} names node {ref.node_id}, which does not exist", node.id, where)
    outputs = known_outputs(target)
    # DSL 0.1.x stored system variables under the start node id as "sys.query".
    legacy_system = target.type == NodeType.START.value and ref.variable.startswith("sys.")
    if outputs is not None and ref.variable not in outputs and not legacy_system:
        return Finding(FindingCode.UNKNOWN_VARIABLE, Severity.WARNING,
                       f"{target.type} node {ref.node_id} has no output {ref.variable!r}", node.id, where)
    top_level = node.parent_id is None and target.parent_id is None
    if top_level and target.id != node.id and target.id not in graph.ancestors(node.id):
        return Finding(FindingCode.NOT_UPSTREAM, Severity.WARNING,
                       f"{ref.node_id} does not run before {node.id}, so its value may be missing", node.id, where)
    return None


def reference_findings(workflow: DifyWorkflow, graph: Graph) -> list[Finding]:
    """Unresolved, unknown, malformed and not-upstream references in every node."""
    by_id = {n.id: n for n in workflow.nodes}
    found: list[Finding] = []
    for node in workflow.nodes:
        for ref in iter_references(node.data):
            finding = _ref_finding(workflow, graph, node, ref, by_id)
            if finding is not None:
                found.append(finding)
    return found
