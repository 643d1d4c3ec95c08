"""A render forked by the warm parent is held to what a cold render child is held to, and answers the same."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.workflows.errors import WorkflowNodeFailedError
from ragspine.workflows.run.code_node import run_group
from ragspine.workflows.run.nodes import MAX_TEMPLATE_OUTPUT, TEMPLATE_MAX_STEPS
from ragspine.workflows.run.template_child import TemplateLimits, render_in_child
from tests.unit.workflows.test_template_child import _processes, _render_children

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks, reads /proc")

LIMITS = TemplateLimits(max_steps=TEMPLATE_MAX_STEPS, max_output=MAX_TEMPLATE_OUTPUT, timeout_seconds=5.0)
COLD = replace(LIMITS, warm=False)
HELD = replace(LIMITS, budgeted=False, timeout_seconds=20.0)  # the test kills it long before
ENDLESS = "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}"
# Bounds a broken build's hang; nothing is asserted on how long anything takes.
PATIENCE = 30.0


def _warm_parents() -> set[int]:
    return {pid for pid, parent, cmdline in _processes()
            if parent == os.getpid() and b"_template_zygote" in cmdline}


def _limits_of(pid: int) -> dict[str, str]:
    rows = Path(f"/proc/{pid}/limits").read_text().splitlines()[1:]
    return {row[:26].strip(): row[26:47].strip() for row in rows}


def _wait_for_render() -> int:
    """The pid of a render forked by the warm parent, once it has set itself up (its open-file limit comes last)."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        parents = _warm_parents()
        for pid in [pid for pid, parent, _ in _processes() if parent in parents]:
            try:
                if _limits_of(pid)["Max open files"] == "32":
                    return pid
            except OSError:
                continue
        time.sleep(0.01)
    raise AssertionError("no render was forked")


def test_a_forked_render_gets_the_limits_of_a_cold_child() -> None:
    failures: list[BaseException] = []

    def endless() -> None:
        try:
            render_in_child(ENDLESS, {}, HELD)
        except BaseException as exc:  # noqa: BLE001 - checked below
            failures.append(exc)

    probe = run_group(HELD.child())
    cgroups_given = probe is not None
    if probe is not None:
        probe.end()
    runner = threading.Thread(target=endless)
    runner.start()
    pid = _wait_for_render()
    try:
        environment = Path(f"/proc/{pid}/environ").read_bytes()
        group, session = os.getpgid(pid), os.getsid(pid)
        descriptors = sorted(int(fd.name) for fd in Path(f"/proc/{pid}/fd").iterdir())
        limits = _limits_of(pid)
        cgroups = Path(f"/proc/{pid}/cgroup").read_text()
        workdir = Path(f"/proc/{pid}/cwd").resolve()
    finally:
        os.killpg(pid, signal.SIGKILL)  # as the wall clock would, sooner
        runner.join(PATIENCE)
    assert environment == b""  # no variable of the service, not even PATH
    assert group == pid and session == pid != os.getsid(0)  # its own session and process group
    assert descriptors == [0, 1, 2]  # the reply pipes only (and /dev/null): not the warm parent's socket
    child = HELD.child().rlimits()
    assert limits["Max address space"] == str(child["memory_bytes"])
    assert limits["Max cpu time"] == str(child["cpu_seconds"])
    assert limits["Max open files"] == "32" and limits["Max core file size"] == "0"
    assert ("ragspine-code-" in cgroups) == cgroups_given  # the run's own control group, where the host gives one
    assert workdir.name.startswith("ragspine-template-") and not workdir.exists()  # its own folder, removed after
    assert len(failures) == 1 and isinstance(failures[0], WorkflowNodeFailedError)
    assert _render_children() == []


TEMPLATES = {
    "plain": "{% for row in rows %}{{ loop.index }}. {{ row.name | title }}\n{% endfor %}",
    "a syntax error": "{% for %}",
    "a sandbox escape": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "a gigabyte string": "{{ 'x' * 10**9 }}",
    "an output over the limit": "{% for i in range(2000) %}{{ 'y' * 1000 }}{% endfor %}",
    "surrogates and non-ASCII": "{{ text }}",
}
VARIABLES = {"rows": [{"name": "first row"}, {"name": "second"}], "text": "漢字 \udfff é"}


def _outcome(template: str, limits: TemplateLimits, **variables: object) -> str:
    try:
        return "ok: " + render_in_child(template, variables or VARIABLES, limits)
    except WorkflowNodeFailedError as error:
        return "failed: " + error.message


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_warm_and_cold_renders_answer_the_same(name: str) -> None:
    assert _outcome(TEMPLATES[name], LIMITS) == _outcome(TEMPLATES[name], COLD)


def test_renders_go_on_after_the_warm_parent_is_killed() -> None:
    assert _outcome("{{ 1 + 1 }}", LIMITS) == "ok: 2"
    for parent in _warm_parents():
        os.kill(parent, signal.SIGKILL)
    assert _outcome("{{ 2 + 2 }}", LIMITS) == "ok: 4"
    assert _outcome("{{ 3 + 3 }}", LIMITS) == "ok: 6"


SHAPES = ("{{ value }}", "{{ value | upper }}|{{ value | length }}", "{% for c in value %}[{{ c }}]{% endfor %}",
          "{{ value * 3 }}", "{{ value.__class__ }}", "{% if value %}{{ value[0] }}{% else %}empty{% endif %}",
          "{{ value ~ value }}{% for %}")


# Any text, control characters and lone surrogates included (they travel as JSON escapes both ways).
TEXT = st.text(st.characters(categories=["L", "N", "P", "S", "Z", "Cc", "Cs"]), max_size=30)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.sampled_from(SHAPES), value=TEXT)
def test_warm_and_cold_renders_agree_on_any_text(shape: str, value: str) -> None:
    variables = {"value": value}

    def outcome(limits: TemplateLimits) -> str:
        try:
            return "ok: " + render_in_child(shape, variables, limits)
        except WorkflowNodeFailedError as error:
            return "failed: " + error.message

    assert outcome(LIMITS) == outcome(COLD)


def test_concurrent_renders_each_get_their_own_reply() -> None:
    with ThreadPoolExecutor(max_workers=8) as pool:
        outcomes = list(pool.map(lambda i: _outcome("{{ n }}:{{ n * n }}", LIMITS, n=i), range(24)))
    assert outcomes == [f"ok: {i}:{i * i}" for i in range(24)]
