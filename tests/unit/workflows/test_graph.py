"""Graph algorithms: strongly connected parts, reachability and order on small graphs."""

from __future__ import annotations

from ragspine.workflows.dsl.graph import Graph, build_graph, reachable, strongly_connected, topological_order
from ragspine.workflows.dsl.model import read_dsl
from ragspine.workflows.dsl.normalize import normalize
from ragspine.workflows.scaffold.scaffolder import Origin, scaffold_input
from tests.unit.workflows.samples import dsl, edge, template


def _graph(pairs: list[tuple[str, str]], ids: str = "abcdef") -> Graph:
    return build_graph(read_dsl(dsl([template(i, "x") for i in ids], [edge(s, t) for s, t in pairs])))


class TestGraph:
    def test_components_of_two_cycles_and_a_self_loop(self) -> None:
        graph = _graph([("a", "b"), ("b", "a"), ("b", "c"), ("c", "d"), ("d", "e"), ("e", "c"), ("f", "f")])
        assert sorted(strongly_connected(graph)) == [("a", "b"), ("c", "d", "e"), ("f",)]

    def test_a_dag_has_no_component_and_an_order(self) -> None:
        graph = _graph([("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")])
        assert strongly_connected(graph) == []
        assert topological_order(graph, "abcd") == ["a", "b", "c", "d"]
        assert reachable(graph, ["b"]) == {"b", "d"}


class TestScaffoldInput:
    def test_an_n8n_workflow_is_converted_then_scaffolded(self) -> None:
        flow = ('{"name": "n", "nodes": [{"id": "t", "name": "Go", "type": "n8n-nodes-base.manualTrigger"}, '
                '{"id": "x", "name": "Sheets", "type": "n8n-nodes-base.googleSheets"}], '
                '"connections": {"Go": {"main": [[{"node": "Sheets", "type": "main", "index": 0}]]}}}')
        result = scaffold_input(normalize(flow))
        assert result.origin is Origin.GENERATED
        assert result.warnings[0].startswith("not converted: Sheets (n8n-nodes-base.googleSheets)")

    def test_a_description_is_generated(self) -> None:
        assert scaffold_input(normalize("Explain {{topic}} simply")).origin is Origin.GENERATED
