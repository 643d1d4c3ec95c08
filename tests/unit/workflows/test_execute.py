"""The execution gate and the in-process executor (fake LLM and retriever, no network)."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.llm.ports import Role
from ragspine.workflows.dsl.model import read_dsl
from ragspine.workflows.errors import WorkflowInputError, WorkflowNodeUnsupportedError, WorkflowRunDisabledError
from ragspine.workflows.run.code_node import CodeLimits
from ragspine.workflows.run.compile import ExecutionPlan, compile_plan
from ragspine.workflows.run.execute import EventKind, RunEvent, RunStatus, WorkflowExecutor
from ragspine.workflows.run.gate import ExecutionGate
from tests.fakes.llm import RecordingLLMProvider
from tests.unit.workflows.samples import code, dsl, edge, end, if_else, llm, node, start, template


class InMemoryKnowledgeRetriever:
    """Returns fixed chunks and records every query."""

    def __init__(self, chunks: list[dict[str, Any]]) -> None:
        self.chunks = chunks
        self.queries: list[tuple[str, int]] = []

    def retrieve(self, query: str, *, top_k: int) -> list[dict[str, Any]]:
        self.queries.append((query, top_k))
        return self.chunks[:top_k]


def _plan(doc: dict[str, Any]) -> ExecutionPlan:
    return compile_plan(read_dsl(doc))


def _branching() -> ExecutionPlan:
    nodes = [start("name", "tier"), template("greet", "Hello, {{ who }}!", who=["start", "name"]),
             if_else("vip", ["start", "tier"], "is", "gold"), end(("text", ["greet", "output"]), node_id="end"),
             template("plain", "Hi {{ who }}", who=["start", "name"]), end(("text", ["plain", "output"]), node_id="e2")]
    edges = [edge("start", "greet"), edge("greet", "vip"), edge("vip", "end", "true"), edge("vip", "plain", "false"),
             edge("plain", "e2")]
    return _plan(dsl(nodes, edges))


def _llm_plan() -> ExecutionPlan:
    return _plan(dsl([start("question"), llm("llm", "Q: {{#start.question#}}"), end(("answer", ["llm", "text"]))],
                     [edge("start", "llm"), edge("llm", "end")]))


class TestGate:
    def test_a_closed_gate_refuses_every_run_and_names_the_setting(self) -> None:
        provider = RecordingLLMProvider(["never"])
        with pytest.raises(WorkflowRunDisabledError) as caught:
            ExecutionGate().run(_llm_plan(), {"question": "x"}, executor=WorkflowExecutor(llm=provider))
        assert caught.value.http_status == 403 and caught.value.code == "WORKFLOW_RUN_DISABLED"
        assert "RAGSPINE_DIFY_RUN_ENABLED" in caught.value.message
        assert provider.calls == []

    def test_the_gate_is_closed_by_default(self) -> None:
        with pytest.raises(WorkflowRunDisabledError):
            ExecutionGate().check()

    def test_an_open_gate_runs_the_plan(self) -> None:
        result = ExecutionGate(enabled=True).run(_branching(), {"name": "Ada", "tier": "gold"},
                                                 executor=WorkflowExecutor())
        assert result.status is RunStatus.SUCCEEDED and result.outputs == {"text": "Hello, Ada!"}


class TestBranching:
    def test_start_template_if_else_end_takes_the_true_branch(self) -> None:
        result = WorkflowExecutor().run(_branching(), {"name": "Ada", "tier": "gold"})
        assert [r.node_id for r in result.node_runs] == ["start", "greet", "vip", "end"]
        assert result.outputs == {"text": "Hello, Ada!"}

    def test_the_else_branch_runs_only_its_nodes(self) -> None:
        result = WorkflowExecutor().run(_branching(), {"name": "Bo", "tier": "silver"})
        assert [r.node_id for r in result.node_runs] == ["start", "greet", "vip", "plain", "e2"]
        assert result.outputs == {"text": "Hi Bo"}

    def test_progress_events_are_emitted_in_order(self) -> None:
        events: list[RunEvent] = []
        WorkflowExecutor(on_event=events.append).run(_branching(), {"name": "Ada", "tier": "gold"})
        assert [(e.kind, e.node_id) for e in events][:2] == [(EventKind.NODE_STARTED, "start"),
                                                             (EventKind.NODE_FINISHED, "start")]


class TestLlmAndKnowledge:
    def test_start_llm_end_calls_the_provider_with_the_rendered_prompt(self) -> None:
        provider = RecordingLLMProvider(["42"])
        result = WorkflowExecutor(llm=provider).run(_llm_plan(), {"question": "meaning?"})
        assert result.outputs == {"answer": "42"}
        assert [(m.role, m.content) for m in provider.calls[0]] == [(Role.SYSTEM, "You help."),
                                                                   (Role.USER, "Q: meaning?")]

    def test_knowledge_retrieval_feeds_the_llm_context(self) -> None:
        retriever = InMemoryKnowledgeRetriever([{"content": "Revenue grew 12%", "metadata": {}}])
        knowledge = node("kr", "knowledge-retrieval", query_variable_selector=["start", "question"],
                         multiple_retrieval_config={"top_k": 3})
        answer = llm("llm", "{{#start.question#}}", system="Context: {{#context#}}")
        answer["data"]["context"] = {"enabled": True, "variable_selector": ["kr", "result"]}
        plan = _plan(dsl([start("question"), knowledge, answer, end(("a", ["llm", "text"]))],
                         [edge("start", "kr"), edge("kr", "llm"), edge("llm", "end")]))
        provider = RecordingLLMProvider(["ok"])
        WorkflowExecutor(llm=provider, retriever=retriever).run(plan, {"question": "growth?"})
        assert retriever.queries == [("growth?", 3)]
        assert provider.calls[0][0].content == "Context: Revenue grew 12%"


class TestRefusals:
    def test_nodes_without_an_executor_are_refused_before_anything_runs(self) -> None:
        provider = RecordingLLMProvider(["x"])
        plan = _plan(dsl([start("q"), llm("llm", "{{#start.q#}}"), node("t", "tool"), end()],
                         [edge("start", "llm"), edge("llm", "t"), edge("t", "end")]))
        with pytest.raises(WorkflowNodeUnsupportedError) as caught:
            WorkflowExecutor(llm=provider).run(plan, {"q": "x"})
        assert caught.value.node_ids == ("t",) and provider.calls == []

    def test_an_llm_node_needs_a_provider(self) -> None:
        with pytest.raises(WorkflowNodeUnsupportedError):
            WorkflowExecutor().run(_llm_plan(), {"question": "x"})

    def test_missing_required_inputs_are_refused(self) -> None:
        with pytest.raises(WorkflowInputError):
            WorkflowExecutor(llm=RecordingLLMProvider(["x"])).run(_llm_plan(), {})

    def test_a_failing_template_fails_the_run_with_a_code(self) -> None:
        plan = _plan(dsl([start("q"), template("t", "{{ q.__class__.__mro__ }}", q=["start", "q"]), end()],
                         [edge("start", "t"), edge("t", "end")]))
        result = WorkflowExecutor().run(plan, {"q": "x"})
        assert result.status is RunStatus.FAILED and result.error_code == "WORKFLOW_NODE_FAILED"
        assert result.node_runs[-1].node_id == "t"


class TestCodeNode:
    def test_python_code_runs_in_a_subprocess(self) -> None:
        entry = start("x")
        entry["data"]["variables"][0]["type"] = "number"
        plan = _plan(dsl([entry, code("c", "def main(x):\n    return {\"y\": x*2}", {"y": "number"},
                                      x=["start", "x"]), end(("y", ["c", "y"]))],
                         [edge("start", "c"), edge("c", "end")]))
        result = WorkflowExecutor(code=CodeLimits()).run(plan, {"x": 21})
        assert result.status is RunStatus.SUCCEEDED and result.outputs == {"y": 42}

    def test_code_runs_while_the_service_holds_more_than_1024_descriptors(self) -> None:
        import os
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and hard < 2048:
            pytest.skip(f"the descriptor limit ({hard}) is below what the test needs")
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 2048), hard))
        held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
        try:
            entry = start("x")
            entry["data"]["variables"][0]["type"] = "number"
            plan = _plan(dsl([entry, code("c", "def main(x):\n    return {\"y\": x+1}", {"y": "number"},
                                          x=["start", "x"]), end(("y", ["c", "y"]))],
                             [edge("start", "c"), edge("c", "end")]))
            result = WorkflowExecutor(code=CodeLimits()).run(plan, {"x": 1})
        finally:
            for fd in held:
                os.close(fd)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        assert result.status is RunStatus.SUCCEEDED, result.error
        assert result.outputs == {"y": 2}

    def test_a_runaway_loop_is_killed_by_the_time_limit(self) -> None:
        plan = _plan(dsl([start(), code("c", "def main():\n    while True:\n        pass", {}), end()],
                         [edge("start", "c"), edge("c", "end")]))
        result = WorkflowExecutor(code=CodeLimits(timeout_seconds=1)).run(plan, {})
        assert result.status is RunStatus.FAILED and "time limit" in (result.error or "")
        assert result.elapsed_time < 10

    def test_declared_outputs_are_checked(self) -> None:
        plan = _plan(dsl([start(), code("c", "def main():\n    return {'y': 'text'}", {"y": "number"}), end()],
                         [edge("start", "c"), edge("c", "end")]))
        result = WorkflowExecutor(code=CodeLimits()).run(plan, {})
        assert result.status is RunStatus.FAILED and "not of type number" in (result.error or "")

    def test_javascript_is_not_executed(self) -> None:
        js = code("c", "function main() { return {} }", {})
        js["data"]["code_language"] = "javascript"
        with pytest.raises(WorkflowNodeUnsupportedError):
            WorkflowExecutor(code=CodeLimits()).run(_plan(dsl([start(), js, end()], [edge("start", "c"),
                                                                                     edge("c", "end")])), {})
