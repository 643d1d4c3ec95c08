"""The template budget, the first check inside the render child: steps, time, value sizes and output size.

The hostile templates go through ``render_jinja`` (the limited child); the single-call cases and the
filter/method sweep measure the budget itself, in this process, where its allocations can be traced.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import TemplateError

from ragspine.workflows.dsl.model import read_dsl
from ragspine.workflows.errors import WorkflowNodeFailedError
from ragspine.workflows.run.compile import compile_plan
from ragspine.workflows.run.execute import RunStatus, WorkflowExecutor
from ragspine.workflows.run.nodes import (
    MAX_TEMPLATE_OUTPUT,
    TEMPLATE_MAX_STEPS,
    TEMPLATE_TIMEOUT_SECONDS,
    render_jinja,
)
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


# One call that does unbounded work before it returns: each is refused before the value is made, so the
# render's peak allocation stays small (unrefused, each allocates 100 MB or more, or runs for minutes).
SINGLE_CALL_HOSTILE = {
    "lorem ipsum paragraphs": "{{ lipsum(40000) | length }}",
    "a printf width": "{{ '%0100000000d' % 1 }}",
    "a printf star width": "{{ '%*d' % (100000000, 1) }}",
    "a format-filter width": "{{ '%0100000000d' | format(1) }}",
    "a str.format width": "{{ '{:>100000000}'.format(1) }}",
    "a str.format nested width": "{{ '{:>{w}}'.format(1, w=100000000) }}",
    "a str.join of shared copies": "{% set s = 'x' * 50000 %}{% set l = [] %}{% for i in range(2000) %}"
                                   "{{ l.append(s) or '' }}{% endfor %}{{ ''.join(l) | length }}",
    "a join of a generator": "{% set s = 'x' * 50000 %}{{ ([s, s] * 1000) | map('string') | join | length }}",
    "a list doubled in place": "{% set l = ['x'] %}{% for i in range(24) %}{{ l.extend(l) or '' }}{% endfor %}"
                               "{{ l | length }}",
    "a translate table of long strings": "{{ ('a' * 20000).translate({97: 'x' * 20000}) | length }}",
    "a sum of lists": "{% set inner = ['x'] * 80000 %}{{ ([inner] * 100) | sum(start=[]) | length }}",
    "a deep JSON indent": "{{ [[[1]]] | tojson(indent=10000000) | length }}",
    # A short list of one long string, written out as text: its items are counted before str() makes it.
    "a list of shared copies written out": "{% set s = 'x' * 5000 %}{{ [s] * 20000 }}",
    "a list of shared copies upper-cased": "{% set s = 'x' * 5000 %}{{ ([s] * 20000) | upper | length }}",
    "a list of shared copies concatenated": "{% set s = 'x' * 5000 %}{{ ('a' ~ ([s] * 20000)) | length }}",
    "a list of shared copies as JSON": "{% set s = 'x' * 5000 %}{{ ([s] * 20000) | tojson | length }}",
    "a namespace of shared copies": "{% set s = 'x' * 5000 %}{% set ns = namespace(v=[s] * 20000) %}{{ ns }}",
    "a printf argument of shared copies": "{% set s = 'x' * 5000 %}{{ ('%s' % ([s] * 20000,)) | length }}",
    "a str.format argument of shared copies": "{% set s = 'x' * 5000 %}{{ '{}'.format([s] * 20000) | length }}",
    "a join of nested lists": "{% set s = 'x' * 5000 %}{{ [[s] * 20000] | join | length }}",
    "a join of a string's characters": "{% set s = 'x' * 12000 %}{{ s | join(s) | length }}",
    "a str.join over a string": "{% set s = 'x' * 12000 %}{{ s.join(s) | length }}",
    "a list as the join separator": "{% set s = 'x' * 5000 %}{{ ['a', 'b'] | join([s] * 20000) | length }}",
    "a translate table as a list": "{% set s = 'x' * 5000 %}{{ ('x' * 20000).translate([s] * 200) | length }}",
    "a case-folding sort of shared copies": "{% set s = 'x' * 5000 %}{{ ([s] * 20000) | sort | length }}",
    "xml attributes of shared copies": "{% set s = 'x' * 5000 %}{{ {'a': [s] * 20000} | xmlattr | length }}",
    "a list as an attribute name": "{% set s = 'x' * 5000 %}{{ 'ab' | sum([s] * 20000) | length }}",
    "a list.index miss quoting its value": "{% set s = 'x' * 5000 %}{{ ['a'].index([s] * 20000) }}",
}


def render_budgeted(text: str) -> str:
    """The budget alone, in this process (what the render child runs first)."""
    return render_bounded(text, {}, max_steps=TEMPLATE_MAX_STEPS, max_output=MAX_TEMPLATE_OUTPUT,
                          timeout_seconds=TEMPLATE_TIMEOUT_SECONDS)


@pytest.mark.parametrize("name", sorted(SINGLE_CALL_HOSTILE))
def test_single_calls_are_refused_before_they_make_a_large_value(name: str) -> None:
    import tracemalloc

    tracemalloc.start()
    began = time.monotonic()
    try:
        with pytest.raises(TemplateError):
            render_budgeted(SINGLE_CALL_HOSTILE[name])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024, f"the render allocated {peak / 1e6:.0f} MB before it was refused"
    assert time.monotonic() - began < 5


@pytest.mark.parametrize("name", sorted(SINGLE_CALL_HOSTILE))
def test_single_calls_fail_the_node_through_the_render_child(name: str) -> None:
    with pytest.raises(WorkflowNodeFailedError) as caught:
        render_jinja(SINGLE_CALL_HOSTILE[name], {})
    assert caught.value.message.startswith("template error")


def test_formatting_and_lists_of_ordinary_size_still_render() -> None:
    text = ("{{ '%05d|%-6s|%.2f' % (42, 'ab', 3.14159) }} {{ '{:>8}|{:.3f}'.format('r', 2.5) }} "
            "{{ '%3d' | format(7) }} {% set l = [1, 2] %}{{ l.extend([3]) or '' }}{{ l }} {{ '-'.join(['a', 'b']) }} "
            "{{ [[1], [2]] | sum(start=[]) }} {{ 'abc'.translate({97: 'x'}) }} {{ lipsum(1, html=False) | length > 0 }} "
            "{{ {'a': [1, 'b']} | tojson(indent=2) | length }} {{ ['x'] * 3 }} {{ rows | upper }}")
    assert render_jinja(text, {"rows": ["a", "b"]}) == (
        "00042|ab    |3.14        r|2.500   7 [1, 2, 3] a-b [1, 2] xbc True 31 ['x', 'x', 'x'] ['A', 'B']")


def _sweep_cases() -> list[str]:
    from jinja2.sandbox import SandboxedEnvironment

    cases = []
    for name in sorted(SandboxedEnvironment().filters):
        for value in ("s", "l", "d"):
            cases += [f"{{{{ ({value} | {name}{args}) | length }}}}" for args in ("", "(n)", "(s)", "(l)", "(s, s)")]
    for method in (m for m in dir(str) if not m.startswith("_")):
        cases += [f"{{{{ s.{method}{args} | length }}}}" for args in ("()", "(n)", "(s)", "(l)", "(s, s)", "(d)")]
    for method in (m for m in dir(list) if not m.startswith("_")):
        cases += [f"{{% set k = [s] %}}{{% for i in range(20) %}}{{{{ k.{method}{args} or '' }}}}{{% endfor %}}"
                  for args in ("()", "(l)", "(s)", "(0, l)")]
    return cases


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm and caps RLIMIT_AS")
def test_no_filter_or_method_makes_gigabytes_from_a_long_string_and_its_shared_copies() -> None:
    """Every filter and str/list method over a long string, a list of its copies and a dict holding them.

    Such a list is small (80,000 references) but its text is 6.4 GB: before the budget measured
    these calls, a dozen of them (join, sort, xmlattr, translate, list.index, ...) built that text.
    The address space is capped for the sweep, so a call that still tried would fail with MemoryError.
    """
    import resource

    setup = "{% set s = 'x' * 80000 %}{% set l = [s] * 80000 %}{% set d = {'a': l} %}{% set n = 70000 %}"
    size = int(Path("/proc/self/statm").read_text().split()[0]) * resource.getpagesize()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (size + 768 * 1024 * 1024, hard))
    failures = []
    try:
        for case in _sweep_cases():
            try:
                render_budgeted(setup + case)
            except MemoryError:
                failures.append(case)
            except Exception:  # noqa: BLE001, S110 - any other refusal or template error is what the sweep wants
                pass
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    assert failures == []
