"""Node outputs are valid Unicode: lone surrogates become U+FFFD where outputs enter the run."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from ragspine.llm.chat import Completion, Message
from ragspine.workflows.dsl.model import read_dsl
from ragspine.workflows.run.compile import compile_plan
from ragspine.workflows.run.execute import EventKind, RunEvent, RunStatus, WorkflowExecutor
from ragspine.workflows.run.valid_text import REPLACEMENT, valid_text, valid_value
from tests.fakes.llm import RecordingLLMProvider
from tests.unit.workflows.samples import dsl, edge, end, llm, start

SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
ANY_TEXT = st.text(st.one_of(st.characters(), SURROGATES))


@given(ANY_TEXT)
def test_text_with_surrogates_anywhere_becomes_valid_utf8_of_the_same_length(text: str) -> None:
    cleaned = valid_text(text)
    cleaned.encode("utf-8")  # raises on any surrogate left
    assert len(cleaned) == len(text)
    for before, after in zip(text, cleaned, strict=True):
        assert after == (REPLACEMENT if 0xD800 <= ord(before) <= 0xDFFF else before)


@given(st.text())  # valid text: Hypothesis leaves out surrogates by default
def test_valid_text_is_returned_unchanged(text: str) -> None:
    assert valid_text(text) is text


@given(st.recursive(st.one_of(ANY_TEXT, st.integers(), st.none(), st.booleans()),
                    lambda inner: st.one_of(st.lists(inner, max_size=4),
                                            st.dictionaries(ANY_TEXT, inner, max_size=4)), max_leaves=20))
def test_every_string_in_a_nested_value_keys_too_becomes_valid(value: Any) -> None:
    json.dumps(valid_value(value), ensure_ascii=False).encode("utf-8")


class _Replying:
    """An LLM provider whose reply is fixed text (here, text with lone surrogates)."""

    name = "replying"

    def __init__(self, text: str) -> None:
        self.inner = RecordingLLMProvider([text])

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        return self.inner.complete(messages, max_tokens=max_tokens, temperature=temperature)


class _Crashing(_Replying):
    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        raise KeyError("a fault inside the provider adapter")


def _plan() -> Any:
    return compile_plan(read_dsl(dsl([start("q"), llm("llm", "{{#start.q#}}"), end(("answer", ["llm", "text"]))],
                                     [edge("start", "llm"), edge("llm", "end")])))


def test_a_nodes_output_with_lone_surrogates_enters_the_run_as_valid_text() -> None:
    events: list[RunEvent] = []
    result = WorkflowExecutor(llm=_Replying("ok \udfff \ud800\ud800 end"), on_event=events.append).run(
        _plan(), {"q": "x"})
    assert result.status is RunStatus.SUCCEEDED
    assert result.outputs == {"answer": f"ok {REPLACEMENT} {REPLACEMENT}{REPLACEMENT} end"}
    finished = [e.run for e in events if e.kind is EventKind.NODE_FINISHED and e.run is not None]
    json.dumps([dict(r.outputs) for r in finished], ensure_ascii=False).encode("utf-8")


def test_a_node_that_crashes_fails_the_run_with_a_clear_error_instead_of_raising() -> None:
    result = WorkflowExecutor(llm=_Crashing("")).run(_plan(), {"q": "x"})
    assert result.status is RunStatus.FAILED and result.error_code == "WORKFLOW_NODE_FAILED"
    assert result.error is not None and "node llm failed unexpectedly (KeyError)" in result.error
    assert "adapter" not in result.error  # the fault's own text stays in the log
