"""Template nodes render within a budget: steps, time, value sizes and output size; a failure is the node's."""

from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.workflows.dsl.model import read_dsl
from ragspine.workflows.errors import WorkflowNodeFailedError
from ragspine.workflows.run.compile import compile_plan
from ragspine.workflows.run.execute import RunStatus, WorkflowExecutor
from ragspine.workflows.run.nodes import MAX_TEMPLATE_OUTPUT, render_jinja
from ragspine.workflows.run.template_budget import TemplateBudgetError, render_bounded
from tests.unit.workflows.samples import dsl, edge, end, start, template

HOSTILE = {
    "a 3e8-iteration loop": "{% for i in range(1000) %}{% for j in range(1000) %}{% for k in range(300) %}"
                            "{% endfor %}{% endfor %}{% endfor %}",
    "a gigabyte string": "{{ 'x' * 10**9 }}",
    "a million-item range": "{{ range(10**6) | length }}",
    "a huge width": "{{ 'x' | center(10**9) }}",
    "doubling by concatenation": "{% set ns = namespace(s='x') %}{% for i in range(40) %}"
                                 "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}",
    "doubling by addition": "{% set ns = namespace(s='x') %}{% for i in range(40) %}"
                            "{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s | length }}",
    "a join of copies": "{{ (['x' * 80000] * 80000) | join }}",
    "a growing replace": "{{ ('a' * 50000) | replace('a', 'bbbbbbbbbb') }}",
    "a str method width": "{{ 'x'.ljust(10**9) }}",
    "a huge power": "{{ 7 ** 1000000 }}",
    "endless recursion": "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}",
    "too much output": "{% for i in range(100) %}{{ 'y' * 5000 }}{% endfor %}",
    "a division by zero": "{{ 1 / 0 }}",
    # Buffers joined later: each piece is small, the steps are few, the joined text is not.
    "a set block of copies": "{% set x %}{% for i in range(50) %}" + "z" * 20000 + "{% endfor %}{% endset %}"
                             "{{ x | length }}",
    "a macro of copies": "{% macro m() %}{% for i in range(50) %}{{ 'y' * 20000 }}{% endfor %}{% endmacro %}"
                         "{{ m() | length }}",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_templates_fail_the_node_quickly(name: str) -> None:
    began = time.monotonic()
    with pytest.raises(WorkflowNodeFailedError) as caught:
        render_jinja(HOSTILE[name], {})
    assert caught.value.code == "WORKFLOW_NODE_FAILED" and caught.value.message.startswith("template error")
    assert time.monotonic() - began < 5


def test_the_deadline_stops_a_render_within_its_step_budget() -> None:
    loops = "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}"
    with pytest.raises(TemplateBudgetError, match="longer than 0.05 s"):
        render_bounded(loops, {}, max_steps=10**9, max_output=1000, timeout_seconds=0.05)


def test_ordinary_templates_still_render() -> None:
    text = ("{% for row in rows %}{{ loop.index }}. {{ row.name | title }}: {{ '%.1f' | format(row.value) }}\n"
            "{% endfor %}{{ rows | map(attribute='name') | join(', ') }} {{ 'x' ~ 1234567 }} {{ '-' * 10 }}"
            "{{ big | replace('a', 'b') }} {{ range(3) | list }}")
    rows = [{"name": "revenue", "value": 12345678.25}, {"name": "cost", "value": 2.0}]
    assert render_jinja(text, {"rows": rows, "big": "a" * 1000}) == (
        "1. Revenue: 12345678.2\n2. Cost: 2.0\nrevenue, cost x1234567 ----------" + "b" * 1000 + " [0, 1, 2]")


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("{}%#()*+~'|x0123456789 abc")), max_size=60))
def test_any_template_text_renders_or_fails_as_the_node(text: str) -> None:
    try:
        out = render_jinja(text, {"a": "x", "b": 3})
    except WorkflowNodeFailedError:
        return
    assert len(out) <= MAX_TEMPLATE_OUTPUT


def test_a_budget_failure_is_a_failed_run_not_a_crash() -> None:
    doc: dict[str, Any] = dsl([start(), template("t", "{{ range(10**6) | length }}"), end(("out", ["t", "output"]))],
                              [edge("start", "t"), edge("t", "end")])
    result = WorkflowExecutor().run(compile_plan(read_dsl(doc)), {})
    assert result.status is RunStatus.FAILED and result.error_code == "WORKFLOW_NODE_FAILED"
    assert "range()" in (result.error or "")
