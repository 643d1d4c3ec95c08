"""analyze: one small document per problem it must find."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.workflows.analysis.analyze import analyze_document
from ragspine.workflows.analysis.findings import FindingCode, Severity
from tests.unit.workflows.samples import dsl, edge, end, if_else, llm, node, start, template

T = ("start", "llm")


def _ok_graph() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return ([start("q"), llm("llm", "{{#start.q#}}"), end(("r", ["llm", "text"]))],
            [edge("start", "llm", types=("start", "llm")), edge("llm", "end", types=("llm", "end"))])


def _codes(doc: dict[str, Any]) -> set[FindingCode]:
    return analyze_document(doc).codes()


class TestCleanDocuments:
    def test_a_sound_workflow_has_no_findings(self) -> None:
        assert analyze_document(dsl(*_ok_graph())).findings == ()

    def test_system_variables_resolve(self) -> None:
        nodes, edges = _ok_graph()
        nodes[1] = llm("llm", "{{#sys.query#}} {{#start.q#}}")
        assert analyze_document(dsl(nodes, edges)).findings == ()


class TestVersion:
    def test_a_float_version_is_an_error(self) -> None:
        analysis = analyze_document(dsl(*_ok_graph(), version=0.5))
        assert FindingCode.NON_STRING_VERSION in analysis.codes() and not analysis.ok

    def test_a_missing_version_is_a_warning(self) -> None:
        analysis = analyze_document(dsl(*_ok_graph(), version=None))
        assert analysis.codes() == {FindingCode.MISSING_VERSION} and analysis.ok

    @pytest.mark.parametrize(("version", "code"), [("0.8.0", FindingCode.NEWER_VERSION),
                                                   ("latest", FindingCode.INVALID_VERSION)])
    def test_other_versions(self, version: str, code: FindingCode) -> None:
        assert code in _codes(dsl(*_ok_graph(), version=version))

    @pytest.mark.parametrize("version", ["0.1.0", "0.1.5", "0.3.1", "0.5.0", "0.6.0", "0.7.0", "0.7.3"])
    def test_every_readable_version_is_accepted(self, version: str) -> None:
        assert analyze_document(dsl(*_ok_graph(), version=version)).findings == ()


class TestGraph:
    def test_no_start(self) -> None:
        assert FindingCode.NO_START in _codes(dsl([end()], []))

    def test_two_starts(self) -> None:
        nodes, edges = _ok_graph()
        assert FindingCode.MULTIPLE_START in _codes(dsl([*nodes, start(node_id="s2")], edges))

    def test_no_reachable_end(self) -> None:
        nodes, edges = _ok_graph()
        assert FindingCode.NO_REACHABLE_TERMINAL in _codes(dsl(nodes, edges[:1]))

    def test_unreachable_nodes_and_connectivity(self) -> None:
        nodes, edges = _ok_graph()
        analysis = analyze_document(dsl([*nodes, template("orphan", "x")], edges))
        assert [f.node_id for f in analysis.findings if f.code is FindingCode.UNREACHABLE_NODE] == ["orphan"]

    def test_cycles_outside_containers_are_errors(self) -> None:
        nodes, edges = _ok_graph()
        nodes.insert(2, template("t", "x"))
        edges = [edge("start", "llm"), edge("llm", "t"), edge("t", "llm"), edge("t", "end")]
        found = [f for f in analyze_document(dsl(nodes, edges)).findings if f.code is FindingCode.CYCLE]
        assert found and found[0].severity is Severity.ERROR and "llm" in found[0].message

    def test_cycles_inside_a_loop_container_are_allowed(self) -> None:
        nodes, edges = _ok_graph()
        loop = node("loop", "loop")
        a, b = template("a", "x"), template("b", "y")
        a["parentId"] = b["parentId"] = "loop"
        edges = [edge("start", "loop"), edge("loop", "llm"), edge("a", "b"), edge("b", "a"), edge("llm", "end")]
        assert FindingCode.CYCLE not in _codes(dsl([*nodes, loop, a, b], edges))

    def test_unknown_node_types(self) -> None:
        nodes, edges = _ok_graph()
        assert FindingCode.UNKNOWN_NODE_TYPE in _codes(dsl([*nodes, node("x", "teleport")], edges))

    def test_dangling_edges(self) -> None:
        nodes, edges = _ok_graph()
        assert FindingCode.DANGLING_EDGE in _codes(dsl(nodes, [*edges, edge("llm", "ghost")]))

    def test_declared_edge_types_must_match_the_nodes(self) -> None:
        nodes, edges = _ok_graph()
        edges[0] = edge("start", "llm", types=("start", "code"))
        assert FindingCode.EDGE_TYPE_MISMATCH in _codes(dsl(nodes, edges))


class TestModes:
    def test_answer_in_a_workflow_app(self) -> None:
        nodes, edges = _ok_graph()
        assert FindingCode.WRONG_MODE_NODE in _codes(dsl([*nodes, node("a", "answer", answer="x")],
                                                         [*edges, edge("llm", "a")]))

    def test_end_in_a_chatflow(self) -> None:
        nodes, edges = _ok_graph()
        codes = _codes(dsl(nodes, edges, mode="advanced-chat"))
        assert FindingCode.WRONG_MODE_NODE in codes and FindingCode.NO_REACHABLE_TERMINAL in codes

    def test_modes_without_a_graph_are_noted(self) -> None:
        analysis = analyze_document({"version": "0.6.0", "app": {"mode": "chat"}, "model_config": {}})
        assert analysis.codes() == {FindingCode.NO_GRAPH} and analysis.ok


class TestReferences:
    def test_references_to_missing_nodes(self) -> None:
        nodes, edges = _ok_graph()
        nodes[1] = llm("llm", "{{#ghost.text#}}")
        found = [f for f in analyze_document(dsl(nodes, edges)).findings if f.code is FindingCode.UNRESOLVED_REFERENCE]
        assert found and found[0].pointer == "/workflow/graph/nodes/1/data/prompt_template/1/text"

    def test_selectors_to_missing_nodes(self) -> None:
        nodes, edges = _ok_graph()
        nodes[2] = end(("r", ["ghost", "text"]))
        assert FindingCode.UNRESOLVED_REFERENCE in _codes(dsl(nodes, edges))

    def test_unknown_output_names(self) -> None:
        nodes, edges = _ok_graph()
        nodes[2] = end(("r", ["llm", "answer"]))
        assert FindingCode.UNKNOWN_VARIABLE in _codes(dsl(nodes, edges))

    def test_references_to_nodes_that_run_later(self) -> None:
        nodes, edges = _ok_graph()
        nodes[1] = llm("llm", "{{#end.r#}}")
        assert FindingCode.NOT_UPSTREAM in _codes(dsl(nodes, edges))

    def test_undeclared_environment_variables(self) -> None:
        nodes, edges = _ok_graph()
        nodes[1] = llm("llm", "{{#env.api_base#}}")
        assert FindingCode.UNRESOLVED_REFERENCE in _codes(dsl(nodes, edges))
        declared = dsl(nodes, edges, environment_variables=[{"name": "api_base", "value": "x"}])
        assert FindingCode.UNRESOLVED_REFERENCE not in _codes(declared)

    def test_if_else_branches_reach_the_end(self) -> None:
        nodes = [start("q"), if_else("c", ["start", "q"], "is", "x"), end(("r", ["start", "q"]))]
        edges = [edge("start", "c", types=("start", "if-else")), edge("c", "end", "true", types=("if-else", "end")),
                 edge("c", "end", "false", types=("if-else", "end"))]
        assert analyze_document(dsl(nodes, edges)).findings == ()
