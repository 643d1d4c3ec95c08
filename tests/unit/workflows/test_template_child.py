"""Templates render in a limited child: whatever a template does, the service's process does none of the work."""

from __future__ import annotations

import os
import resource
import sys
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from ragspine.workflows.errors import WorkflowNodeFailedError
from ragspine.workflows.run.nodes import MAX_TEMPLATE_OUTPUT, TEMPLATE_MAX_STEPS, render_jinja
from ragspine.workflows.run.template_child import TemplateLimits, render_in_child
from tests.unit.workflows.test_template_budget import HOSTILE, SINGLE_CALL_HOSTILE

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and caps RLIMIT_AS")

# Every item is allowed on its own (80,000 steps, each value at the output limit), but together they
# are 6.4 GB: the budget lists no such call, so before templates left the service's process this
# built gigabytes there.
UNLISTED = "{% set s = 'x' * 80000 %}{{ ([s] * 80000) | map('upper') | list | length }}"
SERVICE_PEAK = 16 * 1024 * 1024


@contextmanager
def capped_service() -> Iterator[list[int]]:
    """This process's address space capped 768 MiB above its size (a runaway fails here, it does not swap the
    host), and its traced peak allocation, filled in on exit."""
    size = int(Path("/proc/self/statm").read_text().split()[0]) * resource.getpagesize()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (size + 768 * 1024 * 1024, hard))
    tracemalloc.start()
    peak: list[int] = []
    try:
        yield peak
    finally:
        peak.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def test_a_template_the_budget_does_not_list_fails_in_the_child_not_in_the_service() -> None:
    with capped_service() as peak, pytest.raises(WorkflowNodeFailedError) as caught:
        render_jinja(UNLISTED, {})
    assert peak[0] < SERVICE_PEAK, f"the service's process allocated {peak[0] / 1e6:.0f} MB"
    assert caught.value.message == "template error: the template needed more than 256 MiB of memory"


UNBUDGETED = TemplateLimits(max_steps=TEMPLATE_MAX_STEPS, max_output=MAX_TEMPLATE_OUTPUT, timeout_seconds=1.0,
                            start_seconds=2.0, budgeted=False)


ATTACKS = {**HOSTILE, **SINGLE_CALL_HOSTILE, "a map over shared copies": UNLISTED}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_the_childs_limits_alone_bound_every_hostile_template(name: str) -> None:
    """With the budget switched off, each known attack still ends within the child's limits: as the node's
    failure, or as an output within the limit where the work fitted. (How long it may take is the wall clock's
    test below; timing each attack here would measure the machine's load.)"""
    with capped_service() as peak:
        try:
            output = render_in_child(ATTACKS[name], {}, UNBUDGETED)
        except WorkflowNodeFailedError as error:
            assert error.message.startswith("template error")
        else:
            assert len(output) <= MAX_TEMPLATE_OUTPUT
    assert peak[0] < SERVICE_PEAK


def _processes() -> list[tuple[int, int, bytes]]:
    """Every process as (pid, parent pid, command line)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = stat.with_name("cmdline").read_bytes()
        except OSError:
            continue
        found.append((int(stat.parent.name), int(fields[1]), cmdline))
    return found


def _render_children() -> list[int]:
    """Render processes still alive: cold children of this process, and children of its warm parent."""
    processes = _processes()
    warm_parents = {pid for pid, parent, cmdline in processes
                    if parent == os.getpid() and b"_template_zygote" in cmdline}
    return [pid for pid, parent, cmdline in processes
            if parent in warm_parents or (parent == os.getpid() and b"_template_runner" in cmdline
                                          and b"_template_zygote" not in cmdline)]


@pytest.mark.parametrize("warm", [True, False], ids=["warm parent", "cold child"])
def test_a_render_past_its_wall_clock_is_killed_and_leaves_no_process(warm: bool) -> None:
    loop = "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}"
    with pytest.raises(WorkflowNodeFailedError, match="ran longer than 3 s"):
        render_in_child(loop, {}, replace(UNBUDGETED, warm=warm))
    assert _render_children() == []


def test_variables_travel_as_data_and_come_back_whole() -> None:
    variables = {"text": "漢字 \udfff é", "rows": [{"n": 1.5}, {"n": None}], "flag": True, "when": object()}
    out = render_jinja("{{ text }}|{{ rows | map(attribute='n') | list }}|{{ flag }}|{{ when is string }}",
                       variables)
    assert out == "漢字 \udfff é|[1.5, None]|True|True"


def test_a_syntax_error_is_the_nodes_failure() -> None:
    with pytest.raises(WorkflowNodeFailedError, match="^template error: TemplateSyntaxError"):
        render_jinja("{% for %}", {})


def test_the_sandbox_still_refuses_attribute_tricks_in_the_child() -> None:
    with pytest.raises(WorkflowNodeFailedError, match="^template error: SecurityError"):
        render_jinja("{{ ''.__class__.__mro__[1].__subclasses__() }}", {})


def test_variables_that_cannot_be_sent_fail_the_node() -> None:
    looped: list[object] = []
    looped.append(looped)
    with pytest.raises(WorkflowNodeFailedError, match="^template error: its variables cannot be sent"):
        render_jinja("{{ x }}", {"x": looped})
