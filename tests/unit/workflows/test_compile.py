"""compile: topological order, resolved bindings, and errors for graphs with no order."""

from __future__ import annotations

import pytest

from ragspine.workflows.dsl.model import read_dsl
from ragspine.workflows.errors import WorkflowCycleError, WorkflowInvalidError
from ragspine.workflows.run.compile import Binding, compile_plan
from tests.unit.workflows.samples import dsl, edge, end, full_subset, llm, start, template


class TestOrder:
    def test_steps_follow_the_edges(self) -> None:
        plan = compile_plan(read_dsl(full_subset()))
        order = [s.node_id for s in plan.steps]
        assert order[0] == "start"
        for before, after in [("tpl", "cond"), ("cond", "llm"), ("llm", "api"), ("api", "calc"), ("calc", "end")]:
            assert order.index(before) < order.index(after)
        assert plan.step("cond").next == (("true", "llm"), ("false", "end2"))

    def test_unreachable_nodes_are_left_out(self) -> None:
        doc = dsl([start("q"), end(("r", ["start", "q"])), template("orphan", "x")], [edge("start", "end")])
        assert [s.node_id for s in compile_plan(read_dsl(doc)).steps] == ["start", "end"]

    def test_a_cycle_is_an_error_with_a_pointer(self) -> None:
        doc = dsl([start("q"), template("a", "x"), template("b", "y"), end()],
                  [edge("start", "a"), edge("a", "b"), edge("b", "a"), edge("b", "end")])
        with pytest.raises(WorkflowCycleError) as caught:
            compile_plan(read_dsl(doc))
        assert caught.value.code == "WORKFLOW_CYCLE" and caught.value.pointer.startswith("/workflow/graph/nodes/")


class TestBindings:
    def test_named_and_template_bindings_are_resolved(self) -> None:
        plan = compile_plan(read_dsl(full_subset()))
        assert plan.step("tpl").bindings == (Binding("q", ("start", "query")), Binding("t", ("start", "tone")))
        assert plan.step("llm").bindings == (Binding("tpl.output", ("tpl", "output")),)
        assert Binding("size", ("calc", "size")) in plan.step("end").bindings

    def test_system_and_environment_variables(self) -> None:
        doc = dsl([start("q"), llm("llm", "{{#sys.query#}} {{#env.tone#}}"), end(("r", ["llm", "text"]))],
                  [edge("start", "llm"), edge("llm", "end")], environment_variables=[{"name": "tone", "value": "warm"}])
        bindings = compile_plan(read_dsl(doc)).step("llm").bindings
        assert bindings == (Binding("sys.query", ("sys", "query")), Binding("env.tone", literal="warm"))

    def test_a_reference_to_a_node_that_runs_later_is_an_error(self) -> None:
        doc = dsl([start("q"), llm("llm", "{{#end.r#}}"), end(("r", ["llm", "text"]))],
                  [edge("start", "llm"), edge("llm", "end")])
        with pytest.raises(WorkflowInvalidError) as caught:
            compile_plan(read_dsl(doc))
        assert caught.value.pointer == "/workflow/graph/nodes/1/data/prompt_template/1/text"

    def test_a_reference_to_a_missing_node_is_an_error(self) -> None:
        doc = dsl([start("q"), end(("r", ["ghost", "x"]))], [edge("start", "end")])
        with pytest.raises(WorkflowInvalidError):
            compile_plan(read_dsl(doc))

    def test_a_plan_needs_exactly_one_start(self) -> None:
        with pytest.raises(WorkflowInvalidError):
            compile_plan(read_dsl(dsl([end()], [])))
